// A padding mask from a per-batch length: the keys from lens[b] on are
// hidden. In a block of one batch (b tiled by 1) the length is one element
// of the block's tile of `lens`: the slicer reads it once at the start of
// the block, ends the loop at the slice that holds it, and wraps the
// mask's select in the test of whether the slice reaches past it
// (`select %cut, masked, unmasked`). With two batches per block the
// length differs between rows: nothing is skipped and a remark says why.
//
// RUN: spacefusion-opt %s --smap-form-graphs --smap-set-target=target=cpu --smap-analyze \
// RUN:   '--smap-schedule=spatial=b:1,h:1,m:64 temporal=l:32' --smap-spatial-slice --smap-temporal-slice \
// RUN:   --remarks-filter=smap --remark-format=emitRemark 2>&1 | FileCheck %s
// RUN: spacefusion-opt %s --smap-form-graphs --smap-set-target=target=cpu --smap-analyze \
// RUN:   '--smap-schedule=spatial=b:2,h:1,m:64 temporal=l:32' --smap-spatial-slice --smap-temporal-slice \
// RUN:   --remarks-filter=smap --remark-format=emitRemark 2>&1 | FileCheck %s --check-prefix=SHARED

// CHECK: remark: [Passed] sliced | Category:smap:temporal-slice | Function=attention_padded | Remark="dim 'l' sliced temporally by 32: {{.*}}; skips the slices a mask hides: keys from the element of input #[[LEN:[0-9]+]] on are masked in every row (select1); select1 tests only the slices that reach beyond the keys visible in every row (below the element of input #[[LEN]])"
// CHECK-LABEL: func.func @attention_padded(
// CHECK-SAME: %[[LENS:[a-z0-9]+]]: tensor<2xi64>
// CHECK: smap.spatial_slice
// CHECK-NEXT: ^bb0(%[[B:[a-z0-9]+]]: index
// CHECK: %[[TILE:.*]] = tensor.extract_slice %{{.*}}[%[[B]]] [1] [1] : tensor<2xi64> to tensor<1xi64>
// CHECK: smap.graph({{.*}}%[[BLOCK_LENS:[a-z0-9]+]] = %[[TILE]] : tensor<1xi64>
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[LEN:.*]] = tensor.extract %[[BLOCK_LENS]][%[[C0]]] : tensor<1xi64>
// CHECK-NEXT: %[[LEN_INDEX:.*]] = arith.index_cast %[[LEN]] : i64 to index
// CHECK: arith.muli %[[LEN_INDEX]], %{{.*}} : index
// CHECK: %[[END:.*]] = arith.minui %{{.*}}, %c160 : index
// CHECK: smap.temporal_slice #smap.dim<"l", 160, temporal> step 32 upto %[[END]] inits(
// CHECK-NEXT: ^bb0(%[[AT:[a-z0-9]+]]: index
// CHECK: %[[SLICE_END:.*]] = arith.addi %[[AT]], %c32{{.*}} : index
// CHECK: arith.muli %[[LEN_INDEX]], %{{.*}} : index
// CHECK: %[[CUT:.*]] = arith.cmpi sgt, %[[SLICE_END]], %{{.*}} : index
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %[[BLOCK_LENS]] : tensor<1x1x64x32xf32>, tensor<1xi64>)
// CHECK: %[[SCORE:.*]] = arith.mulf
// CHECK: %[[HIDE:.*]] = arith.cmpi sge, %{{.*}}, %{{.*}} : i64
// CHECK: %[[MASKED:.*]] = arith.select %[[HIDE]], %{{.*}}, %[[SCORE]] : f32
// CHECK-NEXT: arith.select %[[CUT]], %[[MASKED]], %[[SCORE]] : f32
// CHECK: } update {

// SHARED: Remark="dim 'l' sliced temporally by 32: {{.*}}; the mask select1 skips nothing: its condition is no compare of indices with constants, index inputs or a length the whole block shares (a length tensor is shared when its block tile is one element)"
// SHARED-NOT: upto
// SHARED: smap.temporal_slice #smap.dim<"l", 160, temporal> step 32 inits(

