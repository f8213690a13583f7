// Softmax over dim 0 (a non-last dim), decomposed.
//   X   : tensor<1024x512xf32>   [r, c], normalized along r
//   Max = colmax_r(X)   [c]   (seeded with -inf)
//   Exp = exp(X - Max)  [r, c]
//   Sum = colsum_r(Exp) [c]
//   Y   = Exp / Sum     [r, c]
// Reductions iterate (c, r) with r innermost so the reduced dim is last.
#map_in  = affine_map<(c, r) -> (r, c)>
#map_col = affine_map<(c, r) -> (c)>
#map_2d  = affine_map<(r, c) -> (r, c)>
#map_bc  = affine_map<(r, c) -> (c)>

func.func @softmax_dim0(%x: tensor<1024x512xf32>) -> tensor<1024x512xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32

  // Max = colmax(X)
  %max_init = tensor.empty() : tensor<512xf32>
  %max_fill = linalg.fill ins(%ninf : f32) outs(%max_init : tensor<512xf32>) -> tensor<512xf32>
  %max = linalg.generic {
      indexing_maps = [#map_in, #map_col],
      iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<1024x512xf32>) outs(%max_fill : tensor<512xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  } -> tensor<512xf32>

  // Exp = exp(X - Max)
  %exp_init = tensor.empty() : tensor<1024x512xf32>
  %exp = linalg.generic {
      indexing_maps = [#map_2d, #map_bc, #map_2d],
      iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<1024x512xf32>, tensor<512xf32>)
      outs(%exp_init : tensor<1024x512xf32>) {
  ^bb0(%in: f32, %mx: f32, %out: f32):
    %d = arith.subf %in, %mx : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<1024x512xf32>

  // Sum = colsum(Exp)
  %sum_init = tensor.empty() : tensor<512xf32>
  %sum_fill = linalg.fill ins(%zero : f32) outs(%sum_init : tensor<512xf32>) -> tensor<512xf32>
  %sum = linalg.generic {
      indexing_maps = [#map_in, #map_col],
      iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<1024x512xf32>) outs(%sum_fill : tensor<512xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<512xf32>

  // Y = Exp / Sum
  %y_init = tensor.empty() : tensor<1024x512xf32>
  %y = linalg.generic {
      indexing_maps = [#map_2d, #map_bc, #map_2d],
      iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<1024x512xf32>, tensor<512xf32>)
      outs(%y_init : tensor<1024x512xf32>) {
  ^bb0(%in: f32, %sm: f32, %out: f32):
    %r = arith.divf %in, %sm : f32
    linalg.yield %r : f32
  } -> tensor<1024x512xf32>

  return %y : tensor<1024x512xf32>
}
