// Softmax over Llama's LM-head logits (2048 rows x 32000 columns).
// Form: named ops: f16 logits extended by a linalg.map, linalg.softmax in
// f32 (decomposed upstream: max from NaN with maxnumf), rounded back by a
// linalg.map.
func.func @softmax(%x: tensor<2048x32000xf16>) -> tensor<2048x32000xf16> {
  %e = tensor.empty() : tensor<2048x32000xf32>
  %x32 = linalg.map { arith.extf } ins(%x : tensor<2048x32000xf16>) outs(%e : tensor<2048x32000xf32>)
  %ey = tensor.empty() : tensor<2048x32000xf32>
  %y = linalg.softmax dimension(1) ins(%x32 : tensor<2048x32000xf32>) outs(%ey : tensor<2048x32000xf32>) -> tensor<2048x32000xf32>
  %eh = tensor.empty() : tensor<2048x32000xf16>
  %yh = linalg.map { arith.truncf } ins(%y : tensor<2048x32000xf32>) outs(%eh : tensor<2048x32000xf16>)
  return %yh : tensor<2048x32000xf16>
}
