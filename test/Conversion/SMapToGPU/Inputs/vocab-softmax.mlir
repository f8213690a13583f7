// Upstream's linalg.softmax over a GPT-2 vocabulary (50257 columns, odd:
// scalar accesses) in f16: the row tiled, its last tile masked.
func.func @vocab_softmax(%x: tensor<2x50257xf16>) -> tensor<2x50257xf16> {
  %e = tensor.empty() : tensor<2x50257xf16>
  %y = linalg.softmax dimension(1) ins(%x : tensor<2x50257xf16>) outs(%e : tensor<2x50257xf16>) -> tensor<2x50257xf16>
  return %y : tensor<2x50257xf16>
}
