// UNSUPPORTED: convolution. 3x3 conv (NHWC input, HWCF filter, stride 1,
// no padding) followed by ReLU.
//   X : tensor<1x56x56x64xf32>   [n, h, w, c]
//   W : tensor<3x3x64x64xf32>    [kh, kw, c, f]
//   Conv = conv_2d_nhwc_hwcf(X, W)  tensor<1x54x54x64xf32>
//   Y    = max(Conv, 0)
#map_4d = affine_map<(n, h, w, f) -> (n, h, w, f)>

func.func @conv2d(%x: tensor<1x56x56x64xf32>, %w: tensor<3x3x64x64xf32>) -> tensor<1x54x54x64xf32> {
  %zero = arith.constant 0.000000e+00 : f32

  // Conv = X (*) W
  %conv_init = tensor.empty() : tensor<1x54x54x64xf32>
  %conv_zero = linalg.fill ins(%zero : f32) outs(%conv_init : tensor<1x54x54x64xf32>) -> tensor<1x54x54x64xf32>
  %conv = linalg.conv_2d_nhwc_hwcf
      {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x56x56x64xf32>, tensor<3x3x64x64xf32>)
      outs(%conv_zero : tensor<1x54x54x64xf32>) -> tensor<1x54x54x64xf32>

  // Y = relu(Conv)
  %y_init = tensor.empty() : tensor<1x54x54x64xf32>
  %y = linalg.generic {
      indexing_maps = [#map_4d, #map_4d],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv : tensor<1x54x54x64xf32>) outs(%y_init : tensor<1x54x54x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x54x54x64xf32>

  return %y : tensor<1x54x54x64xf32>
}
