// Transformer MLP (768 -> 3072 -> 768, 8192 tokens): two GEMMs with a
// tanh-GELU between them, weights stored [k, n] as StableHLO's dot reads them.
// Form: linalg.generic, f16 storage and compute (a half model as
// torch-mlir lowers it: f16 accumulators, which the pipeline widens).
func.func @mlp(%x: tensor<8192x768xf16>, %w1: tensor<768x3072xf16>, %b1: tensor<3072xf16>, %w2: tensor<3072x768xf16>, %b2: tensor<768xf16>) -> tensor<8192x768xf16> {
  %zero = arith.constant 0.0 : f16
  %half = arith.constant 0.5 : f16
  %one = arith.constant 1.0 : f16
  %sqrt_2_pi = arith.constant 0.7978845608028654 : f16
  %c = arith.constant 0.044715 : f16
  %e1 = tensor.empty() : tensor<8192x3072xf16>
  %f2 = linalg.fill ins(%zero : f16) outs(%e1 : tensor<8192x3072xf16>) -> tensor<8192x3072xf16>
  %up3 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w1 : tensor<8192x768xf16>, tensor<768x3072xf16>) outs(%f2 : tensor<8192x3072xf16>) {
  ^bb0(%in4: f16, %in5: f16, %out6: f16):
    %v7 = arith.mulf %in4, %in5 : f16
    %v8 = arith.addf %out6, %v7 : f16
    linalg.yield %v8 : f16
  } -> tensor<8192x3072xf16>
  // bias and GELU (tanh), the hidden activation rounded to f16
  %e9 = tensor.empty() : tensor<8192x3072xf16>
  %act10 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%up3, %b1 : tensor<8192x3072xf16>, tensor<3072xf16>) outs(%e9 : tensor<8192x3072xf16>) {
  ^bb0(%in11: f16, %in12: f16, %out13: f16):
    %v14 = arith.addf %in11, %in12 : f16
    %v15 = arith.mulf %v14, %v14 : f16
    %v16 = arith.mulf %v15, %v14 : f16
    %v17 = arith.mulf %v16, %c : f16
    %v18 = arith.addf %v14, %v17 : f16
    %v19 = arith.mulf %v18, %sqrt_2_pi : f16
    %v20 = math.tanh %v19 : f16
    %v21 = arith.addf %v20, %one : f16
    %v22 = arith.mulf %v14, %half : f16
    %v23 = arith.mulf %v22, %v21 : f16
    linalg.yield %v23 : f16
  } -> tensor<8192x3072xf16>
  %e24 = tensor.empty() : tensor<8192x768xf16>
  %f25 = linalg.fill ins(%zero : f16) outs(%e24 : tensor<8192x768xf16>) -> tensor<8192x768xf16>
  %down26 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%act10, %w2 : tensor<8192x3072xf16>, tensor<3072x768xf16>) outs(%f25 : tensor<8192x768xf16>) {
  ^bb0(%in27: f16, %in28: f16, %out29: f16):
    %v30 = arith.mulf %in27, %in28 : f16
    %v31 = arith.addf %out29, %v30 : f16
    linalg.yield %v31 : f16
  } -> tensor<8192x768xf16>
  %e32 = tensor.empty() : tensor<8192x768xf16>
  %out33 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%down26, %b2 : tensor<8192x768xf16>, tensor<768xf16>) outs(%e32 : tensor<8192x768xf16>) {
  ^bb0(%in34: f16, %in35: f16, %out36: f16):
    %v37 = arith.addf %in34, %in35 : f16
    linalg.yield %v37 : f16
  } -> tensor<8192x768xf16>
  return %out33 : tensor<8192x768xf16>
}
