// RUN: spacefusion-opt %s -split-input-file --smap-analyze \
// RUN:   --remarks-filter=smap --remark-format=emitRemark -verify-diagnostics \
// RUN:   | FileCheck %s

// Attention as the paper draws it: QK = Q.K^T; Max = rowmax(QK);
// Exp = exp(QK - Max); Sum = rowsum(Exp); P = Exp / Sum; Out = P.V.

#mk = affine_map<(m, l, k) -> (m, k)>
#lk = affine_map<(m, l, k) -> (l, k)>
#ml3 = affine_map<(m, l, k) -> (m, l)>
#ml = affine_map<(m, l) -> (m, l)>
#m = affine_map<(m, l) -> (m)>
// CHECK-LABEL: func.func @attention
// CHECK: smap.graph
// CHECK-SAME: dims = [#smap.dim<"m", 64, parallel>, #smap.dim<"n", 16, parallel_recompute>, #smap.dim<"l", 128, temporal>, #smap.dim<"k", 32, temporal>]
// CHECK-SAME: smap.chains = {k = "independent reduction add(matmul0), accumulated across slices", l = "dependent reductions max(reduce_max1) -> add(reduce_add3) -> add(matmul5), rewritten by Update-then-Aggregate"}
// CHECK-SAME: smap.recompute = {n = ["matmul0", "reduce_max1", "exp2", "reduce_add3", "divf4"]}
// CHECK: linalg.matmul
// CHECK-SAME: smap.space = #smap.space<"matmul0", ["m", "l", "k"], {{\[}}[#smap.mapping<"l", o2a>], [#smap.mapping<"m", o2a>]], [#smap.mapping<"k", a2o, add>]>
// CHECK: smap.space = #smap.space<"reduce_max1", ["m", "l"], {{\[}}[]], [#smap.mapping<"l", a2o, max>]>
// CHECK: smap.space = #smap.space<"exp2", ["m", "l"], {{\[}}[], [#smap.mapping<"l", o2a>]], []>
// CHECK: smap.space = #smap.space<"reduce_add3", ["m", "l"], {{\[}}[]], [#smap.mapping<"l", a2o, add>]>
// CHECK: smap.space = #smap.space<"divf4", ["m", "l"], {{\[}}[], [#smap.mapping<"l", o2a>]], []>
// CHECK: linalg.matmul
// CHECK-SAME: smap.space = #smap.space<"matmul5", ["m", "n", "l"], {{\[}}[#smap.mapping<"n", o2a>], [#smap.mapping<"m", o2a>]], [#smap.mapping<"l", a2o, add>]>
func.func @attention(%q: tensor<64x32xf32>, %k: tensor<128x32xf32>, %v: tensor<128x16xf32>) -> tensor<64x16xf32> {
  // expected-remark @below {{dim 'm' (64) is parallel: no member reduces along it and no intermediate is broadcast along it}}
  %0 = smap.graph(%aq = %q : tensor<64x32xf32>, %ak = %k : tensor<128x32xf32>, %av = %v : tensor<128x16xf32>) -> (tensor<64x16xf32>) {
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %e_ml = tensor.empty() : tensor<64x128xf32>
    %e_m = tensor.empty() : tensor<64xf32>
    %e_mn = tensor.empty() : tensor<64x16xf32>
    %f_qk = linalg.fill ins(%zero : f32) outs(%e_ml : tensor<64x128xf32>) -> tensor<64x128xf32>
    // expected-remark @below {{dim 'k' (32) is temporal: independent reduction add(matmul0), accumulated across slices}}
    %qk = linalg.matmul indexing_maps = [#mk, #lk, #ml3]
        ins(%aq, %ak : tensor<64x32xf32>, tensor<128x32xf32>) outs(%f_qk : tensor<64x128xf32>) -> tensor<64x128xf32>
    %f_max = linalg.fill ins(%ninf : f32) outs(%e_m : tensor<64xf32>) -> tensor<64xf32>
    // expected-remark @below {{dim 'l' (128) is temporal: dependent reductions max(reduce_max1) -> add(reduce_add3) -> add(matmul5), rewritten by Update-then-Aggregate}}
    %max = linalg.generic {indexing_maps = [#ml, #m], iterator_types = ["parallel", "reduction"]}
        ins(%qk : tensor<64x128xf32>) outs(%f_max : tensor<64xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %r = arith.maximumf %in, %acc : f32
      linalg.yield %r : f32
    } -> tensor<64xf32>
    %exp = linalg.generic {indexing_maps = [#ml, #m, #ml], iterator_types = ["parallel", "parallel"]}
        ins(%qk, %max : tensor<64x128xf32>, tensor<64xf32>) outs(%e_ml : tensor<64x128xf32>) {
    ^bb0(%in: f32, %mx: f32, %out: f32):
      %d = arith.subf %in, %mx : f32
      %r = math.exp %d : f32
      linalg.yield %r : f32
    } -> tensor<64x128xf32>
    %f_sum = linalg.fill ins(%zero : f32) outs(%e_m : tensor<64xf32>) -> tensor<64xf32>
    %sum = linalg.generic {indexing_maps = [#ml, #m], iterator_types = ["parallel", "reduction"]}
        ins(%exp : tensor<64x128xf32>) outs(%f_sum : tensor<64xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %r = arith.addf %in, %acc : f32
      linalg.yield %r : f32
    } -> tensor<64xf32>
    %p = linalg.generic {indexing_maps = [#ml, #m, #ml], iterator_types = ["parallel", "parallel"]}
        ins(%exp, %sum : tensor<64x128xf32>, tensor<64xf32>) outs(%e_ml : tensor<64x128xf32>) {
    ^bb0(%in: f32, %s: f32, %out: f32):
      %r = arith.divf %in, %s : f32
      linalg.yield %r : f32
    } -> tensor<64x128xf32>
    %f_out = linalg.fill ins(%zero : f32) outs(%e_mn : tensor<64x16xf32>) -> tensor<64x16xf32>
    // expected-remark @below {{dim 'n' (16) is parallel_recompute: divf4 is broadcast into matmul5 along it; every block recomputes matmul0, reduce_max1, exp2, reduce_add3, divf4}}
    %out = linalg.matmul ins(%p, %av : tensor<64x128xf32>, tensor<128x16xf32>) outs(%f_out : tensor<64x16xf32>) -> tensor<64x16xf32>
    smap.yield %out : tensor<64x16xf32>
  }
  return %0 : tensor<64x16xf32>
}

// -----

// LayerNorm: the variance sums the square of a value shifted by the mean,
// so slicing the hidden dim needs Chan/Welford combination; the output is
// indexed by the hidden dim and is written once the statistics are final.

#id = affine_map<(m, n) -> (m, n)>
#row = affine_map<(m, n) -> (m)>
#col = affine_map<(m, n) -> (n)>
#r1 = affine_map<(m) -> (m)>
// CHECK-LABEL: func.func @layernorm
// CHECK: dims = [#smap.dim<"m", 32, parallel>, #smap.dim<"n", 256, temporal>]
// CHECK-SAME: smap.chains = {n = "dependent reductions add(reduce_add0) -> add(reduce_add4), rewritten by Update-then-Aggregate; outputs along it are written in a final pass"}
// CHECK-NOT: smap.recompute
func.func @layernorm(%x: tensor<32x256xf32>, %gamma: tensor<256xf32>) -> tensor<32x256xf32> {
  // expected-remark @below {{dim 'm' (32) is parallel}}
  %0 = smap.graph(%ax = %x : tensor<32x256xf32>, %ag = %gamma : tensor<256xf32>) -> (tensor<32x256xf32>) {
    %zero = arith.constant 0.0 : f32
    %n = arith.constant 256.0 : f32
    %eps = arith.constant 1.0e-5 : f32
    %e_row = tensor.empty() : tensor<32xf32>
    %e = tensor.empty() : tensor<32x256xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e_row : tensor<32xf32>) -> tensor<32xf32>
    // expected-remark @below {{dim 'n' (256) is temporal: dependent reductions add(reduce_add0) -> add(reduce_add4), rewritten by Update-then-Aggregate; outputs along it are written in a final pass}}
    %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%ax : tensor<32x256xf32>) outs(%f : tensor<32xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %r = arith.addf %in, %acc : f32
      linalg.yield %r : f32
    } -> tensor<32xf32>
    %mean = linalg.generic {indexing_maps = [#r1, #r1], iterator_types = ["parallel"]}
        ins(%sum : tensor<32xf32>) outs(%e_row : tensor<32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %r = arith.divf %in, %n : f32
      linalg.yield %r : f32
    } -> tensor<32xf32>
    %d = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
        ins(%ax, %mean : tensor<32x256xf32>, tensor<32xf32>) outs(%e : tensor<32x256xf32>) {
    ^bb0(%in: f32, %mu: f32, %out: f32):
      %r = arith.subf %in, %mu : f32
      linalg.yield %r : f32
    } -> tensor<32x256xf32>
    %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%d : tensor<32x256xf32>) outs(%e : tensor<32x256xf32>) {
    ^bb0(%in: f32, %out: f32):
      %r = arith.mulf %in, %in : f32
      linalg.yield %r : f32
    } -> tensor<32x256xf32>
    %vsum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%sq : tensor<32x256xf32>) outs(%f : tensor<32xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %r = arith.addf %in, %acc : f32
      linalg.yield %r : f32
    } -> tensor<32xf32>
    %rstd = linalg.generic {indexing_maps = [#r1, #r1], iterator_types = ["parallel"]}
        ins(%vsum : tensor<32xf32>) outs(%e_row : tensor<32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %v = arith.divf %in, %n : f32
      %ve = arith.addf %v, %eps : f32
      %r = math.rsqrt %ve : f32
      linalg.yield %r : f32
    } -> tensor<32xf32>
    %y = linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]}
        ins(%d, %rstd, %ag : tensor<32x256xf32>, tensor<32xf32>, tensor<256xf32>) outs(%e : tensor<32x256xf32>) {
    ^bb0(%in: f32, %s: f32, %g: f32, %out: f32):
      %a = arith.mulf %in, %s : f32
      %r = arith.mulf %a, %g : f32
      linalg.yield %r : f32
    } -> tensor<32x256xf32>
    smap.yield %y : tensor<32x256xf32>
  }
  return %0 : tensor<32x256xf32>
}

// -----

// RMSNorm feeding a GEMM: the GEMM reduces, along the hidden dim, values
// scaled by rsqrt(mean(x^2)); the factor moves after the GEMM's sum.

#id = affine_map<(m, l) -> (m, l)>
#row = affine_map<(m, l) -> (m)>
#a = affine_map<(m, n, l) -> (m, l)>
#b = affine_map<(m, n, l) -> (l, n)>
#c = affine_map<(m, n, l) -> (m, n)>
// CHECK-LABEL: func.func @rmsnorm_gemm
// CHECK: dims = [#smap.dim<"m", 16, parallel>, #smap.dim<"n", 32, parallel_recompute>, #smap.dim<"l", 64, temporal>]
// CHECK-SAME: smap.chains = {l = "dependent reductions add(reduce_add0) -> add(contract2), rewritten by Update-then-Aggregate"}
// CHECK-SAME: smap.recompute = {n = ["reduce_add0", "mulf1"]}
func.func @rmsnorm_gemm(%x: tensor<16x64xf32>, %w: tensor<64x32xf32>) -> tensor<16x32xf32> {
  // expected-remark @below {{dim 'm' (16) is parallel}}
  %0 = smap.graph(%ax = %x : tensor<16x64xf32>, %aw = %w : tensor<64x32xf32>) -> (tensor<16x32xf32>) {
    %zero = arith.constant 0.0 : f32
    %e_row = tensor.empty() : tensor<16xf32>
    %e = tensor.empty() : tensor<16x64xf32>
    %e_out = tensor.empty() : tensor<16x32xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e_row : tensor<16xf32>) -> tensor<16xf32>
    // expected-remark @below {{dim 'l' (64) is temporal: dependent reductions add(reduce_add0) -> add(contract2), rewritten by Update-then-Aggregate}}
    %ss = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%ax : tensor<16x64xf32>) outs(%f : tensor<16xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %sq = arith.mulf %in, %in : f32
      %r = arith.addf %sq, %acc : f32
      linalg.yield %r : f32
    } -> tensor<16xf32>
    %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
        ins(%ax, %ss : tensor<16x64xf32>, tensor<16xf32>) outs(%e : tensor<16x64xf32>) {
    ^bb0(%in: f32, %s: f32, %out: f32):
      %r = math.rsqrt %s : f32
      %v = arith.mulf %in, %r : f32
      linalg.yield %v : f32
    } -> tensor<16x64xf32>
    %fo = linalg.fill ins(%zero : f32) outs(%e_out : tensor<16x32xf32>) -> tensor<16x32xf32>
    // expected-remark @below {{dim 'n' (32) is parallel_recompute: mulf1 is broadcast into contract2 along it; every block recomputes reduce_add0, mulf1}}
    %o = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%y, %aw : tensor<16x64xf32>, tensor<64x32xf32>) outs(%fo : tensor<16x32xf32>) {
    ^bb0(%in: f32, %wv: f32, %acc: f32):
      %p = arith.mulf %in, %wv : f32
      %r = arith.addf %acc, %p : f32
      linalg.yield %r : f32
    } -> tensor<16x32xf32>
    smap.yield %o : tensor<16x32xf32>
  }
  return %0 : tensor<16x32xf32>
}

// -----

// sum(tanh(x - max)): tanh keeps the max inside a nonlinearity that no
// update function can correct, so the dim is not sliced.

#id = affine_map<(m, n) -> (m, n)>
#row = affine_map<(m, n) -> (m)>
// CHECK-LABEL: func.func @not_sliceable
// CHECK: dims = [#smap.dim<"m", 8, parallel>, #smap.dim<"k", 32, not_sliceable>]
// CHECK-SAME: smap.not_sliceable = {k = "reduced by max(reduce_max0) -> add(reduce_add1); not sliceable: reduce_add1 reduces (add) a value that mixes an earlier reduction with the data (mixed by math.tanh), which no update function can correct slice by slice"}
func.func @not_sliceable(%x: tensor<8x32xf32>) -> tensor<8xf32> {
  // expected-remark @below {{dim 'm' (8) is parallel}}
  %0 = smap.graph(%ax = %x : tensor<8x32xf32>) -> (tensor<8xf32>) {
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %e = tensor.empty() : tensor<8xf32>
    %fm = linalg.fill ins(%ninf : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%ax : tensor<8x32xf32>) outs(%fm : tensor<8xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %r = arith.maximumf %in, %acc : f32
      linalg.yield %r : f32
    } -> tensor<8xf32>
    %fs = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    // expected-remark @below {{dim 'k' (32) is not_sliceable: reduced by max(reduce_max0) -> add(reduce_add1); not sliceable: reduce_add1 reduces (add) a value that mixes an earlier reduction with the data (mixed by math.tanh)}}
    %s = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
        ins(%ax, %max : tensor<8x32xf32>, tensor<8xf32>) outs(%fs : tensor<8xf32>) {
    ^bb0(%in: f32, %mx: f32, %acc: f32):
      %d = arith.subf %in, %mx : f32
      %t = math.tanh %d : f32
      %r = arith.addf %t, %acc : f32
      linalg.yield %r : f32
    } -> tensor<8xf32>
    smap.yield %s : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}

// -----

// A reduction whose body is not an associative combiner.

#id = affine_map<(m, n) -> (m, n)>
#row = affine_map<(m, n) -> (m)>
// CHECK-LABEL: func.func @unknown_combiner
// CHECK: dims = [#smap.dim<"m", 8, parallel>, #smap.dim<"k", 32, not_sliceable>]
// CHECK-SAME: smap.not_sliceable = {k = "not sliceable: reduce0 reduces with a body that is not an add, max, min or mul combiner"}
// CHECK: smap.space = #smap.space<"reduce0", ["m", "k"], {{\[}}[]], []>
func.func @unknown_combiner(%x: tensor<8x32xf32>, %init: tensor<8xf32>) -> tensor<8xf32> {
  // expected-remark @below {{dim 'm' (8) is parallel}}
  %0 = smap.graph(%ax = %x : tensor<8x32xf32>, %ai = %init : tensor<8xf32>) -> (tensor<8xf32>) {
    // expected-remark @below {{dim 'k' (32) is not_sliceable}}
    %r = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%ax : tensor<8x32xf32>) outs(%ai : tensor<8xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %v = arith.subf %acc, %in : f32
      linalg.yield %v : f32
    } -> tensor<8xf32>
    smap.yield %r : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}

// -----

// linalg.softmax is one space with a max and a sum along its dimension.

// CHECK-LABEL: func.func @named_softmax
// CHECK: dims = [#smap.dim<"m", 4, parallel>, #smap.dim<"n", 64, temporal>]
// CHECK-SAME: smap.chains = {n = "dependent reductions max(softmax0) -> add(softmax0), rewritten by Update-then-Aggregate; outputs along it are written in a final pass"}
// CHECK: linalg.softmax
// CHECK-SAME: smap.space = #smap.space<"softmax0", ["m", "n"], {{\[}}[]], [#smap.mapping<"n", a2o, max>, #smap.mapping<"n", a2o, add>]>
func.func @named_softmax(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  // expected-remark @below {{dim 'm' (4) is parallel}}
  %0 = smap.graph(%ax = %x : tensor<4x64xf32>) -> (tensor<4x64xf32>) {
    %e = tensor.empty() : tensor<4x64xf32>
    // expected-remark @below {{dim 'n' (64) is temporal}}
    %s = linalg.softmax dimension(1) ins(%ax : tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) -> tensor<4x64xf32>
    smap.yield %s : tensor<4x64xf32>
  }
  return %0 : tensor<4x64xf32>
}

// -----

// Reshapes align dims through them: the collapsed batch dim is the pair
// (b, m) of the output's dims, and the expansion splits it back into them.

#in3 = affine_map<(bh, m, k) -> (bh, m, k)>
#out3 = affine_map<(bh, m, k) -> (bh, m)>
// CHECK-LABEL: func.func @reshapes
// CHECK: dims = [#smap.dim<"b", 2, parallel>, #smap.dim<"m", 4, parallel>, #smap.dim<"n", 8, parallel>, #smap.dim<"k", 16, temporal>]
// CHECK: tensor.collapse_shape
// CHECK-SAME: smap.space = #smap.space<"collapse_shape0", ["b", "m", "n", "k"], {{\[}}[]], []>
// CHECK: linalg.generic
// CHECK-SAME: smap.space = #smap.space<"reduce_add1", ["b", "m", "n", "k"], {{\[}}[]], [#smap.mapping<"k", a2o, add>]>
// CHECK: tensor.expand_shape
// CHECK-SAME: smap.space = #smap.space<"expand_shape2", ["b", "m", "n"], {{\[}}[]], []>
func.func @reshapes(%x: tensor<2x4x8x16xf32>) -> tensor<2x4x8xf32> {
  // expected-remark @below {{dim 'b' (2) is parallel}}
  // expected-remark @below {{dim 'm' (4) is parallel}}
  // expected-remark @below {{dim 'n' (8) is parallel}}
  %0 = smap.graph(%ax = %x : tensor<2x4x8x16xf32>) -> (tensor<2x4x8xf32>) {
    %zero = arith.constant 0.0 : f32
    %c = tensor.collapse_shape %ax [[0, 1], [2], [3]] : tensor<2x4x8x16xf32> into tensor<8x8x16xf32>
    %e = tensor.empty() : tensor<8x8xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
    // expected-remark @below {{dim 'k' (16) is temporal: independent reduction add(reduce_add1)}}
    %s = linalg.generic {indexing_maps = [#in3, #out3], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%c : tensor<8x8x16xf32>) outs(%f : tensor<8x8xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %r = arith.addf %in, %acc : f32
      linalg.yield %r : f32
    } -> tensor<8x8xf32>
    %x2 = tensor.expand_shape %s [[0, 1], [2]] output_shape [2, 4, 8] : tensor<8x8xf32> into tensor<2x4x8xf32>
    smap.yield %x2 : tensor<2x4x8xf32>
  }
  return %0 : tensor<2x4x8xf32>
}

// -----

// A member the SMG cannot describe is an error, not a silent guess.

func.func @pad_inside(%x: tensor<4xf32>) -> tensor<6xf32> {
  %0 = smap.graph(%ax = %x : tensor<4xf32>) -> (tensor<6xf32>) {
    %zero = arith.constant 0.0 : f32
    // expected-error @below {{'tensor.pad' op cannot be described by the Space-Mapping Graph: 'tensor.pad' is not a structured op with globally ranged mappings}}
    %p = tensor.pad %ax low[1] high[1] {
    ^bb0(%i: index):
      tensor.yield %zero : f32
    } : tensor<4xf32> to tensor<6xf32>
    smap.yield %p : tensor<6xf32>
  }
  return %0 : tensor<6xf32>
}
