// LSTM cell (batch 64, input and hidden 1024, torch gate order i f g o,
// weights as torch stores them, [4H, in]): gates = X Wx^T + H Wh^T + b,
// c' = sig(f) c + sig(i) tanh(g), h' = sig(o) tanh(c'); returns (h', c').
// Form: linalg.generic, f32 throughout.
func.func @lstm_cell(%x: tensor<64x1024xf32>, %wx: tensor<4096x1024xf32>, %h: tensor<64x1024xf32>, %wh: tensor<4096x1024xf32>, %bias: tensor<4096xf32>, %c: tensor<64x1024xf32>) -> (tensor<64x1024xf32>, tensor<64x1024xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e1 = tensor.empty() : tensor<64x4096xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64x4096xf32>) -> tensor<64x4096xf32>
  %xw3 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %wx : tensor<64x1024xf32>, tensor<4096x1024xf32>) outs(%f2 : tensor<64x4096xf32>) {
  ^bb0(%in4: f32, %in5: f32, %out6: f32):
    %v7 = arith.mulf %in4, %in5 : f32
    %v8 = arith.addf %out6, %v7 : f32
    linalg.yield %v8 : f32
  } -> tensor<64x4096xf32>
  %e9 = tensor.empty() : tensor<64x4096xf32>
  %f10 = linalg.fill ins(%zero : f32) outs(%e9 : tensor<64x4096xf32>) -> tensor<64x4096xf32>
  %hw11 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%h, %wh : tensor<64x1024xf32>, tensor<4096x1024xf32>) outs(%f10 : tensor<64x4096xf32>) {
  ^bb0(%in12: f32, %in13: f32, %out14: f32):
    %v15 = arith.mulf %in12, %in13 : f32
    %v16 = arith.addf %out14, %v15 : f32
    linalg.yield %v16 : f32
  } -> tensor<64x4096xf32>
  %e17 = tensor.empty() : tensor<64x4096xf32>
  %gates18 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%xw3, %hw11, %bias : tensor<64x4096xf32>, tensor<64x4096xf32>, tensor<4096xf32>) outs(%e17 : tensor<64x4096xf32>) {
  ^bb0(%in19: f32, %in20: f32, %in21: f32, %out22: f32):
    %v23 = arith.addf %in19, %in20 : f32
    %v24 = arith.addf %v23, %in21 : f32
    linalg.yield %v24 : f32
  } -> tensor<64x4096xf32>
  %i_pre = tensor.extract_slice %gates18[0, 0] [64, 1024] [1, 1] : tensor<64x4096xf32> to tensor<64x1024xf32>
  %f_pre = tensor.extract_slice %gates18[0, 1024] [64, 1024] [1, 1] : tensor<64x4096xf32> to tensor<64x1024xf32>
  %g_pre = tensor.extract_slice %gates18[0, 2048] [64, 1024] [1, 1] : tensor<64x4096xf32> to tensor<64x1024xf32>
  %o_pre = tensor.extract_slice %gates18[0, 3072] [64, 1024] [1, 1] : tensor<64x4096xf32> to tensor<64x1024xf32>
  // c' = sigmoid(f) * c + sigmoid(i) * tanh(g)
  %e25 = tensor.empty() : tensor<64x1024xf32>
  %c_new26 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%i_pre, %f_pre, %g_pre, %c : tensor<64x1024xf32>, tensor<64x1024xf32>, tensor<64x1024xf32>, tensor<64x1024xf32>) outs(%e25 : tensor<64x1024xf32>) {
  ^bb0(%in27: f32, %in28: f32, %in29: f32, %in30: f32, %out31: f32):
    %v32 = arith.negf %in28 : f32
    %v33 = math.exp %v32 : f32
    %v34 = arith.addf %v33, %one : f32
    %v35 = arith.divf %one, %v34 : f32
    %v36 = arith.mulf %v35, %in30 : f32
    %v37 = arith.negf %in27 : f32
    %v38 = math.exp %v37 : f32
    %v39 = arith.addf %v38, %one : f32
    %v40 = arith.divf %one, %v39 : f32
    %v41 = math.tanh %in29 : f32
    %v42 = arith.mulf %v40, %v41 : f32
    %v43 = arith.addf %v36, %v42 : f32
    linalg.yield %v43 : f32
  } -> tensor<64x1024xf32>
  // h' = sigmoid(o) * tanh(c')
  %e44 = tensor.empty() : tensor<64x1024xf32>
  %h_new45 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%o_pre, %c_new26 : tensor<64x1024xf32>, tensor<64x1024xf32>) outs(%e44 : tensor<64x1024xf32>) {
  ^bb0(%in46: f32, %in47: f32, %out48: f32):
    %v49 = arith.negf %in46 : f32
    %v50 = math.exp %v49 : f32
    %v51 = arith.addf %v50, %one : f32
    %v52 = arith.divf %one, %v51 : f32
    %v53 = math.tanh %in47 : f32
    %v54 = arith.mulf %v52, %v53 : f32
    linalg.yield %v54 : f32
  } -> tensor<64x1024xf32>
  return %h_new45, %c_new26 : tensor<64x1024xf32>, tensor<64x1024xf32>
}
