// RUN: spacefusion-opt %s -split-input-file --smap-form-graphs --smap-analyze | FileCheck %s

// The temporal slicer writes every state update and every correction after
// the loop as a generic that reads its inputs broadcast over the
// reduction's result. The plan the SMG makes when it classifies a dim
// checks each of them, so a dim it keeps temporal is one the slicer builds
// (it rewrites the graph in place, with no copy to fall back on).

// RMSNorm over l1, then a sum over both l and l1 of the normalized value
// (the form of fuzzer seed 22). The 1/rms factor of a row (n, l) would be
// postponed past the second reduction, but that reduction also sums l, so
// the factor cannot be taken out of it: l1 is not sliceable, and the
// reason names the factor.
// CHECK-LABEL: func.func @factor_varies_along_reduced_dim
// CHECK: not_sliceable = {l1 = "{{.*}}reduce_add3 cannot take the factor of mulf2 after the loop: it varies along a dim the reduction combines{{.*}}"}
#nll = affine_map<(n, l, l1) -> (n, l, l1)>
#nl3 = affine_map<(n, l, l1) -> (n, l)>
#n3 = affine_map<(n, l, l1) -> (n)>
#nl = affine_map<(n, l) -> (n, l)>
func.func @factor_varies_along_reduced_dim(%x: tensor<8x3x128xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %inv = arith.constant 7.812500e-03 : f32
  %eps = arith.constant 1.0e-6 : f32
  %e_nl = tensor.empty() : tensor<8x3xf32>
  %e_nll = tensor.empty() : tensor<8x3x128xf32>
  %e_n = tensor.empty() : tensor<8xf32>
  %f_nl = linalg.fill ins(%zero : f32) outs(%e_nl : tensor<8x3xf32>) -> tensor<8x3xf32>
  %ss = linalg.generic {indexing_maps = [#nll, #nl3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<8x3x128xf32>) outs(%f_nl : tensor<8x3xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8x3xf32>
  %r = linalg.generic {indexing_maps = [#nl, #nl], iterator_types = ["parallel", "parallel"]}
      ins(%ss : tensor<8x3xf32>) outs(%e_nl : tensor<8x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %inv : f32
    %me = arith.addf %m, %eps : f32
    %rs = math.rsqrt %me : f32
    linalg.yield %rs : f32
  } -> tensor<8x3xf32>
  %y = linalg.generic {indexing_maps = [#nll, #nl3, #nll], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %r : tensor<8x3x128xf32>, tensor<8x3xf32>) outs(%e_nll : tensor<8x3x128xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    linalg.yield %p : f32
  } -> tensor<8x3x128xf32>
  %f_n = linalg.fill ins(%zero : f32) outs(%e_n : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.generic {indexing_maps = [#nll, #n3], iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%y : tensor<8x3x128xf32>) outs(%f_n : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %sum : tensor<8xf32>
}

// -----

// The same chain with the second sum over l1 only: the factor is one per
// row of the second reduction's result, so the dim (named l here) stays
// temporal.
// CHECK-LABEL: func.func @factor_constant_along_reduced_dim
// CHECK: dims = [{{.*}}#smap.dim<"l", 128, temporal>]
// CHECK-SAME: smap.chains = {l = "dependent reductions add(reduce_add0) -> add(reduce_add3), rewritten by Update-then-Aggregate"}
#nll = affine_map<(n, l, l1) -> (n, l, l1)>
#nl3 = affine_map<(n, l, l1) -> (n, l)>
#nl = affine_map<(n, l) -> (n, l)>
func.func @factor_constant_along_reduced_dim(%x: tensor<8x3x128xf32>) -> tensor<8x3xf32> {
  %zero = arith.constant 0.0 : f32
  %inv = arith.constant 7.812500e-03 : f32
  %eps = arith.constant 1.0e-6 : f32
  %e_nl = tensor.empty() : tensor<8x3xf32>
  %e_nll = tensor.empty() : tensor<8x3x128xf32>
  %f_nl = linalg.fill ins(%zero : f32) outs(%e_nl : tensor<8x3xf32>) -> tensor<8x3xf32>
  %ss = linalg.generic {indexing_maps = [#nll, #nl3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<8x3x128xf32>) outs(%f_nl : tensor<8x3xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8x3xf32>
  %r = linalg.generic {indexing_maps = [#nl, #nl], iterator_types = ["parallel", "parallel"]}
      ins(%ss : tensor<8x3xf32>) outs(%e_nl : tensor<8x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %inv : f32
    %me = arith.addf %m, %eps : f32
    %rs = math.rsqrt %me : f32
    linalg.yield %rs : f32
  } -> tensor<8x3xf32>
  %y = linalg.generic {indexing_maps = [#nll, #nl3, #nll], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %r : tensor<8x3x128xf32>, tensor<8x3xf32>) outs(%e_nll : tensor<8x3x128xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    linalg.yield %p : f32
  } -> tensor<8x3x128xf32>
  %f_nl2 = linalg.fill ins(%zero : f32) outs(%e_nl : tensor<8x3xf32>) -> tensor<8x3xf32>
  %sum = linalg.generic {indexing_maps = [#nll, #nl3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%y : tensor<8x3x128xf32>) outs(%f_nl2 : tensor<8x3xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8x3xf32>
  return %sum : tensor<8x3xf32>
}
