// RUN: spacefusion-opt %s -split-input-file --smap-form-graphs --smap-analyze | FileCheck %s

// Float casts inside the chain of dependent reductions, as mixed-precision
// frontends write them. An extension is exact and a rounding of a value
// scaled by an earlier reduction commutes with the postponed factor up to
// one rounding: both keep the dim temporal. A rounding of a value shifted
// by an earlier reduction (the centered value of a LayerNorm) does not
// commute with the shift the update expands algebraically, so the dim is
// not sliceable.

// CHECK-LABEL: func.func @softmax_rounded_then_summed
// CHECK: smap.chains = {l = "dependent reductions max(reduce_max0) -> add(reduce_add2) -> add(reduce_add4), rewritten by Update-then-Aggregate{{.*}}"}
#rc = affine_map<(r, c) -> (r, c)>
#r = affine_map<(r, c) -> (r)>
func.func @softmax_rounded_then_summed(%x: tensor<8x64xf16>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %er = tensor.empty() : tensor<8xf32>
  %erc = tensor.empty() : tensor<8x64xf32>
  %erch = tensor.empty() : tensor<8x64xf16>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %m = linalg.generic {indexing_maps = [#rc, #r], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x64xf16>) outs(%mi : tensor<8xf32>) {
  ^bb0(%a: f16, %acc: f32):
    %a32 = arith.extf %a : f16 to f32
    %y = arith.maximumf %a32, %acc : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  %e = linalg.generic {indexing_maps = [#rc, #r, #rc], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : tensor<8x64xf16>, tensor<8xf32>) outs(%erc : tensor<8x64xf32>) {
  ^bb0(%a: f16, %b: f32, %o: f32):
    %a32 = arith.extf %a : f16 to f32
    %d = arith.subf %a32, %b : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<8x64xf32>
  %li = linalg.fill ins(%zero : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %l = linalg.generic {indexing_maps = [#rc, #r], iterator_types = ["parallel", "reduction"]}
      ins(%e : tensor<8x64xf32>) outs(%li : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.addf %a, %acc : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  %p = linalg.generic {indexing_maps = [#rc, #r, #rc], iterator_types = ["parallel", "parallel"]}
      ins(%e, %l : tensor<8x64xf32>, tensor<8xf32>) outs(%erch : tensor<8x64xf16>) {
  ^bb0(%a: f32, %b: f32, %o: f16):
    %d = arith.divf %a, %b : f32
    %y = arith.truncf %d : f32 to f16
    linalg.yield %y : f16
  } -> tensor<8x64xf16>
  %ti = linalg.fill ins(%zero : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %t = linalg.generic {indexing_maps = [#rc, #r], iterator_types = ["parallel", "reduction"]}
      ins(%p : tensor<8x64xf16>) outs(%ti : tensor<8xf32>) {
  ^bb0(%a: f16, %acc: f32):
    %a32 = arith.extf %a : f16 to f32
    %y = arith.addf %a32, %acc : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  return %t : tensor<8xf32>
}

// -----

// CHECK-LABEL: func.func @variance_of_rounded_centered
// CHECK: not_sliceable = {l = "reduced by add(reduce_add0) -> add(reduce_add2); not sliceable: reduce_add2 reduces (add) a value that mixes an earlier reduction with the data, which no update function can correct slice by slice"}
#rc = affine_map<(r, c) -> (r, c)>
#r = affine_map<(r, c) -> (r)>
func.func @variance_of_rounded_centered(%x: tensor<8x64xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<8xf32>
  %erch = tensor.empty() : tensor<8x64xf16>
  %si = linalg.fill ins(%zero : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.generic {indexing_maps = [#rc, #r], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x64xf32>) outs(%si : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.addf %a, %acc : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  %c = linalg.generic {indexing_maps = [#rc, #r, #rc], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<8x64xf32>, tensor<8xf32>) outs(%erch : tensor<8x64xf16>) {
  ^bb0(%a: f32, %b: f32, %o: f16):
    %d = arith.subf %a, %b : f32
    %y = arith.truncf %d : f32 to f16
    linalg.yield %y : f16
  } -> tensor<8x64xf16>
  %qi = linalg.fill ins(%zero : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %q = linalg.generic {indexing_maps = [#rc, #r], iterator_types = ["parallel", "reduction"]}
      ins(%c : tensor<8x64xf16>) outs(%qi : tensor<8xf32>) {
  ^bb0(%a: f16, %acc: f32):
    %a32 = arith.extf %a : f16 to f32
    %sq = arith.mulf %a32, %a32 : f32
    %y = arith.addf %sq, %acc : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  return %q : tensor<8xf32>
}

// -----

// A rounded exp(x + c), c a running sum: the reduction lattice admits it,
// but the temporal slicer cannot round it inside the loop (at a magnitude
// the unfused program never reaches). The slicer's plan is made when the
// dim is classified, so the dim is not sliceable, with the slicer's
// reason, and no schedule can choose it (before, smap-schedule sliced it
// and smap-temporal-slice then left it unsliced).

// CHECK-LABEL: func.func @rounded_exp_of_sum
// CHECK: smap.graph
// CHECK-SAME: dims = [#smap.dim<"m", 16, parallel>, #smap.dim<"l", 64, not_sliceable>]
// CHECK-SAME: smap.not_sliceable = {l = "reduced by add(reduce_add0) -> add(reduce_add2); not sliceable: the temporal slicer cannot rewrite it (truncf1 rounds exp(x + c) or exp(x - c) with c not a running maximum, whose unnormalized value is unbounded)"}
#ml = affine_map<(m, l) -> (m, l)>
#m = affine_map<(m, l) -> (m)>
func.func @rounded_exp_of_sum(%x: tensor<16x64xf32>) -> tensor<16xf32> {
  %zero = arith.constant 0.0 : f32
  %e_m = tensor.empty() : tensor<16xf32>
  %e_mlh = tensor.empty() : tensor<16x64xf16>
  %f_sum = linalg.fill ins(%zero : f32) outs(%e_m : tensor<16xf32>) -> tensor<16xf32>
  %sum = linalg.generic {indexing_maps = [#ml, #m], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x64xf32>) outs(%f_sum : tensor<16xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %in, %acc : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %e = linalg.generic {indexing_maps = [#ml, #m, #ml], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : tensor<16x64xf32>, tensor<16xf32>) outs(%e_mlh : tensor<16x64xf16>) {
  ^bb0(%in: f32, %s: f32, %out: f16):
    %d = arith.addf %in, %s : f32
    %r = math.exp %d : f32
    %h = arith.truncf %r : f32 to f16
    linalg.yield %h : f16
  } -> tensor<16x64xf16>
  %f2 = linalg.fill ins(%zero : f32) outs(%e_m : tensor<16xf32>) -> tensor<16xf32>
  %t = linalg.generic {indexing_maps = [#ml, #m], iterator_types = ["parallel", "reduction"]}
      ins(%e : tensor<16x64xf16>) outs(%f2 : tensor<16xf32>) {
  ^bb0(%in: f16, %acc: f32):
    %w = arith.extf %in : f16 to f32
    %r = arith.addf %w, %acc : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  return %t : tensor<16xf32>
}
