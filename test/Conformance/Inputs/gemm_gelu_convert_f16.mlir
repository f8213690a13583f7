// BERT-base intermediate linear: GELU(X W^T + b), X 8192x768, W as
// nn.Linear stores it (3072x768, read transposed), erf GELU epilogue.
// Form: mixed precision: f16 storage, f32 math, the conversions as
// separate linalg.generic ops (extf after each argument, truncf before
// each result).
func.func @gemm_gelu(%x: tensor<8192x768xf16>, %w: tensor<3072x768xf16>, %bias: tensor<3072xf16>) -> tensor<8192x3072xf16> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %rsqrt2 = arith.constant 0.7071067811865476 : f32
  // arguments extended to f32 by conversion generics
  %e1 = tensor.empty() : tensor<8192x768xf32>
  %cvt2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8192x768xf16>) outs(%e1 : tensor<8192x768xf32>) {
  ^bb0(%in3: f16, %out4: f32):
    %t5 = arith.extf %in3 : f16 to f32
    linalg.yield %t5 : f32
  } -> tensor<8192x768xf32>
  %e6 = tensor.empty() : tensor<3072x768xf32>
  %cvt7 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<3072x768xf16>) outs(%e6 : tensor<3072x768xf32>) {
  ^bb0(%in8: f16, %out9: f32):
    %t10 = arith.extf %in8 : f16 to f32
    linalg.yield %t10 : f32
  } -> tensor<3072x768xf32>
  %e11 = tensor.empty() : tensor<3072xf32>
  %cvt12 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%bias : tensor<3072xf16>) outs(%e11 : tensor<3072xf32>) {
  ^bb0(%in13: f16, %out14: f32):
    %t15 = arith.extf %in13 : f16 to f32
    linalg.yield %t15 : f32
  } -> tensor<3072xf32>
  %e16 = tensor.empty() : tensor<8192x3072xf32>
  %f17 = linalg.fill ins(%zero : f32) outs(%e16 : tensor<8192x3072xf32>) -> tensor<8192x3072xf32>
  %xw18 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%cvt2, %cvt7 : tensor<8192x768xf32>, tensor<3072x768xf32>) outs(%f17 : tensor<8192x3072xf32>) {
  ^bb0(%in19: f32, %in20: f32, %out21: f32):
    %v22 = arith.mulf %in19, %in20 : f32
    %v23 = arith.addf %out21, %v22 : f32
    linalg.yield %v23 : f32
  } -> tensor<8192x3072xf32>
  // bias and GELU (erf)
  %e24 = tensor.empty() : tensor<8192x3072xf32>
  %gelu25 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%xw18, %cvt12 : tensor<8192x3072xf32>, tensor<3072xf32>) outs(%e24 : tensor<8192x3072xf32>) {
  ^bb0(%in26: f32, %in27: f32, %out28: f32):
    %v29 = arith.addf %in26, %in27 : f32
    %v30 = arith.mulf %v29, %rsqrt2 : f32
    %v31 = math.erf %v30 : f32
    %v32 = arith.addf %v31, %one : f32
    %v33 = arith.mulf %v29, %half : f32
    %v34 = arith.mulf %v33, %v32 : f32
    linalg.yield %v34 : f32
  } -> tensor<8192x3072xf32>
  // result rounded by a conversion generic
  %e35 = tensor.empty() : tensor<8192x3072xf16>
  %cvt36 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%gelu25 : tensor<8192x3072xf32>) outs(%e35 : tensor<8192x3072xf16>) {
  ^bb0(%in37: f32, %out38: f16):
    %t39 = arith.truncf %in37 : f32 to f16
    linalg.yield %t39 : f16
  } -> tensor<8192x3072xf16>
  return %cvt36 : tensor<8192x3072xf16>
}
