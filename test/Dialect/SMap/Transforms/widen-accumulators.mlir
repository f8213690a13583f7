// RUN: spacefusion-opt %s -split-input-file --smap-widen-accumulators | FileCheck %s

// A named matmul of f16 into f16 (as torch-mlir writes a half-precision mm):
// generalized, accumulated in f32 from an f32 fill, rounded once.
// CHECK-LABEL: func.func @named_matmul_f16
// CHECK-SAME: (%[[X:.*]]: tensor<64x32xf16>, %[[W:.*]]: tensor<32x16xf16>)
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[E:.*]] = tensor.empty() : tensor<64x16xf32>
// CHECK: %[[ACC:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E]] : tensor<64x16xf32>)
// CHECK: %[[WIDE:.*]] = linalg.generic
// CHECK-SAME: ins(%[[X]], %[[W]] : tensor<64x32xf16>, tensor<32x16xf16>) outs(%[[ACC]] : tensor<64x16xf32>)
// CHECK: ^bb0(%[[A:.*]]: f16, %[[B:.*]]: f16, %[[C:.*]]: f32):
// CHECK: %[[A32:.*]] = arith.extf %[[A]] : f16 to f32
// CHECK: %[[B32:.*]] = arith.extf %[[B]] : f16 to f32
// CHECK: %[[P:.*]] = arith.mulf %[[A32]], %[[B32]] : f32
// CHECK: %[[S:.*]] = arith.addf %[[C]], %[[P]] : f32
// CHECK: linalg.yield %[[S]] : f32
// CHECK: %[[R:.*]] = linalg.generic
// CHECK-SAME: ins(%[[WIDE]] : tensor<64x16xf32>) outs(%{{.*}} : tensor<64x16xf16>)
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: return %[[R]] : tensor<64x16xf16>
func.func @named_matmul_f16(%x: tensor<64x32xf16>, %w: tensor<32x16xf16>) -> tensor<64x16xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<64x16xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<64x16xf16>) -> tensor<64x16xf16>
  %y = linalg.matmul ins(%x, %w : tensor<64x32xf16>, tensor<32x16xf16>) outs(%f : tensor<64x16xf16>) -> tensor<64x16xf16>
  return %y : tensor<64x16xf16>
}

// -----

// A bf16 batch matmul accumulating into a computed init (a bias): the init
// is extended elementwise, not refilled.
// CHECK-LABEL: func.func @batch_matmul_bf16_into_bias
// CHECK-SAME: (%[[X:.*]]: tensor<2x8x4xbf16>, %[[W:.*]]: tensor<2x4x8xbf16>, %[[BIAS:.*]]: tensor<2x8x8xbf16>)
// CHECK: %[[INIT:.*]] = linalg.generic
// CHECK-SAME: ins(%[[BIAS]] : tensor<2x8x8xbf16>) outs(%{{.*}} : tensor<2x8x8xf32>)
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[X]], %[[W]] : tensor<2x8x4xbf16>, tensor<2x4x8xbf16>) outs(%[[INIT]] : tensor<2x8x8xf32>)
// CHECK: arith.truncf %{{.*}} : f32 to bf16
func.func @batch_matmul_bf16_into_bias(%x: tensor<2x8x4xbf16>, %w: tensor<2x4x8xbf16>, %bias: tensor<2x8x8xbf16>) -> tensor<2x8x8xbf16> {
  %y = linalg.batch_matmul ins(%x, %w : tensor<2x8x4xbf16>, tensor<2x4x8xbf16>) outs(%bias : tensor<2x8x8xbf16>) -> tensor<2x8x8xbf16>
  return %y : tensor<2x8x8xbf16>
}

// -----

// Left alone: an f32 accumulator (already wide), a body that is not float arithmetic on the 16-bit type (an exp), and a
// reduction of one input (a row sum, no contraction).
// CHECK-LABEL: func.func @not_widened
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x4xf16>, tensor<4x8xf16>) outs(%{{.*}} : tensor<8x8xf32>)
// CHECK: math.exp %{{.*}} : f16
// CHECK: arith.addf %{{.*}}, %{{.*}} : f16
// CHECK-NOT: arith.truncf
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
#rc = affine_map<(r, c) -> (r, c)>
#r = affine_map<(r, c) -> (r)>
func.func @not_widened(%a: tensor<8x4xf16>, %b: tensor<4x8xf16>,
                       %c32: tensor<8x8xf32>, %c16: tensor<8x8xf16>, %row: tensor<8xf16>)
    -> (tensor<8x8xf32>, tensor<8x8xf16>, tensor<8xf16>) {
  %0 = linalg.matmul ins(%a, %b : tensor<8x4xf16>, tensor<4x8xf16>) outs(%c32 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<8x4xf16>, tensor<4x8xf16>) outs(%c16 : tensor<8x8xf16>) {
  ^bb0(%x: f16, %y: f16, %acc: f16):
    %p = arith.mulf %x, %y : f16
    %e = math.exp %p : f16
    %s = arith.addf %acc, %e : f16
    linalg.yield %s : f16
  } -> tensor<8x8xf16>
  %3 = linalg.generic {indexing_maps = [#rc, #r], iterator_types = ["parallel", "reduction"]}
      ins(%c16 : tensor<8x8xf16>) outs(%row : tensor<8xf16>) {
  ^bb0(%x: f16, %acc: f16):
    %s = arith.addf %acc, %x : f16
    linalg.yield %s : f16
  } -> tensor<8xf16>
  return %0, %2, %3 : tensor<8x8xf32>, tensor<8x8xf16>, tensor<8xf16>
}
