// Causal attention as Llama-2-7B prefill runs it (b1 h32 s2048 d128):
// scores of keys after the query (l > m, from linalg.index) replaced by -inf.
// Form: mixed precision: f16 storage, f32 math, arith.extf / arith.truncf
// inside the bodies that read / write f16.
func.func @causal_attention(%q: tensor<1x32x2048x128xf16>, %k: tensor<1x32x2048x128xf16>, %v: tensor<1x32x2048x128xf16>) -> tensor<1x32x2048x128xf16> {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.08838834764831843 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e1 = tensor.empty() : tensor<1x32x2048x2048xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x32x2048x2048xf32>) -> tensor<1x32x2048x2048xf32>
  %qk3 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l, k) -> (b, h, m, k)>, affine_map<(b, h, m, l, k) -> (b, h, l, k)>, affine_map<(b, h, m, l, k) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x32x2048x128xf16>, tensor<1x32x2048x128xf16>) outs(%f2 : tensor<1x32x2048x2048xf32>) {
  ^bb0(%in4: f16, %in5: f16, %out6: f32):
    %x7 = arith.extf %in4 : f16 to f32
    %x8 = arith.extf %in5 : f16 to f32
    %v9 = arith.mulf %x7, %x8 : f32
    %v10 = arith.addf %out6, %v9 : f32
    linalg.yield %v10 : f32
  } -> tensor<1x32x2048x2048xf32>
  // scaled scores, keys past the query masked with -inf
  %e11 = tensor.empty() : tensor<1x32x2048x2048xf32>
  %masked12 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%qk3 : tensor<1x32x2048x2048xf32>) outs(%e11 : tensor<1x32x2048x2048xf32>) {
  ^bb0(%in13: f32, %out14: f32):
    %v15 = linalg.index 2 : index
    %v16 = linalg.index 3 : index
    %v17 = arith.cmpi ule, %v16, %v15 : index
    %v18 = arith.mulf %in13, %scale : f32
    %v19 = arith.select %v17, %v18, %ninf : f32
    linalg.yield %v19 : f32
  } -> tensor<1x32x2048x2048xf32>
  %e20 = tensor.empty() : tensor<1x32x2048xf32>
  %f21 = linalg.fill ins(%ninf : f32) outs(%e20 : tensor<1x32x2048xf32>) -> tensor<1x32x2048xf32>
  %max22 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%masked12 : tensor<1x32x2048x2048xf32>) outs(%f21 : tensor<1x32x2048xf32>) {
  ^bb0(%in23: f32, %out24: f32):
    %v25 = arith.maximumf %in23, %out24 : f32
    linalg.yield %v25 : f32
  } -> tensor<1x32x2048xf32>
  %e26 = tensor.empty() : tensor<1x32x2048x2048xf32>
  %exp27 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%masked12, %max22 : tensor<1x32x2048x2048xf32>, tensor<1x32x2048xf32>) outs(%e26 : tensor<1x32x2048x2048xf32>) {
  ^bb0(%in28: f32, %in29: f32, %out30: f32):
    %v31 = arith.subf %in28, %in29 : f32
    %v32 = math.exp %v31 : f32
    linalg.yield %v32 : f32
  } -> tensor<1x32x2048x2048xf32>
  %e33 = tensor.empty() : tensor<1x32x2048xf32>
  %f34 = linalg.fill ins(%zero : f32) outs(%e33 : tensor<1x32x2048xf32>) -> tensor<1x32x2048xf32>
  %sum35 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%exp27 : tensor<1x32x2048x2048xf32>) outs(%f34 : tensor<1x32x2048xf32>) {
  ^bb0(%in36: f32, %out37: f32):
    %v38 = arith.addf %in36, %out37 : f32
    linalg.yield %v38 : f32
  } -> tensor<1x32x2048xf32>
  // probabilities (rounded to f16 before P.V)
  %e39 = tensor.empty() : tensor<1x32x2048x2048xf16>
  %p40 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%exp27, %sum35 : tensor<1x32x2048x2048xf32>, tensor<1x32x2048xf32>) outs(%e39 : tensor<1x32x2048x2048xf16>) {
  ^bb0(%in41: f32, %in42: f32, %out43: f16):
    %v44 = arith.divf %in41, %in42 : f32
    %t45 = arith.truncf %v44 : f32 to f16
    linalg.yield %t45 : f16
  } -> tensor<1x32x2048x2048xf16>
  %e46 = tensor.empty() : tensor<1x32x2048x128xf32>
  %f47 = linalg.fill ins(%zero : f32) outs(%e46 : tensor<1x32x2048x128xf32>) -> tensor<1x32x2048x128xf32>
  %pv48 = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, l) -> (b, h, m, l)>, affine_map<(b, h, m, n, l) -> (b, h, l, n)>, affine_map<(b, h, m, n, l) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p40, %v : tensor<1x32x2048x2048xf16>, tensor<1x32x2048x128xf16>) outs(%f47 : tensor<1x32x2048x128xf32>) {
  ^bb0(%in49: f16, %in50: f16, %out51: f32):
    %x52 = arith.extf %in49 : f16 to f32
    %x53 = arith.extf %in50 : f16 to f32
    %v54 = arith.mulf %x52, %x53 : f32
    %v55 = arith.addf %out51, %v54 : f32
    linalg.yield %v55 : f32
  } -> tensor<1x32x2048x128xf32>
  %e56 = tensor.empty() : tensor<1x32x2048x128xf16>
  %cvt57 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%pv48 : tensor<1x32x2048x128xf32>) outs(%e56 : tensor<1x32x2048x128xf16>) {
  ^bb0(%in58: f32, %out59: f16):
    %t60 = arith.truncf %in58 : f32 to f16
    linalg.yield %t60 : f16
  } -> tensor<1x32x2048x128xf16>
  return %cvt57 : tensor<1x32x2048x128xf16>
}
