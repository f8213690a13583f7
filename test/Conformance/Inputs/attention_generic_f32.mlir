// Attention as BERT-base runs it (b16 h12 s512 d64), no mask:
// O = softmax(Q K^T / sqrt(64)) V, softmax over the keys.
// Form: linalg.generic, f32 throughout.
func.func @attention(%q: tensor<16x12x512x64xf32>, %k: tensor<16x12x512x64xf32>, %v: tensor<16x12x512x64xf32>) -> tensor<16x12x512x64xf32> {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.125 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e1 = tensor.empty() : tensor<16x12x512x512xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x12x512x512xf32>) -> tensor<16x12x512x512xf32>
  %qk3 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l, k) -> (b, h, m, k)>, affine_map<(b, h, m, l, k) -> (b, h, l, k)>, affine_map<(b, h, m, l, k) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<16x12x512x64xf32>, tensor<16x12x512x64xf32>) outs(%f2 : tensor<16x12x512x512xf32>) {
  ^bb0(%in4: f32, %in5: f32, %out6: f32):
    %v7 = arith.mulf %in4, %in5 : f32
    %v8 = arith.addf %out6, %v7 : f32
    linalg.yield %v8 : f32
  } -> tensor<16x12x512x512xf32>
  %e9 = tensor.empty() : tensor<16x12x512x512xf32>
  %scaled10 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%qk3 : tensor<16x12x512x512xf32>) outs(%e9 : tensor<16x12x512x512xf32>) {
  ^bb0(%in11: f32, %out12: f32):
    %v13 = arith.mulf %in11, %scale : f32
    linalg.yield %v13 : f32
  } -> tensor<16x12x512x512xf32>
  %e14 = tensor.empty() : tensor<16x12x512xf32>
  %f15 = linalg.fill ins(%ninf : f32) outs(%e14 : tensor<16x12x512xf32>) -> tensor<16x12x512xf32>
  %max16 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%scaled10 : tensor<16x12x512x512xf32>) outs(%f15 : tensor<16x12x512xf32>) {
  ^bb0(%in17: f32, %out18: f32):
    %v19 = arith.maximumf %in17, %out18 : f32
    linalg.yield %v19 : f32
  } -> tensor<16x12x512xf32>
  %e20 = tensor.empty() : tensor<16x12x512x512xf32>
  %exp21 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%scaled10, %max16 : tensor<16x12x512x512xf32>, tensor<16x12x512xf32>) outs(%e20 : tensor<16x12x512x512xf32>) {
  ^bb0(%in22: f32, %in23: f32, %out24: f32):
    %v25 = arith.subf %in22, %in23 : f32
    %v26 = math.exp %v25 : f32
    linalg.yield %v26 : f32
  } -> tensor<16x12x512x512xf32>
  %e27 = tensor.empty() : tensor<16x12x512xf32>
  %f28 = linalg.fill ins(%zero : f32) outs(%e27 : tensor<16x12x512xf32>) -> tensor<16x12x512xf32>
  %sum29 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%exp21 : tensor<16x12x512x512xf32>) outs(%f28 : tensor<16x12x512xf32>) {
  ^bb0(%in30: f32, %out31: f32):
    %v32 = arith.addf %in30, %out31 : f32
    linalg.yield %v32 : f32
  } -> tensor<16x12x512xf32>
  // probabilities (rounded to f32 before P.V)
  %e33 = tensor.empty() : tensor<16x12x512x512xf32>
  %p34 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%exp21, %sum29 : tensor<16x12x512x512xf32>, tensor<16x12x512xf32>) outs(%e33 : tensor<16x12x512x512xf32>) {
  ^bb0(%in35: f32, %in36: f32, %out37: f32):
    %v38 = arith.divf %in35, %in36 : f32
    linalg.yield %v38 : f32
  } -> tensor<16x12x512x512xf32>
  %e39 = tensor.empty() : tensor<16x12x512x64xf32>
  %f40 = linalg.fill ins(%zero : f32) outs(%e39 : tensor<16x12x512x64xf32>) -> tensor<16x12x512x64xf32>
  %pv41 = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, l) -> (b, h, m, l)>, affine_map<(b, h, m, n, l) -> (b, h, l, n)>, affine_map<(b, h, m, n, l) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p34, %v : tensor<16x12x512x512xf32>, tensor<16x12x512x64xf32>) outs(%f40 : tensor<16x12x512x64xf32>) {
  ^bb0(%in42: f32, %in43: f32, %out44: f32):
    %v45 = arith.mulf %in42, %in43 : f32
    %v46 = arith.addf %out44, %v45 : f32
    linalg.yield %v46 : f32
  } -> tensor<16x12x512x64xf32>
  return %pv41 : tensor<16x12x512x64xf32>
}
