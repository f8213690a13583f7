// LayerNorm over BERT-base's hidden dim (8192 tokens x 768),
// decomposed as torch-mlir writes aten.native_layer_norm.
// Form: mixed precision: f16 storage, f32 math, the conversions as
// separate linalg.generic ops (extf after each argument, truncf before
// each result).
func.func @layernorm(%x: tensor<8192x768xf16>, %gamma: tensor<768xf16>, %beta: tensor<768xf16>) -> tensor<8192x768xf16> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 768.0 : f32
  %eps = arith.constant 1.000000e-05 : f32
  // arguments extended to f32 by conversion generics
  %e1 = tensor.empty() : tensor<8192x768xf32>
  %cvt2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8192x768xf16>) outs(%e1 : tensor<8192x768xf32>) {
  ^bb0(%in3: f16, %out4: f32):
    %t5 = arith.extf %in3 : f16 to f32
    linalg.yield %t5 : f32
  } -> tensor<8192x768xf32>
  %e6 = tensor.empty() : tensor<768xf32>
  %cvt7 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%gamma : tensor<768xf16>) outs(%e6 : tensor<768xf32>) {
  ^bb0(%in8: f16, %out9: f32):
    %t10 = arith.extf %in8 : f16 to f32
    linalg.yield %t10 : f32
  } -> tensor<768xf32>
  %e11 = tensor.empty() : tensor<768xf32>
  %cvt12 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%beta : tensor<768xf16>) outs(%e11 : tensor<768xf32>) {
  ^bb0(%in13: f16, %out14: f32):
    %t15 = arith.extf %in13 : f16 to f32
    linalg.yield %t15 : f32
  } -> tensor<768xf32>
  %e16 = tensor.empty() : tensor<8192xf32>
  %f17 = linalg.fill ins(%zero : f32) outs(%e16 : tensor<8192xf32>) -> tensor<8192xf32>
  %sum18 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>], iterator_types = ["parallel", "reduction"]}
      ins(%cvt2 : tensor<8192x768xf32>) outs(%f17 : tensor<8192xf32>) {
  ^bb0(%in19: f32, %out20: f32):
    %v21 = arith.addf %in19, %out20 : f32
    linalg.yield %v21 : f32
  } -> tensor<8192xf32>
  %e22 = tensor.empty() : tensor<8192xf32>
  %mean23 = linalg.generic {indexing_maps = [affine_map<(r) -> (r)>, affine_map<(r) -> (r)>], iterator_types = ["parallel"]}
      ins(%sum18 : tensor<8192xf32>) outs(%e22 : tensor<8192xf32>) {
  ^bb0(%in24: f32, %out25: f32):
    %v26 = arith.divf %in24, %n : f32
    linalg.yield %v26 : f32
  } -> tensor<8192xf32>
  %e27 = tensor.empty() : tensor<8192x768xf32>
  %centered28 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>, affine_map<(r, c) -> (r, c)>], iterator_types = ["parallel", "parallel"]}
      ins(%cvt2, %mean23 : tensor<8192x768xf32>, tensor<8192xf32>) outs(%e27 : tensor<8192x768xf32>) {
  ^bb0(%in29: f32, %in30: f32, %out31: f32):
    %v32 = arith.subf %in29, %in30 : f32
    linalg.yield %v32 : f32
  } -> tensor<8192x768xf32>
  %e33 = tensor.empty() : tensor<8192x768xf32>
  %sq34 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r, c)>], iterator_types = ["parallel", "parallel"]}
      ins(%centered28 : tensor<8192x768xf32>) outs(%e33 : tensor<8192x768xf32>) {
  ^bb0(%in35: f32, %out36: f32):
    %v37 = arith.mulf %in35, %in35 : f32
    linalg.yield %v37 : f32
  } -> tensor<8192x768xf32>
  %e38 = tensor.empty() : tensor<8192xf32>
  %f39 = linalg.fill ins(%zero : f32) outs(%e38 : tensor<8192xf32>) -> tensor<8192xf32>
  %sqsum40 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>], iterator_types = ["parallel", "reduction"]}
      ins(%sq34 : tensor<8192x768xf32>) outs(%f39 : tensor<8192xf32>) {
  ^bb0(%in41: f32, %out42: f32):
    %v43 = arith.addf %in41, %out42 : f32
    linalg.yield %v43 : f32
  } -> tensor<8192xf32>
  %e44 = tensor.empty() : tensor<8192xf32>
  %rstd45 = linalg.generic {indexing_maps = [affine_map<(r) -> (r)>, affine_map<(r) -> (r)>], iterator_types = ["parallel"]}
      ins(%sqsum40 : tensor<8192xf32>) outs(%e44 : tensor<8192xf32>) {
  ^bb0(%in46: f32, %out47: f32):
    %v48 = arith.divf %in46, %n : f32
    %v49 = arith.addf %v48, %eps : f32
    %v50 = math.rsqrt %v49 : f32
    linalg.yield %v50 : f32
  } -> tensor<8192xf32>
  %e51 = tensor.empty() : tensor<8192x768xf32>
  %y52 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>, affine_map<(r, c) -> (c)>, affine_map<(r, c) -> (c)>, affine_map<(r, c) -> (r, c)>], iterator_types = ["parallel", "parallel"]}
      ins(%centered28, %rstd45, %cvt7, %cvt12 : tensor<8192x768xf32>, tensor<8192xf32>, tensor<768xf32>, tensor<768xf32>) outs(%e51 : tensor<8192x768xf32>) {
  ^bb0(%in53: f32, %in54: f32, %in55: f32, %in56: f32, %out57: f32):
    %v58 = arith.mulf %in53, %in54 : f32
    %v59 = arith.mulf %v58, %in55 : f32
    %v60 = arith.addf %v59, %in56 : f32
    linalg.yield %v60 : f32
  } -> tensor<8192x768xf32>
  // result rounded by a conversion generic
  %e61 = tensor.empty() : tensor<8192x768xf16>
  %cvt62 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%y52 : tensor<8192x768xf32>) outs(%e61 : tensor<8192x768xf16>) {
  ^bb0(%in63: f32, %out64: f16):
    %t65 = arith.truncf %in63 : f32 to f16
    linalg.yield %t65 : f16
  } -> tensor<8192x768xf16>
  return %cvt62 : tensor<8192x768xf16>
}
