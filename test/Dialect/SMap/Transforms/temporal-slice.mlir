// RUN: spacefusion-opt %s -split-input-file --smap-temporal-slice \
// RUN:   --remarks-filter=smap --remark-format=emitRemark -verify-diagnostics | FileCheck %s

// Attention sliced along l comes out as online softmax: a running max with
// maximumf from -inf, a sum and an accumulator rescaled by exp(m_old - m_new)
// in the update region, and one final divide after the loop.

// CHECK-LABEL: func.func @attention
// CHECK: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[MAX0:.*]] = linalg.fill ins(%[[NINF]] : f32)
// CHECK: %[[R:.*]]:3 = smap.temporal_slice #smap.dim<"l", 64, temporal> step 16 inits(%[[MAX0]], %{{.*}}, %{{.*}}) : tensor<16xf32>, tensor<16xf32>, tensor<16x4xf32>
// CHECK-NEXT: ^bb0(%[[OFF:.*]]: index, %[[M:.*]]: tensor<16xf32>, %[[L:.*]]: tensor<16xf32>, %[[ACC:.*]]: tensor<16x4xf32>):
// CHECK: tensor.extract_slice %{{.*}}[%[[OFF]], 0] [16, 8] [1, 1] : tensor<64x8xf32> to tensor<16x8xf32>
// CHECK: %[[S:.*]] = linalg.matmul
// The slice's max starts from -inf and combines with maximumf.
// CHECK: %[[SNINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[SMAXINIT:.*]] = linalg.fill ins(%[[SNINF]] : f32)
// CHECK: %[[SMAX:.*]] = linalg.generic {{.*}} ins(%[[S]] : tensor<16x16xf32>) outs(%[[SMAXINIT]] : tensor<16xf32>)
// CHECK: arith.maximumf
// CHECK: %[[MNEW:.*]] = linalg.generic {{.*}} ins(%[[M]], %[[SMAX]] : tensor<16xf32>, tensor<16xf32>)
// CHECK: arith.maximumf
// exp(S - m_new'), summed from 0, where m_new' is m_new with an infinite
// max (a row masked so far) replaced by 0.
// CHECK: %[[MSAFE:.*]] = linalg.generic {{.*}} ins(%[[MNEW]] : tensor<16xf32>)
// CHECK: %[[ABS:.*]] = math.absf
// CHECK: %[[INF:.*]] = arith.cmpf oeq, %[[ABS]]
// CHECK: arith.select %[[INF]]
// CHECK: %[[P:.*]] = linalg.generic {{.*}} ins(%[[S]], %[[MSAFE]] : tensor<16x16xf32>, tensor<16xf32>)
// CHECK: arith.subf
// CHECK: math.exp
// The division by the sum is postponed: P.V reads the slice's P itself,
// no division by 1 and no copy of P in between.
// CHECK-NOT: arith.divf
// CHECK: %[[PV:.*]] = linalg.matmul ins(%[[P]], %{{.*}} : tensor<16x16xf32>, tensor<16x4xf32>)
// CHECK: smap.yield %[[OFF]], %[[SMAX]], %{{.*}}, %[[M]], %[[MNEW]], %[[PV]], %[[M]], %[[MNEW]]
// CHECK: } update {
// CHECK: %[[FIRST:.*]] = arith.cmpi eq
// New max: combine.
// CHECK: linalg.generic
// CHECK: arith.maximumf
// Running sum: l * exp(-(m_new - m_old)) + slice sum.
// CHECK: linalg.generic
// CHECK: %[[D1:.*]] = arith.subf
// CHECK: %[[N1:.*]] = arith.negf %[[D1]]
// CHECK: %[[A1:.*]] = math.exp %[[N1]]
// CHECK: arith.select %[[FIRST]], %{{.*}}, %[[A1]]
// CHECK: arith.mulf
// CHECK: arith.addf
// Accumulator: the same rescale.
// CHECK: linalg.generic
// CHECK: math.exp
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: smap.yield
// One final divide.
// CHECK: %[[OUT:.*]] = linalg.generic {{.*}} ins(%[[R]]#2, %[[R]]#1 : tensor<16x4xf32>, tensor<16xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.divf
// CHECK: smap.yield %[[OUT]]
#mk = affine_map<(m, l, k) -> (m, k)>
#lk = affine_map<(m, l, k) -> (l, k)>
#ml3 = affine_map<(m, l, k) -> (m, l)>
#ml = affine_map<(m, l) -> (m, l)>
#m = affine_map<(m, l) -> (m)>
func.func @attention(%q: tensor<16x8xf32>, %k: tensor<64x8xf32>, %v: tensor<64x4xf32>) -> tensor<16x4xf32> {
  // expected-remark @below {{dim 'l' sliced temporally by 16: reduce_max1 accumulated (max); reduce_add3 rescaled; matmul5 rescaled, with 1 factor(s) applied after the loop}}
  %0 = smap.graph(%aq = %q : tensor<16x8xf32>, %ak = %k : tensor<64x8xf32>, %av = %v : tensor<64x4xf32>) -> (tensor<16x4xf32>) attributes {
      dims = [#smap.dim<"m", 16, parallel>, #smap.dim<"n", 4, parallel_recompute>, #smap.dim<"l", 64, temporal>, #smap.dim<"k", 8, temporal>],
      schedule = #smap.schedule<spatial = [], temporal = [l = 16], grid = [], threads = 1, smem = 0, regs = 0>} {
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %e_ml = tensor.empty() : tensor<16x64xf32>
    %e_m = tensor.empty() : tensor<16xf32>
    %e_mn = tensor.empty() : tensor<16x4xf32>
    %f_qk = linalg.fill ins(%zero : f32) outs(%e_ml : tensor<16x64xf32>) -> tensor<16x64xf32>
    %qk = linalg.matmul indexing_maps = [#mk, #lk, #ml3]
        ins(%aq, %ak : tensor<16x8xf32>, tensor<64x8xf32>) outs(%f_qk : tensor<16x64xf32>) -> tensor<16x64xf32>
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
        ins(%exp, %sum : tensor<16x64xf32>, tensor<16xf32>) outs(%e_ml : tensor<16x64xf32>) {
    ^bb0(%in: f32, %s: f32, %out: f32):
      %r = arith.divf %in, %s : f32
      linalg.yield %r : f32
    } -> tensor<16x64xf32>
    %f_out = linalg.fill ins(%zero : f32) outs(%e_mn : tensor<16x4xf32>) -> tensor<16x4xf32>
    %out = linalg.matmul ins(%p, %av : tensor<16x64xf32>, tensor<64x4xf32>) outs(%f_out : tensor<16x4xf32>) -> tensor<16x4xf32>
    smap.yield %out : tensor<16x4xf32>
  }
  return %0 : tensor<16x4xf32>
}

// -----

// LayerNorm sliced along its hidden dim: the mean is a running sum, the
// variance a sum of squares around the running mean, carried with its
// shifted sum L and combined by the shift formula (Chan/Welford); the
// output is written by a final pass once mean and variance are final.

// CHECK-LABEL: func.func @layernorm
// CHECK: %[[R:.*]]:3 = smap.temporal_slice #smap.dim<"n", 256, temporal> step 64 inits(
// CHECK-SAME: -> tensor<32xf32>, tensor<32xf32>, tensor<32xf32> slice {
// CHECK: } update {
// CHECK-NEXT: ^bb0(%[[SUM:.*]]: tensor<32xf32>, %[[Q:.*]]: tensor<32xf32>, %[[LSUM:.*]]: tensor<32xf32>, %[[OFF:.*]]: index,
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[OFF]]
// Q' = Q + 2 d L + n d^2 + q, d = c_old - c_new.
// CHECK: linalg.generic {{.*}} ins(%[[Q]], %{{.*}}, %[[LSUM]],
// CHECK: %[[D:.*]] = arith.subf
// CHECK: %[[DD:.*]] = arith.select %[[FIRST]], %{{.*}}, %[[D]]
// CHECK: arith.constant 2.000000e+00 : f32
// CHECK: arith.mulf
// CHECK: arith.mulf %[[DD]], %[[DD]]
// L' = L + n d + l.
// CHECK: linalg.generic {{.*}} ins(%[[Q]], %{{.*}}, %[[LSUM]],
// CHECK: smap.yield
// The output, from the final statistics.
// CHECK: smap.temporal_slice #smap.dim<"n", 256, temporal> step 64 inits(%{{.*}}) : tensor<32x256xf32> -> tensor<32x256xf32> {smap.final_pass} slice {
// CHECK: tensor.insert_slice


// LayerNorm: the variance sums the square of a value shifted by the mean,
// so slicing the hidden dim needs Chan/Welford combination; the output is
// indexed by the hidden dim and is written once the statistics are final.

#id = affine_map<(m, n) -> (m, n)>
#row = affine_map<(m, n) -> (m)>
#col = affine_map<(m, n) -> (n)>
#r1 = affine_map<(m) -> (m)>
func.func @layernorm(%x: tensor<32x256xf32>, %gamma: tensor<256xf32>) -> tensor<32x256xf32> {
  // expected-remark @below {{dim 'n' sliced temporally by 64: reduce_add0 accumulated (add); reduce_add4 combined by the shift formula (Chan/Welford)}}
  %0 = smap.graph(%ax = %x : tensor<32x256xf32>, %ag = %gamma : tensor<256xf32>) -> (tensor<32x256xf32>) attributes {dims = [#smap.dim<"m", 32, parallel>, #smap.dim<"n", 256, temporal>], schedule = #smap.schedule<spatial = [], temporal = [n = 64], grid = [], threads = 1, smem = 0, regs = 0>} {
    %zero = arith.constant 0.0 : f32
    %n = arith.constant 256.0 : f32
    %eps = arith.constant 1.0e-5 : f32
    %e_row = tensor.empty() : tensor<32xf32>
    %e = tensor.empty() : tensor<32x256xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e_row : tensor<32xf32>) -> tensor<32xf32>
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

// sum(tanh(x - max)) has no update function: the graph is left unchanged.

// CHECK-LABEL: func.func @not_sliceable
// CHECK-NOT: smap.temporal_slice


// sum(tanh(x - max)): tanh keeps the max inside a nonlinearity that no
// update function can correct, so the dim is not sliced.

#id = affine_map<(m, n) -> (m, n)>
#row = affine_map<(m, n) -> (m)>
func.func @not_sliceable(%x: tensor<8x32xf32>) -> tensor<8xf32> {
  // expected-remark @below {{dim 'k' not sliced temporally: reduced by max(reduce_max0) -> add(reduce_add1); not sliceable: reduce_add1 reduces (add) a value that mixes an earlier reduction with the data (mixed by math.tanh)}}
  %0 = smap.graph(%ax = %x : tensor<8x32xf32>) -> (tensor<8xf32>) attributes {dims = [#smap.dim<"m", 8, parallel>, #smap.dim<"k", 32, temporal>], schedule = #smap.schedule<spatial = [], temporal = [k = 8], grid = [], threads = 1, smem = 0, regs = 0>} {
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

// linalg.softmax is decomposed (maxnumf from NaN, as upstream writes it)
// and sliced as online softmax; the slicer used to decline with a remark
// while the schedule still claimed the slice.
// CHECK-LABEL: func.func @named_softmax
// CHECK-NOT: linalg.softmax
// CHECK: smap.temporal_slice #smap.dim<"n", 64, temporal> step 16
// CHECK: arith.maxnumf
// CHECK: smap.temporal_slice #smap.dim<"n", 64, temporal> step 16
// CHECK-SAME: smap.final_pass

func.func @named_softmax(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  // expected-remark @below {{dim 'n' sliced temporally by 16: reduce_max0 accumulated (max); reduce_add2 rescaled}}
  %0 = smap.graph(%ax = %x : tensor<4x64xf32>) -> (tensor<4x64xf32>) attributes {dims = [#smap.dim<"m", 4, parallel>, #smap.dim<"n", 64, temporal>], schedule = #smap.schedule<spatial = [], temporal = [n = 16], grid = [], threads = 1, smem = 0, regs = 0>} {
    %e = tensor.empty() : tensor<4x64xf32>
    %s = linalg.softmax dimension(1) ins(%ax : tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) -> tensor<4x64xf32>
    smap.yield %s : tensor<4x64xf32>
  }
  return %0 : tensor<4x64xf32>
}
