// Single-head attention as in the paper's figure (no scale, no batch/heads).
//   Q : tensor<512x64xf32>   [m, k]
//   K : tensor<512x64xf32>   [l, k]
//   V : tensor<512x64xf32>   [l, n]
//   QK  = Q . K^T            [m, l]   (linalg.matmul with transposed-B maps)
//   Max = rowmax_l(QK)       [m]      (seeded with -inf)
//   Exp = exp(QK - Max)      [m, l]
//   Sum = rowsum_l(Exp)      [m]
//   P   = Exp / Sum          [m, l]
//   Out = P . V              [m, n]   (linalg.matmul)
#map_a   = affine_map<(m, l, k) -> (m, k)>
#map_bt  = affine_map<(m, l, k) -> (l, k)>
#map_c   = affine_map<(m, l, k) -> (m, l)>
#map_2d  = affine_map<(m, l) -> (m, l)>
#map_row = affine_map<(m, l) -> (m)>

func.func @attention_paper(%q: tensor<512x64xf32>, %k: tensor<512x64xf32>,
                           %v: tensor<512x64xf32>) -> tensor<512x64xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32

  // QK = Q . K^T
  %qk_init = tensor.empty() : tensor<512x512xf32>
  %qk_zero = linalg.fill ins(%zero : f32) outs(%qk_init : tensor<512x512xf32>) -> tensor<512x512xf32>
  %qk = linalg.matmul indexing_maps = [#map_a, #map_bt, #map_c]
      ins(%q, %k : tensor<512x64xf32>, tensor<512x64xf32>)
      outs(%qk_zero : tensor<512x512xf32>) -> tensor<512x512xf32>

  // Max = rowmax_l(QK)
  %max_init = tensor.empty() : tensor<512xf32>
  %max_fill = linalg.fill ins(%ninf : f32) outs(%max_init : tensor<512xf32>) -> tensor<512xf32>
  %max = linalg.generic {
      indexing_maps = [#map_2d, #map_row],
      iterator_types = ["parallel", "reduction"]}
      ins(%qk : tensor<512x512xf32>) outs(%max_fill : tensor<512xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.maximumf %x, %acc : f32
    linalg.yield %m : f32
  } -> tensor<512xf32>

  // Exp = exp(QK - Max)
  %exp_init = tensor.empty() : tensor<512x512xf32>
  %exp = linalg.generic {
      indexing_maps = [#map_2d, #map_row, #map_2d],
      iterator_types = ["parallel", "parallel"]}
      ins(%qk, %max : tensor<512x512xf32>, tensor<512xf32>)
      outs(%exp_init : tensor<512x512xf32>) {
  ^bb0(%x: f32, %mx: f32, %out: f32):
    %d = arith.subf %x, %mx : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<512x512xf32>

  // Sum = rowsum_l(Exp)
  %sum_init = tensor.empty() : tensor<512xf32>
  %sum_fill = linalg.fill ins(%zero : f32) outs(%sum_init : tensor<512xf32>) -> tensor<512xf32>
  %sum = linalg.generic {
      indexing_maps = [#map_2d, #map_row],
      iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<512x512xf32>) outs(%sum_fill : tensor<512xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %a = arith.addf %x, %acc : f32
    linalg.yield %a : f32
  } -> tensor<512xf32>

  // P = Exp / Sum
  %p_init = tensor.empty() : tensor<512x512xf32>
  %p = linalg.generic {
      indexing_maps = [#map_2d, #map_row, #map_2d],
      iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<512x512xf32>, tensor<512xf32>)
      outs(%p_init : tensor<512x512xf32>) {
  ^bb0(%x: f32, %sm: f32, %out: f32):
    %r = arith.divf %x, %sm : f32
    linalg.yield %r : f32
  } -> tensor<512x512xf32>

  // Out = P . V
  %o_init = tensor.empty() : tensor<512x64xf32>
  %o_zero = linalg.fill ins(%zero : f32) outs(%o_init : tensor<512x64xf32>) -> tensor<512x64xf32>
  %out = linalg.matmul
      ins(%p, %v : tensor<512x512xf32>, tensor<512x64xf32>)
      outs(%o_zero : tensor<512x64xf32>) -> tensor<512x64xf32>

  return %out : tensor<512x64xf32>
}
