// Simplified LSTM cell (PyTorch gate order i, f, g, o).
//   X : tensor<64x256xf32>,  Wx : tensor<256x1024xf32>
//   H : tensor<64x256xf32>,  Wh : tensor<256x1024xf32>,  b : tensor<1024xf32>
//   C : tensor<64x256xf32>   (previous cell state)
//   gates = X . Wx + H . Wh + b          [64, 1024]
//   i, f, g, o = gates[:, 0:256], [:, 256:512], [:, 512:768], [:, 768:1024]
//   i, f, o = sigmoid(.) ; g = tanh(.)
//   C' = f * C + i * g                    [64, 256]
//   H' = o * tanh(C')                     [64, 256]
//   returns (H', C')
#map_2d  = affine_map<(r, c) -> (r, c)>
#map_col = affine_map<(r, c) -> (c)>

func.func @lstm_cell(%x: tensor<64x256xf32>, %wx: tensor<256x1024xf32>,
                     %h: tensor<64x256xf32>, %wh: tensor<256x1024xf32>,
                     %b: tensor<1024xf32>, %c: tensor<64x256xf32>)
    -> (tensor<64x256xf32>, tensor<64x256xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %one = arith.constant 1.000000e+00 : f32

  // Xw = X . Wx
  %xw_init = tensor.empty() : tensor<64x1024xf32>
  %xw_zero = linalg.fill ins(%zero : f32) outs(%xw_init : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  %xw = linalg.matmul ins(%x, %wx : tensor<64x256xf32>, tensor<256x1024xf32>)
      outs(%xw_zero : tensor<64x1024xf32>) -> tensor<64x1024xf32>

  // Hw = H . Wh
  %hw_init = tensor.empty() : tensor<64x1024xf32>
  %hw_zero = linalg.fill ins(%zero : f32) outs(%hw_init : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  %hw = linalg.matmul ins(%h, %wh : tensor<64x256xf32>, tensor<256x1024xf32>)
      outs(%hw_zero : tensor<64x1024xf32>) -> tensor<64x1024xf32>

  // Gates = Xw + Hw + b
  %gates_init = tensor.empty() : tensor<64x1024xf32>
  %gates = linalg.generic {
      indexing_maps = [#map_2d, #map_2d, #map_col, #map_2d],
      iterator_types = ["parallel", "parallel"]}
      ins(%xw, %hw, %b : tensor<64x1024xf32>, tensor<64x1024xf32>, tensor<1024xf32>)
      outs(%gates_init : tensor<64x1024xf32>) {
  ^bb0(%a: f32, %bb: f32, %bias: f32, %out: f32):
    %s0 = arith.addf %a, %bb : f32
    %s1 = arith.addf %s0, %bias : f32
    linalg.yield %s1 : f32
  } -> tensor<64x1024xf32>

  // Split gates (static slices)
  %i_pre = tensor.extract_slice %gates[0, 0] [64, 256] [1, 1] : tensor<64x1024xf32> to tensor<64x256xf32>
  %f_pre = tensor.extract_slice %gates[0, 256] [64, 256] [1, 1] : tensor<64x1024xf32> to tensor<64x256xf32>
  %g_pre = tensor.extract_slice %gates[0, 512] [64, 256] [1, 1] : tensor<64x1024xf32> to tensor<64x256xf32>
  %o_pre = tensor.extract_slice %gates[0, 768] [64, 256] [1, 1] : tensor<64x1024xf32> to tensor<64x256xf32>

  // i = sigmoid(i_pre) = 1 / (1 + exp(-x))
  %i_init = tensor.empty() : tensor<64x256xf32>
  %i = linalg.generic {
      indexing_maps = [#map_2d, #map_2d],
      iterator_types = ["parallel", "parallel"]}
      ins(%i_pre : tensor<64x256xf32>) outs(%i_init : tensor<64x256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %neg = arith.negf %in : f32
    %e = math.exp %neg : f32
    %den = arith.addf %e, %one : f32
    %r = arith.divf %one, %den : f32
    linalg.yield %r : f32
  } -> tensor<64x256xf32>

  // f = sigmoid(f_pre) = 1 / (1 + exp(-x))
  %f_init = tensor.empty() : tensor<64x256xf32>
  %f = linalg.generic {
      indexing_maps = [#map_2d, #map_2d],
      iterator_types = ["parallel", "parallel"]}
      ins(%f_pre : tensor<64x256xf32>) outs(%f_init : tensor<64x256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %neg = arith.negf %in : f32
    %e = math.exp %neg : f32
    %den = arith.addf %e, %one : f32
    %r = arith.divf %one, %den : f32
    linalg.yield %r : f32
  } -> tensor<64x256xf32>

  // o = sigmoid(o_pre) = 1 / (1 + exp(-x))
  %o_init = tensor.empty() : tensor<64x256xf32>
  %o = linalg.generic {
      indexing_maps = [#map_2d, #map_2d],
      iterator_types = ["parallel", "parallel"]}
      ins(%o_pre : tensor<64x256xf32>) outs(%o_init : tensor<64x256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %neg = arith.negf %in : f32
    %e = math.exp %neg : f32
    %den = arith.addf %e, %one : f32
    %r = arith.divf %one, %den : f32
    linalg.yield %r : f32
  } -> tensor<64x256xf32>

  // g = tanh(g_pre)
  %g_init = tensor.empty() : tensor<64x256xf32>
  %g = linalg.generic {
      indexing_maps = [#map_2d, #map_2d],
      iterator_types = ["parallel", "parallel"]}
      ins(%g_pre : tensor<64x256xf32>) outs(%g_init : tensor<64x256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.tanh %in : f32
    linalg.yield %r : f32
  } -> tensor<64x256xf32>

  // C' = f * C + i * g
  %cn_init = tensor.empty() : tensor<64x256xf32>
  %c_new = linalg.generic {
      indexing_maps = [#map_2d, #map_2d, #map_2d, #map_2d, #map_2d],
      iterator_types = ["parallel", "parallel"]}
      ins(%f, %c, %i, %g : tensor<64x256xf32>, tensor<64x256xf32>, tensor<64x256xf32>, tensor<64x256xf32>) outs(%cn_init : tensor<64x256xf32>) {
  ^bb0(%fv: f32, %cv: f32, %iv: f32, %gv: f32, %out: f32):
    %fc = arith.mulf %fv, %cv : f32
    %ig = arith.mulf %iv, %gv : f32
    %r = arith.addf %fc, %ig : f32
    linalg.yield %r : f32
  } -> tensor<64x256xf32>

  // Tc = tanh(C')
  %tc_init = tensor.empty() : tensor<64x256xf32>
  %tc = linalg.generic {
      indexing_maps = [#map_2d, #map_2d],
      iterator_types = ["parallel", "parallel"]}
      ins(%c_new : tensor<64x256xf32>) outs(%tc_init : tensor<64x256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.tanh %in : f32
    linalg.yield %r : f32
  } -> tensor<64x256xf32>

  // H' = o * Tc
  %hn_init = tensor.empty() : tensor<64x256xf32>
  %h_new = linalg.generic {
      indexing_maps = [#map_2d, #map_2d, #map_2d],
      iterator_types = ["parallel", "parallel"]}
      ins(%o, %tc : tensor<64x256xf32>, tensor<64x256xf32>) outs(%hn_init : tensor<64x256xf32>) {
  ^bb0(%ov: f32, %tv: f32, %out: f32):
    %r = arith.mulf %ov, %tv : f32
    linalg.yield %r : f32
  } -> tensor<64x256xf32>

  return %h_new, %c_new : tensor<64x256xf32>, tensor<64x256xf32>
}
