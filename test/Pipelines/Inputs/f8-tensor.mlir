#x = affine_map<(d0, d1) -> (d0, d1)>
func.func @f8(%x: tensor<64x64xf8E4M3FN>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %y = linalg.generic {indexing_maps = [#x, #x], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<64x64xf8E4M3FN>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%v: f8E4M3FN, %o: f32):
    %w = arith.extf %v : f8E4M3FN to f32
    linalg.yield %w : f32
  } -> tensor<64x64xf32>
  return %y : tensor<64x64xf32>
}