func.func @attention_padded(%q: tensor<2x2x160x16xf32>, %k: tensor<2x2x160x16xf32>, %v: tensor<2x2x160x16xf32>, %lens: tensor<2xi64>) -> tensor<2x2x160x16xf32> {
  %c1 = arith.constant 0.000000000e+00 : f32
  %e3 = tensor.empty() : tensor<2x2x160x160xf32>
  %f2 = linalg.fill ins(%c1 : f32) outs(%e3 : tensor<2x2x160x160xf32>) -> tensor<2x2x160x160xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l, k) -> (b, h, m, k)>, affine_map<(b, h, m, l, k) -> (b, h, l, k)>, affine_map<(b, h, m, l, k) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x2x160x16xf32>, tensor<2x2x160x16xf32>) outs(%f2 : tensor<2x2x160x160xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<2x2x160x160xf32>
  %c5 = arith.constant 2.500000000e-01 : f32
  %e6 = tensor.empty() : tensor<2x2x160x160xf32>
  %g7 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g4, %lens : tensor<2x2x160x160xf32>, tensor<2xi64>) outs(%e6 : tensor<2x2x160x160xf32>) {
  ^bb0(%in0: f32, %in1: i64, %acc: f32):
    %x = arith.mulf %in0, %c5 : f32
    %j = linalg.index 3 : index
    %jl = arith.index_cast %j : index to i64
    %hide = arith.cmpi sge, %jl, %in1 : i64
    %ninf = arith.constant 0xFF800000 : f32
    %y = arith.select %hide, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<2x2x160x160xf32>
  %c8 = arith.constant 0xFF800000 : f32
  %e10 = tensor.empty() : tensor<2x2x160xf32>
  %f9 = linalg.fill ins(%c8 : f32) outs(%e10 : tensor<2x2x160xf32>) -> tensor<2x2x160xf32>
  %g11 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g7 : tensor<2x2x160x160xf32>) outs(%f9 : tensor<2x2x160xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.maximumf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<2x2x160xf32>
  %e12 = tensor.empty() : tensor<2x2x160x160xf32>
  %g13 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g7, %g11 : tensor<2x2x160x160xf32>, tensor<2x2x160xf32>) outs(%e12 : tensor<2x2x160x160xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %d = arith.subf %in0, %in1 : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<2x2x160x160xf32>
  %c14 = arith.constant 0.000000000e+00 : f32
  %e16 = tensor.empty() : tensor<2x2x160xf32>
  %f15 = linalg.fill ins(%c14 : f32) outs(%e16 : tensor<2x2x160xf32>) -> tensor<2x2x160xf32>
  %g17 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g13 : tensor<2x2x160x160xf32>) outs(%f15 : tensor<2x2x160xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.addf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<2x2x160xf32>
  %e18 = tensor.empty() : tensor<2x2x160x160xf32>
  %g19 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g13, %g17 : tensor<2x2x160x160xf32>, tensor<2x2x160xf32>) outs(%e18 : tensor<2x2x160x160xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %y = arith.divf %in0, %in1 : f32
    linalg.yield %y : f32
  } -> tensor<2x2x160x160xf32>
  %c20 = arith.constant 0.000000000e+00 : f32
  %e22 = tensor.empty() : tensor<2x2x160x16xf32>
  %f21 = linalg.fill ins(%c20 : f32) outs(%e22 : tensor<2x2x160x16xf32>) -> tensor<2x2x160x16xf32>
  %g23 = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, l) -> (b, h, m, l)>, affine_map<(b, h, m, n, l) -> (b, h, l, n)>, affine_map<(b, h, m, n, l) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g19, %v : tensor<2x2x160x160xf32>, tensor<2x2x160x16xf32>) outs(%f21 : tensor<2x2x160x16xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<2x2x160x16xf32>
  return %g23 : tensor<2x2x160x16xf32>
}
