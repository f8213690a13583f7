// Status: fixed (09:00 build, 2026-12-01): smap-schedule rejects a given spatial slice that is not a dim of every output (test/Dialect/SMap/Transforms/schedule-output-dims.mlir); was known-failures.txt seed 265.
// Fuzzer class: smap-spatial-slice builds a smap.spatial_slice the verifier rejects.
// Minimized from fuzz seed 375 (also seed 265, f16): a two-result generic whose first
// result is returned and whose second feeds a GEMM; dims m (128, parallel), n (3, the
// GEMM's k, temporal), n1 (16, the GEMM's output columns). A spatial tile of n1 puts the
// returned result, which has no n1, into the sliced blocks.
// Command: spacefusion-run spatial-slice-unvarying-result.mlir --reps=1 --spatial=n1:4
//   (the fuzzer's run: after --cse, with --temporal=n:1 too; both are not needed)
// Observed: error: 'smap.spatial_slice' op result #0 does not vary along sliced dim 'n1':
//   every block would write all of it. The error is the verifier's after the pass (it goes
//   away with --verify-each=0 in the equivalent spacefusion-opt pipeline): invalid IR, where
//   smap-schedule should have rejected the tile or the pass kept that result out of the slice.
#map0 = affine_map<(d0, d1) -> (d0, d1)>
func.func @fuzz(%arg0: tensor<128x3xf32>, %arg1: tensor<3x16xf32>) -> (tensor<128x16xf32>, tensor<128x3xf32>) {
  %cst4 = arith.constant 5.000000e-01 : f32
  %cst11 = arith.constant 0.000000e+00 : f32
  %init1 = tensor.empty() : tensor<128x3xf32>
  %init2 = tensor.empty() : tensor<128x3xf32>
  %mo8:2 = linalg.generic {indexing_maps = [#map0, #map0, #map0], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<128x3xf32>) outs(%init1, %init2 : tensor<128x3xf32>, tensor<128x3xf32>) {
  ^bb0(%in2_0: f32, %out2_0: f32, %out2_1: f32):
    %v5 = arith.mulf %in2_0, %cst4 : f32
    %v6 = math.tanh %in2_0 : f32
    %v7 = math.exp %v6 : f32
    linalg.yield %v5, %v7 : f32, f32
  } -> (tensor<128x3xf32>, tensor<128x3xf32>)
  %init10 = tensor.empty() : tensor<128x16xf32>
  %fill12 = linalg.fill ins(%cst11 : f32) outs(%init10 : tensor<128x16xf32>) -> tensor<128x16xf32>
  %mm13 = linalg.matmul ins(%mo8#0, %arg1 : tensor<128x3xf32>, tensor<3x16xf32>) outs(%fill12 : tensor<128x16xf32>) -> tensor<128x16xf32>
  return %mm13, %mo8#1 : tensor<128x16xf32>, tensor<128x3xf32>
}
