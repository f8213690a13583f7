// Batched multi-head attention with additive mask, K in transposed layout.
//   Q    : tensor<2x8x512x64xf32>   [b, h, m, k]
//   K    : tensor<2x8x64x512xf32>   [b, h, k, l]  (pre-transposed)
//   V    : tensor<2x8x512x64xf32>   [b, h, l, n]
//   Mask : tensor<2x8x512x512xf32>  [b, h, m, l]  (additive, e.g. 0 / -inf)
//   QK  = Q . K                    [b, h, m, l]   (reduction over k)
//   S   = QK * 1/sqrt(64) + Mask
//   Max = rowmax_l(S)              [b, h, m]      (seeded with -inf)
//   Exp = exp(S - Max)
//   Sum = rowsum_l(Exp)            [b, h, m]
//   P   = Exp / Sum
//   Out = P . V                    [b, h, m, n]   (reduction over l)
#map_q   = affine_map<(b, h, m, l, k) -> (b, h, m, k)>
#map_k   = affine_map<(b, h, m, l, k) -> (b, h, k, l)>
#map_qk  = affine_map<(b, h, m, l, k) -> (b, h, m, l)>
#map_4d  = affine_map<(b, h, m, l) -> (b, h, m, l)>
#map_row = affine_map<(b, h, m, l) -> (b, h, m)>
#map_p   = affine_map<(b, h, m, n, l) -> (b, h, m, l)>
#map_v   = affine_map<(b, h, m, n, l) -> (b, h, l, n)>
#map_o   = affine_map<(b, h, m, n, l) -> (b, h, m, n)>

func.func @attention_mask(%q: tensor<2x8x512x64xf32>, %k: tensor<2x8x64x512xf32>,
                          %v: tensor<2x8x512x64xf32>, %mask: tensor<2x8x512x512xf32>)
    -> tensor<2x8x512x64xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 1.250000e-01 : f32   // 1/sqrt(64)

  // QK = Q . K
  %qk_init = tensor.empty() : tensor<2x8x512x512xf32>
  %qk_zero = linalg.fill ins(%zero : f32) outs(%qk_init : tensor<2x8x512x512xf32>) -> tensor<2x8x512x512xf32>
  %qk = linalg.generic {
      indexing_maps = [#map_q, #map_k, #map_qk],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x8x512x64xf32>, tensor<2x8x64x512xf32>)
      outs(%qk_zero : tensor<2x8x512x512xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %mul = arith.mulf %a, %b : f32
    %add = arith.addf %acc, %mul : f32
    linalg.yield %add : f32
  } -> tensor<2x8x512x512xf32>

  // Sc = QK * scale
  %sc_init = tensor.empty() : tensor<2x8x512x512xf32>
  %sc = linalg.generic {
      indexing_maps = [#map_4d, #map_4d],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%qk : tensor<2x8x512x512xf32>) outs(%sc_init : tensor<2x8x512x512xf32>) {
  ^bb0(%x: f32, %out: f32):
    %y = arith.mulf %x, %scale : f32
    linalg.yield %y : f32
  } -> tensor<2x8x512x512xf32>

  // S = Sc + Mask
  %s_init = tensor.empty() : tensor<2x8x512x512xf32>
  %s = linalg.generic {
      indexing_maps = [#map_4d, #map_4d, #map_4d],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%sc, %mask : tensor<2x8x512x512xf32>, tensor<2x8x512x512xf32>)
      outs(%s_init : tensor<2x8x512x512xf32>) {
  ^bb0(%x: f32, %mk: f32, %out: f32):
    %y = arith.addf %x, %mk : f32
    linalg.yield %y : f32
  } -> tensor<2x8x512x512xf32>

  // Max = rowmax_l(S)
  %max_init = tensor.empty() : tensor<2x8x512xf32>
  %max_fill = linalg.fill ins(%ninf : f32) outs(%max_init : tensor<2x8x512xf32>) -> tensor<2x8x512xf32>
  %max = linalg.generic {
      indexing_maps = [#map_4d, #map_row],
      iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%s : tensor<2x8x512x512xf32>) outs(%max_fill : tensor<2x8x512xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.maximumf %x, %acc : f32
    linalg.yield %m : f32
  } -> tensor<2x8x512xf32>

  // Exp = exp(S - Max)
  %exp_init = tensor.empty() : tensor<2x8x512x512xf32>
  %exp = linalg.generic {
      indexing_maps = [#map_4d, #map_row, #map_4d],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %max : tensor<2x8x512x512xf32>, tensor<2x8x512xf32>)
      outs(%exp_init : tensor<2x8x512x512xf32>) {
  ^bb0(%x: f32, %mx: f32, %out: f32):
    %d = arith.subf %x, %mx : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<2x8x512x512xf32>

  // Sum = rowsum_l(Exp)
  %sum_init = tensor.empty() : tensor<2x8x512xf32>
  %sum_fill = linalg.fill ins(%zero : f32) outs(%sum_init : tensor<2x8x512xf32>) -> tensor<2x8x512xf32>
  %sum = linalg.generic {
      indexing_maps = [#map_4d, #map_row],
      iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%exp : tensor<2x8x512x512xf32>) outs(%sum_fill : tensor<2x8x512xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %a = arith.addf %x, %acc : f32
    linalg.yield %a : f32
  } -> tensor<2x8x512xf32>

  // P = Exp / Sum
  %p_init = tensor.empty() : tensor<2x8x512x512xf32>
  %p = linalg.generic {
      indexing_maps = [#map_4d, #map_row, #map_4d],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%exp, %sum : tensor<2x8x512x512xf32>, tensor<2x8x512xf32>)
      outs(%p_init : tensor<2x8x512x512xf32>) {
  ^bb0(%x: f32, %sm: f32, %out: f32):
    %r = arith.divf %x, %sm : f32
    linalg.yield %r : f32
  } -> tensor<2x8x512x512xf32>

  // Out = P . V
  %o_init = tensor.empty() : tensor<2x8x512x64xf32>
  %o_zero = linalg.fill ins(%zero : f32) outs(%o_init : tensor<2x8x512x64xf32>) -> tensor<2x8x512x64xf32>
  %out = linalg.generic {
      indexing_maps = [#map_p, #map_v, #map_o],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x8x512x512xf32>, tensor<2x8x512x64xf32>)
      outs(%o_zero : tensor<2x8x512x64xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %mul = arith.mulf %a, %b : f32
    %add = arith.addf %acc, %mul : f32
    linalg.yield %add : f32
  } -> tensor<2x8x512x64xf32>

  return %out : tensor<2x8x512x64xf32>
}
