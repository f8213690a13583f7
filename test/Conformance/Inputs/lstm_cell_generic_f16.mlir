// LSTM cell (batch 64, input and hidden 1024, torch gate order i f g o,
// weights as torch stores them, [4H, in]): gates = X Wx^T + H Wh^T + b,
// c' = sig(f) c + sig(i) tanh(g), h' = sig(o) tanh(c'); returns (h', c').
// Form: linalg.generic, f16 storage and compute (a half model as
// torch-mlir lowers it: f16 accumulators, which the pipeline widens).
func.func @lstm_cell(%x: tensor<64x1024xf16>, %wx: tensor<4096x1024xf16>, %h: tensor<64x1024xf16>, %wh: tensor<4096x1024xf16>, %bias: tensor<4096xf16>, %c: tensor<64x1024xf16>) -> (tensor<64x1024xf16>, tensor<64x1024xf16>) {
  %zero = arith.constant 0.0 : f16
  %one = arith.constant 1.0 : f16
  %e1 = tensor.empty() : tensor<64x4096xf16>
  %f2 = linalg.fill ins(%zero : f16) outs(%e1 : tensor<64x4096xf16>) -> tensor<64x4096xf16>
  %xw3 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %wx : tensor<64x1024xf16>, tensor<4096x1024xf16>) outs(%f2 : tensor<64x4096xf16>) {
  ^bb0(%in4: f16, %in5: f16, %out6: f16):
    %v7 = arith.mulf %in4, %in5 : f16
    %v8 = arith.addf %out6, %v7 : f16
    linalg.yield %v8 : f16
  } -> tensor<64x4096xf16>
  %e9 = tensor.empty() : tensor<64x4096xf16>
  %f10 = linalg.fill ins(%zero : f16) outs(%e9 : tensor<64x4096xf16>) -> tensor<64x4096xf16>
  %hw11 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%h, %wh : tensor<64x1024xf16>, tensor<4096x1024xf16>) outs(%f10 : tensor<64x4096xf16>) {
  ^bb0(%in12: f16, %in13: f16, %out14: f16):
    %v15 = arith.mulf %in12, %in13 : f16
    %v16 = arith.addf %out14, %v15 : f16
    linalg.yield %v16 : f16
  } -> tensor<64x4096xf16>
  %e17 = tensor.empty() : tensor<64x4096xf16>
  %gates18 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%xw3, %hw11, %bias : tensor<64x4096xf16>, tensor<64x4096xf16>, tensor<4096xf16>) outs(%e17 : tensor<64x4096xf16>) {
  ^bb0(%in19: f16, %in20: f16, %in21: f16, %out22: f16):
    %v23 = arith.addf %in19, %in20 : f16
    %v24 = arith.addf %v23, %in21 : f16
    linalg.yield %v24 : f16
  } -> tensor<64x4096xf16>
  %i_pre = tensor.extract_slice %gates18[0, 0] [64, 1024] [1, 1] : tensor<64x4096xf16> to tensor<64x1024xf16>
  %f_pre = tensor.extract_slice %gates18[0, 1024] [64, 1024] [1, 1] : tensor<64x4096xf16> to tensor<64x1024xf16>
  %g_pre = tensor.extract_slice %gates18[0, 2048] [64, 1024] [1, 1] : tensor<64x4096xf16> to tensor<64x1024xf16>
  %o_pre = tensor.extract_slice %gates18[0, 3072] [64, 1024] [1, 1] : tensor<64x4096xf16> to tensor<64x1024xf16>
  // c' = sigmoid(f) * c + sigmoid(i) * tanh(g)
  %e25 = tensor.empty() : tensor<64x1024xf16>
  %c_new26 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%i_pre, %f_pre, %g_pre, %c : tensor<64x1024xf16>, tensor<64x1024xf16>, tensor<64x1024xf16>, tensor<64x1024xf16>) outs(%e25 : tensor<64x1024xf16>) {
  ^bb0(%in27: f16, %in28: f16, %in29: f16, %in30: f16, %out31: f16):
    %v32 = arith.negf %in28 : f16
    %v33 = math.exp %v32 : f16
    %v34 = arith.addf %v33, %one : f16
    %v35 = arith.divf %one, %v34 : f16
    %v36 = arith.mulf %v35, %in30 : f16
    %v37 = arith.negf %in27 : f16
    %v38 = math.exp %v37 : f16
    %v39 = arith.addf %v38, %one : f16
    %v40 = arith.divf %one, %v39 : f16
    %v41 = math.tanh %in29 : f16
    %v42 = arith.mulf %v40, %v41 : f16
    %v43 = arith.addf %v36, %v42 : f16
    linalg.yield %v43 : f16
  } -> tensor<64x1024xf16>
  // h' = sigmoid(o) * tanh(c')
  %e44 = tensor.empty() : tensor<64x1024xf16>
  %h_new45 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%o_pre, %c_new26 : tensor<64x1024xf16>, tensor<64x1024xf16>) outs(%e44 : tensor<64x1024xf16>) {
  ^bb0(%in46: f16, %in47: f16, %out48: f16):
    %v49 = arith.negf %in46 : f16
    %v50 = math.exp %v49 : f16
    %v51 = arith.addf %v50, %one : f16
    %v52 = arith.divf %one, %v51 : f16
    %v53 = math.tanh %in47 : f16
    %v54 = arith.mulf %v52, %v53 : f16
    linalg.yield %v54 : f16
  } -> tensor<64x1024xf16>
  return %h_new45, %c_new26 : tensor<64x1024xf16>, tensor<64x1024xf16>
}
