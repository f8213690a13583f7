// Attention as ViT-B runs it (b64 h12 s197 d64), no mask:
// O = softmax(Q K^T / sqrt(64)) V, softmax over the keys.
// Form: named ops with the heads already folded into the batch in the
// function's signature (768 = 64 x 12, no reshapes): K^T as a
// linalg.transpose, linalg.batch_matmul of f16 operands into f32, the
// scale as a linalg.map, linalg.softmax, P rounded to f16 by a linalg.map.
func.func @vit_attention(%q: tensor<768x197x64xf16>, %k: tensor<768x197x64xf16>, %v: tensor<768x197x64xf16>) -> tensor<768x197x64xf16> {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.125 : f32
  %ekt = tensor.empty() : tensor<768x64x197xf16>
  %kt = linalg.transpose ins(%k : tensor<768x197x64xf16>) outs(%ekt : tensor<768x64x197xf16>) permutation = [0, 2, 1]
  %es = tensor.empty() : tensor<768x197x197xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<768x197x197xf32>) -> tensor<768x197x197xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<768x197x64xf16>, tensor<768x64x197xf16>) outs(%zs : tensor<768x197x197xf32>) -> tensor<768x197x197xf32>
  %ss = linalg.map ins(%s : tensor<768x197x197xf32>) outs(%es : tensor<768x197x197xf32>)
    (%x: f32, %o: f32) {
      %y = arith.mulf %x, %scale : f32
      linalg.yield %y : f32
    }
  %ep = tensor.empty() : tensor<768x197x197xf32>
  %p = linalg.softmax dimension(2) ins(%ss : tensor<768x197x197xf32>) outs(%ep : tensor<768x197x197xf32>) -> tensor<768x197x197xf32>
  %eph = tensor.empty() : tensor<768x197x197xf16>
  %ph = linalg.map { arith.truncf } ins(%p : tensor<768x197x197xf32>) outs(%eph : tensor<768x197x197xf16>)
  %eo = tensor.empty() : tensor<768x197x64xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<768x197x64xf32>) -> tensor<768x197x64xf32>
  %o = linalg.batch_matmul ins(%ph, %v : tensor<768x197x197xf16>, tensor<768x197x64xf16>) outs(%zo : tensor<768x197x64xf32>) -> tensor<768x197x64xf32>
  %eoh = tensor.empty() : tensor<768x197x64xf16>
  %oh = linalg.map { arith.truncf } ins(%o : tensor<768x197x64xf32>) outs(%eoh : tensor<768x197x64xf16>)
  return %oh : tensor<768x197x64xf16>
}
