// Transformer MLP (768 -> 3072 -> 768, 8192 tokens): two GEMMs with a
// tanh-GELU between them, weights stored [k, n] as StableHLO's dot reads them.
// Form: mixed precision: bf16 storage, f32 math, arith.extf / arith.truncf
// inside the bodies.
func.func @mlp(%x: tensor<8192x768xbf16>, %w1: tensor<768x3072xbf16>, %b1: tensor<3072xbf16>, %w2: tensor<3072x768xbf16>, %b2: tensor<768xbf16>) -> tensor<8192x768xbf16> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %sqrt_2_pi = arith.constant 0.7978845608028654 : f32
  %c = arith.constant 0.044715 : f32
  %e1 = tensor.empty() : tensor<8192x3072xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8192x3072xf32>) -> tensor<8192x3072xf32>
  %up3 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w1 : tensor<8192x768xbf16>, tensor<768x3072xbf16>) outs(%f2 : tensor<8192x3072xf32>) {
  ^bb0(%in4: bf16, %in5: bf16, %out6: f32):
    %x7 = arith.extf %in4 : bf16 to f32
    %x8 = arith.extf %in5 : bf16 to f32
    %v9 = arith.mulf %x7, %x8 : f32
    %v10 = arith.addf %out6, %v9 : f32
    linalg.yield %v10 : f32
  } -> tensor<8192x3072xf32>
  // bias and GELU (tanh), the hidden activation rounded to bf16
  %e11 = tensor.empty() : tensor<8192x3072xbf16>
  %act12 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%up3, %b1 : tensor<8192x3072xf32>, tensor<3072xbf16>) outs(%e11 : tensor<8192x3072xbf16>) {
  ^bb0(%in13: f32, %in14: bf16, %out15: bf16):
    %x16 = arith.extf %in14 : bf16 to f32
    %v17 = arith.addf %in13, %x16 : f32
    %v18 = arith.mulf %v17, %v17 : f32
    %v19 = arith.mulf %v18, %v17 : f32
    %v20 = arith.mulf %v19, %c : f32
    %v21 = arith.addf %v17, %v20 : f32
    %v22 = arith.mulf %v21, %sqrt_2_pi : f32
    %v23 = math.tanh %v22 : f32
    %v24 = arith.addf %v23, %one : f32
    %v25 = arith.mulf %v17, %half : f32
    %v26 = arith.mulf %v25, %v24 : f32
    %t27 = arith.truncf %v26 : f32 to bf16
    linalg.yield %t27 : bf16
  } -> tensor<8192x3072xbf16>
  %e28 = tensor.empty() : tensor<8192x768xf32>
  %f29 = linalg.fill ins(%zero : f32) outs(%e28 : tensor<8192x768xf32>) -> tensor<8192x768xf32>
  %down30 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%act12, %w2 : tensor<8192x3072xbf16>, tensor<3072x768xbf16>) outs(%f29 : tensor<8192x768xf32>) {
  ^bb0(%in31: bf16, %in32: bf16, %out33: f32):
    %x34 = arith.extf %in31 : bf16 to f32
    %x35 = arith.extf %in32 : bf16 to f32
    %v36 = arith.mulf %x34, %x35 : f32
    %v37 = arith.addf %out33, %v36 : f32
    linalg.yield %v37 : f32
  } -> tensor<8192x768xf32>
  %e38 = tensor.empty() : tensor<8192x768xbf16>
  %out39 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%down30, %b2 : tensor<8192x768xf32>, tensor<768xbf16>) outs(%e38 : tensor<8192x768xbf16>) {
  ^bb0(%in40: f32, %in41: bf16, %out42: bf16):
    %x43 = arith.extf %in41 : bf16 to f32
    %v44 = arith.addf %in40, %x43 : f32
    %t45 = arith.truncf %v44 : f32 to bf16
    linalg.yield %t45 : bf16
  } -> tensor<8192x768xbf16>
  return %out39 : tensor<8192x768xbf16>
}
