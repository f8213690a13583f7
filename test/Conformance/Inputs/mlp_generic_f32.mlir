// Transformer MLP (768 -> 3072 -> 768, 8192 tokens): two GEMMs with a
// tanh-GELU between them, weights stored [k, n] as StableHLO's dot reads them.
// Form: linalg.generic, f32 throughout.
func.func @mlp(%x: tensor<8192x768xf32>, %w1: tensor<768x3072xf32>, %b1: tensor<3072xf32>, %w2: tensor<3072x768xf32>, %b2: tensor<768xf32>) -> tensor<8192x768xf32> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %sqrt_2_pi = arith.constant 0.7978845608028654 : f32
  %c = arith.constant 0.044715 : f32
  %e1 = tensor.empty() : tensor<8192x3072xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8192x3072xf32>) -> tensor<8192x3072xf32>
  %up3 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w1 : tensor<8192x768xf32>, tensor<768x3072xf32>) outs(%f2 : tensor<8192x3072xf32>) {
  ^bb0(%in4: f32, %in5: f32, %out6: f32):
    %v7 = arith.mulf %in4, %in5 : f32
    %v8 = arith.addf %out6, %v7 : f32
    linalg.yield %v8 : f32
  } -> tensor<8192x3072xf32>
  // bias and GELU (tanh), the hidden activation rounded to f32
  %e9 = tensor.empty() : tensor<8192x3072xf32>
  %act10 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%up3, %b1 : tensor<8192x3072xf32>, tensor<3072xf32>) outs(%e9 : tensor<8192x3072xf32>) {
  ^bb0(%in11: f32, %in12: f32, %out13: f32):
    %v14 = arith.addf %in11, %in12 : f32
    %v15 = arith.mulf %v14, %v14 : f32
    %v16 = arith.mulf %v15, %v14 : f32
    %v17 = arith.mulf %v16, %c : f32
    %v18 = arith.addf %v14, %v17 : f32
    %v19 = arith.mulf %v18, %sqrt_2_pi : f32
    %v20 = math.tanh %v19 : f32
    %v21 = arith.addf %v20, %one : f32
    %v22 = arith.mulf %v14, %half : f32
    %v23 = arith.mulf %v22, %v21 : f32
    linalg.yield %v23 : f32
  } -> tensor<8192x3072xf32>
  %e24 = tensor.empty() : tensor<8192x768xf32>
  %f25 = linalg.fill ins(%zero : f32) outs(%e24 : tensor<8192x768xf32>) -> tensor<8192x768xf32>
  %down26 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%act10, %w2 : tensor<8192x3072xf32>, tensor<3072x768xf32>) outs(%f25 : tensor<8192x768xf32>) {
  ^bb0(%in27: f32, %in28: f32, %out29: f32):
    %v30 = arith.mulf %in27, %in28 : f32
    %v31 = arith.addf %out29, %v30 : f32
    linalg.yield %v31 : f32
  } -> tensor<8192x768xf32>
  %e32 = tensor.empty() : tensor<8192x768xf32>
  %out33 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%down26, %b2 : tensor<8192x768xf32>, tensor<768xf32>) outs(%e32 : tensor<8192x768xf32>) {
  ^bb0(%in34: f32, %in35: f32, %out36: f32):
    %v37 = arith.addf %in34, %in35 : f32
    linalg.yield %v37 : f32
  } -> tensor<8192x768xf32>
  return %out33 : tensor<8192x768xf32>
}
