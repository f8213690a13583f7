// Single-head batched attention using named ops (e.g. batch = b*h = 16).
//   Q : tensor<16x256x64xf32>   [b, m, k]
//   K : tensor<16x256x64xf32>   [b, l, k]
//   V : tensor<16x256x64xf32>   [b, l, n]
//   Kt  = transpose(K, [0,2,1])  [b, k, l]   (linalg.transpose)
//   QK  = batch_matmul(Q, Kt)    [b, m, l]
//   S   = QK * 1/sqrt(64)
//   P   = softmax_l(S)           (max / exp(x-max) / sum / div generics)
//   Out = batch_matmul(P, V)     [b, m, n]
#map_3d  = affine_map<(b, m, l) -> (b, m, l)>
#map_row = affine_map<(b, m, l) -> (b, m)>

func.func @attention_kt(%q: tensor<16x256x64xf32>, %k: tensor<16x256x64xf32>,
                        %v: tensor<16x256x64xf32>) -> tensor<16x256x64xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 1.250000e-01 : f32   // 1/sqrt(64)

  // Kt = transpose(K)
  %kt_init = tensor.empty() : tensor<16x64x256xf32>
  %kt = linalg.transpose ins(%k : tensor<16x256x64xf32>)
      outs(%kt_init : tensor<16x64x256xf32>) permutation = [0, 2, 1]

  // QK = Q . Kt
  %qk_init = tensor.empty() : tensor<16x256x256xf32>
  %qk_zero = linalg.fill ins(%zero : f32) outs(%qk_init : tensor<16x256x256xf32>) -> tensor<16x256x256xf32>
  %qk = linalg.batch_matmul ins(%q, %kt : tensor<16x256x64xf32>, tensor<16x64x256xf32>)
      outs(%qk_zero : tensor<16x256x256xf32>) -> tensor<16x256x256xf32>

  // S = QK * scale
  %s_init = tensor.empty() : tensor<16x256x256xf32>
  %s = linalg.generic {
      indexing_maps = [#map_3d, #map_3d],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%qk : tensor<16x256x256xf32>) outs(%s_init : tensor<16x256x256xf32>) {
  ^bb0(%x: f32, %out: f32):
    %y = arith.mulf %x, %scale : f32
    linalg.yield %y : f32
  } -> tensor<16x256x256xf32>

  // Max = rowmax_l(S)
  %max_init = tensor.empty() : tensor<16x256xf32>
  %max_fill = linalg.fill ins(%ninf : f32) outs(%max_init : tensor<16x256xf32>) -> tensor<16x256xf32>
  %max = linalg.generic {
      indexing_maps = [#map_3d, #map_row],
      iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%s : tensor<16x256x256xf32>) outs(%max_fill : tensor<16x256xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.maximumf %x, %acc : f32
    linalg.yield %m : f32
  } -> tensor<16x256xf32>

  // Exp = exp(S - Max)
  %exp_init = tensor.empty() : tensor<16x256x256xf32>
  %exp = linalg.generic {
      indexing_maps = [#map_3d, #map_row, #map_3d],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %max : tensor<16x256x256xf32>, tensor<16x256xf32>)
      outs(%exp_init : tensor<16x256x256xf32>) {
  ^bb0(%x: f32, %mx: f32, %out: f32):
    %d = arith.subf %x, %mx : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<16x256x256xf32>

  // Sum = rowsum_l(Exp)
  %sum_init = tensor.empty() : tensor<16x256xf32>
  %sum_fill = linalg.fill ins(%zero : f32) outs(%sum_init : tensor<16x256xf32>) -> tensor<16x256xf32>
  %sum = linalg.generic {
      indexing_maps = [#map_3d, #map_row],
      iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%exp : tensor<16x256x256xf32>) outs(%sum_fill : tensor<16x256xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %a = arith.addf %x, %acc : f32
    linalg.yield %a : f32
  } -> tensor<16x256xf32>

  // P = Exp / Sum
  %p_init = tensor.empty() : tensor<16x256x256xf32>
  %p = linalg.generic {
      indexing_maps = [#map_3d, #map_row, #map_3d],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%exp, %sum : tensor<16x256x256xf32>, tensor<16x256xf32>)
      outs(%p_init : tensor<16x256x256xf32>) {
  ^bb0(%x: f32, %sm: f32, %out: f32):
    %r = arith.divf %x, %sm : f32
    linalg.yield %r : f32
  } -> tensor<16x256x256xf32>

  // Out = P . V
  %o_init = tensor.empty() : tensor<16x256x64xf32>
  %o_zero = linalg.fill ins(%zero : f32) outs(%o_init : tensor<16x256x64xf32>) -> tensor<16x256x64xf32>
  %out = linalg.batch_matmul ins(%p, %v : tensor<16x256x256xf32>, tensor<16x256x64xf32>)
      outs(%o_zero : tensor<16x256x64xf32>) -> tensor<16x256x64xf32>

  return %out : tensor<16x256x64xf32>
}
