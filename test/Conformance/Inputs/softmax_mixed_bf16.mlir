// Softmax over Llama's LM-head logits (2048 rows x 32000 columns).
// Form: mixed precision: bf16 storage, f32 math, arith.extf / arith.truncf
// inside the bodies.
func.func @softmax(%x: tensor<2048x32000xbf16>) -> tensor<2048x32000xbf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<2048xf32>
  %f2 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<2048xf32>) -> tensor<2048xf32>
  %max3 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2048x32000xbf16>) outs(%f2 : tensor<2048xf32>) {
  ^bb0(%in4: bf16, %out5: f32):
    %x6 = arith.extf %in4 : bf16 to f32
    %v7 = arith.maximumf %x6, %out5 : f32
    linalg.yield %v7 : f32
  } -> tensor<2048xf32>
  %e8 = tensor.empty() : tensor<2048x32000xf32>
  %exp9 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>, affine_map<(r, c) -> (r, c)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max3 : tensor<2048x32000xbf16>, tensor<2048xf32>) outs(%e8 : tensor<2048x32000xf32>) {
  ^bb0(%in10: bf16, %in11: f32, %out12: f32):
    %x13 = arith.extf %in10 : bf16 to f32
    %v14 = arith.subf %x13, %in11 : f32
    %v15 = math.exp %v14 : f32
    linalg.yield %v15 : f32
  } -> tensor<2048x32000xf32>
  %e16 = tensor.empty() : tensor<2048xf32>
  %f17 = linalg.fill ins(%zero : f32) outs(%e16 : tensor<2048xf32>) -> tensor<2048xf32>
  %sum18 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>], iterator_types = ["parallel", "reduction"]}
      ins(%exp9 : tensor<2048x32000xf32>) outs(%f17 : tensor<2048xf32>) {
  ^bb0(%in19: f32, %out20: f32):
    %v21 = arith.addf %in19, %out20 : f32
    linalg.yield %v21 : f32
  } -> tensor<2048xf32>
  %e22 = tensor.empty() : tensor<2048x32000xbf16>
  %y23 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>, affine_map<(r, c) -> (r, c)>], iterator_types = ["parallel", "parallel"]}
      ins(%exp9, %sum18 : tensor<2048x32000xf32>, tensor<2048xf32>) outs(%e22 : tensor<2048x32000xbf16>) {
  ^bb0(%in24: f32, %in25: f32, %out26: bf16):
    %v27 = arith.divf %in24, %in25 : f32
    %t28 = arith.truncf %v27 : f32 to bf16
    linalg.yield %t28 : bf16
  } -> tensor<2048x32000xbf16>
  return %y23 : tensor<2048x32000xbf16>
}
