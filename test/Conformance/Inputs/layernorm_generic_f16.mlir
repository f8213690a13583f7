// LayerNorm over BERT-base's hidden dim (8192 tokens x 768),
// decomposed as torch-mlir writes aten.native_layer_norm.
// Form: linalg.generic, f16 storage and compute (a half model as
// torch-mlir lowers it: f16 accumulators, which the pipeline widens).
func.func @layernorm(%x: tensor<8192x768xf16>, %gamma: tensor<768xf16>, %beta: tensor<768xf16>) -> tensor<8192x768xf16> {
  %zero = arith.constant 0.0 : f16
  %n = arith.constant 768.0 : f16
  %eps = arith.constant 1.000000e-05 : f16
  %e1 = tensor.empty() : tensor<8192xf16>
  %f2 = linalg.fill ins(%zero : f16) outs(%e1 : tensor<8192xf16>) -> tensor<8192xf16>
  %sum3 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8192x768xf16>) outs(%f2 : tensor<8192xf16>) {
  ^bb0(%in4: f16, %out5: f16):
    %v6 = arith.addf %in4, %out5 : f16
    linalg.yield %v6 : f16
  } -> tensor<8192xf16>
  %e7 = tensor.empty() : tensor<8192xf16>
  %mean8 = linalg.generic {indexing_maps = [affine_map<(r) -> (r)>, affine_map<(r) -> (r)>], iterator_types = ["parallel"]}
      ins(%sum3 : tensor<8192xf16>) outs(%e7 : tensor<8192xf16>) {
  ^bb0(%in9: f16, %out10: f16):
    %v11 = arith.divf %in9, %n : f16
    linalg.yield %v11 : f16
  } -> tensor<8192xf16>
  %e12 = tensor.empty() : tensor<8192x768xf16>
  %centered13 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>, affine_map<(r, c) -> (r, c)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean8 : tensor<8192x768xf16>, tensor<8192xf16>) outs(%e12 : tensor<8192x768xf16>) {
  ^bb0(%in14: f16, %in15: f16, %out16: f16):
    %v17 = arith.subf %in14, %in15 : f16
    linalg.yield %v17 : f16
  } -> tensor<8192x768xf16>
  %e18 = tensor.empty() : tensor<8192x768xf16>
  %sq19 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r, c)>], iterator_types = ["parallel", "parallel"]}
      ins(%centered13 : tensor<8192x768xf16>) outs(%e18 : tensor<8192x768xf16>) {
  ^bb0(%in20: f16, %out21: f16):
    %v22 = arith.mulf %in20, %in20 : f16
    linalg.yield %v22 : f16
  } -> tensor<8192x768xf16>
  %e23 = tensor.empty() : tensor<8192xf16>
  %f24 = linalg.fill ins(%zero : f16) outs(%e23 : tensor<8192xf16>) -> tensor<8192xf16>
  %sqsum25 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>], iterator_types = ["parallel", "reduction"]}
      ins(%sq19 : tensor<8192x768xf16>) outs(%f24 : tensor<8192xf16>) {
  ^bb0(%in26: f16, %out27: f16):
    %v28 = arith.addf %in26, %out27 : f16
    linalg.yield %v28 : f16
  } -> tensor<8192xf16>
  %e29 = tensor.empty() : tensor<8192xf16>
  %rstd30 = linalg.generic {indexing_maps = [affine_map<(r) -> (r)>, affine_map<(r) -> (r)>], iterator_types = ["parallel"]}
      ins(%sqsum25 : tensor<8192xf16>) outs(%e29 : tensor<8192xf16>) {
  ^bb0(%in31: f16, %out32: f16):
    %v33 = arith.divf %in31, %n : f16
    %v34 = arith.addf %v33, %eps : f16
    %v35 = math.rsqrt %v34 : f16
    linalg.yield %v35 : f16
  } -> tensor<8192xf16>
  %e36 = tensor.empty() : tensor<8192x768xf16>
  %y37 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>, affine_map<(r, c) -> (c)>, affine_map<(r, c) -> (c)>, affine_map<(r, c) -> (r, c)>], iterator_types = ["parallel", "parallel"]}
      ins(%centered13, %rstd30, %gamma, %beta : tensor<8192x768xf16>, tensor<8192xf16>, tensor<768xf16>, tensor<768xf16>) outs(%e36 : tensor<8192x768xf16>) {
  ^bb0(%in38: f16, %in39: f16, %in40: f16, %in41: f16, %out42: f16):
    %v43 = arith.mulf %in38, %in39 : f16
    %v44 = arith.mulf %v43, %in40 : f16
    %v45 = arith.addf %v44, %in41 : f16
    linalg.yield %v45 : f16
  } -> tensor<8192x768xf16>
  return %y37 : tensor<8192x768xf16>
}
