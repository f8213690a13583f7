// Causal attention as Llama-2-7B prefill runs it (b1 h32 s2048 d128):
// scores of keys after the query (l > m, from linalg.index) replaced by -inf.
// Form: mixed precision: f16 storage, f32 math, the conversions as
// separate linalg.generic ops (extf after each argument, truncf before
// each result).
func.func @causal_attention(%q: tensor<1x32x2048x128xf16>, %k: tensor<1x32x2048x128xf16>, %v: tensor<1x32x2048x128xf16>) -> tensor<1x32x2048x128xf16> {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.08838834764831843 : f32
  %ninf = arith.constant 0xFF800000 : f32
  // arguments extended to f32 by conversion generics
  %e1 = tensor.empty() : tensor<1x32x2048x128xf32>
  %cvt2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%q : tensor<1x32x2048x128xf16>) outs(%e1 : tensor<1x32x2048x128xf32>) {
  ^bb0(%in3: f16, %out4: f32):
    %t5 = arith.extf %in3 : f16 to f32
    linalg.yield %t5 : f32
  } -> tensor<1x32x2048x128xf32>
  %e6 = tensor.empty() : tensor<1x32x2048x128xf32>
  %cvt7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%k : tensor<1x32x2048x128xf16>) outs(%e6 : tensor<1x32x2048x128xf32>) {
  ^bb0(%in8: f16, %out9: f32):
    %t10 = arith.extf %in8 : f16 to f32
    linalg.yield %t10 : f32
  } -> tensor<1x32x2048x128xf32>
  %e11 = tensor.empty() : tensor<1x32x2048x128xf32>
  %cvt12 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%v : tensor<1x32x2048x128xf16>) outs(%e11 : tensor<1x32x2048x128xf32>) {
  ^bb0(%in13: f16, %out14: f32):
    %t15 = arith.extf %in13 : f16 to f32
    linalg.yield %t15 : f32
  } -> tensor<1x32x2048x128xf32>
  %e16 = tensor.empty() : tensor<1x32x2048x2048xf32>
  %f17 = linalg.fill ins(%zero : f32) outs(%e16 : tensor<1x32x2048x2048xf32>) -> tensor<1x32x2048x2048xf32>
  %qk18 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l, k) -> (b, h, m, k)>, affine_map<(b, h, m, l, k) -> (b, h, l, k)>, affine_map<(b, h, m, l, k) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%cvt2, %cvt7 : tensor<1x32x2048x128xf32>, tensor<1x32x2048x128xf32>) outs(%f17 : tensor<1x32x2048x2048xf32>) {
  ^bb0(%in19: f32, %in20: f32, %out21: f32):
    %v22 = arith.mulf %in19, %in20 : f32
    %v23 = arith.addf %out21, %v22 : f32
    linalg.yield %v23 : f32
  } -> tensor<1x32x2048x2048xf32>
  // scaled scores, keys past the query masked with -inf
  %e24 = tensor.empty() : tensor<1x32x2048x2048xf32>
  %masked25 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%qk18 : tensor<1x32x2048x2048xf32>) outs(%e24 : tensor<1x32x2048x2048xf32>) {
  ^bb0(%in26: f32, %out27: f32):
    %v28 = linalg.index 2 : index
    %v29 = linalg.index 3 : index
    %v30 = arith.cmpi ule, %v29, %v28 : index
    %v31 = arith.mulf %in26, %scale : f32
    %v32 = arith.select %v30, %v31, %ninf : f32
    linalg.yield %v32 : f32
  } -> tensor<1x32x2048x2048xf32>
  %e33 = tensor.empty() : tensor<1x32x2048xf32>
  %f34 = linalg.fill ins(%ninf : f32) outs(%e33 : tensor<1x32x2048xf32>) -> tensor<1x32x2048xf32>
  %max35 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%masked25 : tensor<1x32x2048x2048xf32>) outs(%f34 : tensor<1x32x2048xf32>) {
  ^bb0(%in36: f32, %out37: f32):
    %v38 = arith.maximumf %in36, %out37 : f32
    linalg.yield %v38 : f32
  } -> tensor<1x32x2048xf32>
  %e39 = tensor.empty() : tensor<1x32x2048x2048xf32>
  %exp40 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%masked25, %max35 : tensor<1x32x2048x2048xf32>, tensor<1x32x2048xf32>) outs(%e39 : tensor<1x32x2048x2048xf32>) {
  ^bb0(%in41: f32, %in42: f32, %out43: f32):
    %v44 = arith.subf %in41, %in42 : f32
    %v45 = math.exp %v44 : f32
    linalg.yield %v45 : f32
  } -> tensor<1x32x2048x2048xf32>
  %e46 = tensor.empty() : tensor<1x32x2048xf32>
  %f47 = linalg.fill ins(%zero : f32) outs(%e46 : tensor<1x32x2048xf32>) -> tensor<1x32x2048xf32>
  %sum48 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%exp40 : tensor<1x32x2048x2048xf32>) outs(%f47 : tensor<1x32x2048xf32>) {
  ^bb0(%in49: f32, %out50: f32):
    %v51 = arith.addf %in49, %out50 : f32
    linalg.yield %v51 : f32
  } -> tensor<1x32x2048xf32>
  // probabilities (rounded to f16 before P.V)
  %e52 = tensor.empty() : tensor<1x32x2048x2048xf32>
  %p53 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%exp40, %sum48 : tensor<1x32x2048x2048xf32>, tensor<1x32x2048xf32>) outs(%e52 : tensor<1x32x2048x2048xf32>) {
  ^bb0(%in54: f32, %in55: f32, %out56: f32):
    %v57 = arith.divf %in54, %in55 : f32
    linalg.yield %v57 : f32
  } -> tensor<1x32x2048x2048xf32>
  %e58 = tensor.empty() : tensor<1x32x2048x2048xf16>
  %cvt59 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p53 : tensor<1x32x2048x2048xf32>) outs(%e58 : tensor<1x32x2048x2048xf16>) {
  ^bb0(%in60: f32, %out61: f16):
    %t62 = arith.truncf %in60 : f32 to f16
    linalg.yield %t62 : f16
  } -> tensor<1x32x2048x2048xf16>
  %e63 = tensor.empty() : tensor<1x32x2048x2048xf32>
  %cvt64 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%cvt59 : tensor<1x32x2048x2048xf16>) outs(%e63 : tensor<1x32x2048x2048xf32>) {
  ^bb0(%in65: f16, %out66: f32):
    %t67 = arith.extf %in65 : f16 to f32
    linalg.yield %t67 : f32
  } -> tensor<1x32x2048x2048xf32>
  %e68 = tensor.empty() : tensor<1x32x2048x128xf32>
  %f69 = linalg.fill ins(%zero : f32) outs(%e68 : tensor<1x32x2048x128xf32>) -> tensor<1x32x2048x128xf32>
  %pv70 = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, l) -> (b, h, m, l)>, affine_map<(b, h, m, n, l) -> (b, h, l, n)>, affine_map<(b, h, m, n, l) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%cvt64, %cvt12 : tensor<1x32x2048x2048xf32>, tensor<1x32x2048x128xf32>) outs(%f69 : tensor<1x32x2048x128xf32>) {
  ^bb0(%in71: f32, %in72: f32, %out73: f32):
    %v74 = arith.mulf %in71, %in72 : f32
    %v75 = arith.addf %out73, %v74 : f32
    linalg.yield %v75 : f32
  } -> tensor<1x32x2048x128xf32>
  // result rounded by a conversion generic
  %e76 = tensor.empty() : tensor<1x32x2048x128xf16>
  %cvt77 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%pv70 : tensor<1x32x2048x128xf32>) outs(%e76 : tensor<1x32x2048x128xf16>) {
  ^bb0(%in78: f32, %out79: f16):
    %t80 = arith.truncf %in78 : f32 to f16
    linalg.yield %t80 : f16
  } -> tensor<1x32x2048x128xf16>
  return %cvt77 : tensor<1x32x2048x128xf16>
}
