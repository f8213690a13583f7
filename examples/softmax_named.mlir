// Softmax over the last dim as the named op linalg.softmax.
//   X : tensor<4096x1024xf32> -> Y : tensor<4096x1024xf32>, softmax along dim 1
func.func @softmax_named(%x: tensor<4096x1024xf32>) -> tensor<4096x1024xf32> {
  %init = tensor.empty() : tensor<4096x1024xf32>
  %y = linalg.softmax dimension(1)
      ins(%x : tensor<4096x1024xf32>) outs(%init : tensor<4096x1024xf32>) -> tensor<4096x1024xf32>
  return %y : tensor<4096x1024xf32>
}
