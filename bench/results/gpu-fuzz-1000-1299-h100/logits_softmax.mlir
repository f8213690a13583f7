func.func @logits_softmax(%h: tensor<16x64xf16>, %w: tensor<64x50257xf16>) -> tensor<16x50257xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x50257xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x50257xf32>) -> tensor<16x50257xf32>
  %l = linalg.matmul ins(%h, %w : tensor<16x64xf16>, tensor<64x50257xf16>) outs(%f : tensor<16x50257xf32>) -> tensor<16x50257xf32>
  %e2 = tensor.empty() : tensor<16x50257xf32>
  %s = linalg.softmax dimension(1) ins(%l : tensor<16x50257xf32>) outs(%e2 : tensor<16x50257xf32>) -> tensor<16x50257xf32>
  return %s : tensor<16x50257xf32>
}
