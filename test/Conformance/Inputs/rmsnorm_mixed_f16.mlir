// RMSNorm over Llama-2-7B's hidden dim (2048 tokens x 4096).
// Form: mixed precision: f16 storage, f32 math, arith.extf / arith.truncf
// inside the bodies that read / write f16.
func.func @rmsnorm(%x: tensor<2048x4096xf16>, %gamma: tensor<4096xf16>) -> tensor<2048x4096xf16> {
  %n = arith.constant 4096.0 : f32
  %eps = arith.constant 1.000000e-06 : f32
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<2048x4096xf32>
  %sq2 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r, c)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<2048x4096xf16>) outs(%e1 : tensor<2048x4096xf32>) {
  ^bb0(%in3: f16, %out4: f32):
    %x5 = arith.extf %in3 : f16 to f32
    %v6 = arith.mulf %x5, %x5 : f32
    linalg.yield %v6 : f32
  } -> tensor<2048x4096xf32>
  %e7 = tensor.empty() : tensor<2048xf32>
  %f8 = linalg.fill ins(%zero : f32) outs(%e7 : tensor<2048xf32>) -> tensor<2048xf32>
  %sqsum9 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>], iterator_types = ["parallel", "reduction"]}
      ins(%sq2 : tensor<2048x4096xf32>) outs(%f8 : tensor<2048xf32>) {
  ^bb0(%in10: f32, %out11: f32):
    %v12 = arith.addf %in10, %out11 : f32
    linalg.yield %v12 : f32
  } -> tensor<2048xf32>
  %e13 = tensor.empty() : tensor<2048xf32>
  %rstd14 = linalg.generic {indexing_maps = [affine_map<(r) -> (r)>, affine_map<(r) -> (r)>], iterator_types = ["parallel"]}
      ins(%sqsum9 : tensor<2048xf32>) outs(%e13 : tensor<2048xf32>) {
  ^bb0(%in15: f32, %out16: f32):
    %v17 = arith.divf %in15, %n : f32
    %v18 = arith.addf %v17, %eps : f32
    %v19 = math.rsqrt %v18 : f32
    linalg.yield %v19 : f32
  } -> tensor<2048xf32>
  %e20 = tensor.empty() : tensor<2048x4096xf16>
  %y21 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>, affine_map<(r, c) -> (c)>, affine_map<(r, c) -> (r, c)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %rstd14, %gamma : tensor<2048x4096xf16>, tensor<2048xf32>, tensor<4096xf16>) outs(%e20 : tensor<2048x4096xf16>) {
  ^bb0(%in22: f16, %in23: f32, %in24: f16, %out25: f16):
    %x26 = arith.extf %in22 : f16 to f32
    %x27 = arith.extf %in24 : f16 to f32
    %v28 = arith.mulf %x26, %in23 : f32
    %v29 = arith.mulf %v28, %x27 : f32
    %t30 = arith.truncf %v29 : f32 to f16
    linalg.yield %t30 : f16
  } -> tensor<2048x4096xf16>
  return %y21 : tensor<2048x4096xf16>
}
