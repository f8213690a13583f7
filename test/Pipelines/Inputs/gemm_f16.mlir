// An f16 GEMM as python/spacefusion/workloads.py emits it (f32 compute).
func.func @gemm(%a: tensor<256x128xf16>, %b: tensor<128x384xf16>) -> tensor<256x384xf16> {
  %e1 = tensor.empty() : tensor<256x128xf32>
  %g2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<256x128xf16>) outs(%e1 : tensor<256x128xf32>) {
  ^bb0(%in0: f16, %acc: f32):
    %y = arith.extf %in0 : f16 to f32
    linalg.yield %y : f32
  } -> tensor<256x128xf32>
  %e3 = tensor.empty() : tensor<128x384xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<128x384xf16>) outs(%e3 : tensor<128x384xf32>) {
  ^bb0(%in0: f16, %acc: f32):
    %y = arith.extf %in0 : f16 to f32
    linalg.yield %y : f32
  } -> tensor<128x384xf32>
  %c5 = arith.constant 0.000000000e+00 : f32
  %e7 = tensor.empty() : tensor<256x384xf32>
  %f6 = linalg.fill ins(%c5 : f32) outs(%e7 : tensor<256x384xf32>) -> tensor<256x384xf32>
  %g8 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%g2, %g4 : tensor<256x128xf32>, tensor<128x384xf32>) outs(%f6 : tensor<256x384xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<256x384xf32>
  %e9 = tensor.empty() : tensor<256x384xf16>
  %g10 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%g8 : tensor<256x384xf32>) outs(%e9 : tensor<256x384xf16>) {
  ^bb0(%in0: f32, %acc: f16):
    %y = arith.truncf %in0 : f32 to f16
    linalg.yield %y : f16
  } -> tensor<256x384xf16>
  return %g10 : tensor<256x384xf16>
}

