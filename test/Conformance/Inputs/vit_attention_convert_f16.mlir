// Attention as ViT-B runs it (b64 h12 s197 d64), no mask:
// O = softmax(Q K^T / sqrt(64)) V, softmax over the keys.
// Form: mixed precision: f16 storage, f32 math, the conversions as
// separate linalg.generic ops (extf after each argument, truncf before
// each result).
func.func @vit_attention(%q: tensor<64x12x197x64xf16>, %k: tensor<64x12x197x64xf16>, %v: tensor<64x12x197x64xf16>) -> tensor<64x12x197x64xf16> {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.125 : f32
  %ninf = arith.constant 0xFF800000 : f32
  // arguments extended to f32 by conversion generics
  %e1 = tensor.empty() : tensor<64x12x197x64xf32>
  %cvt2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%q : tensor<64x12x197x64xf16>) outs(%e1 : tensor<64x12x197x64xf32>) {
  ^bb0(%in3: f16, %out4: f32):
    %t5 = arith.extf %in3 : f16 to f32
    linalg.yield %t5 : f32
  } -> tensor<64x12x197x64xf32>
  %e6 = tensor.empty() : tensor<64x12x197x64xf32>
  %cvt7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%k : tensor<64x12x197x64xf16>) outs(%e6 : tensor<64x12x197x64xf32>) {
  ^bb0(%in8: f16, %out9: f32):
    %t10 = arith.extf %in8 : f16 to f32
    linalg.yield %t10 : f32
  } -> tensor<64x12x197x64xf32>
  %e11 = tensor.empty() : tensor<64x12x197x64xf32>
  %cvt12 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%v : tensor<64x12x197x64xf16>) outs(%e11 : tensor<64x12x197x64xf32>) {
  ^bb0(%in13: f16, %out14: f32):
    %t15 = arith.extf %in13 : f16 to f32
    linalg.yield %t15 : f32
  } -> tensor<64x12x197x64xf32>
  %e16 = tensor.empty() : tensor<64x12x197x197xf32>
  %f17 = linalg.fill ins(%zero : f32) outs(%e16 : tensor<64x12x197x197xf32>) -> tensor<64x12x197x197xf32>
  %qk18 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l, k) -> (b, h, m, k)>, affine_map<(b, h, m, l, k) -> (b, h, l, k)>, affine_map<(b, h, m, l, k) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%cvt2, %cvt7 : tensor<64x12x197x64xf32>, tensor<64x12x197x64xf32>) outs(%f17 : tensor<64x12x197x197xf32>) {
  ^bb0(%in19: f32, %in20: f32, %out21: f32):
    %v22 = arith.mulf %in19, %in20 : f32
    %v23 = arith.addf %out21, %v22 : f32
    linalg.yield %v23 : f32
  } -> tensor<64x12x197x197xf32>
  %e24 = tensor.empty() : tensor<64x12x197x197xf32>
  %scaled25 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%qk18 : tensor<64x12x197x197xf32>) outs(%e24 : tensor<64x12x197x197xf32>) {
  ^bb0(%in26: f32, %out27: f32):
    %v28 = arith.mulf %in26, %scale : f32
    linalg.yield %v28 : f32
  } -> tensor<64x12x197x197xf32>
  %e29 = tensor.empty() : tensor<64x12x197xf32>
  %f30 = linalg.fill ins(%ninf : f32) outs(%e29 : tensor<64x12x197xf32>) -> tensor<64x12x197xf32>
  %max31 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%scaled25 : tensor<64x12x197x197xf32>) outs(%f30 : tensor<64x12x197xf32>) {
  ^bb0(%in32: f32, %out33: f32):
    %v34 = arith.maximumf %in32, %out33 : f32
    linalg.yield %v34 : f32
  } -> tensor<64x12x197xf32>
  %e35 = tensor.empty() : tensor<64x12x197x197xf32>
  %exp36 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%scaled25, %max31 : tensor<64x12x197x197xf32>, tensor<64x12x197xf32>) outs(%e35 : tensor<64x12x197x197xf32>) {
  ^bb0(%in37: f32, %in38: f32, %out39: f32):
    %v40 = arith.subf %in37, %in38 : f32
    %v41 = math.exp %v40 : f32
    linalg.yield %v41 : f32
  } -> tensor<64x12x197x197xf32>
  %e42 = tensor.empty() : tensor<64x12x197xf32>
  %f43 = linalg.fill ins(%zero : f32) outs(%e42 : tensor<64x12x197xf32>) -> tensor<64x12x197xf32>
  %sum44 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%exp36 : tensor<64x12x197x197xf32>) outs(%f43 : tensor<64x12x197xf32>) {
  ^bb0(%in45: f32, %out46: f32):
    %v47 = arith.addf %in45, %out46 : f32
    linalg.yield %v47 : f32
  } -> tensor<64x12x197xf32>
  // probabilities (rounded to f16 before P.V)
  %e48 = tensor.empty() : tensor<64x12x197x197xf32>
  %p49 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%exp36, %sum44 : tensor<64x12x197x197xf32>, tensor<64x12x197xf32>) outs(%e48 : tensor<64x12x197x197xf32>) {
  ^bb0(%in50: f32, %in51: f32, %out52: f32):
    %v53 = arith.divf %in50, %in51 : f32
    linalg.yield %v53 : f32
  } -> tensor<64x12x197x197xf32>
  %e54 = tensor.empty() : tensor<64x12x197x197xf16>
  %cvt55 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p49 : tensor<64x12x197x197xf32>) outs(%e54 : tensor<64x12x197x197xf16>) {
  ^bb0(%in56: f32, %out57: f16):
    %t58 = arith.truncf %in56 : f32 to f16
    linalg.yield %t58 : f16
  } -> tensor<64x12x197x197xf16>
  %e59 = tensor.empty() : tensor<64x12x197x197xf32>
  %cvt60 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%cvt55 : tensor<64x12x197x197xf16>) outs(%e59 : tensor<64x12x197x197xf32>) {
  ^bb0(%in61: f16, %out62: f32):
    %t63 = arith.extf %in61 : f16 to f32
    linalg.yield %t63 : f32
  } -> tensor<64x12x197x197xf32>
  %e64 = tensor.empty() : tensor<64x12x197x64xf32>
  %f65 = linalg.fill ins(%zero : f32) outs(%e64 : tensor<64x12x197x64xf32>) -> tensor<64x12x197x64xf32>
  %pv66 = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, l) -> (b, h, m, l)>, affine_map<(b, h, m, n, l) -> (b, h, l, n)>, affine_map<(b, h, m, n, l) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%cvt60, %cvt12 : tensor<64x12x197x197xf32>, tensor<64x12x197x64xf32>) outs(%f65 : tensor<64x12x197x64xf32>) {
  ^bb0(%in67: f32, %in68: f32, %out69: f32):
    %v70 = arith.mulf %in67, %in68 : f32
    %v71 = arith.addf %out69, %v70 : f32
    linalg.yield %v71 : f32
  } -> tensor<64x12x197x64xf32>
  // result rounded by a conversion generic
  %e72 = tensor.empty() : tensor<64x12x197x64xf16>
  %cvt73 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%pv66 : tensor<64x12x197x64xf32>) outs(%e72 : tensor<64x12x197x64xf16>) {
  ^bb0(%in74: f32, %out75: f16):
    %t76 = arith.truncf %in74 : f32 to f16
    linalg.yield %t76 : f16
  } -> tensor<64x12x197x64xf16>
  return %cvt73 : tensor<64x12x197x64xf16>
}
