// Causal attention as Llama-2-7B prefill runs it (b1 h32 s2048 d128):
// scores of keys after the query (l > m, from linalg.index) replaced by -inf.
// Form: linalg.generic, f32 throughout.
func.func @causal_attention(%q: tensor<1x32x2048x128xf32>, %k: tensor<1x32x2048x128xf32>, %v: tensor<1x32x2048x128xf32>) -> tensor<1x32x2048x128xf32> {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.08838834764831843 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e1 = tensor.empty() : tensor<1x32x2048x2048xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x32x2048x2048xf32>) -> tensor<1x32x2048x2048xf32>
  %qk3 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l, k) -> (b, h, m, k)>, affine_map<(b, h, m, l, k) -> (b, h, l, k)>, affine_map<(b, h, m, l, k) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x32x2048x128xf32>, tensor<1x32x2048x128xf32>) outs(%f2 : tensor<1x32x2048x2048xf32>) {
  ^bb0(%in4: f32, %in5: f32, %out6: f32):
    %v7 = arith.mulf %in4, %in5 : f32
    %v8 = arith.addf %out6, %v7 : f32
    linalg.yield %v8 : f32
  } -> tensor<1x32x2048x2048xf32>
  // scaled scores, keys past the query masked with -inf
  %e9 = tensor.empty() : tensor<1x32x2048x2048xf32>
  %masked10 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%qk3 : tensor<1x32x2048x2048xf32>) outs(%e9 : tensor<1x32x2048x2048xf32>) {
  ^bb0(%in11: f32, %out12: f32):
    %v13 = linalg.index 2 : index
    %v14 = linalg.index 3 : index
    %v15 = arith.cmpi ule, %v14, %v13 : index
    %v16 = arith.mulf %in11, %scale : f32
    %v17 = arith.select %v15, %v16, %ninf : f32
    linalg.yield %v17 : f32
  } -> tensor<1x32x2048x2048xf32>
  %e18 = tensor.empty() : tensor<1x32x2048xf32>
  %f19 = linalg.fill ins(%ninf : f32) outs(%e18 : tensor<1x32x2048xf32>) -> tensor<1x32x2048xf32>
  %max20 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%masked10 : tensor<1x32x2048x2048xf32>) outs(%f19 : tensor<1x32x2048xf32>) {
  ^bb0(%in21: f32, %out22: f32):
    %v23 = arith.maximumf %in21, %out22 : f32
    linalg.yield %v23 : f32
  } -> tensor<1x32x2048xf32>
  %e24 = tensor.empty() : tensor<1x32x2048x2048xf32>
  %exp25 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%masked10, %max20 : tensor<1x32x2048x2048xf32>, tensor<1x32x2048xf32>) outs(%e24 : tensor<1x32x2048x2048xf32>) {
  ^bb0(%in26: f32, %in27: f32, %out28: f32):
    %v29 = arith.subf %in26, %in27 : f32
    %v30 = math.exp %v29 : f32
    linalg.yield %v30 : f32
  } -> tensor<1x32x2048x2048xf32>
  %e31 = tensor.empty() : tensor<1x32x2048xf32>
  %f32 = linalg.fill ins(%zero : f32) outs(%e31 : tensor<1x32x2048xf32>) -> tensor<1x32x2048xf32>
  %sum33 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%exp25 : tensor<1x32x2048x2048xf32>) outs(%f32 : tensor<1x32x2048xf32>) {
  ^bb0(%in34: f32, %out35: f32):
    %v36 = arith.addf %in34, %out35 : f32
    linalg.yield %v36 : f32
  } -> tensor<1x32x2048xf32>
  // probabilities (rounded to f32 before P.V)
  %e37 = tensor.empty() : tensor<1x32x2048x2048xf32>
  %p38 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%exp25, %sum33 : tensor<1x32x2048x2048xf32>, tensor<1x32x2048xf32>) outs(%e37 : tensor<1x32x2048x2048xf32>) {
  ^bb0(%in39: f32, %in40: f32, %out41: f32):
    %v42 = arith.divf %in39, %in40 : f32
    linalg.yield %v42 : f32
  } -> tensor<1x32x2048x2048xf32>
  %e43 = tensor.empty() : tensor<1x32x2048x128xf32>
  %f44 = linalg.fill ins(%zero : f32) outs(%e43 : tensor<1x32x2048x128xf32>) -> tensor<1x32x2048x128xf32>
  %pv45 = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, l) -> (b, h, m, l)>, affine_map<(b, h, m, n, l) -> (b, h, l, n)>, affine_map<(b, h, m, n, l) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p38, %v : tensor<1x32x2048x2048xf32>, tensor<1x32x2048x128xf32>) outs(%f44 : tensor<1x32x2048x128xf32>) {
  ^bb0(%in46: f32, %in47: f32, %out48: f32):
    %v49 = arith.mulf %in46, %in47 : f32
    %v50 = arith.addf %out48, %v49 : f32
    linalg.yield %v50 : f32
  } -> tensor<1x32x2048x128xf32>
  return %pv45 : tensor<1x32x2048x128xf32>
}
