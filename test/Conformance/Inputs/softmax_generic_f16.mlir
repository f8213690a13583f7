// Softmax over Llama's LM-head logits (2048 rows x 32000 columns).
// Form: linalg.generic, f16 storage and compute (a half model as
// torch-mlir lowers it: f16 accumulators, which the pipeline widens).
func.func @softmax(%x: tensor<2048x32000xf16>) -> tensor<2048x32000xf16> {
  %ninf = arith.constant 0xFC00 : f16
  %zero = arith.constant 0.0 : f16
  %e1 = tensor.empty() : tensor<2048xf16>
  %f2 = linalg.fill ins(%ninf : f16) outs(%e1 : tensor<2048xf16>) -> tensor<2048xf16>
  %max3 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2048x32000xf16>) outs(%f2 : tensor<2048xf16>) {
  ^bb0(%in4: f16, %out5: f16):
    %v6 = arith.maximumf %in4, %out5 : f16
    linalg.yield %v6 : f16
  } -> tensor<2048xf16>
  %e7 = tensor.empty() : tensor<2048x32000xf16>
  %exp8 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>, affine_map<(r, c) -> (r, c)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max3 : tensor<2048x32000xf16>, tensor<2048xf16>) outs(%e7 : tensor<2048x32000xf16>) {
  ^bb0(%in9: f16, %in10: f16, %out11: f16):
    %v12 = arith.subf %in9, %in10 : f16
    %v13 = math.exp %v12 : f16
    linalg.yield %v13 : f16
  } -> tensor<2048x32000xf16>
  %e14 = tensor.empty() : tensor<2048xf16>
  %f15 = linalg.fill ins(%zero : f16) outs(%e14 : tensor<2048xf16>) -> tensor<2048xf16>
  %sum16 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>], iterator_types = ["parallel", "reduction"]}
      ins(%exp8 : tensor<2048x32000xf16>) outs(%f15 : tensor<2048xf16>) {
  ^bb0(%in17: f16, %out18: f16):
    %v19 = arith.addf %in17, %out18 : f16
    linalg.yield %v19 : f16
  } -> tensor<2048xf16>
  %e20 = tensor.empty() : tensor<2048x32000xf16>
  %y21 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>, affine_map<(r, c) -> (r, c)>], iterator_types = ["parallel", "parallel"]}
      ins(%exp8, %sum16 : tensor<2048x32000xf16>, tensor<2048xf16>) outs(%e20 : tensor<2048x32000xf16>) {
  ^bb0(%in22: f16, %in23: f16, %out24: f16):
    %v25 = arith.divf %in22, %in23 : f16
    linalg.yield %v25 : f16
  } -> tensor<2048x32000xf16>
  return %y21 : tensor<2048x32000xf16>
}
