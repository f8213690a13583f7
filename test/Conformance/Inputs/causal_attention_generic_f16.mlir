// Causal attention as Llama-2-7B prefill runs it (b1 h32 s2048 d128):
// scores of keys after the query (l > m, from linalg.index) replaced by -inf.
// Form: linalg.generic, f16 storage and compute (a half model as
// torch-mlir lowers it: f16 accumulators, which the pipeline widens).
func.func @causal_attention(%q: tensor<1x32x2048x128xf16>, %k: tensor<1x32x2048x128xf16>, %v: tensor<1x32x2048x128xf16>) -> tensor<1x32x2048x128xf16> {
  %zero = arith.constant 0.0 : f16
  %scale = arith.constant 0.08838834764831843 : f16
  %ninf = arith.constant 0xFC00 : f16
  %e1 = tensor.empty() : tensor<1x32x2048x2048xf16>
  %f2 = linalg.fill ins(%zero : f16) outs(%e1 : tensor<1x32x2048x2048xf16>) -> tensor<1x32x2048x2048xf16>
  %qk3 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l, k) -> (b, h, m, k)>, affine_map<(b, h, m, l, k) -> (b, h, l, k)>, affine_map<(b, h, m, l, k) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x32x2048x128xf16>, tensor<1x32x2048x128xf16>) outs(%f2 : tensor<1x32x2048x2048xf16>) {
  ^bb0(%in4: f16, %in5: f16, %out6: f16):
    %v7 = arith.mulf %in4, %in5 : f16
    %v8 = arith.addf %out6, %v7 : f16
    linalg.yield %v8 : f16
  } -> tensor<1x32x2048x2048xf16>
  // scaled scores, keys past the query masked with -inf
  %e9 = tensor.empty() : tensor<1x32x2048x2048xf16>
  %masked10 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%qk3 : tensor<1x32x2048x2048xf16>) outs(%e9 : tensor<1x32x2048x2048xf16>) {
  ^bb0(%in11: f16, %out12: f16):
    %v13 = linalg.index 2 : index
    %v14 = linalg.index 3 : index
    %v15 = arith.cmpi ule, %v14, %v13 : index
    %v16 = arith.mulf %in11, %scale : f16
    %v17 = arith.select %v15, %v16, %ninf : f16
    linalg.yield %v17 : f16
  } -> tensor<1x32x2048x2048xf16>
  %e18 = tensor.empty() : tensor<1x32x2048xf16>
  %f19 = linalg.fill ins(%ninf : f16) outs(%e18 : tensor<1x32x2048xf16>) -> tensor<1x32x2048xf16>
  %max20 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%masked10 : tensor<1x32x2048x2048xf16>) outs(%f19 : tensor<1x32x2048xf16>) {
  ^bb0(%in21: f16, %out22: f16):
    %v23 = arith.maximumf %in21, %out22 : f16
    linalg.yield %v23 : f16
  } -> tensor<1x32x2048xf16>
  %e24 = tensor.empty() : tensor<1x32x2048x2048xf16>
  %exp25 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%masked10, %max20 : tensor<1x32x2048x2048xf16>, tensor<1x32x2048xf16>) outs(%e24 : tensor<1x32x2048x2048xf16>) {
  ^bb0(%in26: f16, %in27: f16, %out28: f16):
    %v29 = arith.subf %in26, %in27 : f16
    %v30 = math.exp %v29 : f16
    linalg.yield %v30 : f16
  } -> tensor<1x32x2048x2048xf16>
  %e31 = tensor.empty() : tensor<1x32x2048xf16>
  %f32 = linalg.fill ins(%zero : f16) outs(%e31 : tensor<1x32x2048xf16>) -> tensor<1x32x2048xf16>
  %sum33 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%exp25 : tensor<1x32x2048x2048xf16>) outs(%f32 : tensor<1x32x2048xf16>) {
  ^bb0(%in34: f16, %out35: f16):
    %v36 = arith.addf %in34, %out35 : f16
    linalg.yield %v36 : f16
  } -> tensor<1x32x2048xf16>
  // probabilities (rounded to f16 before P.V)
  %e37 = tensor.empty() : tensor<1x32x2048x2048xf16>
  %p38 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%exp25, %sum33 : tensor<1x32x2048x2048xf16>, tensor<1x32x2048xf16>) outs(%e37 : tensor<1x32x2048x2048xf16>) {
  ^bb0(%in39: f16, %in40: f16, %out41: f16):
    %v42 = arith.divf %in39, %in40 : f16
    linalg.yield %v42 : f16
  } -> tensor<1x32x2048x2048xf16>
  %e43 = tensor.empty() : tensor<1x32x2048x128xf16>
  %f44 = linalg.fill ins(%zero : f16) outs(%e43 : tensor<1x32x2048x128xf16>) -> tensor<1x32x2048x128xf16>
  %pv45 = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, l) -> (b, h, m, l)>, affine_map<(b, h, m, n, l) -> (b, h, l, n)>, affine_map<(b, h, m, n, l) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p38, %v : tensor<1x32x2048x2048xf16>, tensor<1x32x2048x128xf16>) outs(%f44 : tensor<1x32x2048x128xf16>) {
  ^bb0(%in46: f16, %in47: f16, %out48: f16):
    %v49 = arith.mulf %in46, %in47 : f16
    %v50 = arith.addf %out48, %v49 : f16
    linalg.yield %v50 : f16
  } -> tensor<1x32x2048x128xf16>
  return %pv45 : tensor<1x32x2048x128xf16>
}
