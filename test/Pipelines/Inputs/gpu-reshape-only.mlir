func.func @fuzz(%x: tensor<128x16xf32>) -> tensor<128x2x8xf32> {
  %r = tensor.expand_shape %x [[0], [1, 2]] output_shape [128, 2, 8] : tensor<128x16xf32> into tensor<128x2x8xf32>
  return %r : tensor<128x2x8xf32>
}
