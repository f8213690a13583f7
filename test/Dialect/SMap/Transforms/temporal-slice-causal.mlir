// Causal attention written as frontends write it (linalg.index, cmpi, a
// select of -inf on the scaled scores): smap-temporal-slice finds that the
// keys past a query block's last query are masked in every row of the block
// and that every reduction along the keys combines only its identity there
// (the max sees -inf, the sum exp(-inf) = 0, P.V a zero P), so the loop over
// key slices stops at the block's offset + 64 (whole slices, at most 256).
// A sliding window (keys at most 64 before the query, an `ori` of two
// compares) also starts the loop at the slice of the block's first window,
// and the update's first-slice test and counts start there. A mask hiding
// the keys before the query but nothing after it gives the start only, and
// a graph that also sums the unmasked scores skips nothing, with a remark
// naming the reduction that blocks it. Every mask of these is tested only on
// the slices that reach beyond the keys all rows of the block see (skipping
// or not: leaving the test out of a slice it cannot hide is exact).
//
// RUN: split-file %s %t
// RUN: spacefusion-opt %t/causal.mlir --smap-form-graphs --smap-set-target=target=cpu --smap-analyze \
// RUN:   '--smap-schedule=spatial=h:1,m:64 temporal=l:32' --smap-spatial-slice --smap-temporal-slice \
// RUN:   --remarks-filter=smap --remark-format=emitRemark 2>&1 | FileCheck %s
// RUN: spacefusion-opt %t/window.mlir --smap-form-graphs --smap-set-target=target=cpu --smap-analyze \
// RUN:   '--smap-schedule=spatial=h:1,m:64 temporal=l:32' --smap-spatial-slice --smap-temporal-slice \
// RUN:   --remarks-filter=smap --remark-format=emitRemark 2>&1 | FileCheck %s --check-prefix=WINDOW
// RUN: spacefusion-opt %t/upper.mlir --smap-form-graphs --smap-set-target=target=cpu --smap-analyze \
// RUN:   '--smap-schedule=spatial=m:16 temporal=n:16' --smap-spatial-slice --smap-temporal-slice \
// RUN:   --remarks-filter=smap --remark-format=emitRemark 2>&1 | FileCheck %s --check-prefix=LOWER
// RUN: spacefusion-opt %t/plus-sum.mlir --smap-form-graphs --smap-set-target=target=cpu --smap-analyze \
// RUN:   '--smap-schedule=spatial=m:16 temporal=n:16' --smap-spatial-slice --smap-temporal-slice \
// RUN:   --remarks-filter=smap --remark-format=emitRemark 2>&1 | FileCheck %s --check-prefix=NOSKIP

