// Softmax over Llama's LM-head logits (2048 rows x 32000 columns).
// Form: linalg.generic, f32 throughout.
func.func @softmax(%x: tensor<2048x32000xf32>) -> tensor<2048x32000xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<2048xf32>
  %f2 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<2048xf32>) -> tensor<2048xf32>
  %max3 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2048x32000xf32>) outs(%f2 : tensor<2048xf32>) {
  ^bb0(%in4: f32, %out5: f32):
    %v6 = arith.maximumf %in4, %out5 : f32
    linalg.yield %v6 : f32
  } -> tensor<2048xf32>
  %e7 = tensor.empty() : tensor<2048x32000xf32>
  %exp8 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>, affine_map<(r, c) -> (r, c)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max3 : tensor<2048x32000xf32>, tensor<2048xf32>) outs(%e7 : tensor<2048x32000xf32>) {
  ^bb0(%in9: f32, %in10: f32, %out11: f32):
    %v12 = arith.subf %in9, %in10 : f32
    %v13 = math.exp %v12 : f32
    linalg.yield %v13 : f32
  } -> tensor<2048x32000xf32>
  %e14 = tensor.empty() : tensor<2048xf32>
  %f15 = linalg.fill ins(%zero : f32) outs(%e14 : tensor<2048xf32>) -> tensor<2048xf32>
  %sum16 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>], iterator_types = ["parallel", "reduction"]}
      ins(%exp8 : tensor<2048x32000xf32>) outs(%f15 : tensor<2048xf32>) {
  ^bb0(%in17: f32, %out18: f32):
    %v19 = arith.addf %in17, %out18 : f32
    linalg.yield %v19 : f32
  } -> tensor<2048xf32>
  %e20 = tensor.empty() : tensor<2048x32000xf32>
  %y21 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>, affine_map<(r, c) -> (r, c)>], iterator_types = ["parallel", "parallel"]}
      ins(%exp8, %sum16 : tensor<2048x32000xf32>, tensor<2048xf32>) outs(%e20 : tensor<2048x32000xf32>) {
  ^bb0(%in22: f32, %in23: f32, %out24: f32):
    %v25 = arith.divf %in22, %in23 : f32
    linalg.yield %v25 : f32
  } -> tensor<2048x32000xf32>
  return %y21 : tensor<2048x32000xf32>
}
