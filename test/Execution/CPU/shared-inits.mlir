// Ops that share one destination (a tensor.empty or a linalg.fill, what
// `cse` leaves) are fused and sliced correctly: a destination the op does
// not read is not a data dependence, so smap-form-graphs / smap-analyze give
// each member its own copy before the SMG aligns dims. Fused against unfused
// on the CPU, with the searched schedule and with forced slices.
// Each part failed before (transpose_chain: 4032/4096 outputs wrong,
// shared_fill: 992/1024, attention_prescaled: m and l merged,
// multi_result_conflict: 240/256 in both outputs).

// RUN: split-file %s %t
// RUN: spacefusion-run %t/add_transpose_mul.mlir | FileCheck %s
// RUN: spacefusion-run %t/add_transpose_mul.mlir --spatial=m:8,n:16 | FileCheck %s
// RUN: spacefusion-run %t/transpose_chain.mlir | FileCheck %s
// RUN: spacefusion-run %t/transpose_chain.mlir --spatial=m:8,n:16 | FileCheck %s
// RUN: spacefusion-run %t/shared_fill.mlir | FileCheck %s
// RUN: not spacefusion-run %t/shared_fill.mlir --temporal=k:8 2>&1 | FileCheck %s --check-prefix=DIAGONAL
// RUN: spacefusion-run %t/attention_prescaled.mlir | FileCheck %s
// RUN: spacefusion-run %t/multi_result_conflict.mlir | FileCheck %s
// RUN: spacefusion-run %t/multi_result_conflict.mlir --spatial=m:4 | FileCheck %s
// RUN: spacefusion-run %t/attention_prescaled.mlir --spatial=h:1,m:8 --temporal=l:8 | FileCheck %s --check-prefixes=CHECK,SLICED

// SLICED: temporally sliced
// shared_fill's contractions read A as (m, k) and (n, k), so m and n are one
// dim and A.B's result is a diagonal: the temporal slicer's state updates
// cannot be written for it, and the SMG says so when it classifies k (it
// used to accept k, and the slicer then dropped the forced slice).
// DIAGONAL: error: invalid schedule: dim 'k' is not_sliceable and cannot be sliced temporally
// DIAGONAL-SAME: contract0 has one dim on two axes of its result (a diagonal)
// CHECK: PASS

