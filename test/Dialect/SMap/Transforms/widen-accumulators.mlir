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

// Left alone: an f32 accumulator (already wide), a max reduction (exact in
// any type), and a body that is not float arithmetic (a compare and select).
// CHECK-LABEL: func.func @not_widened
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x4xf16>, tensor<4x8xf16>) outs(%{{.*}} : tensor<8x8xf32>)
// CHECK: arith.maximumf %{{.*}}, %{{.*}} : f16
// CHECK: arith.cmpf
// CHECK: arith.addf %{{.*}}, %{{.*}} : f16
// CHECK-NOT: arith.truncf
#rc = affine_map<(r, c) -> (r, c)>
#r = affine_map<(r, c) -> (r)>
func.func @not_widened(%a: tensor<8x4xf16>, %b: tensor<4x8xf16>,
                       %c32: tensor<8x8xf32>, %c16: tensor<8x8xf16>, %row: tensor<8xf16>)
    -> (tensor<8x8xf32>, tensor<8xf16>, tensor<8xf16>) {
  %0 = linalg.matmul ins(%a, %b : tensor<8x4xf16>, tensor<4x8xf16>) outs(%c32 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = linalg.generic {indexing_maps = [#rc, #r], iterator_types = ["parallel", "reduction"]}
      ins(%c16 : tensor<8x8xf16>) outs(%row : tensor<8xf16>) {
  ^bb0(%x: f16, %acc: f16):
    %m = arith.maximumf %acc, %x : f16
    linalg.yield %m : f16
  } -> tensor<8xf16>
  %2 = linalg.generic {indexing_maps = [#rc, #r], iterator_types = ["parallel", "reduction"]}
      ins(%c16 : tensor<8x8xf16>) outs(%row : tensor<8xf16>) {
  ^bb0(%x: f16, %acc: f16):
    %zero = arith.constant 0.0 : f16
    %pos = arith.cmpf ogt, %x, %zero : f16
    %kept = arith.select %pos, %x, %zero : f16
    %s = arith.addf %acc, %kept : f16
    linalg.yield %s : f16
  } -> tensor<8xf16>
  return %0, %1, %2 : tensor<8x8xf32>, tensor<8xf16>, tensor<8xf16>
}

// -----

// A sum of one input (a softmax's row sum) is widened like a contraction:
// an f16 sum of n terms errs by up to n/2 units in its last place.
// CHECK-LABEL: func.func @row_sum
// CHECK-SAME: (%[[X:.*]]: tensor<8x64xf16>
// CHECK: %[[ACC:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<8xf32>)
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<8x64xf16>) outs(%[[ACC]] : tensor<8xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f16, %[[OUT:.*]]: f32):
// CHECK-NEXT: %[[WIDE:.*]] = arith.extf %[[IN]] : f16 to f32
// CHECK-NEXT: %[[ADD:.*]] = arith.addf %[[OUT]], %[[WIDE]] : f32
// CHECK-NEXT: linalg.yield %[[ADD]] : f32
// CHECK: linalg.generic {{.*}} ins(%[[SUM]] : tensor<8xf32>)
// CHECK: arith.truncf %{{.*}} : f32 to f16
#rc = affine_map<(r, c) -> (r, c)>
#r = affine_map<(r, c) -> (r)>
func.func @row_sum(%x: tensor<8x64xf16>) -> tensor<8xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<8xf16>
  %init = linalg.fill ins(%zero : f16) outs(%e : tensor<8xf16>) -> tensor<8xf16>
  %sum = linalg.generic {indexing_maps = [#rc, #r], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x64xf16>) outs(%init : tensor<8xf16>) {
  ^bb0(%in: f16, %acc: f16):
    %s = arith.addf %acc, %in : f16
    linalg.yield %s : f16
  } -> tensor<8xf16>
  return %sum : tensor<8xf16>
}

// -----

// The row sum of a softmax after linalg-fuse-elementwise-ops: the scale (a
// scalar captured from above), the shift and the exp computed in f32, the
// captured scale extended (a constant, folded to f32 by the greedy driver).
// CHECK-LABEL: func.func @fused_exp_sum
// CHECK-SAME: (%[[S:.*]]: tensor<8x64xf16>, %[[M:.*]]: tensor<8xf16>
// CHECK: %[[WSCALE:.*]] = arith.constant 1.250000e-01 : f32
// CHECK: linalg.generic {{.*}} ins(%[[S]], %[[M]] : tensor<8x64xf16>, tensor<8xf16>) outs(%{{.*}} : tensor<8xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f16, %[[MAX:.*]]: f16, %[[OUT:.*]]: f32):
// CHECK-NEXT: %[[WIN:.*]] = arith.extf %[[IN]] : f16 to f32
// CHECK-NEXT: %[[WMAX:.*]] = arith.extf %[[MAX]] : f16 to f32
// CHECK: %[[SCALED:.*]] = arith.mulf %[[WIN]], %[[WSCALE]] : f32
// CHECK: %[[SHIFTED:.*]] = arith.subf %[[SCALED]], %[[WMAX]] : f32
// CHECK: %[[EXP:.*]] = math.exp %[[SHIFTED]] : f32
// CHECK: arith.addf %[[EXP]], %[[OUT]] : f32
// CHECK: arith.truncf %{{.*}} : f32 to f16
#rc = affine_map<(r, c) -> (r, c)>
#r = affine_map<(r, c) -> (r)>
func.func @fused_exp_sum(%s: tensor<8x64xf16>, %m: tensor<8xf16>) -> tensor<8xf16> {
  %zero = arith.constant 0.0 : f16
  %scale = arith.constant 0.125 : f16
  %e = tensor.empty() : tensor<8xf16>
  %init = linalg.fill ins(%zero : f16) outs(%e : tensor<8xf16>) -> tensor<8xf16>
  %sum = linalg.generic {indexing_maps = [#rc, #r, #r], iterator_types = ["parallel", "reduction"]}
      ins(%s, %m : tensor<8x64xf16>, tensor<8xf16>) outs(%init : tensor<8xf16>) {
  ^bb0(%in: f16, %max: f16, %acc: f16):
    %scaled = arith.mulf %in, %scale : f16
    %shifted = arith.subf %scaled, %max : f16
    %exp = math.exp %shifted : f16
    %add = arith.addf %exp, %acc : f16
    linalg.yield %add : f16
  } -> tensor<8xf16>
  return %sum : tensor<8xf16>
}

// -----

// A scalar captured from above that is not a constant is extended inside the
// body.
// CHECK-LABEL: func.func @captured_scale
// CHECK-SAME: (%[[X:.*]]: tensor<8x64xf16>, %[[SCALE:.*]]: f16)
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<8xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f16, %[[OUT:.*]]: f32):
// CHECK-NEXT: %[[WIN:.*]] = arith.extf %[[IN]] : f16 to f32
// CHECK-NEXT: %[[WSCALE:.*]] = arith.extf %[[SCALE]] : f16 to f32
// CHECK-NEXT: %[[SQ:.*]] = arith.mulf %[[WIN]], %[[WSCALE]] : f32
// CHECK-NEXT: arith.addf %[[SQ]], %[[OUT]] : f32
#rc = affine_map<(r, c) -> (r, c)>
#r = affine_map<(r, c) -> (r)>
func.func @captured_scale(%x: tensor<8x64xf16>, %scale: f16) -> tensor<8xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<8xf16>
  %init = linalg.fill ins(%zero : f16) outs(%e : tensor<8xf16>) -> tensor<8xf16>
  %sum = linalg.generic {indexing_maps = [#rc, #r], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x64xf16>) outs(%init : tensor<8xf16>) {
  ^bb0(%in: f16, %acc: f16):
    %scaled = arith.mulf %in, %scale : f16
    %add = arith.addf %scaled, %acc : f16
    linalg.yield %add : f16
  } -> tensor<8xf16>
  return %sum : tensor<8xf16>
}
