// UNSUPPORTED: dynamic shapes. Softmax over the last dim, decomposed,
// with a dynamic leading (row) dimension.
//   X   : tensor<?x1024xf32>   [r, c]
//   Max = rowmax_c(X)   [r]   (seeded with -inf)
//   Exp = exp(X - Max)  [r, c]
//   Sum = rowsum_c(Exp) [r]
//   Y   = Exp / Sum     [r, c]
#map_2d  = affine_map<(r, c) -> (r, c)>
#map_row = affine_map<(r, c) -> (r)>

func.func @dynamic_softmax(%x: tensor<?x1024xf32>) -> tensor<?x1024xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x1024xf32>

  // Max = rowmax(X)
  %max_init = tensor.empty(%n) : tensor<?xf32>
  %max_fill = linalg.fill ins(%ninf : f32) outs(%max_init : tensor<?xf32>) -> tensor<?xf32>
  %max = linalg.generic {
      indexing_maps = [#map_2d, #map_row],
      iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<?x1024xf32>) outs(%max_fill : tensor<?xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  } -> tensor<?xf32>

  // Exp = exp(X - Max)
  %exp_init = tensor.empty(%n) : tensor<?x1024xf32>
  %exp = linalg.generic {
      indexing_maps = [#map_2d, #map_row, #map_2d],
      iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<?x1024xf32>, tensor<?xf32>)
      outs(%exp_init : tensor<?x1024xf32>) {
  ^bb0(%in: f32, %mx: f32, %out: f32):
    %d = arith.subf %in, %mx : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<?x1024xf32>

  // Sum = rowsum(Exp)
  %sum_init = tensor.empty(%n) : tensor<?xf32>
  %sum_fill = linalg.fill ins(%zero : f32) outs(%sum_init : tensor<?xf32>) -> tensor<?xf32>
  %sum = linalg.generic {
      indexing_maps = [#map_2d, #map_row],
      iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<?x1024xf32>) outs(%sum_fill : tensor<?xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<?xf32>

  // Y = Exp / Sum
  %y_init = tensor.empty(%n) : tensor<?x1024xf32>
  %y = linalg.generic {
      indexing_maps = [#map_2d, #map_row, #map_2d],
      iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<?x1024xf32>, tensor<?xf32>)
      outs(%y_init : tensor<?x1024xf32>) {
  ^bb0(%in: f32, %sm: f32, %out: f32):
    %r = arith.divf %in, %sm : f32
    linalg.yield %r : f32
  } -> tensor<?x1024xf32>

  return %y : tensor<?x1024xf32>
}
