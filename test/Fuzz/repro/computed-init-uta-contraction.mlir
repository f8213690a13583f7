// Status: fixed by 3ca04af (the init is added after the corrections); a regression input.
// Fuzzer class: a contraction whose init (outs) is a computed value, at the end of a
// dependent-reduction chain that is sliced temporally -> wrong result.
// Written from the minimized fuzz seeds 189, 201, 220, 280 (all have `computed-init`: the
// P.V or GEMM accumulator starts from a bias instead of a zero fill).
// Command: spacefusion-run computed-init-uta-contraction.mlir --reps=1 --temporal=l:32
// Observed: FAIL (256 elements out of tolerance), max abs error 9.9E-01.
//   The searched schedule (no temporal slice) passes, and the same module with the
//   matmul's outs a zero linalg.fill passes with --temporal=l:32. Likely the
//   Update-then-Aggregate rewrite applies the postponed 1/sum factor (or the
//   exp(m_old - m_new) rescaling) to the whole accumulator, the bias included.
#map2 = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
func.func @fuzz(%x: tensor<16x128xf32>, %v: tensor<128x16xf32>, %bias: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %e0 = tensor.empty() : tensor<16x128xf32>
  %e = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<16x128xf32>) outs(%e0 : tensor<16x128xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = math.exp %a : f32
    linalg.yield %y : f32
  } -> tensor<16x128xf32>
  %s0 = tensor.empty() : tensor<16xf32>
  %sf = linalg.fill ins(%zero : f32) outs(%s0 : tensor<16xf32>) -> tensor<16xf32>
  %s = linalg.generic {indexing_maps = [#map2, #map1], iterator_types = ["parallel", "reduction"]} ins(%e : tensor<16x128xf32>) outs(%sf : tensor<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.addf %a, %acc : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  %p0 = tensor.empty() : tensor<16x128xf32>
  %p = linalg.generic {indexing_maps = [#map2, #map1, #map2], iterator_types = ["parallel", "parallel"]} ins(%e, %s : tensor<16x128xf32>, tensor<16xf32>) outs(%p0 : tensor<16x128xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %y = arith.divf %a, %b : f32
    linalg.yield %y : f32
  } -> tensor<16x128xf32>
  %o = linalg.matmul ins(%p, %v : tensor<16x128xf32>, tensor<128x16xf32>) outs(%bias : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %o : tensor<16x16xf32>
}
