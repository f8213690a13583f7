// RUN: spacefusion-opt %s -split-input-file --smap-fold-empty-domains | FileCheck %s

// A reduction over an empty dim is its init.
// CHECK-LABEL: func.func @sum_over_no_rows(
// CHECK: %[[FILL:.*]] = linalg.fill
// CHECK-NOT: linalg.generic
// CHECK: return %[[FILL]]
func.func @sum_over_no_rows(%x: tensor<0x257xf32>) -> tensor<257xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<257xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<257xf32>) -> tensor<257xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>],
                       iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<0x257xf32>) outs(%f : tensor<257xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %a = arith.addf %v, %acc : f32
    linalg.yield %a : f32
  } -> tensor<257xf32>
  return %s : tensor<257xf32>
}

// -----

// Named ops too: a matmul with K = 0 is its accumulator, and the fill of
// an empty tensor is that tensor.
// CHECK-LABEL: func.func @matmul_k0(
// CHECK-SAME: %{{.*}}: tensor<8x0xf32>, %{{.*}}: tensor<0x4xf32>, %[[ACC:.*]]: tensor<8x4xf32>
// CHECK-NEXT: %[[EMPTY:.*]] = tensor.empty() : tensor<0xf32>
// CHECK-NEXT: return %[[ACC]], %[[EMPTY]]
func.func @matmul_k0(%a: tensor<8x0xf32>, %b: tensor<0x4xf32>, %acc: tensor<8x4xf32>)
    -> (tensor<8x4xf32>, tensor<0xf32>) {
  %m = linalg.matmul ins(%a, %b : tensor<8x0xf32>, tensor<0x4xf32>) outs(%acc : tensor<8x4xf32>) -> tensor<8x4xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<0xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<0xf32>) -> tensor<0xf32>
  return %m, %f : tensor<8x4xf32>, tensor<0xf32>
}

// -----

// Nothing empty, nothing changed.
// CHECK-LABEL: func.func @relu(
// CHECK: %[[R:.*]] = linalg.generic
// CHECK: return %[[R]]
func.func @relu(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.maximumf %v, %zero : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
