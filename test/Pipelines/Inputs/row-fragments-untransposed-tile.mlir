// Input of row-fragments-transposed-tile.mlir: its graph without the transpose.
#map0 = affine_map<(d0, d1, d2) -> (d2, d0)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map5 = affine_map<(d0, d1, d2) -> (d1, d2)>
func.func @fuzz(%arg2: tensor<100x16xbf16>, %arg3: tensor<128x100xbf16>, %min2: tensor<128x16xbf16>) -> (tensor<128x100xbf16>, tensor<128x100xbf16>) {
  %cst4 = arith.constant 0.000000e+00 : f32
  %cst45 = arith.constant 1.250000e-01 : f32
  %init26 = tensor.empty() : tensor<128x100xf32>
  %fill27 = linalg.fill ins(%cst4 : f32) outs(%init26 : tensor<128x100xf32>) -> tensor<128x100xf32>
  %mm33 = linalg.generic {indexing_maps = [#map4, #map5, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%min2, %arg2 : tensor<128x16xbf16>, tensor<100x16xbf16>) outs(%fill27 : tensor<128x100xf32>) {
  ^bb0(%in27_0: bf16, %in27_1: bf16, %out27_0: f32):
    %v29 = arith.extf %in27_0 : bf16 to f32
    %v30 = arith.extf %in27_1 : bf16 to f32
    %v31 = arith.mulf %v29, %v30 : f32
    %v32 = arith.addf %out27_0, %v31 : f32
    linalg.yield %v32 : f32
  } -> tensor<128x100xf32>
  %init34 = tensor.empty() : tensor<128x100xbf16>
  %trunc37 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%mm33 : tensor<128x100xf32>) outs(%init34 : tensor<128x100xbf16>) {
  ^bb0(%in34_0: f32, %out34_0: bf16):
    %v36 = arith.truncf %in34_0 : f32 to bf16
    linalg.yield %v36 : bf16
  } -> tensor<128x100xbf16>
  %init40 = tensor.empty() : tensor<128x100xbf16>
  %ew48 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%trunc37, %arg3 : tensor<128x100xbf16>, tensor<128x100xbf16>) outs(%init40 : tensor<128x100xbf16>) {
  ^bb0(%in40_0: bf16, %in40_1: bf16, %out40_0: bf16):
    %v42 = arith.extf %in40_0 : bf16 to f32
    %v43 = arith.extf %in40_1 : bf16 to f32
    %v44 = arith.subf %v42, %v43 : f32
    %v46 = arith.mulf %v44, %cst45 : f32
    %v47 = arith.truncf %v46 : f32 to bf16
    linalg.yield %v47 : bf16
  } -> tensor<128x100xbf16>
  return %ew48, %trunc37 : tensor<128x100xbf16>, tensor<128x100xbf16>
}
