// RUN: spacefusion-opt %s -split-input-file --smap-temporal-slice \
// RUN:   --remarks-filter=smap --remark-format=emitRemark -verify-diagnostics | FileCheck %s

// Attention in the mixed-precision form frontends emit: f16 operands
// extended inside the contraction bodies, and the probabilities rounded to
// f16 (arith.truncf) in the normalizing generic before the second
// contraction. The rounding does not stop the online softmax: inside the
// loop the slice's exp(S - m_running) is rounded without the postponed
// 1/sum, and the sum divides the f32 accumulator after the loop. (The
// rounding error stays one f16 rounding per probability; see
// docs/Rationale.md, "Rounding inside a rescaled chain".)

// CHECK-LABEL: func.func @attention_rounded_p
// CHECK: %[[R:.*]]:3 = smap.temporal_slice #smap.dim<"l", 64, temporal> step 16
// CHECK-SAME: : tensor<16xf32>, tensor<16xf32>, tensor<16x4xf32>
// The slice's probabilities: exp(S - m), divided by 1, rounded to f16.
// CHECK: %[[P:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<16x16xf16>)
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[Q:.*]] = arith.divf %{{.*}}, %[[ONE]] : f32
// CHECK: arith.truncf %[[Q]] : f32 to f16
// The second contraction reads them as f16, extended in its body.
// CHECK: linalg.generic {{.*}} ins(%[[P]], %{{.*}} : tensor<16x16xf16>, tensor<16x4xf16>)
// CHECK: arith.extf
// CHECK: } update {
// CHECK: smap.yield
// The postponed division, once, in f32.
// CHECK: linalg.generic {{.*}} ins(%[[R]]#2, %[[R]]#1 : tensor<16x4xf32>, tensor<16xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.divf {{.*}} : f32
#mk = affine_map<(m, l, k) -> (m, k)>
#lk = affine_map<(m, l, k) -> (l, k)>
#ml3 = affine_map<(m, l, k) -> (m, l)>
#ml = affine_map<(m, l) -> (m, l)>
#m = affine_map<(m, l) -> (m)>
#mnl_p = affine_map<(m, n, l) -> (m, l)>
#mnl_v = affine_map<(m, n, l) -> (l, n)>
#mnl_o = affine_map<(m, n, l) -> (m, n)>
func.func @attention_rounded_p(%q: tensor<16x8xf16>, %k: tensor<64x8xf16>, %v: tensor<64x4xf16>) -> tensor<16x4xf32> {
  // expected-remark @below {{dim 'l' sliced temporally by 16: reduce_max1 accumulated (max); reduce_add3 rescaled; contract5 rescaled, with 1 factor(s) applied after the loop}}
  %0 = smap.graph(%aq = %q : tensor<16x8xf16>, %ak = %k : tensor<64x8xf16>, %av = %v : tensor<64x4xf16>) -> (tensor<16x4xf32>) attributes {
      dims = [#smap.dim<"m", 16, parallel>, #smap.dim<"n", 4, parallel_recompute>, #smap.dim<"l", 64, temporal>, #smap.dim<"k", 8, temporal>],
      schedule = #smap.schedule<spatial = [], temporal = [l = 16], grid = [], threads = 1, smem = 0, regs = 0>} {
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %e_ml = tensor.empty() : tensor<16x64xf32>
    %e_mlh = tensor.empty() : tensor<16x64xf16>
    %e_m = tensor.empty() : tensor<16xf32>
    %e_mn = tensor.empty() : tensor<16x4xf32>
    %f_qk = linalg.fill ins(%zero : f32) outs(%e_ml : tensor<16x64xf32>) -> tensor<16x64xf32>
    %qk = linalg.generic {indexing_maps = [#mk, #lk, #ml3], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%aq, %ak : tensor<16x8xf16>, tensor<64x8xf16>) outs(%f_qk : tensor<16x64xf32>) {
    ^bb0(%a: f16, %b: f16, %acc: f32):
      %a32 = arith.extf %a : f16 to f32
      %b32 = arith.extf %b : f16 to f32
      %p = arith.mulf %a32, %b32 : f32
      %r = arith.addf %acc, %p : f32
      linalg.yield %r : f32
    } -> tensor<16x64xf32>
    %f_max = linalg.fill ins(%ninf : f32) outs(%e_m : tensor<16xf32>) -> tensor<16xf32>
    %max = linalg.generic {indexing_maps = [#ml, #m], iterator_types = ["parallel", "reduction"]}
        ins(%qk : tensor<16x64xf32>) outs(%f_max : tensor<16xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %r = arith.maximumf %in, %acc : f32
      linalg.yield %r : f32
    } -> tensor<16xf32>
    %exp = linalg.generic {indexing_maps = [#ml, #m, #ml], iterator_types = ["parallel", "parallel"]}
        ins(%qk, %max : tensor<16x64xf32>, tensor<16xf32>) outs(%e_ml : tensor<16x64xf32>) {
    ^bb0(%in: f32, %mx: f32, %out: f32):
      %d = arith.subf %in, %mx : f32
      %r = math.exp %d : f32
      linalg.yield %r : f32
    } -> tensor<16x64xf32>
    %f_sum = linalg.fill ins(%zero : f32) outs(%e_m : tensor<16xf32>) -> tensor<16xf32>
    %sum = linalg.generic {indexing_maps = [#ml, #m], iterator_types = ["parallel", "reduction"]}
        ins(%exp : tensor<16x64xf32>) outs(%f_sum : tensor<16xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %r = arith.addf %in, %acc : f32
      linalg.yield %r : f32
    } -> tensor<16xf32>
    %p = linalg.generic {indexing_maps = [#ml, #m, #ml], iterator_types = ["parallel", "parallel"]}
        ins(%exp, %sum : tensor<16x64xf32>, tensor<16xf32>) outs(%e_mlh : tensor<16x64xf16>) {
    ^bb0(%in: f32, %s: f32, %out: f16):
      %r = arith.divf %in, %s : f32
      %h = arith.truncf %r : f32 to f16
      linalg.yield %h : f16
    } -> tensor<16x64xf16>
    %f_out = linalg.fill ins(%zero : f32) outs(%e_mn : tensor<16x4xf32>) -> tensor<16x4xf32>
    %out = linalg.generic {indexing_maps = [#mnl_p, #mnl_v, #mnl_o], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%p, %av : tensor<16x64xf16>, tensor<64x4xf16>) outs(%f_out : tensor<16x4xf32>) {
    ^bb0(%a: f16, %b: f16, %acc: f32):
      %a32 = arith.extf %a : f16 to f32
      %b32 = arith.extf %b : f16 to f32
      %pr = arith.mulf %a32, %b32 : f32
      %r = arith.addf %acc, %pr : f32
      linalg.yield %r : f32
    } -> tensor<16x4xf32>
    smap.yield %out : tensor<16x4xf32>
  }
  return %0 : tensor<16x4xf32>
}

// -----

// A rounded exp(x + c), c a running sum: inside the loop it would be
// rounded at a magnitude the unfused program never reaches. The SMG makes
// the slicer's plan when it classifies the dim, so the dim is not_sliceable
// and a schedule given for it is refused with that reason.
#ml = affine_map<(m, l) -> (m, l)>
#m = affine_map<(m, l) -> (m)>
func.func @rounded_exp_of_sum(%x: tensor<16x64xf32>) -> tensor<16xf32> {
  // expected-remark @below {{dim 'l' not sliced temporally: reduced by add(reduce_add0) -> add(reduce_add2); not sliceable: the temporal slicer cannot rewrite it (truncf1 rounds exp(x + c) or exp(x - c) with c not a running maximum, whose unnormalized value is unbounded)}}
  %0 = smap.graph(%ax = %x : tensor<16x64xf32>) -> (tensor<16xf32>) attributes {
      dims = [#smap.dim<"m", 16, parallel>, #smap.dim<"l", 64, temporal>],
      schedule = #smap.schedule<spatial = [], temporal = [l = 16], grid = [], threads = 1, smem = 0, regs = 0>} {
    %zero = arith.constant 0.0 : f32
    %e_m = tensor.empty() : tensor<16xf32>
    %e_mlh = tensor.empty() : tensor<16x64xf16>
    %f_sum = linalg.fill ins(%zero : f32) outs(%e_m : tensor<16xf32>) -> tensor<16xf32>
    %sum = linalg.generic {indexing_maps = [#ml, #m], iterator_types = ["parallel", "reduction"]}
        ins(%ax : tensor<16x64xf32>) outs(%f_sum : tensor<16xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %r = arith.addf %in, %acc : f32
      linalg.yield %r : f32
    } -> tensor<16xf32>
    %e = linalg.generic {indexing_maps = [#ml, #m, #ml], iterator_types = ["parallel", "parallel"]}
        ins(%ax, %sum : tensor<16x64xf32>, tensor<16xf32>) outs(%e_mlh : tensor<16x64xf16>) {
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
    smap.yield %t : tensor<16xf32>
  }
  return %0 : tensor<16xf32>
}
