// RUN: spacefusion-opt %s --smap-form-graphs="exclude=linalg.matmul excluded-alone=true" | FileCheck %s
// RUN: spacefusion-opt %s --smap-form-graphs="exclude=linalg.matmul" | FileCheck %s --check-prefix=OUTSIDE --strict-whitespace

// An excluded op is not fused with its neighbours. With excluded-alone (what
// the GPU pipeline sets, since it compiles graphs only) it is a graph of its
// own, with its fill; neither its producer nor its consumer joins it.
// Without, it stays outside every graph.
// CHECK-LABEL: func.func @chain
// CHECK: smap.graph
// CHECK: math.exp
// CHECK: smap.yield
// CHECK: smap.graph
// CHECK-NEXT: arith.constant
// CHECK: linalg.fill
// CHECK-NEXT: linalg.matmul
// CHECK-NEXT: smap.yield
// CHECK: smap.graph
// CHECK: arith.negf
// CHECK: smap.yield
// OUTSIDE-LABEL: func.func @chain
// OUTSIDE: {{^    }}%{{[^ ]*}} = linalg.matmul
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @chain(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>) -> tensor<16x8xf32> {
  %e = tensor.empty() : tensor<16x32xf32>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<16x32xf32>) outs(%e : tensor<16x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = math.exp %in : f32
    linalg.yield %v : f32
  } -> tensor<16x32xf32>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<16x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e2 : tensor<16x8xf32>) -> tensor<16x8xf32>
  %m = linalg.matmul ins(%x, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%f : tensor<16x8xf32>) -> tensor<16x8xf32>
  %e3 = tensor.empty() : tensor<16x8xf32>
  %n = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<16x8xf32>) outs(%e3 : tensor<16x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.negf %in : f32
    linalg.yield %v : f32
  } -> tensor<16x8xf32>
  return %n : tensor<16x8xf32>
}
