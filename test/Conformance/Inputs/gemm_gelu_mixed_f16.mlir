// BERT-base intermediate linear: GELU(X W^T + b), X 8192x768, W as
// nn.Linear stores it (3072x768, read transposed), erf GELU epilogue.
// Form: mixed precision: f16 storage, f32 math, arith.extf / arith.truncf
// inside the bodies that read / write f16.
func.func @gemm_gelu(%x: tensor<8192x768xf16>, %w: tensor<3072x768xf16>, %bias: tensor<3072xf16>) -> tensor<8192x3072xf16> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %rsqrt2 = arith.constant 0.7071067811865476 : f32
  %e1 = tensor.empty() : tensor<8192x3072xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8192x3072xf32>) -> tensor<8192x3072xf32>
  %xw3 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<8192x768xf16>, tensor<3072x768xf16>) outs(%f2 : tensor<8192x3072xf32>) {
  ^bb0(%in4: f16, %in5: f16, %out6: f32):
    %x7 = arith.extf %in4 : f16 to f32
    %x8 = arith.extf %in5 : f16 to f32
    %v9 = arith.mulf %x7, %x8 : f32
    %v10 = arith.addf %out6, %v9 : f32
    linalg.yield %v10 : f32
  } -> tensor<8192x3072xf32>
  // bias and GELU (erf)
  %e11 = tensor.empty() : tensor<8192x3072xf16>
  %gelu12 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%xw3, %bias : tensor<8192x3072xf32>, tensor<3072xf16>) outs(%e11 : tensor<8192x3072xf16>) {
  ^bb0(%in13: f32, %in14: f16, %out15: f16):
    %x16 = arith.extf %in14 : f16 to f32
    %v17 = arith.addf %in13, %x16 : f32
    %v18 = arith.mulf %v17, %rsqrt2 : f32
    %v19 = math.erf %v18 : f32
    %v20 = arith.addf %v19, %one : f32
    %v21 = arith.mulf %v17, %half : f32
    %v22 = arith.mulf %v21, %v20 : f32
    %t23 = arith.truncf %v22 : f32 to f16
    linalg.yield %t23 : f16
  } -> tensor<8192x3072xf16>
  return %gelu12 : tensor<8192x3072xf16>
}
