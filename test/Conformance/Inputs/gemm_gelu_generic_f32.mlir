// BERT-base intermediate linear: GELU(X W^T + b), X 8192x768, W as
// nn.Linear stores it (3072x768, read transposed), erf GELU epilogue.
// Form: linalg.generic, f32 throughout.
func.func @gemm_gelu(%x: tensor<8192x768xf32>, %w: tensor<3072x768xf32>, %bias: tensor<3072xf32>) -> tensor<8192x3072xf32> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %rsqrt2 = arith.constant 0.7071067811865476 : f32
  %e1 = tensor.empty() : tensor<8192x3072xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8192x3072xf32>) -> tensor<8192x3072xf32>
  %xw3 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<8192x768xf32>, tensor<3072x768xf32>) outs(%f2 : tensor<8192x3072xf32>) {
  ^bb0(%in4: f32, %in5: f32, %out6: f32):
    %v7 = arith.mulf %in4, %in5 : f32
    %v8 = arith.addf %out6, %v7 : f32
    linalg.yield %v8 : f32
  } -> tensor<8192x3072xf32>
  // bias and GELU (erf)
  %e9 = tensor.empty() : tensor<8192x3072xf32>
  %gelu10 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%xw3, %bias : tensor<8192x3072xf32>, tensor<3072xf32>) outs(%e9 : tensor<8192x3072xf32>) {
  ^bb0(%in11: f32, %in12: f32, %out13: f32):
    %v14 = arith.addf %in11, %in12 : f32
    %v15 = arith.mulf %v14, %rsqrt2 : f32
    %v16 = math.erf %v15 : f32
    %v17 = arith.addf %v16, %one : f32
    %v18 = arith.mulf %v14, %half : f32
    %v19 = arith.mulf %v18, %v17 : f32
    linalg.yield %v19 : f32
  } -> tensor<8192x3072xf32>
  return %gelu10 : tensor<8192x3072xf32>
}