// CHECK: remark: [Passed] sliced | Category:smap:temporal-slice | Function=attention_causal | Remark="dim 'l' sliced temporally by 32: {{.*}}; skips the slices a mask hides: keys from 64 + input #[[O:[0-9]+]] on are masked in every row (select1); select1 tests only the slices that reach beyond the keys visible in every row (below 1 + input #[[O]])"
// CHECK-LABEL: func.func @attention_causal(
// CHECK: smap.graph({{.*}}%[[OFF:[a-z0-9_]+]] = %{{.*}} : index) -> (tensor<1x1x64x16xf32>)
// CHECK: %[[SCALED:.*]] = arith.muli %[[OFF]], %c1 : index
// CHECK: %[[PAST:.*]] = arith.addi %c64, %[[SCALED]] : index
// CHECK: %[[ONE:.*]] = arith.maxsi %[[PAST]], %c32 : index
// CHECK: %[[UP:.*]] = arith.addi %[[ONE]], %c31 : index
// CHECK: %[[N:.*]] = arith.divui %[[UP]], %{{.*}} : index
// CHECK: %[[WHOLE:.*]] = arith.muli %[[N]], %{{.*}} : index
// CHECK: %[[END:.*]] = arith.minui %[[WHOLE]], %c256 : index
// CHECK: smap.temporal_slice #smap.dim<"l", 256, temporal> step 32 upto %[[END]] inits(
// The mask's test is left out of the slices every query row sees whole (keys
// below the block's first query + 1): the slice [at, at + 32) cuts the mask
// when at + 32 > offset + 1.
// CHECK: ^bb0(%[[AT:[a-z0-9_]+]]: index,
// CHECK: %[[SLICE_END:.*]] = arith.addi %[[AT]], %c32{{.*}} : index
// CHECK: %[[OFF_SCALED:.*]] = arith.muli %[[OFF]], %c1{{.*}} : index
// CHECK: %[[VISIBLE_END:.*]] = arith.addi %c1{{.*}}, %[[OFF_SCALED]] : index
// CHECK: %[[CUT:.*]] = arith.cmpi sgt, %[[SLICE_END]], %[[VISIBLE_END]] : index
// CHECK: linalg.generic
// CHECK-SAME: "select1"
// CHECK: %[[SCALED_SCORE:.*]] = arith.mulf
// CHECK: %[[HIDE:.*]] = arith.cmpi ugt
// CHECK: %[[MASKED:.*]] = arith.select %[[HIDE]], %{{.*}}, %[[SCALED_SCORE]] : f32
// CHECK: %[[TESTED:.*]] = arith.select %[[CUT]], %[[MASKED]], %[[SCALED_SCORE]] : f32
// CHECK: linalg.yield %[[TESTED]] : f32

// A window of 64 keys over 64-row blocks: only key `offset` is visible in
// every row, so every slice of 32 keys is tested (from <= at fails or
// at + 32 > below).
// WINDOW: Remark="dim 'l' sliced temporally by 32: {{.*}}; skips the slices a mask hides: keys from 64 + input #[[O:[0-9]+]] on and below -63 + input #[[O]] are masked in every row (select1); select1 tests only the slices that reach beyond the keys visible in every row (below 1 + input #[[O]], from input #[[O]])"
// WINDOW: smap.graph({{.*}}%[[OFF:[a-z0-9_]+]] = %{{.*}} : index) -> (tensor<1x1x64x16xf32>)
// WINDOW: %[[LOW:.*]] = arith.addi %c-63, %{{.*}} : index
// WINDOW: %[[NONNEG:.*]] = arith.maxsi %[[LOW]], %c0 : index
// WINDOW: %[[SLICES:.*]] = arith.divui %[[NONNEG]], %c32{{.*}} : index
// WINDOW: %[[START:.*]] = arith.muli %[[SLICES]], %c32{{.*}} : index
// WINDOW: %[[FIRST:.*]] = arith.minui %[[START]], %c224 : index
// WINDOW: smap.temporal_slice #smap.dim<"l", 256, temporal> step 32 from %[[FIRST]] upto %{{.*}} inits(
// WINDOW: ^bb0(%[[AT:[a-z0-9_]+]]: index,
// WINDOW: %[[PAST:.*]] = arith.cmpi sgt, %{{.*}}, %{{.*}} : index
// WINDOW: %[[BEFORE:.*]] = arith.cmpi slt, %[[AT]], %{{.*}} : index
// WINDOW: %[[CUT:.*]] = arith.ori %[[PAST]], %[[BEFORE]] : i1
// WINDOW: %[[MASKED:.*]] = arith.select %{{.*}}, %cst{{.*}}, %[[SCORE:.*]] : f32
// WINDOW-NEXT: arith.select %[[CUT]], %[[MASKED]], %[[SCORE]] : f32
// WINDOW: } update {
// WINDOW: arith.cmpi eq, %{{.*}}, %[[FIRST]] : index

// LOWER: Remark="dim 'n' sliced temporally by 16: {{.*}}; skips the slices a mask hides: keys below input #{{[0-9]+}} are masked in every row (select0); select0 tests only the slices that reach beyond the keys visible in every row (from 15 + input #{{[0-9]+}})"
// LOWER: smap.temporal_slice #smap.dim<"n", 64, temporal> step 16 from %{{[0-9a-z_]+}} inits(

