// LayerNorm over BERT-base's hidden dim (8192 tokens x 768),
// decomposed as torch-mlir writes aten.native_layer_norm.
// Form: linalg.generic, f32 throughout.
func.func @layernorm(%x: tensor<8192x768xf32>, %gamma: tensor<768xf32>, %beta: tensor<768xf32>) -> tensor<8192x768xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 768.0 : f32
  %eps = arith.constant 1.000000e-05 : f32
  %e1 = tensor.empty() : tensor<8192xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8192xf32>) -> tensor<8192xf32>
  %sum3 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8192x768xf32>) outs(%f2 : tensor<8192xf32>) {
  ^bb0(%in4: f32, %out5: f32):
    %v6 = arith.addf %in4, %out5 : f32
    linalg.yield %v6 : f32
  } -> tensor<8192xf32>
  %e7 = tensor.empty() : tensor<8192xf32>
  %mean8 = linalg.generic {indexing_maps = [affine_map<(r) -> (r)>, affine_map<(r) -> (r)>], iterator_types = ["parallel"]}
      ins(%sum3 : tensor<8192xf32>) outs(%e7 : tensor<8192xf32>) {
  ^bb0(%in9: f32, %out10: f32):
    %v11 = arith.divf %in9, %n : f32
    linalg.yield %v11 : f32
  } -> tensor<8192xf32>
  %e12 = tensor.empty() : tensor<8192x768xf32>
  %centered13 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>, affine_map<(r, c) -> (r, c)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean8 : tensor<8192x768xf32>, tensor<8192xf32>) outs(%e12 : tensor<8192x768xf32>) {
  ^bb0(%in14: f32, %in15: f32, %out16: f32):
    %v17 = arith.subf %in14, %in15 : f32
    linalg.yield %v17 : f32
  } -> tensor<8192x768xf32>
  %e18 = tensor.empty() : tensor<8192x768xf32>
  %sq19 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r, c)>], iterator_types = ["parallel", "parallel"]}
      ins(%centered13 : tensor<8192x768xf32>) outs(%e18 : tensor<8192x768xf32>) {
  ^bb0(%in20: f32, %out21: f32):
    %v22 = arith.mulf %in20, %in20 : f32
    linalg.yield %v22 : f32
  } -> tensor<8192x768xf32>
  %e23 = tensor.empty() : tensor<8192xf32>
  %f24 = linalg.fill ins(%zero : f32) outs(%e23 : tensor<8192xf32>) -> tensor<8192xf32>
  %sqsum25 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>], iterator_types = ["parallel", "reduction"]}
      ins(%sq19 : tensor<8192x768xf32>) outs(%f24 : tensor<8192xf32>) {
  ^bb0(%in26: f32, %out27: f32):
    %v28 = arith.addf %in26, %out27 : f32
    linalg.yield %v28 : f32
  } -> tensor<8192xf32>
  %e29 = tensor.empty() : tensor<8192xf32>
  %rstd30 = linalg.generic {indexing_maps = [affine_map<(r) -> (r)>, affine_map<(r) -> (r)>], iterator_types = ["parallel"]}
      ins(%sqsum25 : tensor<8192xf32>) outs(%e29 : tensor<8192xf32>) {
  ^bb0(%in31: f32, %out32: f32):
    %v33 = arith.divf %in31, %n : f32
    %v34 = arith.addf %v33, %eps : f32
    %v35 = math.rsqrt %v34 : f32
    linalg.yield %v35 : f32
  } -> tensor<8192xf32>
  %e36 = tensor.empty() : tensor<8192x768xf32>
  %y37 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>, affine_map<(r, c) -> (c)>, affine_map<(r, c) -> (c)>, affine_map<(r, c) -> (r, c)>], iterator_types = ["parallel", "parallel"]}
      ins(%centered13, %rstd30, %gamma, %beta : tensor<8192x768xf32>, tensor<8192xf32>, tensor<768xf32>, tensor<768xf32>) outs(%e36 : tensor<8192x768xf32>) {
  ^bb0(%in38: f32, %in39: f32, %in40: f32, %in41: f32, %out42: f32):
    %v43 = arith.mulf %in38, %in39 : f32
    %v44 = arith.mulf %v43, %in40 : f32
    %v45 = arith.addf %v44, %in41 : f32
    linalg.yield %v45 : f32
  } -> tensor<8192x768xf32>
  return %y37 : tensor<8192x768xf32>
}
