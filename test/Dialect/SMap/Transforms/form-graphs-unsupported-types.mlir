// RUN: spacefusion-opt %s -split-input-file --smap-form-graphs | FileCheck %s
// RUN: spacefusion-opt %s -split-input-file --smap-form-graphs \
// RUN:   --remarks-filter=smap --remark-format=emitRemark 2>&1 >/dev/null \
// RUN:   | FileCheck %s --check-prefix=REMARK
// The same inputs through the sm_90a pipeline up to GPU lowering, and the
// CPU path, fused against unfused.
// RUN: split-file %s %t
// RUN: spacefusion-opt %t/zero.mlir --spacefusion-pipeline="target=sm_90a lower-to-gpu=false" -o /dev/null
// RUN: spacefusion-opt %t/index.mlir --spacefusion-pipeline="target=sm_90a lower-to-gpu=false" -o /dev/null
// RUN: spacefusion-opt %t/integer.mlir --spacefusion-pipeline="target=sm_90a lower-to-gpu=false" -o /dev/null
// RUN: spacefusion-run %t/zero.mlir --reps=1 | FileCheck %s --check-prefix=CPU
// RUN: spacefusion-run %t/index.mlir --reps=1 | FileCheck %s --check-prefix=CPU

// Tensors the SMG cannot describe are left outside every graph with a
// remark at the op, and the IR stays valid: zero-size tensors (the cost
// model divided by their extent: SIGFPE), index element types (SIGSEGV in
// the cost model), integer reductions (combiner identities are floats:
// SIGSEGV on sm_90a).
// CPU: PASS

//--- zero.mlir
#map0 = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @zero_size
// CHECK-NOT: smap.graph
// CHECK: linalg.generic
func.func @zero_size(%x: tensor<16x0xf32>) -> tensor<0xf32> {
  %zero = arith.constant 0.0 : f32
  // REMARK: 'tensor.empty' left outside any smap.graph: zero-size tensor
  %e = tensor.empty() : tensor<0xf32>
  // REMARK: 'linalg.fill' left outside any smap.graph: zero-size tensor
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<0xf32>) -> tensor<0xf32>
  // REMARK: 'linalg.generic' left outside any smap.graph: zero-size tensor
  %s = linalg.generic {indexing_maps = [#map0, #map1], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<16x0xf32>) outs(%f : tensor<0xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %a = arith.addf %v, %acc : f32
    linalg.yield %a : f32
  } -> tensor<0xf32>
  return %s : tensor<0xf32>
}

// -----
//--- index.mlir
#map0 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @index_tensor
// CHECK: linalg.generic
// CHECK: smap.graph
func.func @index_tensor(%x: tensor<16x4xf32>) -> tensor<16x4xf32> {
  // REMARK: 'tensor.empty' left outside any smap.graph: element type index (only integers, and floats of 16 bits or more)
  %ei = tensor.empty() : tensor<16x4xindex>
  // REMARK: 'linalg.generic' left outside any smap.graph: element type index (only integers, and floats of 16 bits or more)
  %iota = linalg.generic {indexing_maps = [#map0], iterator_types = ["parallel", "parallel"]}
      outs(%ei : tensor<16x4xindex>) {
  ^bb0(%o: index):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = arith.addi %i, %j : index
    linalg.yield %k : index
  } -> tensor<16x4xindex>
  %e = tensor.empty() : tensor<16x4xf32>
  // REMARK: 'linalg.generic' left outside any smap.graph: element type index (only integers, and floats of 16 bits or more)
  %y = linalg.generic {indexing_maps = [#map0, #map0, #map0], iterator_types = ["parallel", "parallel"]}
      ins(%x, %iota : tensor<16x4xf32>, tensor<16x4xindex>) outs(%e : tensor<16x4xf32>) {
  ^bb0(%v: f32, %i: index, %o: f32):
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    %m = arith.mulf %v, %f : f32
    linalg.yield %m : f32
  } -> tensor<16x4xf32>
  %e2 = tensor.empty() : tensor<16x4xf32>
  // REMARK: formed smap.graph of 1 ops (generic) with 1 inputs and 1 outputs
  %z = linalg.generic {indexing_maps = [#map0, #map0], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<16x4xf32>) outs(%e2 : tensor<16x4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %t = math.tanh %v : f32
    linalg.yield %t : f32
  } -> tensor<16x4xf32>
  return %z : tensor<16x4xf32>
}

// -----
//--- integer.mlir
#map0 = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @integer_sum
// CHECK-NOT: smap.graph
func.func @integer_sum(%x: tensor<16x8xi32>) -> tensor<16xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<16xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<16xi32>) -> tensor<16xi32>
  // REMARK: 'linalg.generic' left outside any smap.graph: integer reduction
  %s = linalg.generic {indexing_maps = [#map0, #map1], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x8xi32>) outs(%f : tensor<16xi32>) {
  ^bb0(%v: i32, %acc: i32):
    %a = arith.addi %v, %acc : i32
    linalg.yield %a : i32
  } -> tensor<16xi32>
  return %s : tensor<16xi32>
}