// NOSKIP: remark: [Passed] sliced | Category:smap:temporal-slice | Function=causal_plus_sum | Remark="dim 'n' sliced temporally by 16: {{.*}}; the mask select0 skips nothing: reduce_add{{[0-9]+}} reduces values the mask does not reach; select0 tests only the slices that reach beyond the keys visible in every row (below 1 + input #{{[0-9]+}})"
// NOSKIP-NOT: upto

//--- causal.mlir
func.func @attention_causal(%q: tensor<1x2x256x16xf32>, %k: tensor<1x2x256x16xf32>, %v: tensor<1x2x256x16xf32>) -> tensor<1x2x256x16xf32> {
  %c1 = arith.constant 0.000000000e+00 : f32
  %e3 = tensor.empty() : tensor<1x2x256x256xf32>
  %f2 = linalg.fill ins(%c1 : f32) outs(%e3 : tensor<1x2x256x256xf32>) -> tensor<1x2x256x256xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l, k) -> (b, h, m, k)>, affine_map<(b, h, m, l, k) -> (b, h, l, k)>, affine_map<(b, h, m, l, k) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x2x256x16xf32>, tensor<1x2x256x16xf32>) outs(%f2 : tensor<1x2x256x256xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<1x2x256x256xf32>
  %c5 = arith.constant 2.500000000e-01 : f32
  %e6 = tensor.empty() : tensor<1x2x256x256xf32>
  %g7 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g4 : tensor<1x2x256x256xf32>) outs(%e6 : tensor<1x2x256x256xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %x = arith.mulf %in0, %c5 : f32
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %shift = arith.constant 0 : index
    %last = arith.addi %i, %shift : index
    %hide = arith.cmpi ugt, %j, %last : index
    %ninf = arith.constant 0xFF800000 : f32
    %y = arith.select %hide, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<1x2x256x256xf32>
  %c8 = arith.constant 0xFF800000 : f32
  %e10 = tensor.empty() : tensor<1x2x256xf32>
  %f9 = linalg.fill ins(%c8 : f32) outs(%e10 : tensor<1x2x256xf32>) -> tensor<1x2x256xf32>
  %g11 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g7 : tensor<1x2x256x256xf32>) outs(%f9 : tensor<1x2x256xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.maximumf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<1x2x256xf32>
  %e12 = tensor.empty() : tensor<1x2x256x256xf32>
  %g13 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g7, %g11 : tensor<1x2x256x256xf32>, tensor<1x2x256xf32>) outs(%e12 : tensor<1x2x256x256xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %d = arith.subf %in0, %in1 : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<1x2x256x256xf32>
  %c14 = arith.constant 0.000000000e+00 : f32
  %e16 = tensor.empty() : tensor<1x2x256xf32>
  %f15 = linalg.fill ins(%c14 : f32) outs(%e16 : tensor<1x2x256xf32>) -> tensor<1x2x256xf32>
  %g17 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g13 : tensor<1x2x256x256xf32>) outs(%f15 : tensor<1x2x256xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.addf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<1x2x256xf32>
  %e18 = tensor.empty() : tensor<1x2x256x256xf32>
  %g19 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g13, %g17 : tensor<1x2x256x256xf32>, tensor<1x2x256xf32>) outs(%e18 : tensor<1x2x256x256xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %y = arith.divf %in0, %in1 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x256x256xf32>
  %c20 = arith.constant 0.000000000e+00 : f32
  %e22 = tensor.empty() : tensor<1x2x256x16xf32>
  %f21 = linalg.fill ins(%c20 : f32) outs(%e22 : tensor<1x2x256x16xf32>) -> tensor<1x2x256x16xf32>
  %g23 = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, l) -> (b, h, m, l)>, affine_map<(b, h, m, n, l) -> (b, h, l, n)>, affine_map<(b, h, m, n, l) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g19, %v : tensor<1x2x256x256xf32>, tensor<1x2x256x16xf32>) outs(%f21 : tensor<1x2x256x16xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<1x2x256x16xf32>
  return %g23 : tensor<1x2x256x16xf32>
}

