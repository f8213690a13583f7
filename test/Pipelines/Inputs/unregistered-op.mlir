#id = affine_map<(d0) -> (d0)>
func.func @f(%x: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %t = "foo.bar"(%v) : (f32) -> f32
    linalg.yield %t : f32
  } -> tensor<16xf32>
  %z = "foo.baz"(%y) : (tensor<16xf32>) -> tensor<16xf32>
  return %z : tensor<16xf32>
}
