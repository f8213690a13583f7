// RUN: spacefusion-opt %s --smap-specialize-fills | FileCheck %s

// A fill as --linalg-generalize-named-ops writes it becomes a linalg.fill;
// a generic that reads an input, or yields a value computed in its body, is
// not a fill and stays.
// CHECK-LABEL: func.func @fills
// CHECK-SAME: (%[[X:.*]]: tensor<8x16xf32>, %[[S:.*]]: f32)
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[E:.*]] = tensor.empty() : tensor<8x16xf32>
// CHECK: %[[F:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E]] : tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK: %[[G:.*]] = linalg.fill ins(%[[S]] : f32) outs(%[[E]] : tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK: linalg.generic {{.*}} ins(%[[X]] : tensor<8x16xf32>)
// CHECK: linalg.generic
// CHECK: arith.negf
// CHECK: return %[[F]], %[[G]]
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @fills(%x: tensor<8x16xf32>, %s: f32) -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %f = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<8x16xf32>) {
  ^bb0(%out: f32):
    linalg.yield %zero : f32
  } -> tensor<8x16xf32>
  %g = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<8x16xf32>) {
  ^bb0(%out: f32):
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  %c = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<8x16xf32>
  %n = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<8x16xf32>) {
  ^bb0(%out: f32):
    %v = arith.negf %s : f32
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  return %f, %g, %c, %n : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
}

// --linalg-generalize-named-ops writes linalg.fill as a generic of one
// scalar input, yielded: a fill too.
// CHECK-LABEL: func.func @generalized_fill
// CHECK-SAME: (%[[OUT:.*]]: tensor<8x16xf32>)
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[F:.*]] = linalg.fill ins(%[[ONE]] : f32) outs(%[[OUT]] : tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NOT: linalg.generic
// CHECK: return %[[F]]
#scalar = affine_map<(d0, d1) -> ()>
func.func @generalized_fill(%out: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %one = arith.constant 1.0 : f32
  %f = linalg.generic {indexing_maps = [#scalar, #id], iterator_types = ["parallel", "parallel"]}
      ins(%one : f32) outs(%out : tensor<8x16xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<8x16xf32>
  return %f : tensor<8x16xf32>
}

// A conversion of a filled tensor is the fill of the converted scalar (what
// widening a 16-bit accumulator behind a reshape leaves, torch-mlir's 3-D
// linear after upstream fuse-elementwise); a conversion of anything else,
// or a fill read through a non-identity map, stays.
// CHECK-LABEL: func.func @converted_fills
// CHECK-SAME: (%[[X:.*]]: tensor<8x16xf16>)
// The converted zero folds to an f32 constant.
// CHECK: %[[WIDE:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f16
// CHECK: %[[F16:.*]] = linalg.fill ins(%[[ZERO]] : f16)
// CHECK: %[[E32:.*]] = tensor.empty() : tensor<8x16xf32>
// CHECK: %[[F32:.*]] = linalg.fill ins(%[[WIDE]] : f32) outs(%[[E32]] : tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK: %[[OTHER:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<8x16xf16>)
// CHECK: arith.extf
// CHECK: %[[T:.*]] = linalg.generic {{.*}} ins(%[[F16]] : tensor<8x16xf16>)
// CHECK: return %[[F32]], %[[OTHER]], %[[T]]
#tr = affine_map<(d0, d1) -> (d1, d0)>
func.func @converted_fills(%x: tensor<8x16xf16>) -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<16x8xf32>) {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<8x16xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<8x16xf16>) -> tensor<8x16xf16>
  %e32 = tensor.empty() : tensor<8x16xf32>
  %w = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%f : tensor<8x16xf16>) outs(%e32 : tensor<8x16xf32>) {
  ^bb0(%in: f16, %out: f32):
    %v = arith.extf %in : f16 to f32
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  %o = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<8x16xf16>) outs(%e32 : tensor<8x16xf32>) {
  ^bb0(%in: f16, %out: f32):
    %v = arith.extf %in : f16 to f32
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  %et = tensor.empty() : tensor<16x8xf32>
  %t = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]} ins(%f : tensor<8x16xf16>) outs(%et : tensor<16x8xf32>) {
  ^bb0(%in: f16, %out: f32):
    %v = arith.extf %in : f16 to f32
    linalg.yield %v : f32
  } -> tensor<16x8xf32>
  return %w, %o, %t : tensor<8x16xf32>, tensor<8x16xf32>, tensor<16x8xf32>
}
