// Transformer MLP (768 -> 3072 -> 768, 8192 tokens): two GEMMs with a
// tanh-GELU between them, weights stored [k, n] as StableHLO's dot reads them.
// Form: mixed precision: f16 storage, f32 math, the conversions as
// separate linalg.generic ops (extf after each argument, truncf before
// each result).
func.func @mlp(%x: tensor<8192x768xf16>, %w1: tensor<768x3072xf16>, %b1: tensor<3072xf16>, %w2: tensor<3072x768xf16>, %b2: tensor<768xf16>) -> tensor<8192x768xf16> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %sqrt_2_pi = arith.constant 0.7978845608028654 : f32
  %c = arith.constant 0.044715 : f32
  // arguments extended to f32 by conversion generics
  %e1 = tensor.empty() : tensor<8192x768xf32>
  %cvt2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8192x768xf16>) outs(%e1 : tensor<8192x768xf32>) {
  ^bb0(%in3: f16, %out4: f32):
    %t5 = arith.extf %in3 : f16 to f32
    linalg.yield %t5 : f32
  } -> tensor<8192x768xf32>
  %e6 = tensor.empty() : tensor<768x3072xf32>
  %cvt7 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%w1 : tensor<768x3072xf16>) outs(%e6 : tensor<768x3072xf32>) {
  ^bb0(%in8: f16, %out9: f32):
    %t10 = arith.extf %in8 : f16 to f32
    linalg.yield %t10 : f32
  } -> tensor<768x3072xf32>
  %e11 = tensor.empty() : tensor<3072xf32>
  %cvt12 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%b1 : tensor<3072xf16>) outs(%e11 : tensor<3072xf32>) {
  ^bb0(%in13: f16, %out14: f32):
    %t15 = arith.extf %in13 : f16 to f32
    linalg.yield %t15 : f32
  } -> tensor<3072xf32>
  %e16 = tensor.empty() : tensor<3072x768xf32>
  %cvt17 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%w2 : tensor<3072x768xf16>) outs(%e16 : tensor<3072x768xf32>) {
  ^bb0(%in18: f16, %out19: f32):
    %t20 = arith.extf %in18 : f16 to f32
    linalg.yield %t20 : f32
  } -> tensor<3072x768xf32>
  %e21 = tensor.empty() : tensor<768xf32>
  %cvt22 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%b2 : tensor<768xf16>) outs(%e21 : tensor<768xf32>) {
  ^bb0(%in23: f16, %out24: f32):
    %t25 = arith.extf %in23 : f16 to f32
    linalg.yield %t25 : f32
  } -> tensor<768xf32>
  %e26 = tensor.empty() : tensor<8192x3072xf32>
  %f27 = linalg.fill ins(%zero : f32) outs(%e26 : tensor<8192x3072xf32>) -> tensor<8192x3072xf32>
  %up28 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%cvt2, %cvt7 : tensor<8192x768xf32>, tensor<768x3072xf32>) outs(%f27 : tensor<8192x3072xf32>) {
  ^bb0(%in29: f32, %in30: f32, %out31: f32):
    %v32 = arith.mulf %in29, %in30 : f32
    %v33 = arith.addf %out31, %v32 : f32
    linalg.yield %v33 : f32
  } -> tensor<8192x3072xf32>
  // bias and GELU (tanh), the hidden activation rounded to f16
  %e34 = tensor.empty() : tensor<8192x3072xf32>
  %act35 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%up28, %cvt12 : tensor<8192x3072xf32>, tensor<3072xf32>) outs(%e34 : tensor<8192x3072xf32>) {
  ^bb0(%in36: f32, %in37: f32, %out38: f32):
    %v39 = arith.addf %in36, %in37 : f32
    %v40 = arith.mulf %v39, %v39 : f32
    %v41 = arith.mulf %v40, %v39 : f32
    %v42 = arith.mulf %v41, %c : f32
    %v43 = arith.addf %v39, %v42 : f32
    %v44 = arith.mulf %v43, %sqrt_2_pi : f32
    %v45 = math.tanh %v44 : f32
    %v46 = arith.addf %v45, %one : f32
    %v47 = arith.mulf %v39, %half : f32
    %v48 = arith.mulf %v47, %v46 : f32
    linalg.yield %v48 : f32
  } -> tensor<8192x3072xf32>
  %e49 = tensor.empty() : tensor<8192x3072xf16>
  %cvt50 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%act35 : tensor<8192x3072xf32>) outs(%e49 : tensor<8192x3072xf16>) {
  ^bb0(%in51: f32, %out52: f16):
    %t53 = arith.truncf %in51 : f32 to f16
    linalg.yield %t53 : f16
  } -> tensor<8192x3072xf16>
  %e54 = tensor.empty() : tensor<8192x3072xf32>
  %cvt55 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%cvt50 : tensor<8192x3072xf16>) outs(%e54 : tensor<8192x3072xf32>) {
  ^bb0(%in56: f16, %out57: f32):
    %t58 = arith.extf %in56 : f16 to f32
    linalg.yield %t58 : f32
  } -> tensor<8192x3072xf32>
  %e59 = tensor.empty() : tensor<8192x768xf32>
  %f60 = linalg.fill ins(%zero : f32) outs(%e59 : tensor<8192x768xf32>) -> tensor<8192x768xf32>
  %down61 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%cvt55, %cvt17 : tensor<8192x3072xf32>, tensor<3072x768xf32>) outs(%f60 : tensor<8192x768xf32>) {
  ^bb0(%in62: f32, %in63: f32, %out64: f32):
    %v65 = arith.mulf %in62, %in63 : f32
    %v66 = arith.addf %out64, %v65 : f32
    linalg.yield %v66 : f32
  } -> tensor<8192x768xf32>
  %e67 = tensor.empty() : tensor<8192x768xf32>
  %out68 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%down61, %cvt22 : tensor<8192x768xf32>, tensor<768xf32>) outs(%e67 : tensor<8192x768xf32>) {
  ^bb0(%in69: f32, %in70: f32, %out71: f32):
    %v72 = arith.addf %in69, %in70 : f32
    linalg.yield %v72 : f32
  } -> tensor<8192x768xf32>
  // result rounded by a conversion generic
  %e73 = tensor.empty() : tensor<8192x768xf16>
  %cvt74 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%out68 : tensor<8192x768xf32>) outs(%e73 : tensor<8192x768xf16>) {
  ^bb0(%in75: f32, %out76: f16):
    %t77 = arith.truncf %in75 : f32 to f16
    linalg.yield %t77 : f16
  } -> tensor<8192x768xf16>
  return %cvt74 : tensor<8192x768xf16>
}
