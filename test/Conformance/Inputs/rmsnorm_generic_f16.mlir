// RMSNorm over Llama-2-7B's hidden dim (2048 tokens x 4096).
// Form: linalg.generic, f16 storage and compute (a half model as
// torch-mlir lowers it: f16 accumulators, which the pipeline widens).
func.func @rmsnorm(%x: tensor<2048x4096xf16>, %gamma: tensor<4096xf16>) -> tensor<2048x4096xf16> {
  %n = arith.constant 4096.0 : f16
  %eps = arith.constant 1.000000e-06 : f16
  %zero = arith.constant 0.0 : f16
  %e1 = tensor.empty() : tensor<2048x4096xf16>
  %sq2 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r, c)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<2048x4096xf16>) outs(%e1 : tensor<2048x4096xf16>) {
  ^bb0(%in3: f16, %out4: f16):
    %v5 = arith.mulf %in3, %in3 : f16
    linalg.yield %v5 : f16
  } -> tensor<2048x4096xf16>
  %e6 = tensor.empty() : tensor<2048xf16>
  %f7 = linalg.fill ins(%zero : f16) outs(%e6 : tensor<2048xf16>) -> tensor<2048xf16>
  %sqsum8 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>], iterator_types = ["parallel", "reduction"]}
      ins(%sq2 : tensor<2048x4096xf16>) outs(%f7 : tensor<2048xf16>) {
  ^bb0(%in9: f16, %out10: f16):
    %v11 = arith.addf %in9, %out10 : f16
    linalg.yield %v11 : f16
  } -> tensor<2048xf16>
  %e12 = tensor.empty() : tensor<2048xf16>
  %rstd13 = linalg.generic {indexing_maps = [affine_map<(r) -> (r)>, affine_map<(r) -> (r)>], iterator_types = ["parallel"]}
      ins(%sqsum8 : tensor<2048xf16>) outs(%e12 : tensor<2048xf16>) {
  ^bb0(%in14: f16, %out15: f16):
    %v16 = arith.divf %in14, %n : f16
    %v17 = arith.addf %v16, %eps : f16
    %v18 = math.rsqrt %v17 : f16
    linalg.yield %v18 : f16
  } -> tensor<2048xf16>
  %e19 = tensor.empty() : tensor<2048x4096xf16>
  %y20 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>, affine_map<(r, c) -> (c)>, affine_map<(r, c) -> (r, c)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %rstd13, %gamma : tensor<2048x4096xf16>, tensor<2048xf16>, tensor<4096xf16>) outs(%e19 : tensor<2048x4096xf16>) {
  ^bb0(%in21: f16, %in22: f16, %in23: f16, %out24: f16):
    %v25 = arith.mulf %in21, %in22 : f16
    %v26 = arith.mulf %v25, %in23 : f16
    linalg.yield %v26 : f16
  } -> tensor<2048x4096xf16>
  return %y20 : tensor<2048x4096xf16>
}
