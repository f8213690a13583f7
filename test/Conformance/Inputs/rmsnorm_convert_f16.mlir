// RMSNorm over Llama-2-7B's hidden dim (2048 tokens x 4096).
// Form: mixed precision: f16 storage, f32 math, the conversions as
// separate linalg.generic ops (extf after each argument, truncf before
// each result).
func.func @rmsnorm(%x: tensor<2048x4096xf16>, %gamma: tensor<4096xf16>) -> tensor<2048x4096xf16> {
  %n = arith.constant 4096.0 : f32
  %eps = arith.constant 1.000000e-06 : f32
  %zero = arith.constant 0.0 : f32
  // arguments extended to f32 by conversion generics
  %e1 = tensor.empty() : tensor<2048x4096xf32>
  %cvt2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<2048x4096xf16>) outs(%e1 : tensor<2048x4096xf32>) {
  ^bb0(%in3: f16, %out4: f32):
    %t5 = arith.extf %in3 : f16 to f32
    linalg.yield %t5 : f32
  } -> tensor<2048x4096xf32>
  %e6 = tensor.empty() : tensor<4096xf32>
  %cvt7 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%gamma : tensor<4096xf16>) outs(%e6 : tensor<4096xf32>) {
  ^bb0(%in8: f16, %out9: f32):
    %t10 = arith.extf %in8 : f16 to f32
    linalg.yield %t10 : f32
  } -> tensor<4096xf32>
  %e11 = tensor.empty() : tensor<2048x4096xf32>
  %sq12 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r, c)>], iterator_types = ["parallel", "parallel"]}
      ins(%cvt2 : tensor<2048x4096xf32>) outs(%e11 : tensor<2048x4096xf32>) {
  ^bb0(%in13: f32, %out14: f32):
    %v15 = arith.mulf %in13, %in13 : f32
    linalg.yield %v15 : f32
  } -> tensor<2048x4096xf32>
  %e16 = tensor.empty() : tensor<2048xf32>
  %f17 = linalg.fill ins(%zero : f32) outs(%e16 : tensor<2048xf32>) -> tensor<2048xf32>
  %sqsum18 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>], iterator_types = ["parallel", "reduction"]}
      ins(%sq12 : tensor<2048x4096xf32>) outs(%f17 : tensor<2048xf32>) {
  ^bb0(%in19: f32, %out20: f32):
    %v21 = arith.addf %in19, %out20 : f32
    linalg.yield %v21 : f32
  } -> tensor<2048xf32>
  %e22 = tensor.empty() : tensor<2048xf32>
  %rstd23 = linalg.generic {indexing_maps = [affine_map<(r) -> (r)>, affine_map<(r) -> (r)>], iterator_types = ["parallel"]}
      ins(%sqsum18 : tensor<2048xf32>) outs(%e22 : tensor<2048xf32>) {
  ^bb0(%in24: f32, %out25: f32):
    %v26 = arith.divf %in24, %n : f32
    %v27 = arith.addf %v26, %eps : f32
    %v28 = math.rsqrt %v27 : f32
    linalg.yield %v28 : f32
  } -> tensor<2048xf32>
  %e29 = tensor.empty() : tensor<2048x4096xf32>
  %y30 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>, affine_map<(r, c) -> (c)>, affine_map<(r, c) -> (r, c)>], iterator_types = ["parallel", "parallel"]}
      ins(%cvt2, %rstd23, %cvt7 : tensor<2048x4096xf32>, tensor<2048xf32>, tensor<4096xf32>) outs(%e29 : tensor<2048x4096xf32>) {
  ^bb0(%in31: f32, %in32: f32, %in33: f32, %out34: f32):
    %v35 = arith.mulf %in31, %in32 : f32
    %v36 = arith.mulf %v35, %in33 : f32
    linalg.yield %v36 : f32
  } -> tensor<2048x4096xf32>
  // result rounded by a conversion generic
  %e37 = tensor.empty() : tensor<2048x4096xf16>
  %cvt38 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%y30 : tensor<2048x4096xf32>) outs(%e37 : tensor<2048x4096xf16>) {
  ^bb0(%in39: f32, %out40: f16):
    %t41 = arith.truncf %in39 : f32 to f16
    linalg.yield %t41 : f16
  } -> tensor<2048x4096xf16>
  return %cvt38 : tensor<2048x4096xf16>
}
