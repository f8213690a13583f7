// RMSNorm over Llama-2-7B's hidden dim (2048 tokens x 4096).
// Form: named ops: f16 operands extended by linalg.map,
// linalg.elementwise square, linalg.reduce, a linalg.map for
// rsqrt(mean + eps), linalg.broadcast of the row factor and of gamma,
// linalg.elementwise products, rounded back by a linalg.map.
func.func @rmsnorm(%x: tensor<2048x4096xf16>, %gamma: tensor<4096xf16>) -> tensor<2048x4096xf16> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 4096.0 : f32
  %eps = arith.constant 1.000000e-06 : f32
  %e2 = tensor.empty() : tensor<2048x4096xf32>
  %e1 = tensor.empty() : tensor<2048xf32>
  %ec = tensor.empty() : tensor<4096xf32>
  %x32 = linalg.map { arith.extf } ins(%x : tensor<2048x4096xf16>) outs(%e2 : tensor<2048x4096xf32>)
  %g32 = linalg.map { arith.extf } ins(%gamma : tensor<4096xf16>) outs(%ec : tensor<4096xf32>)
  %sq = linalg.elementwise kind=#linalg.elementwise_kind<square> ins(%x32 : tensor<2048x4096xf32>) outs(%e2 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2048xf32>) -> tensor<2048xf32>
  %sqsum = linalg.reduce { arith.addf } ins(%sq : tensor<2048x4096xf32>) outs(%z : tensor<2048xf32>) dimensions = [1]
  %r = linalg.map ins(%sqsum : tensor<2048xf32>) outs(%e1 : tensor<2048xf32>)
    (%s: f32, %o: f32) {
      %ms = arith.divf %s, %n : f32
      %me = arith.addf %ms, %eps : f32
      %rs = math.rsqrt %me : f32
      linalg.yield %rs : f32
    }
  %rb = linalg.broadcast ins(%r : tensor<2048xf32>) outs(%e2 : tensor<2048x4096xf32>) dimensions = [1]
  %xn = linalg.elementwise kind=#linalg.elementwise_kind<mul> ins(%x32, %rb : tensor<2048x4096xf32>, tensor<2048x4096xf32>) outs(%e2 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %gb = linalg.broadcast ins(%g32 : tensor<4096xf32>) outs(%e2 : tensor<2048x4096xf32>) dimensions = [0]
  %y = linalg.elementwise kind=#linalg.elementwise_kind<mul> ins(%xn, %gb : tensor<2048x4096xf32>, tensor<2048x4096xf32>) outs(%e2 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %eh = tensor.empty() : tensor<2048x4096xf16>
  %yh = linalg.map { arith.truncf } ins(%y : tensor<2048x4096xf32>) outs(%eh : tensor<2048x4096xf16>)
  return %yh : tensor<2048x4096xf16>
}
