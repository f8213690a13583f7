// Attention as ViT-B runs it (b64 h12 s197 d64), no mask:
// O = softmax(Q K^T / sqrt(64)) V, softmax over the keys.
// Form: mixed precision: bf16 storage, f32 math, arith.extf / arith.truncf
// inside the bodies.
func.func @vit_attention(%q: tensor<64x12x197x64xbf16>, %k: tensor<64x12x197x64xbf16>, %v: tensor<64x12x197x64xbf16>) -> tensor<64x12x197x64xbf16> {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.125 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e1 = tensor.empty() : tensor<64x12x197x197xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64x12x197x197xf32>) -> tensor<64x12x197x197xf32>
  %qk3 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l, k) -> (b, h, m, k)>, affine_map<(b, h, m, l, k) -> (b, h, l, k)>, affine_map<(b, h, m, l, k) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<64x12x197x64xbf16>, tensor<64x12x197x64xbf16>) outs(%f2 : tensor<64x12x197x197xf32>) {
  ^bb0(%in4: bf16, %in5: bf16, %out6: f32):
    %x7 = arith.extf %in4 : bf16 to f32
    %x8 = arith.extf %in5 : bf16 to f32
    %v9 = arith.mulf %x7, %x8 : f32
    %v10 = arith.addf %out6, %v9 : f32
    linalg.yield %v10 : f32
  } -> tensor<64x12x197x197xf32>
  %e11 = tensor.empty() : tensor<64x12x197x197xf32>
  %scaled12 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%qk3 : tensor<64x12x197x197xf32>) outs(%e11 : tensor<64x12x197x197xf32>) {
  ^bb0(%in13: f32, %out14: f32):
    %v15 = arith.mulf %in13, %scale : f32
    linalg.yield %v15 : f32
  } -> tensor<64x12x197x197xf32>
  %e16 = tensor.empty() : tensor<64x12x197xf32>
  %f17 = linalg.fill ins(%ninf : f32) outs(%e16 : tensor<64x12x197xf32>) -> tensor<64x12x197xf32>
  %max18 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%scaled12 : tensor<64x12x197x197xf32>) outs(%f17 : tensor<64x12x197xf32>) {
  ^bb0(%in19: f32, %out20: f32):
    %v21 = arith.maximumf %in19, %out20 : f32
    linalg.yield %v21 : f32
  } -> tensor<64x12x197xf32>
  %e22 = tensor.empty() : tensor<64x12x197x197xf32>
  %exp23 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%scaled12, %max18 : tensor<64x12x197x197xf32>, tensor<64x12x197xf32>) outs(%e22 : tensor<64x12x197x197xf32>) {
  ^bb0(%in24: f32, %in25: f32, %out26: f32):
    %v27 = arith.subf %in24, %in25 : f32
    %v28 = math.exp %v27 : f32
    linalg.yield %v28 : f32
  } -> tensor<64x12x197x197xf32>
  %e29 = tensor.empty() : tensor<64x12x197xf32>
  %f30 = linalg.fill ins(%zero : f32) outs(%e29 : tensor<64x12x197xf32>) -> tensor<64x12x197xf32>
  %sum31 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%exp23 : tensor<64x12x197x197xf32>) outs(%f30 : tensor<64x12x197xf32>) {
  ^bb0(%in32: f32, %out33: f32):
    %v34 = arith.addf %in32, %out33 : f32
    linalg.yield %v34 : f32
  } -> tensor<64x12x197xf32>
  // probabilities (rounded to bf16 before P.V)
  %e35 = tensor.empty() : tensor<64x12x197x197xbf16>
  %p36 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%exp23, %sum31 : tensor<64x12x197x197xf32>, tensor<64x12x197xf32>) outs(%e35 : tensor<64x12x197x197xbf16>) {
  ^bb0(%in37: f32, %in38: f32, %out39: bf16):
    %v40 = arith.divf %in37, %in38 : f32
    %t41 = arith.truncf %v40 : f32 to bf16
    linalg.yield %t41 : bf16
  } -> tensor<64x12x197x197xbf16>
  %e42 = tensor.empty() : tensor<64x12x197x64xf32>
  %f43 = linalg.fill ins(%zero : f32) outs(%e42 : tensor<64x12x197x64xf32>) -> tensor<64x12x197x64xf32>
  %pv44 = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, l) -> (b, h, m, l)>, affine_map<(b, h, m, n, l) -> (b, h, l, n)>, affine_map<(b, h, m, n, l) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p36, %v : tensor<64x12x197x197xbf16>, tensor<64x12x197x64xbf16>) outs(%f43 : tensor<64x12x197x64xf32>) {
  ^bb0(%in45: bf16, %in46: bf16, %out47: f32):
    %x48 = arith.extf %in45 : bf16 to f32
    %x49 = arith.extf %in46 : bf16 to f32
    %v50 = arith.mulf %x48, %x49 : f32
    %v51 = arith.addf %out47, %v50 : f32
    linalg.yield %v51 : f32
  } -> tensor<64x12x197x64xf32>
  %e52 = tensor.empty() : tensor<64x12x197x64xbf16>
  %cvt53 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%pv44 : tensor<64x12x197x64xf32>) outs(%e52 : tensor<64x12x197x64xbf16>) {
  ^bb0(%in54: f32, %out55: bf16):
    %t56 = arith.truncf %in54 : f32 to bf16
    linalg.yield %t56 : bf16
  } -> tensor<64x12x197x64xbf16>
  return %cvt53 : tensor<64x12x197x64xbf16>
}
