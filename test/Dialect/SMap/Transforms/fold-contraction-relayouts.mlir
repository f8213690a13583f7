// RUN: spacefusion-opt %s -split-input-file --smap-fold-contraction-relayouts | FileCheck %s

// A linear layer on 3-D input as torch-mlir writes it (aten.linear after
// decomposition: the weight transposed by a copy generic, the activations
// collapsed to 2-D, a 2-D matmul, its result expanded): one contraction over
// (b, s, n, k) reading the activations as they are and the weight [n, k]
// transposed, its zero init filled in 3-D; no reshape or copy is left.
// CHECK-DAG: #[[X:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[W:.*]] = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
// CHECK-DAG: #[[Y:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @linear_3d
// CHECK-SAME: (%[[IN:.*]]: tensor<2x8x32xf32>, %[[WEIGHT:.*]]: tensor<16x32xf32>)
// CHECK-NOT: tensor.collapse_shape
// CHECK: %[[INIT:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2x8x16xf32>)
// CHECK: %[[OUT:.*]] = linalg.generic {indexing_maps = [#[[X]], #[[W]], #[[Y]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME: ins(%[[IN]], %[[WEIGHT]] : tensor<2x8x32xf32>, tensor<16x32xf32>) outs(%[[INIT]] : tensor<2x8x16xf32>)
// CHECK-NOT: tensor.expand_shape
// CHECK: return %[[OUT]] : tensor<2x8x16xf32>
#t = affine_map<(d0, d1) -> (d1, d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @linear_3d(%x: tensor<2x8x32xf32>, %w: tensor<16x32xf32>) -> tensor<2x8x16xf32> {
  %e = tensor.empty() : tensor<32x16xf32>
  %wt = linalg.generic {indexing_maps = [#t, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<16x32xf32>) outs(%e : tensor<32x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<32x16xf32>
  %x2 = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x8x32xf32> into tensor<16x32xf32>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<16x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e2 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %y2 = linalg.matmul ins(%x2, %wt : tensor<16x32xf32>, tensor<32x16xf32>) outs(%f : tensor<16x16xf32>) -> tensor<16x16xf32>
  %y = tensor.expand_shape %y2 [[0, 1], [2]] output_shape [2, 8, 16] : tensor<16x16xf32> into tensor<2x8x16xf32>
  return %y : tensor<2x8x16xf32>
}

// -----

// The same with an epilogue between the matmul and the expand (a bias and
// the rounding to the activations' f16): the reshapes fold through it.
// CHECK-LABEL: func.func @linear_3d_bias
// CHECK-NOT: tensor.collapse_shape
// CHECK-NOT: tensor.expand_shape
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME: ins(%{{.*}}, %{{.*}} : tensor<2x8x32xf16>, tensor<16x32xf16>)
// CHECK: %[[EPILOGUE:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel"]
// CHECK: arith.truncf
// CHECK: return %[[EPILOGUE]] : tensor<2x8x16xf16>
#t = affine_map<(d0, d1) -> (d1, d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>
func.func @linear_3d_bias(%x: tensor<2x8x32xf16>, %w: tensor<16x32xf16>, %b: tensor<16xf32>) -> tensor<2x8x16xf16> {
  %e = tensor.empty() : tensor<32x16xf16>
  %wt = linalg.generic {indexing_maps = [#t, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<16x32xf16>) outs(%e : tensor<32x16xf16>) {
  ^bb0(%in: f16, %out: f16):
    linalg.yield %in : f16
  } -> tensor<32x16xf16>
  %x2 = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x8x32xf16> into tensor<16x32xf16>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<16x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e2 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %y2 = linalg.matmul ins(%x2, %wt : tensor<16x32xf16>, tensor<32x16xf16>) outs(%f : tensor<16x16xf32>) -> tensor<16x16xf32>
  %eh = tensor.empty() : tensor<16x16xf16>
  %r = linalg.generic {indexing_maps = [#id2, #bias, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%y2, %b : tensor<16x16xf32>, tensor<16xf32>) outs(%eh : tensor<16x16xf16>) {
  ^bb0(%a: f32, %c: f32, %o: f16):
    %s = arith.addf %a, %c : f32
    %t = arith.truncf %s : f32 to f16
    linalg.yield %t : f16
  } -> tensor<16x16xf16>
  %y = tensor.expand_shape %r [[0, 1], [2]] output_shape [2, 8, 16] : tensor<16x16xf16> into tensor<2x8x16xf16>
  return %y : tensor<2x8x16xf16>
}

// -----

// Left alone: relayouts that touch no contraction (a collapse feeding an
// elementwise op, a transpose feeding one), and an extension copy, which
// smap-fuse-conversions folds later.
// CHECK-LABEL: func.func @not_folded
// CHECK: tensor.collapse_shape
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}], iterator_types = ["parallel", "parallel"]}
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}], iterator_types = ["parallel", "parallel"]}
// CHECK: arith.extf
// CHECK: linalg.matmul
#t = affine_map<(d0, d1) -> (d1, d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @not_folded(%x: tensor<2x8x32xf32>, %w: tensor<16x32xf32>, %h: tensor<16x32xf16>, %v: tensor<32x8xf32>)
    -> (tensor<16x32xf32>, tensor<32x16xf32>, tensor<16x8xf32>) {
  %x2 = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x8x32xf32> into tensor<16x32xf32>
  %e = tensor.empty() : tensor<16x32xf32>
  %neg = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x2 : tensor<16x32xf32>) outs(%e : tensor<16x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<16x32xf32>
  %et = tensor.empty() : tensor<32x16xf32>
  %wt = linalg.generic {indexing_maps = [#t, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<16x32xf32>) outs(%et : tensor<32x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<32x16xf32>
  %eh = tensor.empty() : tensor<16x32xf32>
  %hx = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<16x32xf16>) outs(%eh : tensor<16x32xf32>) {
  ^bb0(%in: f16, %out: f32):
    %x32 = arith.extf %in : f16 to f32
    linalg.yield %x32 : f32
  } -> tensor<16x32xf32>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<16x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e2 : tensor<16x8xf32>) -> tensor<16x8xf32>
  %y = linalg.matmul ins(%hx, %v : tensor<16x32xf32>, tensor<32x8xf32>) outs(%f : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %neg, %wt, %y : tensor<16x32xf32>, tensor<32x16xf32>, tensor<16x8xf32>
}

// -----

// Attention with the heads folded into the batch around it (IREE's and
// StableHLO's form, after generalization and the softmax decomposed): K
// collapsed and transposed by a copy, Q.K^T, the row max and the shifted
// exponentials (a reduction and an elementwise op between the two
// contractions), P.V, and the result expanded back. Every op iterates the
// 4-D (b, h, ...) space, the transpose folds into Q.K^T's map, and no reshape
// is left in between.
// CHECK-DAG: #[[QMAP:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
// CHECK-DAG: #[[KMAP:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
// CHECK-LABEL: func.func @heads_collapsed
// CHECK-SAME: (%[[Q:.*]]: tensor<2x3x8x4xf32>, %[[K:.*]]: tensor<2x3x8x4xf32>, %[[V:.*]]: tensor<2x3x8x4xf32>)
// CHECK-NOT: tensor.collapse_shape
// CHECK-NOT: tensor.expand_shape
// CHECK: %[[S:.*]] = linalg.generic {indexing_maps = [#[[QMAP]], #[[KMAP]], {{.*}}]
// CHECK-SAME: ins(%[[Q]], %[[K]] : tensor<2x3x8x4xf32>, tensor<2x3x8x4xf32>) outs(%{{.*}} : tensor<2x3x8x8xf32>)
// CHECK: %[[MAX:.*]] = linalg.generic {{.*}} ins(%[[S]] : tensor<2x3x8x8xf32>) outs(%{{.*}} : tensor<2x3x8xf32>)
// CHECK: %[[E:.*]] = linalg.generic {{.*}} ins(%[[S]], %[[MAX]] : tensor<2x3x8x8xf32>, tensor<2x3x8xf32>) outs(%{{.*}} : tensor<2x3x8x8xf32>)
// CHECK: %[[O:.*]] = linalg.generic {{.*}} ins(%[[E]], %[[V]] : tensor<2x3x8x8xf32>, tensor<2x3x8x4xf32>) outs(%{{.*}} : tensor<2x3x8x4xf32>)
// CHECK-NOT: tensor.expand_shape
// CHECK: return %[[O]] : tensor<2x3x8x4xf32>
#bmk = affine_map<(b, m, n, k) -> (b, m, k)>
#bkn = affine_map<(b, m, n, k) -> (b, k, n)>
#bmn = affine_map<(b, m, n, k) -> (b, m, n)>
#perm = affine_map<(b, i, j) -> (b, j, i)>
#id3 = affine_map<(b, i, j) -> (b, i, j)>
#row3 = affine_map<(b, i, j) -> (b, i)>
func.func @heads_collapsed(%q: tensor<2x3x8x4xf32>, %k: tensor<2x3x8x4xf32>, %v: tensor<2x3x8x4xf32>) -> tensor<2x3x8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<2x3x8x4xf32> into tensor<6x8x4xf32>
  %k3 = tensor.collapse_shape %k [[0, 1], [2], [3]] : tensor<2x3x8x4xf32> into tensor<6x8x4xf32>
  %v3 = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<2x3x8x4xf32> into tensor<6x8x4xf32>
  %ekt = tensor.empty() : tensor<6x4x8xf32>
  %kt = linalg.generic {indexing_maps = [#perm, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%k3 : tensor<6x8x4xf32>) outs(%ekt : tensor<6x4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<6x4x8xf32>
  %es = tensor.empty() : tensor<6x8x8xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<6x8x8xf32>) -> tensor<6x8x8xf32>
  %s = linalg.generic {indexing_maps = [#bmk, #bkn, #bmn], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q3, %kt : tensor<6x8x4xf32>, tensor<6x4x8xf32>) outs(%zs : tensor<6x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  } -> tensor<6x8x8xf32>
  %em = tensor.empty() : tensor<6x8xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%em : tensor<6x8xf32>) -> tensor<6x8xf32>
  %max = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%s : tensor<6x8x8xf32>) outs(%fm : tensor<6x8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<6x8xf32>
  %e = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %max : tensor<6x8x8xf32>, tensor<6x8xf32>) outs(%es : tensor<6x8x8xf32>) {
  ^bb0(%x: f32, %m: f32, %out: f32):
    %d = arith.subf %x, %m : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<6x8x8xf32>
  %eo = tensor.empty() : tensor<6x8x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<6x8x4xf32>) -> tensor<6x8x4xf32>
  %o = linalg.generic {indexing_maps = [#bmk, #bkn, #bmn], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%e, %v3 : tensor<6x8x8xf32>, tensor<6x8x4xf32>) outs(%zo : tensor<6x8x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  } -> tensor<6x8x4xf32>
  %r = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [2, 3, 8, 4] : tensor<6x8x4xf32> into tensor<2x3x8x4xf32>
  return %r : tensor<2x3x8x4xf32>
}
