// LSTM cell (batch 64, input and hidden 1024, torch gate order i f g o,
// weights as torch stores them, [4H, in]): gates = X Wx^T + H Wh^T + b,
// c' = sig(f) c + sig(i) tanh(g), h' = sig(o) tanh(c'); returns (h', c').
// Form: mixed precision: bf16 storage, f32 math, arith.extf / arith.truncf
// inside the bodies.
func.func @lstm_cell(%x: tensor<64x1024xbf16>, %wx: tensor<4096x1024xbf16>, %h: tensor<64x1024xbf16>, %wh: tensor<4096x1024xbf16>, %bias: tensor<4096xbf16>, %c: tensor<64x1024xbf16>) -> (tensor<64x1024xbf16>, tensor<64x1024xbf16>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e1 = tensor.empty() : tensor<64x4096xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64x4096xf32>) -> tensor<64x4096xf32>
  %xw3 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %wx : tensor<64x1024xbf16>, tensor<4096x1024xbf16>) outs(%f2 : tensor<64x4096xf32>) {
  ^bb0(%in4: bf16, %in5: bf16, %out6: f32):
    %x7 = arith.extf %in4 : bf16 to f32
    %x8 = arith.extf %in5 : bf16 to f32
    %v9 = arith.mulf %x7, %x8 : f32
    %v10 = arith.addf %out6, %v9 : f32
    linalg.yield %v10 : f32
  } -> tensor<64x4096xf32>
  %e11 = tensor.empty() : tensor<64x4096xf32>
  %f12 = linalg.fill ins(%zero : f32) outs(%e11 : tensor<64x4096xf32>) -> tensor<64x4096xf32>
  %hw13 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%h, %wh : tensor<64x1024xbf16>, tensor<4096x1024xbf16>) outs(%f12 : tensor<64x4096xf32>) {
  ^bb0(%in14: bf16, %in15: bf16, %out16: f32):
    %x17 = arith.extf %in14 : bf16 to f32
    %x18 = arith.extf %in15 : bf16 to f32
    %v19 = arith.mulf %x17, %x18 : f32
    %v20 = arith.addf %out16, %v19 : f32
    linalg.yield %v20 : f32
  } -> tensor<64x4096xf32>
  %e21 = tensor.empty() : tensor<64x4096xf32>
  %gates22 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%xw3, %hw13, %bias : tensor<64x4096xf32>, tensor<64x4096xf32>, tensor<4096xbf16>) outs(%e21 : tensor<64x4096xf32>) {
  ^bb0(%in23: f32, %in24: f32, %in25: bf16, %out26: f32):
    %x27 = arith.extf %in25 : bf16 to f32
    %v28 = arith.addf %in23, %in24 : f32
    %v29 = arith.addf %v28, %x27 : f32
    linalg.yield %v29 : f32
  } -> tensor<64x4096xf32>
  %i_pre = tensor.extract_slice %gates22[0, 0] [64, 1024] [1, 1] : tensor<64x4096xf32> to tensor<64x1024xf32>
  %f_pre = tensor.extract_slice %gates22[0, 1024] [64, 1024] [1, 1] : tensor<64x4096xf32> to tensor<64x1024xf32>
  %g_pre = tensor.extract_slice %gates22[0, 2048] [64, 1024] [1, 1] : tensor<64x4096xf32> to tensor<64x1024xf32>
  %o_pre = tensor.extract_slice %gates22[0, 3072] [64, 1024] [1, 1] : tensor<64x4096xf32> to tensor<64x1024xf32>
  // c' = sigmoid(f) * c + sigmoid(i) * tanh(g)
  %e30 = tensor.empty() : tensor<64x1024xf32>
  %c_new31 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%i_pre, %f_pre, %g_pre, %c : tensor<64x1024xf32>, tensor<64x1024xf32>, tensor<64x1024xf32>, tensor<64x1024xbf16>) outs(%e30 : tensor<64x1024xf32>) {
  ^bb0(%in32: f32, %in33: f32, %in34: f32, %in35: bf16, %out36: f32):
    %x37 = arith.extf %in35 : bf16 to f32
    %v38 = arith.negf %in33 : f32
    %v39 = math.exp %v38 : f32
    %v40 = arith.addf %v39, %one : f32
    %v41 = arith.divf %one, %v40 : f32
    %v42 = arith.mulf %v41, %x37 : f32
    %v43 = arith.negf %in32 : f32
    %v44 = math.exp %v43 : f32
    %v45 = arith.addf %v44, %one : f32
    %v46 = arith.divf %one, %v45 : f32
    %v47 = math.tanh %in34 : f32
    %v48 = arith.mulf %v46, %v47 : f32
    %v49 = arith.addf %v42, %v48 : f32
    linalg.yield %v49 : f32
  } -> tensor<64x1024xf32>
  // h' = sigmoid(o) * tanh(c')
  %e50 = tensor.empty() : tensor<64x1024xbf16>
  %h_new51 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%o_pre, %c_new31 : tensor<64x1024xf32>, tensor<64x1024xf32>) outs(%e50 : tensor<64x1024xbf16>) {
  ^bb0(%in52: f32, %in53: f32, %out54: bf16):
    %v55 = arith.negf %in52 : f32
    %v56 = math.exp %v55 : f32
    %v57 = arith.addf %v56, %one : f32
    %v58 = arith.divf %one, %v57 : f32
    %v59 = math.tanh %in53 : f32
    %v60 = arith.mulf %v58, %v59 : f32
    %t61 = arith.truncf %v60 : f32 to bf16
    linalg.yield %t61 : bf16
  } -> tensor<64x1024xbf16>
  %e62 = tensor.empty() : tensor<64x1024xbf16>
  %c_out63 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%c_new31 : tensor<64x1024xf32>) outs(%e62 : tensor<64x1024xbf16>) {
  ^bb0(%in64: f32, %out65: bf16):
    %t66 = arith.truncf %in64 : f32 to bf16
    linalg.yield %t66 : bf16
  } -> tensor<64x1024xbf16>
  return %h_new51, %c_out63 : tensor<64x1024xbf16>, tensor<64x1024xbf16>
}