//--- add_transpose_mul.mlir
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
// Upstream's add_transpose_mul_fusion (fusion-elementwise-ops.mlir) with
// static shapes: one tensor.empty is the destination of both generics.
func.func @add_transpose_mul(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>,
                             %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %0 = linalg.generic {indexing_maps = [#id, #tr, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>)
      outs(%e : tensor<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<64x64xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%0, %c : tensor<64x64xf32>, tensor<64x64xf32>)
      outs(%e : tensor<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    linalg.yield %p : f32
  } -> tensor<64x64xf32>
  return %1 : tensor<64x64xf32>
}

//--- transpose_chain.mlir
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
// A transpose chain through one init: z = transpose(transpose(x) + 1) * c.
func.func @transpose_chain(%x: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %one = arith.constant 1.0 : f32
  %0 = linalg.generic {indexing_maps = [#tr, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.addf %v, %one : f32
    linalg.yield %s : f32
  } -> tensor<64x64xf32>
  %1 = linalg.transpose ins(%0 : tensor<64x64xf32>)
                        outs(%e : tensor<64x64xf32>) permutation = [1, 0]
  %2 = linalg.generic {indexing_maps = [#id, #id, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%1, %c : tensor<64x64xf32>, tensor<64x64xf32>)
      outs(%e : tensor<64x64xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %s = arith.mulf %v, %w : f32
    linalg.yield %s : f32
  } -> tensor<64x64xf32>
  return %2 : tensor<64x64xf32>
}

//--- shared_fill.mlir
#id = affine_map<(d0, d1) -> (d0, d1)>
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#nm = affine_map<(m, n, k) -> (n, m)>
// Two contractions accumulate into one zero fill, the second writing its
// result transposed: y = A.B + (A.B)^T.
func.func @shared_fill(%a: tensor<32x32xf32>, %b: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<32x32xf32>, tensor<32x32xf32>)
                     outs(%f : tensor<32x32xf32>) -> tensor<32x32xf32>
  %1 = linalg.generic {indexing_maps = [#mk, #kn, #nm],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<32x32xf32>, tensor<32x32xf32>)
      outs(%f : tensor<32x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<32x32xf32>
  %2 = linalg.generic {indexing_maps = [#id, #id, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%0, %1 : tensor<32x32xf32>, tensor<32x32xf32>)
      outs(%e : tensor<32x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<32x32xf32>
  return %2 : tensor<32x32xf32>
}

//--- attention_prescaled.mlir
#q4 = affine_map<(b, h, m, d) -> (b, h, m, d)>
#qk_q = affine_map<(b, h, m, l, d) -> (b, h, m, d)>
#qk_k = affine_map<(b, h, m, l, d) -> (b, h, l, d)>
#qk_s = affine_map<(b, h, m, l, d) -> (b, h, m, l)>
#s4 = affine_map<(b, h, m, l) -> (b, h, m, l)>
#row = affine_map<(b, h, m, l) -> (b, h, m)>
#pv_p = affine_map<(b, h, m, n, l) -> (b, h, m, l)>
#pv_v = affine_map<(b, h, m, n, l) -> (b, h, l, n)>
#pv_o = affine_map<(b, h, m, n, l) -> (b, h, m, n)>
// Attention with Q and K pre-scaled into one shared empty (queries and keys
// have the same length, so `cse` merges their inits), then online softmax.
func.func @attention_prescaled(%q: tensor<1x2x32x16xf32>, %k: tensor<1x2x32x16xf32>,
                               %v: tensor<1x2x32x16xf32>) -> tensor<1x2x32x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.5 : f32
  %e4 = tensor.empty() : tensor<1x2x32x16xf32>
  %qs = linalg.generic {indexing_maps = [#q4, #q4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%q : tensor<1x2x32x16xf32>) outs(%e4 : tensor<1x2x32x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %scale : f32
    linalg.yield %y : f32
  } -> tensor<1x2x32x16xf32>
  %ks = linalg.generic {indexing_maps = [#q4, #q4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%k : tensor<1x2x32x16xf32>) outs(%e4 : tensor<1x2x32x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %scale : f32
    linalg.yield %y : f32
  } -> tensor<1x2x32x16xf32>
  %es = tensor.empty() : tensor<1x2x32x32xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%es : tensor<1x2x32x32xf32>) -> tensor<1x2x32x32xf32>
  %s = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%qs, %ks : tensor<1x2x32x16xf32>, tensor<1x2x32x16xf32>) outs(%sz : tensor<1x2x32x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %a = arith.addf %acc, %p : f32
    linalg.yield %a : f32
  } -> tensor<1x2x32x32xf32>
  %er = tensor.empty() : tensor<1x2x32xf32>
  %mf = linalg.fill ins(%ninf : f32) outs(%er : tensor<1x2x32xf32>) -> tensor<1x2x32xf32>
  %max = linalg.generic {indexing_maps = [#s4, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%s : tensor<1x2x32x32xf32>) outs(%mf : tensor<1x2x32xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.maximumf %x, %acc : f32
    linalg.yield %m : f32
  } -> tensor<1x2x32xf32>
  %exp = linalg.generic {indexing_maps = [#s4, #row, #s4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %max : tensor<1x2x32x32xf32>, tensor<1x2x32xf32>) outs(%es : tensor<1x2x32x32xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %d = arith.subf %x, %m : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<1x2x32x32xf32>
  %sf = linalg.fill ins(%zero : f32) outs(%er : tensor<1x2x32xf32>) -> tensor<1x2x32xf32>
  %sum = linalg.generic {indexing_maps = [#s4, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%exp : tensor<1x2x32x32xf32>) outs(%sf : tensor<1x2x32xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %a = arith.addf %x, %acc : f32
    linalg.yield %a : f32
  } -> tensor<1x2x32xf32>
  %p = linalg.generic {indexing_maps = [#s4, #row, #s4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%exp, %sum : tensor<1x2x32x32xf32>, tensor<1x2x32xf32>) outs(%es : tensor<1x2x32x32xf32>) {
  ^bb0(%x: f32, %t: f32, %o: f32):
    %y = arith.divf %x, %t : f32
    linalg.yield %y : f32
  } -> tensor<1x2x32x32xf32>
  %of = linalg.fill ins(%zero : f32) outs(%e4 : tensor<1x2x32x16xf32>) -> tensor<1x2x32x16xf32>
  %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<1x2x32x32xf32>, tensor<1x2x32x16xf32>) outs(%of : tensor<1x2x32x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %a = arith.addf %acc, %m : f32
    linalg.yield %a : f32
  } -> tensor<1x2x32x16xf32>
  return %o : tensor<1x2x32x16xf32>
}

//--- multi_result_conflict.mlir
// IREE's multi_result_conflict_no_fusion after `cse`: one generic writes a
// value and its transpose into one shared empty; n was lost.
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
func.func @multi_result_conflict(%x: tensor<16x16xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>) {
  %e0 = tensor.empty() : tensor<16x16xf32>
  %e1 = tensor.empty() : tensor<16x16xf32>
  %0:2 = linalg.generic {indexing_maps = [#id, #id, #tr], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x16xf32>) outs(%e0, %e0 : tensor<16x16xf32>, tensor<16x16xf32>) {
  ^bb0(%v: f32, %o0: f32, %o1: f32):
    %a = arith.addf %v, %v : f32
    linalg.yield %a, %a : f32, f32
  } -> (tensor<16x16xf32>, tensor<16x16xf32>)
  return %0#0, %0#1 : tensor<16x16xf32>, tensor<16x16xf32>
}
