// Softmax over Llama's LM-head logits (2048 rows x 32000 columns).
// Form: mixed precision: f16 storage, f32 math, the conversions as
// separate linalg.generic ops (extf after each argument, truncf before
// each result).
func.func @softmax(%x: tensor<2048x32000xf16>) -> tensor<2048x32000xf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  // arguments extended to f32 by conversion generics
  %e1 = tensor.empty() : tensor<2048x32000xf32>
  %cvt2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<2048x32000xf16>) outs(%e1 : tensor<2048x32000xf32>) {
  ^bb0(%in3: f16, %out4: f32):
    %t5 = arith.extf %in3 : f16 to f32
    linalg.yield %t5 : f32
  } -> tensor<2048x32000xf32>
  %e6 = tensor.empty() : tensor<2048xf32>
  %f7 = linalg.fill ins(%ninf : f32) outs(%e6 : tensor<2048xf32>) -> tensor<2048xf32>
  %max8 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>], iterator_types = ["parallel", "reduction"]}
      ins(%cvt2 : tensor<2048x32000xf32>) outs(%f7 : tensor<2048xf32>) {
  ^bb0(%in9: f32, %out10: f32):
    %v11 = arith.maximumf %in9, %out10 : f32
    linalg.yield %v11 : f32
  } -> tensor<2048xf32>
  %e12 = tensor.empty() : tensor<2048x32000xf32>
  %exp13 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>, affine_map<(r, c) -> (r, c)>], iterator_types = ["parallel", "parallel"]}
      ins(%cvt2, %max8 : tensor<2048x32000xf32>, tensor<2048xf32>) outs(%e12 : tensor<2048x32000xf32>) {
  ^bb0(%in14: f32, %in15: f32, %out16: f32):
    %v17 = arith.subf %in14, %in15 : f32
    %v18 = math.exp %v17 : f32
    linalg.yield %v18 : f32
  } -> tensor<2048x32000xf32>
  %e19 = tensor.empty() : tensor<2048xf32>
  %f20 = linalg.fill ins(%zero : f32) outs(%e19 : tensor<2048xf32>) -> tensor<2048xf32>
  %sum21 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>], iterator_types = ["parallel", "reduction"]}
      ins(%exp13 : tensor<2048x32000xf32>) outs(%f20 : tensor<2048xf32>) {
  ^bb0(%in22: f32, %out23: f32):
    %v24 = arith.addf %in22, %out23 : f32
    linalg.yield %v24 : f32
  } -> tensor<2048xf32>
  %e25 = tensor.empty() : tensor<2048x32000xf32>
  %y26 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>, affine_map<(r, c) -> (r, c)>], iterator_types = ["parallel", "parallel"]}
      ins(%exp13, %sum21 : tensor<2048x32000xf32>, tensor<2048xf32>) outs(%e25 : tensor<2048x32000xf32>) {
  ^bb0(%in27: f32, %in28: f32, %out29: f32):
    %v30 = arith.divf %in27, %in28 : f32
    linalg.yield %v30 : f32
  } -> tensor<2048x32000xf32>
  // result rounded by a conversion generic
  %e31 = tensor.empty() : tensor<2048x32000xf16>
  %cvt32 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%y26 : tensor<2048x32000xf32>) outs(%e31 : tensor<2048x32000xf16>) {
  ^bb0(%in33: f32, %out34: f16):
    %t35 = arith.truncf %in33 : f32 to f16
    linalg.yield %t35 : f16
  } -> tensor<2048x32000xf16>
  return %cvt32 : tensor<2048x32000xf16>
}
