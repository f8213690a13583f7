#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @view(%x: tensor<32x16xf32>) -> tensor<16x32xf32> {
  %e = tensor.empty() : tensor<32x16xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<32x16xf32>) outs(%e : tensor<32x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %t = math.tanh %v : f32
    linalg.yield %t : f32
  } -> tensor<32x16xf32>
  %f = tensor.collapse_shape %y [[0, 1]] : tensor<32x16xf32> into tensor<512xf32>
  %g = tensor.expand_shape %f [[0, 1]] output_shape [16, 32] : tensor<512xf32> into tensor<16x32xf32>
  %e2 = tensor.empty() : tensor<16x32xf32>
  %z = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<16x32xf32>) outs(%e2 : tensor<16x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    %t = arith.mulf %v, %v : f32
    linalg.yield %t : f32
  } -> tensor<16x32xf32>
  return %z : tensor<16x32xf32>
}
