// RMSNorm over Llama-2-7B's hidden dim (2048 tokens x 4096).
// Form: linalg.generic, f32 throughout.
func.func @rmsnorm(%x: tensor<2048x4096xf32>, %gamma: tensor<4096xf32>) -> tensor<2048x4096xf32> {
  %n = arith.constant 4096.0 : f32
  %eps = arith.constant 1.000000e-06 : f32
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<2048x4096xf32>
  %sq2 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r, c)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<2048x4096xf32>) outs(%e1 : tensor<2048x4096xf32>) {
  ^bb0(%in3: f32, %out4: f32):
    %v5 = arith.mulf %in3, %in3 : f32
    linalg.yield %v5 : f32
  } -> tensor<2048x4096xf32>
  %e6 = tensor.empty() : tensor<2048xf32>
  %f7 = linalg.fill ins(%zero : f32) outs(%e6 : tensor<2048xf32>) -> tensor<2048xf32>
  %sqsum8 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>], iterator_types = ["parallel", "reduction"]}
      ins(%sq2 : tensor<2048x4096xf32>) outs(%f7 : tensor<2048xf32>) {
  ^bb0(%in9: f32, %out10: f32):
    %v11 = arith.addf %in9, %out10 : f32
    linalg.yield %v11 : f32
  } -> tensor<2048xf32>
  %e12 = tensor.empty() : tensor<2048xf32>
  %rstd13 = linalg.generic {indexing_maps = [affine_map<(r) -> (r)>, affine_map<(r) -> (r)>], iterator_types = ["parallel"]}
      ins(%sqsum8 : tensor<2048xf32>) outs(%e12 : tensor<2048xf32>) {
  ^bb0(%in14: f32, %out15: f32):
    %v16 = arith.divf %in14, %n : f32
    %v17 = arith.addf %v16, %eps : f32
    %v18 = math.rsqrt %v17 : f32
    linalg.yield %v18 : f32
  } -> tensor<2048xf32>
  %e19 = tensor.empty() : tensor<2048x4096xf32>
  %y20 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>, affine_map<(r, c) -> (c)>, affine_map<(r, c) -> (r, c)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %rstd13, %gamma : tensor<2048x4096xf32>, tensor<2048xf32>, tensor<4096xf32>) outs(%e19 : tensor<2048x4096xf32>) {
  ^bb0(%in21: f32, %in22: f32, %in23: f32, %out24: f32):
    %v25 = arith.mulf %in21, %in22 : f32
    %v26 = arith.mulf %v25, %in23 : f32
    linalg.yield %v26 : f32
  } -> tensor<2048x4096xf32>
  return %y20 : tensor<2048x4096xf32>
}
