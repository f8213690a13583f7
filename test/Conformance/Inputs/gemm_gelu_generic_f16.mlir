// BERT-base intermediate linear: GELU(X W^T + b), X 8192x768, W as
// nn.Linear stores it (3072x768, read transposed), erf GELU epilogue.
// Form: linalg.generic, f16 storage and compute (a half model as
// torch-mlir lowers it: f16 accumulators, which the pipeline widens).
func.func @gemm_gelu(%x: tensor<8192x768xf16>, %w: tensor<3072x768xf16>, %bias: tensor<3072xf16>) -> tensor<8192x3072xf16> {
  %zero = arith.constant 0.0 : f16
  %half = arith.constant 0.5 : f16
  %one = arith.constant 1.0 : f16
  %rsqrt2 = arith.constant 0.7071067811865476 : f16
  %e1 = tensor.empty() : tensor<8192x3072xf16>
  %f2 = linalg.fill ins(%zero : f16) outs(%e1 : tensor<8192x3072xf16>) -> tensor<8192x3072xf16>
  %xw3 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<8192x768xf16>, tensor<3072x768xf16>) outs(%f2 : tensor<8192x3072xf16>) {
  ^bb0(%in4: f16, %in5: f16, %out6: f16):
    %v7 = arith.mulf %in4, %in5 : f16
    %v8 = arith.addf %out6, %v7 : f16
    linalg.yield %v8 : f16
  } -> tensor<8192x3072xf16>
  // bias and GELU (erf)
  %e9 = tensor.empty() : tensor<8192x3072xf16>
  %gelu10 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%xw3, %bias : tensor<8192x3072xf16>, tensor<3072xf16>) outs(%e9 : tensor<8192x3072xf16>) {
  ^bb0(%in11: f16, %in12: f16, %out13: f16):
    %v14 = arith.addf %in11, %in12 : f16
    %v15 = arith.mulf %v14, %rsqrt2 : f16
    %v16 = math.erf %v15 : f16
    %v17 = arith.addf %v16, %one : f16
    %v18 = arith.mulf %v14, %half : f16
    %v19 = arith.mulf %v18, %v17 : f16
    linalg.yield %v19 : f16
  } -> tensor<8192x3072xf16>
  return %gelu10 : tensor<8192x3072xf16>
}
