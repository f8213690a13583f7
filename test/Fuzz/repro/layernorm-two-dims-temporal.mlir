// Fuzzer class: LayerNorm over two dims, temporally sliced along one of them -> wrong result.
// Minimized from fuzz seed 200 (also seeds 148, 260, 285, 347: layernorm(dims=1,2) / (dims=2,3)).
// Command: spacefusion-run layernorm-two-dims-temporal.mlir --reps=1 --temporal=m:16
// Observed: FAIL (384 elements out of tolerance), max abs error ~6e-3 on outputs of magnitude ~2
//   (well above reassociation error). The same LayerNorm over one dim sliced the same way
//   passes (fuzz seed 5 with --temporal=n:20). Likely the Chan/Welford state update
//   (the count `seen` or the shift) uses the sliced dim's extent, not the product of both
//   reduced dims. Graph dims: [#smap.dim<"m", 128, temporal>, #smap.dim<"n", 3, temporal>].
#map0 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0)>
#map2 = affine_map<(d0) -> (d0)>
#map3 = affine_map<(d0, d1, d2) -> (d1, d2)>
func.func @fuzz(%arg0: tensor<1x128x3xf32>) -> (tensor<1x128x3xf32>) {
  %cst2 = arith.constant 0.000000e+00 : f32
  %init1 = tensor.empty() : tensor<1xf32>
  %fill3 = linalg.fill ins(%cst2 : f32) outs(%init1 : tensor<1xf32>) -> tensor<1xf32>
  %red6 = linalg.generic {indexing_maps = [#map0, #map1], iterator_types = ["parallel", "reduction", "reduction"]} ins(%arg0 : tensor<1x128x3xf32>) outs(%fill3 : tensor<1xf32>) {
  ^bb0(%in3_0: f32, %out3_0: f32):
    %v5 = arith.addf %in3_0, %out3_0 : f32
    linalg.yield %v5 : f32
  } -> tensor<1xf32>
  %init12 = tensor.empty() : tensor<1x128x3xf32>
  %bc15 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %red6 : tensor<1x128x3xf32>, tensor<1xf32>) outs(%init12 : tensor<1x128x3xf32>) {
  ^bb0(%in12_0: f32, %in12_1: f32, %out12_0: f32):
    %v14 = arith.subf %in12_0, %in12_1 : f32
    linalg.yield %v14 : f32
  } -> tensor<1x128x3xf32>
  %init16 = tensor.empty() : tensor<1xf32>
  %fill17 = linalg.fill ins(%cst2 : f32) outs(%init16 : tensor<1xf32>) -> tensor<1xf32>
  %red21 = linalg.generic {indexing_maps = [#map0, #map1], iterator_types = ["parallel", "reduction", "reduction"]} ins(%bc15 : tensor<1x128x3xf32>) outs(%fill17 : tensor<1xf32>) {
  ^bb0(%in17_0: f32, %out17_0: f32):
    %v19 = arith.mulf %in17_0, %in17_0 : f32
    %v20 = arith.addf %v19, %out17_0 : f32
    linalg.yield %v20 : f32
  } -> tensor<1xf32>
  %init32 = tensor.empty() : tensor<1x128x3xf32>
  %bc35 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel", "parallel"]} ins(%bc15, %red21 : tensor<1x128x3xf32>, tensor<1xf32>) outs(%init32 : tensor<1x128x3xf32>) {
  ^bb0(%in32_0: f32, %in32_1: f32, %out32_0: f32):
    %v34 = arith.mulf %in32_0, %in32_1 : f32
    linalg.yield %v34 : f32
  } -> tensor<1x128x3xf32>
  return %bc35 : tensor<1x128x3xf32>
}
