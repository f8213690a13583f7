// Three chained GEMMs.
//   A : tensor<1024x256xf32>, B : tensor<256x256xf32>
//   C : tensor<256x256xf32>,  D : tensor<256x128xf32>
//   T1  = A . B    [1024, 256]
//   T2  = T1 . C   [1024, 256]
//   Out = T2 . D   [1024, 128]
func.func @gemm_chain(%a: tensor<1024x256xf32>, %b: tensor<256x256xf32>,
                      %c: tensor<256x256xf32>, %d: tensor<256x128xf32>) -> tensor<1024x128xf32> {
  %zero = arith.constant 0.000000e+00 : f32

  // T1 = A . B
  %t1_init = tensor.empty() : tensor<1024x256xf32>
  %t1_zero = linalg.fill ins(%zero : f32) outs(%t1_init : tensor<1024x256xf32>) -> tensor<1024x256xf32>
  %t1 = linalg.matmul ins(%a, %b : tensor<1024x256xf32>, tensor<256x256xf32>)
      outs(%t1_zero : tensor<1024x256xf32>) -> tensor<1024x256xf32>

  // T2 = T1 . C
  %t2_init = tensor.empty() : tensor<1024x256xf32>
  %t2_zero = linalg.fill ins(%zero : f32) outs(%t2_init : tensor<1024x256xf32>) -> tensor<1024x256xf32>
  %t2 = linalg.matmul ins(%t1, %c : tensor<1024x256xf32>, tensor<256x256xf32>)
      outs(%t2_zero : tensor<1024x256xf32>) -> tensor<1024x256xf32>

  // Out = T2 . D
  %o_init = tensor.empty() : tensor<1024x128xf32>
  %o_zero = linalg.fill ins(%zero : f32) outs(%o_init : tensor<1024x128xf32>) -> tensor<1024x128xf32>
  %out = linalg.matmul ins(%t2, %d : tensor<1024x256xf32>, tensor<256x128xf32>)
      outs(%o_zero : tensor<1024x128xf32>) -> tensor<1024x128xf32>

  return %out : tensor<1024x128xf32>
}
