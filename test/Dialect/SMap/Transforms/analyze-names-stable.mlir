// Dim names are stable across SMG builds. A GEMM over (128, 3, 100) whose
// result is expanded to 2x64x3x3: the first loop is split by the reshape
// into two dims. Each pass rebuilds the SMG and keeps the names an earlier
// analysis wrote (smap.space); the hint was matched per loop, so the split
// loop shifted every later name (b, h, m, n, l became b, h1, h, n, m, then
// b, h2, h1, n, h), and smap-spatial-slice sliced the dim the schedule did
// not mean (invalid IR; fuzzer seed 3050).
// RUN: spacefusion-opt %s --smap-form-graphs --smap-analyze | FileCheck %s
// RUN: spacefusion-opt %s --smap-form-graphs --smap-analyze --smap-analyze --smap-analyze | FileCheck %s
// RUN: spacefusion-run %s --reps=1 | FileCheck %s --check-prefix=EXEC
// CHECK: dims = [#smap.dim<"b", 2, parallel>, #smap.dim<"h", 64, parallel>, #smap.dim<"m", 3, parallel>, #smap.dim<"n", 3, parallel_recompute>, #smap.dim<"l", 100, temporal>]
// EXEC: PASS
#map0 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d3, d2)>
func.func @fuzz(%arg0: tensor<128x3x1xf32>, %arg1: tensor<100x1xf32>, %arg2: tensor<100x3xf32>) -> (tensor<2x64x3x3xf32>) {
  %cst2 = arith.constant 0.000000e+00 : f32
  %init1 = tensor.empty() : tensor<128x3x100xf32>
  %fill3 = linalg.fill ins(%cst2 : f32) outs(%init1 : tensor<128x3x100xf32>) -> tensor<128x3x100xf32>
  %mm7 = linalg.generic {indexing_maps = [#map0, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : tensor<128x3x1xf32>, tensor<100x1xf32>) outs(%fill3 : tensor<128x3x100xf32>) {
  ^bb0(%in3_0: f32, %in3_1: f32, %out3_0: f32):
    %v5 = arith.mulf %in3_0, %in3_1 : f32
    %v6 = arith.addf %out3_0, %v5 : f32
    linalg.yield %v6 : f32
  } -> tensor<128x3x100xf32>
  %init8 = tensor.empty() : tensor<128x3x100xf32>
  %act11 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mm7 : tensor<128x3x100xf32>) outs(%init8 : tensor<128x3x100xf32>) {
  ^bb0(%in8_0: f32, %out8_0: f32):
    %v10 = math.tanh %in8_0 : f32
    linalg.yield %v10 : f32
  } -> tensor<128x3x100xf32>
  %init12 = tensor.empty() : tensor<128x3x3xf32>
  %fill13 = linalg.fill ins(%cst2 : f32) outs(%init12 : tensor<128x3x3xf32>) -> tensor<128x3x3xf32>
  %mm17 = linalg.generic {indexing_maps = [#map0, #map4, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%act11, %arg2 : tensor<128x3x100xf32>, tensor<100x3xf32>) outs(%fill13 : tensor<128x3x3xf32>) {
  ^bb0(%in13_0: f32, %in13_1: f32, %out13_0: f32):
    %v15 = arith.mulf %in13_0, %in13_1 : f32
    %v16 = arith.addf %out13_0, %v15 : f32
    linalg.yield %v16 : f32
  } -> tensor<128x3x3xf32>
  %exp_sh18 = tensor.expand_shape %mm17 [[0, 1], [2], [3]] output_shape [2, 64, 3, 3] : tensor<128x3x3xf32> into tensor<2x64x3x3xf32>
  return %exp_sh18 : tensor<2x64x3x3xf32>
}
