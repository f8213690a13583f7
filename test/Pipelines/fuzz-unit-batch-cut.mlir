// GPU fuzz seed 1360 (f16): an elementwise op next to an attention of head
// dim 1 over 16 queries and 128 keys, batch 1. smap-schedule tried cutting
// the attention before its P.V contraction, and pricing the second part
// (a GEMM with a unit batch loop) crashed in the cost model's wgmma check
// (schedule-wgmma-unit-batch.mlir has the root cause). Now it compiles:
// the elementwise op as a row kernel, the attention as one mma.sync block.
//
// RUN: spacefusion-opt %s '--spacefusion-lower-gpu=one-wave=0 format=isa' \
// RUN:   --mlir-print-ir-after=smap-distribute-blocks -o /dev/null 2>&1 | FileCheck %s

// CHECK-LABEL: func.func @fuzz(
// CHECK-SAME:    smap.kernels = [{blocks = 1 : i64, {{.*}}strategy = "rows"
// CHECK-SAME:    {blocks = 1 : i64, {{.*}}strategy = "mma_sync", threads = 256 : i64}]
// fuzz: seed=1360 dtype=f16 cse=0 steps=elementwise(3,fused);attention(1x16x128x1x16,softmax=generic,pv=generic) features=broadcast-operand,multi-output
#map0 = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map5 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @fuzz(%arg0: tensor<3x1xf16>, %arg1: tensor<3x1xf16>, %arg2: tensor<3x1xf16>, %arg3: tensor<1x16x1xf16>, %arg4: tensor<1x128x1xf16>, %arg5: tensor<1x128x16xf16>) -> (tensor<1x16x16xf16>, tensor<3x1xf16>) {
  %cst7 = arith.constant 1.000000e+00 : f32
  %cst11 = arith.constant 5.000000e-01 : f32
  %cst12 = arith.constant 0.000000e+00 : f32
  %cst30 = arith.constant 0xFF800000 : f32
  %init1 = tensor.empty() : tensor<3x1xf16>
  %ew16 = linalg.generic {indexing_maps = [#map0, #map0, #map0, #map0], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1, %arg2 : tensor<3x1xf16>, tensor<3x1xf16>, tensor<3x1xf16>) outs(%init1 : tensor<3x1xf16>) {
  ^bb0(%in1_0: f16, %in1_1: f16, %in1_2: f16, %out1_0: f16):
    %v3 = arith.extf %in1_0 : f16 to f32
    %v4 = arith.extf %in1_1 : f16 to f32
    %v5 = arith.extf %in1_2 : f16 to f32
    %v6 = arith.mulf %v4, %v4 : f32
    %v8 = arith.addf %cst7, %v6 : f32
    %v9 = arith.divf %v3, %v8 : f32
    %v10 = arith.addf %v9, %v5 : f32
    %c13 = arith.cmpf olt, %v10, %cst11 : f32
    %v14 = arith.select %c13, %v10, %cst11 : f32
    %v15 = arith.truncf %v14 : f32 to f16
    linalg.yield %v15 : f16
  } -> tensor<3x1xf16>
  %init17 = tensor.empty() : tensor<1x16x128xf32>
  %fill18 = linalg.fill ins(%cst12 : f32) outs(%init17 : tensor<1x16x128xf32>) -> tensor<1x16x128xf32>
  %mm24 = linalg.generic {indexing_maps = [#map1, #map2, #map3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg3, %arg4 : tensor<1x16x1xf16>, tensor<1x128x1xf16>) outs(%fill18 : tensor<1x16x128xf32>) {
  ^bb0(%in18_0: f16, %in18_1: f16, %out18_0: f32):
    %v20 = arith.extf %in18_0 : f16 to f32
    %v21 = arith.extf %in18_1 : f16 to f32
    %v22 = arith.mulf %v20, %v21 : f32
    %v23 = arith.addf %out18_0, %v22 : f32
    linalg.yield %v23 : f32
  } -> tensor<1x16x128xf32>
  %init25 = tensor.empty() : tensor<1x16x128xf32>
  %scale28 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mm24 : tensor<1x16x128xf32>) outs(%init25 : tensor<1x16x128xf32>) {
  ^bb0(%in25_0: f32, %out25_0: f32):
    %v27 = arith.mulf %in25_0, %cst7 : f32
    linalg.yield %v27 : f32
  } -> tensor<1x16x128xf32>
  %init29 = tensor.empty() : tensor<1x16xf32>
  %fill31 = linalg.fill ins(%cst30 : f32) outs(%init29 : tensor<1x16xf32>) -> tensor<1x16xf32>
  %red34 = linalg.generic {indexing_maps = [#map4, #map5], iterator_types = ["parallel", "parallel", "reduction"]} ins(%scale28 : tensor<1x16x128xf32>) outs(%fill31 : tensor<1x16xf32>) {
  ^bb0(%in31_0: f32, %out31_0: f32):
    %v33 = arith.maximumf %in31_0, %out31_0 : f32
    linalg.yield %v33 : f32
  } -> tensor<1x16xf32>
  %init35 = tensor.empty() : tensor<1x16x128xf32>
  %exp39 = linalg.generic {indexing_maps = [#map4, #map5, #map4], iterator_types = ["parallel", "parallel", "parallel"]} ins(%scale28, %red34 : tensor<1x16x128xf32>, tensor<1x16xf32>) outs(%init35 : tensor<1x16x128xf32>) {
  ^bb0(%in35_0: f32, %in35_1: f32, %out35_0: f32):
    %v37 = arith.subf %in35_0, %in35_1 : f32
    %v38 = math.exp %v37 : f32
    linalg.yield %v38 : f32
  } -> tensor<1x16x128xf32>
  %init40 = tensor.empty() : tensor<1x16xf32>
  %fill41 = linalg.fill ins(%cst12 : f32) outs(%init40 : tensor<1x16xf32>) -> tensor<1x16xf32>
  %red44 = linalg.generic {indexing_maps = [#map4, #map5], iterator_types = ["parallel", "parallel", "reduction"]} ins(%exp39 : tensor<1x16x128xf32>) outs(%fill41 : tensor<1x16xf32>) {
  ^bb0(%in41_0: f32, %out41_0: f32):
    %v43 = arith.addf %in41_0, %out41_0 : f32
    linalg.yield %v43 : f32
  } -> tensor<1x16xf32>
  %init45 = tensor.empty() : tensor<1x16x128xf32>
  %softmax48 = linalg.generic {indexing_maps = [#map4, #map5, #map4], iterator_types = ["parallel", "parallel", "parallel"]} ins(%exp39, %red44 : tensor<1x16x128xf32>, tensor<1x16xf32>) outs(%init45 : tensor<1x16x128xf32>) {
  ^bb0(%in45_0: f32, %in45_1: f32, %out45_0: f32):
    %v47 = arith.divf %in45_0, %in45_1 : f32
    linalg.yield %v47 : f32
  } -> tensor<1x16x128xf32>
  %init49 = tensor.empty() : tensor<1x16x16xf32>
  %fill50 = linalg.fill ins(%cst12 : f32) outs(%init49 : tensor<1x16x16xf32>) -> tensor<1x16x16xf32>
  %mm55 = linalg.generic {indexing_maps = [#map3, #map2, #map1], iterator_types = ["parallel", "parallel", "reduction", "parallel"]} ins(%softmax48, %arg5 : tensor<1x16x128xf32>, tensor<1x128x16xf16>) outs(%fill50 : tensor<1x16x16xf32>) {
  ^bb0(%in50_0: f32, %in50_1: f16, %out50_0: f32):
    %v52 = arith.extf %in50_1 : f16 to f32
    %v53 = arith.mulf %in50_0, %v52 : f32
    %v54 = arith.addf %out50_0, %v53 : f32
    linalg.yield %v54 : f32
  } -> tensor<1x16x16xf32>
  %init56 = tensor.empty() : tensor<1x16x16xf16>
  %trunc59 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mm55 : tensor<1x16x16xf32>) outs(%init56 : tensor<1x16x16xf16>) {
  ^bb0(%in56_0: f32, %out56_0: f16):
    %v58 = arith.truncf %in56_0 : f32 to f16
    linalg.yield %v58 : f16
  } -> tensor<1x16x16xf16>
  return %trunc59, %ew16 : tensor<1x16x16xf16>, tensor<3x1xf16>
}
