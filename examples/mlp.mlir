// Transformer MLP block (GPT-2 sizes): Linear -> GELU(tanh) -> Linear.
//   X : tensor<4096x768xf32>
//   W1: tensor<768x3072xf32>, b1: tensor<3072xf32>
//   W2: tensor<3072x768xf32>, b2: tensor<768xf32>
//   H   = X . W1 + b1                                         [4096, 3072]
//   G   = 0.5 * H * (1 + tanh(sqrt(2/pi) * (H + 0.044715 * H^3)))
//   Out = G . W2 + b2                                         [4096, 768]
#map_2d  = affine_map<(r, c) -> (r, c)>
#map_col = affine_map<(r, c) -> (c)>

func.func @mlp(%x: tensor<4096x768xf32>, %w1: tensor<768x3072xf32>, %b1: tensor<3072xf32>,
               %w2: tensor<3072x768xf32>, %b2: tensor<768xf32>) -> tensor<4096x768xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %half = arith.constant 5.000000e-01 : f32
  %one = arith.constant 1.000000e+00 : f32
  %k0 = arith.constant 0.797884583 : f32     // sqrt(2/pi)
  %k1 = arith.constant 4.471500e-02 : f32

  // Mm1 = X . W1
  %mm1_init = tensor.empty() : tensor<4096x3072xf32>
  %mm1_zero = linalg.fill ins(%zero : f32) outs(%mm1_init : tensor<4096x3072xf32>) -> tensor<4096x3072xf32>
  %mm1 = linalg.matmul ins(%x, %w1 : tensor<4096x768xf32>, tensor<768x3072xf32>)
      outs(%mm1_zero : tensor<4096x3072xf32>) -> tensor<4096x3072xf32>

  // H = Mm1 + b1
  %h_init = tensor.empty() : tensor<4096x3072xf32>
  %h = linalg.generic {
      indexing_maps = [#map_2d, #map_col, #map_2d],
      iterator_types = ["parallel", "parallel"]}
      ins(%mm1, %b1 : tensor<4096x3072xf32>, tensor<3072xf32>) outs(%h_init : tensor<4096x3072xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %r = arith.addf %in, %b : f32
    linalg.yield %r : f32
  } -> tensor<4096x3072xf32>

  // G = gelu_tanh(H)
  %g_init = tensor.empty() : tensor<4096x3072xf32>
  %g = linalg.generic {
      indexing_maps = [#map_2d, #map_2d],
      iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<4096x3072xf32>) outs(%g_init : tensor<4096x3072xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x2 = arith.mulf %in, %in : f32
    %x3 = arith.mulf %x2, %in : f32
    %t0 = arith.mulf %x3, %k1 : f32
    %t1 = arith.addf %in, %t0 : f32
    %t2 = arith.mulf %t1, %k0 : f32
    %th = math.tanh %t2 : f32
    %t3 = arith.addf %th, %one : f32
    %t4 = arith.mulf %in, %half : f32
    %r = arith.mulf %t4, %t3 : f32
    linalg.yield %r : f32
  } -> tensor<4096x3072xf32>

  // Mm2 = G . W2
  %mm2_init = tensor.empty() : tensor<4096x768xf32>
  %mm2_zero = linalg.fill ins(%zero : f32) outs(%mm2_init : tensor<4096x768xf32>) -> tensor<4096x768xf32>
  %mm2 = linalg.matmul ins(%g, %w2 : tensor<4096x3072xf32>, tensor<3072x768xf32>)
      outs(%mm2_zero : tensor<4096x768xf32>) -> tensor<4096x768xf32>

  // Out = Mm2 + b2
  %o_init = tensor.empty() : tensor<4096x768xf32>
  %out = linalg.generic {
      indexing_maps = [#map_2d, #map_col, #map_2d],
      iterator_types = ["parallel", "parallel"]}
      ins(%mm2, %b2 : tensor<4096x768xf32>, tensor<768xf32>) outs(%o_init : tensor<4096x768xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %r = arith.addf %in, %b : f32
    linalg.yield %r : f32
  } -> tensor<4096x768xf32>

  return %out : tensor<4096x768xf32>
}
