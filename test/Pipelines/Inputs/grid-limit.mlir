#x = affine_map<(d0, d1) -> (d0, d1)>
func.func @huge(%x: tensor<4294967296x4xf32>) -> tensor<4294967296x4xf32> {
  %e = tensor.empty() : tensor<4294967296x4xf32>
  %y = linalg.generic {indexing_maps = [#x, #x], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4294967296x4xf32>) outs(%e : tensor<4294967296x4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %w = math.tanh %v : f32
    linalg.yield %w : f32
  } -> tensor<4294967296x4xf32>
  return %y : tensor<4294967296x4xf32>
}
