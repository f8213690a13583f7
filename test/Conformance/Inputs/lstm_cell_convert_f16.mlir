// LSTM cell (batch 64, input and hidden 1024, torch gate order i f g o,
// weights as torch stores them, [4H, in]): gates = X Wx^T + H Wh^T + b,
// c' = sig(f) c + sig(i) tanh(g), h' = sig(o) tanh(c'); returns (h', c').
// Form: mixed precision: f16 storage, f32 math, the conversions as
// separate linalg.generic ops (extf after each argument, truncf before
// each result).
func.func @lstm_cell(%x: tensor<64x1024xf16>, %wx: tensor<4096x1024xf16>, %h: tensor<64x1024xf16>, %wh: tensor<4096x1024xf16>, %bias: tensor<4096xf16>, %c: tensor<64x1024xf16>) -> (tensor<64x1024xf16>, tensor<64x1024xf16>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  // arguments extended to f32 by conversion generics
  %e1 = tensor.empty() : tensor<64x1024xf32>
  %cvt2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x1024xf16>) outs(%e1 : tensor<64x1024xf32>) {
  ^bb0(%in3: f16, %out4: f32):
    %t5 = arith.extf %in3 : f16 to f32
    linalg.yield %t5 : f32
  } -> tensor<64x1024xf32>
  %e6 = tensor.empty() : tensor<4096x1024xf32>
  %cvt7 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%wx : tensor<4096x1024xf16>) outs(%e6 : tensor<4096x1024xf32>) {
  ^bb0(%in8: f16, %out9: f32):
    %t10 = arith.extf %in8 : f16 to f32
    linalg.yield %t10 : f32
  } -> tensor<4096x1024xf32>
  %e11 = tensor.empty() : tensor<64x1024xf32>
  %cvt12 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<64x1024xf16>) outs(%e11 : tensor<64x1024xf32>) {
  ^bb0(%in13: f16, %out14: f32):
    %t15 = arith.extf %in13 : f16 to f32
    linalg.yield %t15 : f32
  } -> tensor<64x1024xf32>
  %e16 = tensor.empty() : tensor<4096x1024xf32>
  %cvt17 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%wh : tensor<4096x1024xf16>) outs(%e16 : tensor<4096x1024xf32>) {
  ^bb0(%in18: f16, %out19: f32):
    %t20 = arith.extf %in18 : f16 to f32
    linalg.yield %t20 : f32
  } -> tensor<4096x1024xf32>
  %e21 = tensor.empty() : tensor<4096xf32>
  %cvt22 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%bias : tensor<4096xf16>) outs(%e21 : tensor<4096xf32>) {
  ^bb0(%in23: f16, %out24: f32):
    %t25 = arith.extf %in23 : f16 to f32
    linalg.yield %t25 : f32
  } -> tensor<4096xf32>
  %e26 = tensor.empty() : tensor<64x1024xf32>
  %cvt27 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<64x1024xf16>) outs(%e26 : tensor<64x1024xf32>) {
  ^bb0(%in28: f16, %out29: f32):
    %t30 = arith.extf %in28 : f16 to f32
    linalg.yield %t30 : f32
  } -> tensor<64x1024xf32>
  %e31 = tensor.empty() : tensor<64x4096xf32>
  %f32 = linalg.fill ins(%zero : f32) outs(%e31 : tensor<64x4096xf32>) -> tensor<64x4096xf32>
  %xw33 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%cvt2, %cvt7 : tensor<64x1024xf32>, tensor<4096x1024xf32>) outs(%f32 : tensor<64x4096xf32>) {
  ^bb0(%in34: f32, %in35: f32, %out36: f32):
    %v37 = arith.mulf %in34, %in35 : f32
    %v38 = arith.addf %out36, %v37 : f32
    linalg.yield %v38 : f32
  } -> tensor<64x4096xf32>
  %e39 = tensor.empty() : tensor<64x4096xf32>
  %f40 = linalg.fill ins(%zero : f32) outs(%e39 : tensor<64x4096xf32>) -> tensor<64x4096xf32>
  %hw41 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%cvt12, %cvt17 : tensor<64x1024xf32>, tensor<4096x1024xf32>) outs(%f40 : tensor<64x4096xf32>) {
  ^bb0(%in42: f32, %in43: f32, %out44: f32):
    %v45 = arith.mulf %in42, %in43 : f32
    %v46 = arith.addf %out44, %v45 : f32
    linalg.yield %v46 : f32
  } -> tensor<64x4096xf32>
  %e47 = tensor.empty() : tensor<64x4096xf32>
  %gates48 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%xw33, %hw41, %cvt22 : tensor<64x4096xf32>, tensor<64x4096xf32>, tensor<4096xf32>) outs(%e47 : tensor<64x4096xf32>) {
  ^bb0(%in49: f32, %in50: f32, %in51: f32, %out52: f32):
    %v53 = arith.addf %in49, %in50 : f32
    %v54 = arith.addf %v53, %in51 : f32
    linalg.yield %v54 : f32
  } -> tensor<64x4096xf32>
  %i_pre = tensor.extract_slice %gates48[0, 0] [64, 1024] [1, 1] : tensor<64x4096xf32> to tensor<64x1024xf32>
  %f_pre = tensor.extract_slice %gates48[0, 1024] [64, 1024] [1, 1] : tensor<64x4096xf32> to tensor<64x1024xf32>
  %g_pre = tensor.extract_slice %gates48[0, 2048] [64, 1024] [1, 1] : tensor<64x4096xf32> to tensor<64x1024xf32>
  %o_pre = tensor.extract_slice %gates48[0, 3072] [64, 1024] [1, 1] : tensor<64x4096xf32> to tensor<64x1024xf32>
  // c' = sigmoid(f) * c + sigmoid(i) * tanh(g)
  %e55 = tensor.empty() : tensor<64x1024xf32>
  %c_new56 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%i_pre, %f_pre, %g_pre, %cvt27 : tensor<64x1024xf32>, tensor<64x1024xf32>, tensor<64x1024xf32>, tensor<64x1024xf32>) outs(%e55 : tensor<64x1024xf32>) {
  ^bb0(%in57: f32, %in58: f32, %in59: f32, %in60: f32, %out61: f32):
    %v62 = arith.negf %in58 : f32
    %v63 = math.exp %v62 : f32
    %v64 = arith.addf %v63, %one : f32
    %v65 = arith.divf %one, %v64 : f32
    %v66 = arith.mulf %v65, %in60 : f32
    %v67 = arith.negf %in57 : f32
    %v68 = math.exp %v67 : f32
    %v69 = arith.addf %v68, %one : f32
    %v70 = arith.divf %one, %v69 : f32
    %v71 = math.tanh %in59 : f32
    %v72 = arith.mulf %v70, %v71 : f32
    %v73 = arith.addf %v66, %v72 : f32
    linalg.yield %v73 : f32
  } -> tensor<64x1024xf32>
  // h' = sigmoid(o) * tanh(c')
  %e74 = tensor.empty() : tensor<64x1024xf32>
  %h_new75 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%o_pre, %c_new56 : tensor<64x1024xf32>, tensor<64x1024xf32>) outs(%e74 : tensor<64x1024xf32>) {
  ^bb0(%in76: f32, %in77: f32, %out78: f32):
    %v79 = arith.negf %in76 : f32
    %v80 = math.exp %v79 : f32
    %v81 = arith.addf %v80, %one : f32
    %v82 = arith.divf %one, %v81 : f32
    %v83 = math.tanh %in77 : f32
    %v84 = arith.mulf %v82, %v83 : f32
    linalg.yield %v84 : f32
  } -> tensor<64x1024xf32>
  // result rounded by a conversion generic
  %e85 = tensor.empty() : tensor<64x1024xf16>
  %cvt86 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%h_new75 : tensor<64x1024xf32>) outs(%e85 : tensor<64x1024xf16>) {
  ^bb0(%in87: f32, %out88: f16):
    %t89 = arith.truncf %in87 : f32 to f16
    linalg.yield %t89 : f16
  } -> tensor<64x1024xf16>
  // result rounded by a conversion generic
  %e90 = tensor.empty() : tensor<64x1024xf16>
  %cvt91 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%c_new56 : tensor<64x1024xf32>) outs(%e90 : tensor<64x1024xf16>) {
  ^bb0(%in92: f32, %out93: f16):
    %t94 = arith.truncf %in92 : f32 to f16
    linalg.yield %t94 : f16
  } -> tensor<64x1024xf16>
  return %cvt86, %cvt91 : tensor<64x1024xf16>, tensor<64x1024xf16>
}
