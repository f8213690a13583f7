// Attention as ViT-B runs it (b64 h12 s197 d64), no mask:
// O = softmax(Q K^T / sqrt(64)) V, softmax over the keys.
// Form: linalg.generic, f16 storage and compute (a half model as
// torch-mlir lowers it: f16 accumulators, which the pipeline widens).
func.func @vit_attention(%q: tensor<64x12x197x64xf16>, %k: tensor<64x12x197x64xf16>, %v: tensor<64x12x197x64xf16>) -> tensor<64x12x197x64xf16> {
  %zero = arith.constant 0.0 : f16
  %scale = arith.constant 0.125 : f16
  %ninf = arith.constant 0xFC00 : f16
  %e1 = tensor.empty() : tensor<64x12x197x197xf16>
  %f2 = linalg.fill ins(%zero : f16) outs(%e1 : tensor<64x12x197x197xf16>) -> tensor<64x12x197x197xf16>
  %qk3 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l, k) -> (b, h, m, k)>, affine_map<(b, h, m, l, k) -> (b, h, l, k)>, affine_map<(b, h, m, l, k) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<64x12x197x64xf16>, tensor<64x12x197x64xf16>) outs(%f2 : tensor<64x12x197x197xf16>) {
  ^bb0(%in4: f16, %in5: f16, %out6: f16):
    %v7 = arith.mulf %in4, %in5 : f16
    %v8 = arith.addf %out6, %v7 : f16
    linalg.yield %v8 : f16
  } -> tensor<64x12x197x197xf16>
  %e9 = tensor.empty() : tensor<64x12x197x197xf16>
  %scaled10 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%qk3 : tensor<64x12x197x197xf16>) outs(%e9 : tensor<64x12x197x197xf16>) {
  ^bb0(%in11: f16, %out12: f16):
    %v13 = arith.mulf %in11, %scale : f16
    linalg.yield %v13 : f16
  } -> tensor<64x12x197x197xf16>
  %e14 = tensor.empty() : tensor<64x12x197xf16>
  %f15 = linalg.fill ins(%ninf : f16) outs(%e14 : tensor<64x12x197xf16>) -> tensor<64x12x197xf16>
  %max16 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%scaled10 : tensor<64x12x197x197xf16>) outs(%f15 : tensor<64x12x197xf16>) {
  ^bb0(%in17: f16, %out18: f16):
    %v19 = arith.maximumf %in17, %out18 : f16
    linalg.yield %v19 : f16
  } -> tensor<64x12x197xf16>
  %e20 = tensor.empty() : tensor<64x12x197x197xf16>
  %exp21 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%scaled10, %max16 : tensor<64x12x197x197xf16>, tensor<64x12x197xf16>) outs(%e20 : tensor<64x12x197x197xf16>) {
  ^bb0(%in22: f16, %in23: f16, %out24: f16):
    %v25 = arith.subf %in22, %in23 : f16
    %v26 = math.exp %v25 : f16
    linalg.yield %v26 : f16
  } -> tensor<64x12x197x197xf16>
  %e27 = tensor.empty() : tensor<64x12x197xf16>
  %f28 = linalg.fill ins(%zero : f16) outs(%e27 : tensor<64x12x197xf16>) -> tensor<64x12x197xf16>
  %sum29 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%exp21 : tensor<64x12x197x197xf16>) outs(%f28 : tensor<64x12x197xf16>) {
  ^bb0(%in30: f16, %out31: f16):
    %v32 = arith.addf %in30, %out31 : f16
    linalg.yield %v32 : f16
  } -> tensor<64x12x197xf16>
  // probabilities (rounded to f16 before P.V)
  %e33 = tensor.empty() : tensor<64x12x197x197xf16>
  %p34 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%exp21, %sum29 : tensor<64x12x197x197xf16>, tensor<64x12x197xf16>) outs(%e33 : tensor<64x12x197x197xf16>) {
  ^bb0(%in35: f16, %in36: f16, %out37: f16):
    %v38 = arith.divf %in35, %in36 : f16
    linalg.yield %v38 : f16
  } -> tensor<64x12x197x197xf16>
  %e39 = tensor.empty() : tensor<64x12x197x64xf16>
  %f40 = linalg.fill ins(%zero : f16) outs(%e39 : tensor<64x12x197x64xf16>) -> tensor<64x12x197x64xf16>
  %pv41 = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, l) -> (b, h, m, l)>, affine_map<(b, h, m, n, l) -> (b, h, l, n)>, affine_map<(b, h, m, n, l) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p34, %v : tensor<64x12x197x197xf16>, tensor<64x12x197x64xf16>) outs(%f40 : tensor<64x12x197x64xf16>) {
  ^bb0(%in42: f16, %in43: f16, %out44: f16):
    %v45 = arith.mulf %in42, %in43 : f16
    %v46 = arith.addf %out44, %v45 : f16
    linalg.yield %v46 : f16
  } -> tensor<64x12x197x64xf16>
  return %pv41 : tensor<64x12x197x64xf16>
}
