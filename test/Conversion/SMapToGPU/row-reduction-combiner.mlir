// RUN: spacefusion-opt %s -split-input-file --smap-form-graphs --smap-set-target=target=sm_90a \
// RUN:   --smap-schedule --convert-smap-to-gpu | FileCheck %s

// A row reduction combines its partials (the thread's elements, the warp's
// shuffles, the warps' shared slots) with the body's own op: a maxnumf
// skips NaN data as the program does, where maximumf (NaN-propagating)
// would make the row's maximum NaN.
// CHECK-LABEL: func.func @row_max
// CHECK: gpu.launch
// CHECK-NOT: arith.maximumf
// CHECK: %[[T:.+]] = arith.maxnumf
// CHECK: %[[S:.+]], %{{.+}} = gpu.shuffle xor %[[P:.+]], %c16_i32
// CHECK-NEXT: arith.maxnumf %[[P]], %[[S]] : f32
// CHECK: gpu.barrier
// CHECK: %[[W0:.+]] = memref.load
// CHECK: %[[W1:.+]] = memref.load
// CHECK: arith.maxnumf %[[W0]], %[[W1]] : f32
// CHECK-NOT: arith.maximumf
// CHECK: gpu.terminator
#id = affine_map<(m, n) -> (m, n)>
#row = affine_map<(m, n) -> (m)>
func.func @row_max(%x: tensor<8x2048xf32>) -> tensor<8xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x2048xf32>) outs(%f : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maxnumf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %m : tensor<8xf32>
}

// -----

// A ragged row (2000 columns over 512 threads of 4-element vectors): the
// chunks past its end contribute maxnumf's identity, NaN, which it skips;
// -inf would turn a row of NaN (the program's maxnumf gives NaN) into -inf.
// CHECK-LABEL: func.func @row_max_ragged
// CHECK: %[[NAN:.+]] = arith.constant 0x7FC00000 : f32
// CHECK-NEXT: arith.select %{{.+}}, %{{.+}}, %[[NAN]] : f32
#id = affine_map<(m, n) -> (m, n)>
#row = affine_map<(m, n) -> (m)>
func.func @row_max_ragged(%x: tensor<8x2000xf32>) -> tensor<8xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x2000xf32>) outs(%f : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maxnumf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %m : tensor<8xf32>
}