//--- window.mlir
func.func @attention_window(%q: tensor<1x2x256x16xf32>, %k: tensor<1x2x256x16xf32>, %v: tensor<1x2x256x16xf32>) -> tensor<1x2x256x16xf32> {
  %c1 = arith.constant 0.000000000e+00 : f32
  %e3 = tensor.empty() : tensor<1x2x256x256xf32>
  %f2 = linalg.fill ins(%c1 : f32) outs(%e3 : tensor<1x2x256x256xf32>) -> tensor<1x2x256x256xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l, k) -> (b, h, m, k)>, affine_map<(b, h, m, l, k) -> (b, h, l, k)>, affine_map<(b, h, m, l, k) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x2x256x16xf32>, tensor<1x2x256x16xf32>) outs(%f2 : tensor<1x2x256x256xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<1x2x256x256xf32>
  %c5 = arith.constant 2.500000000e-01 : f32
  %e6 = tensor.empty() : tensor<1x2x256x256xf32>
  %g7 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g4 : tensor<1x2x256x256xf32>) outs(%e6 : tensor<1x2x256x256xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %x = arith.mulf %in0, %c5 : f32
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %shift = arith.constant 0 : index
    %last = arith.addi %i, %shift : index
    %hide = arith.cmpi ugt, %j, %last : index
    %w = arith.constant 64 : index
    %jw = arith.addi %j, %w : index
    %old = arith.cmpi ule, %jw, %last : index
    %out = arith.ori %hide, %old : i1
    %ninf = arith.constant 0xFF800000 : f32
    %y = arith.select %out, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<1x2x256x256xf32>
  %c8 = arith.constant 0xFF800000 : f32
  %e10 = tensor.empty() : tensor<1x2x256xf32>
  %f9 = linalg.fill ins(%c8 : f32) outs(%e10 : tensor<1x2x256xf32>) -> tensor<1x2x256xf32>
  %g11 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g7 : tensor<1x2x256x256xf32>) outs(%f9 : tensor<1x2x256xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.maximumf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<1x2x256xf32>
  %e12 = tensor.empty() : tensor<1x2x256x256xf32>
  %g13 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g7, %g11 : tensor<1x2x256x256xf32>, tensor<1x2x256xf32>) outs(%e12 : tensor<1x2x256x256xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %d = arith.subf %in0, %in1 : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<1x2x256x256xf32>
  %c14 = arith.constant 0.000000000e+00 : f32
  %e16 = tensor.empty() : tensor<1x2x256xf32>
  %f15 = linalg.fill ins(%c14 : f32) outs(%e16 : tensor<1x2x256xf32>) -> tensor<1x2x256xf32>
  %g17 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g13 : tensor<1x2x256x256xf32>) outs(%f15 : tensor<1x2x256xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.addf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<1x2x256xf32>
  %e18 = tensor.empty() : tensor<1x2x256x256xf32>
  %g19 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g13, %g17 : tensor<1x2x256x256xf32>, tensor<1x2x256xf32>) outs(%e18 : tensor<1x2x256x256xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %y = arith.divf %in0, %in1 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x256x256xf32>
  %c20 = arith.constant 0.000000000e+00 : f32
  %e22 = tensor.empty() : tensor<1x2x256x16xf32>
  %f21 = linalg.fill ins(%c20 : f32) outs(%e22 : tensor<1x2x256x16xf32>) -> tensor<1x2x256x16xf32>
  %g23 = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, l) -> (b, h, m, l)>, affine_map<(b, h, m, n, l) -> (b, h, l, n)>, affine_map<(b, h, m, n, l) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g19, %v : tensor<1x2x256x256xf32>, tensor<1x2x256x16xf32>) outs(%f21 : tensor<1x2x256x16xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<1x2x256x16xf32>
  return %g23 : tensor<1x2x256x16xf32>
}

