// Transformer MLP (768 -> 3072 -> 768, 8192 tokens): two GEMMs with a
// tanh-GELU between them, weights stored [k, n] as StableHLO's dot reads them.
// Form: named ops: linalg.matmul of f16 operands into f32, biases extended
// by linalg.map and broadcast by linalg.broadcast, added by
// linalg.elementwise, the GELU and its rounding to f16 in a linalg.map,
// the output rounded by a linalg.map.
func.func @mlp(%x: tensor<8192x768xf16>, %w1: tensor<768x3072xf16>, %b1: tensor<3072xf16>, %w2: tensor<3072x768xf16>, %b2: tensor<768xf16>) -> tensor<8192x768xf16> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %k0 = arith.constant 0.7978845608028654 : f32
  %k1 = arith.constant 0.044715 : f32
  %eh1 = tensor.empty() : tensor<8192x3072xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%eh1 : tensor<8192x3072xf32>) -> tensor<8192x3072xf32>
  %up = linalg.matmul ins(%x, %w1 : tensor<8192x768xf16>, tensor<768x3072xf16>) outs(%z1 : tensor<8192x3072xf32>) -> tensor<8192x3072xf32>
  %eb1 = tensor.empty() : tensor<3072xf32>
  %b1f = linalg.map { arith.extf } ins(%b1 : tensor<3072xf16>) outs(%eb1 : tensor<3072xf32>)
  %b1b = linalg.broadcast ins(%b1f : tensor<3072xf32>) outs(%eh1 : tensor<8192x3072xf32>) dimensions = [0]
  %h = linalg.elementwise kind=#linalg.elementwise_kind<add> ins(%up, %b1b : tensor<8192x3072xf32>, tensor<8192x3072xf32>) outs(%eh1 : tensor<8192x3072xf32>) -> tensor<8192x3072xf32>
  %eg = tensor.empty() : tensor<8192x3072xf16>
  %g = linalg.map ins(%h : tensor<8192x3072xf32>) outs(%eg : tensor<8192x3072xf16>)
    (%a: f32, %o: f16) {
      %x2 = arith.mulf %a, %a : f32
      %x3 = arith.mulf %x2, %a : f32
      %t0 = arith.mulf %x3, %k1 : f32
      %t1 = arith.addf %a, %t0 : f32
      %t2 = arith.mulf %t1, %k0 : f32
      %th = math.tanh %t2 : f32
      %t3 = arith.addf %th, %one : f32
      %t4 = arith.mulf %a, %half : f32
      %r = arith.mulf %t4, %t3 : f32
      %rh = arith.truncf %r : f32 to f16
      linalg.yield %rh : f16
    }
  %eo = tensor.empty() : tensor<8192x768xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%eo : tensor<8192x768xf32>) -> tensor<8192x768xf32>
  %down = linalg.matmul ins(%g, %w2 : tensor<8192x3072xf16>, tensor<3072x768xf16>) outs(%z2 : tensor<8192x768xf32>) -> tensor<8192x768xf32>
  %eb2 = tensor.empty() : tensor<768xf32>
  %b2f = linalg.map { arith.extf } ins(%b2 : tensor<768xf16>) outs(%eb2 : tensor<768xf32>)
  %b2b = linalg.broadcast ins(%b2f : tensor<768xf32>) outs(%eo : tensor<8192x768xf32>) dimensions = [0]
  %out = linalg.elementwise kind=#linalg.elementwise_kind<add> ins(%down, %b2b : tensor<8192x768xf32>, tensor<8192x768xf32>) outs(%eo : tensor<8192x768xf32>) -> tensor<8192x768xf32>
  %eoh = tensor.empty() : tensor<8192x768xf16>
  %outh = linalg.map { arith.truncf } ins(%out : tensor<8192x768xf32>) outs(%eoh : tensor<8192x768xf16>)
  return %outh : tensor<8192x768xf16>
}
