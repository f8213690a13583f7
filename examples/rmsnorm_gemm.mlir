// RMSNorm over hidden=1024 followed by a projection GEMM.
//   X : tensor<4096x1024xf32>, gamma : tensor<1024xf32>, W : tensor<1024x4096xf32>
//   N   = X * rsqrt(sum_c(X * X) / 1024 + 1e-6) * gamma   [4096, 1024]
//   Out = N . W                                           [4096, 4096] (linalg.matmul)
#map_2d  = affine_map<(r, c) -> (r, c)>
#map_row = affine_map<(r, c) -> (r)>
#map_col = affine_map<(r, c) -> (c)>
#map_1d  = affine_map<(r) -> (r)>

func.func @rmsnorm_gemm(%x: tensor<4096x1024xf32>, %gamma: tensor<1024xf32>,
                        %w: tensor<1024x4096xf32>) -> tensor<4096x4096xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 1.024000e+03 : f32
  %eps = arith.constant 9.99999997E-7 : f32

  // Sq = X * X
  %sq_init = tensor.empty() : tensor<4096x1024xf32>
  %sq = linalg.generic {
      indexing_maps = [#map_2d, #map_2d],
      iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4096x1024xf32>) outs(%sq_init : tensor<4096x1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.mulf %in, %in : f32
    linalg.yield %r : f32
  } -> tensor<4096x1024xf32>

  // SqSum = rowsum(Sq)
  %sqsum_init = tensor.empty() : tensor<4096xf32>
  %sqsum_fill = linalg.fill ins(%zero : f32) outs(%sqsum_init : tensor<4096xf32>) -> tensor<4096xf32>
  %sqsum = linalg.generic {
      indexing_maps = [#map_2d, #map_row],
      iterator_types = ["parallel", "reduction"]}
      ins(%sq : tensor<4096x1024xf32>) outs(%sqsum_fill : tensor<4096xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<4096xf32>

  // Ms = SqSum / N
  %ms_init = tensor.empty() : tensor<4096xf32>
  %ms = linalg.generic {
      indexing_maps = [#map_1d, #map_1d],
      iterator_types = ["parallel"]}
      ins(%sqsum : tensor<4096xf32>) outs(%ms_init : tensor<4096xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.divf %in, %n : f32
    linalg.yield %r : f32
  } -> tensor<4096xf32>

  // R = rsqrt(Ms + eps)
  %rs_init = tensor.empty() : tensor<4096xf32>
  %rs = linalg.generic {
      indexing_maps = [#map_1d, #map_1d],
      iterator_types = ["parallel"]}
      ins(%ms : tensor<4096xf32>) outs(%rs_init : tensor<4096xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %eps : f32
    %r = math.rsqrt %a : f32
    linalg.yield %r : f32
  } -> tensor<4096xf32>

  // Y = X * R * gamma
  %y_init = tensor.empty() : tensor<4096x1024xf32>
  %normed = linalg.generic {
      indexing_maps = [#map_2d, #map_row, #map_col, #map_2d],
      iterator_types = ["parallel", "parallel"]}
      ins(%x, %rs, %gamma : tensor<4096x1024xf32>, tensor<4096xf32>, tensor<1024xf32>) outs(%y_init : tensor<4096x1024xf32>) {
  ^bb0(%in: f32, %r: f32, %g: f32, %out: f32):
    %t = arith.mulf %in, %r : f32
    %u = arith.mulf %t, %g : f32
    linalg.yield %u : f32
  } -> tensor<4096x1024xf32>

  // Out = Normed . W
  %o_init = tensor.empty() : tensor<4096x4096xf32>
  %o_zero = linalg.fill ins(%zero : f32) outs(%o_init : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  %out = linalg.matmul ins(%normed, %w : tensor<4096x1024xf32>, tensor<1024x4096xf32>)
      outs(%o_zero : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>

  return %out : tensor<4096x4096xf32>
}