//--- upper.mlir
// Row i sees keys j >= i (the mask is j < i).
#rc = affine_map<(r, c) -> (r, c)>
#r = affine_map<(r, c) -> (r)>
func.func @masked_softmax(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %masked = linalg.generic {indexing_maps = [#rc, #rc], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %hide = arith.cmpi ult, %j, %i : index
    %y = arith.select %hide, %ninf, %v : f32
    linalg.yield %y : f32
  } -> tensor<64x64xf32>
  %er = tensor.empty() : tensor<64xf32>
  %mf = linalg.fill ins(%ninf : f32) outs(%er : tensor<64xf32>) -> tensor<64xf32>
  %max = linalg.generic {indexing_maps = [#rc, #r], iterator_types = ["parallel", "reduction"]}
      ins(%masked : tensor<64x64xf32>) outs(%mf : tensor<64xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %m = arith.maximumf %v, %acc : f32
    linalg.yield %m : f32
  } -> tensor<64xf32>
  %exp = linalg.generic {indexing_maps = [#rc, #r, #rc], iterator_types = ["parallel", "parallel"]}
      ins(%masked, %max : tensor<64x64xf32>, tensor<64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%v: f32, %m: f32, %o: f32):
    %d = arith.subf %v, %m : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<64x64xf32>
  %sf = linalg.fill ins(%zero : f32) outs(%er : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [#rc, #r], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<64x64xf32>) outs(%sf : tensor<64xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %a = arith.addf %v, %acc : f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  %y = linalg.generic {indexing_maps = [#rc, #r, #rc], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<64x64xf32>, tensor<64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %q = arith.divf %v, %s : f32
    linalg.yield %q : f32
  } -> tensor<64x64xf32>
  return %y : tensor<64x64xf32>
}

//--- plus-sum.mlir
#rc = affine_map<(r, c) -> (r, c)>
#r = affine_map<(r, c) -> (r)>
// Keys after the query are hidden (a causal softmax), but the graph also
// sums the unmasked scores over the keys: skipping slices would drop them.
func.func @causal_plus_sum(%x: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %masked = linalg.generic {indexing_maps = [#rc, #rc], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %hide = arith.cmpi ugt, %j, %i : index
    %y = arith.select %hide, %ninf, %v : f32
    linalg.yield %y : f32
  } -> tensor<64x64xf32>
  %er = tensor.empty() : tensor<64xf32>
  %mf = linalg.fill ins(%ninf : f32) outs(%er : tensor<64xf32>) -> tensor<64xf32>
  %max = linalg.generic {indexing_maps = [#rc, #r], iterator_types = ["parallel", "reduction"]}
      ins(%masked : tensor<64x64xf32>) outs(%mf : tensor<64xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %m = arith.maximumf %v, %acc : f32
    linalg.yield %m : f32
  } -> tensor<64xf32>
  %exp = linalg.generic {indexing_maps = [#rc, #r, #rc], iterator_types = ["parallel", "parallel"]}
      ins(%masked, %max : tensor<64x64xf32>, tensor<64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%v: f32, %m: f32, %o: f32):
    %d = arith.subf %v, %m : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<64x64xf32>
  %sf = linalg.fill ins(%zero : f32) outs(%er : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [#rc, #r], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<64x64xf32>) outs(%sf : tensor<64xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %a = arith.addf %v, %acc : f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  %raw = linalg.generic {indexing_maps = [#rc, #r], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x64xf32>) outs(%sf : tensor<64xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %a = arith.addf %v, %acc : f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  %p = linalg.generic {indexing_maps = [#rc, #r, #rc], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<64x64xf32>, tensor<64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %y = arith.divf %v, %s : f32
    linalg.yield %y : f32
  } -> tensor<64x64xf32>
  return %p, %raw : tensor<64x64xf32>, tensor<64xf32>
}
