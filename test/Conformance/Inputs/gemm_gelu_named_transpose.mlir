// BERT-base intermediate linear: GELU(X W^T + b), X 8192x768, W as
// nn.Linear stores it (3072x768, read transposed), erf GELU epilogue.
// Form: named ops with the weight transposed by a linalg.transpose (as
// torch-mlir writes aten.t before aten.mm) and a plain linalg.matmul of
// f16 operands into f32; bias, GELU and rounding as in the named form.
func.func @gemm_gelu(%x: tensor<8192x768xf16>, %w: tensor<3072x768xf16>, %bias: tensor<3072xf16>) -> tensor<8192x3072xf16> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %rsqrt2 = arith.constant 0.7071067811865476 : f32
  %ewt = tensor.empty() : tensor<768x3072xf16>
  %wt = linalg.transpose ins(%w : tensor<3072x768xf16>) outs(%ewt : tensor<768x3072xf16>) permutation = [1, 0]
  %e = tensor.empty() : tensor<8192x3072xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8192x3072xf32>) -> tensor<8192x3072xf32>
  %y = linalg.matmul ins(%x, %wt : tensor<8192x768xf16>, tensor<768x3072xf16>) outs(%z : tensor<8192x3072xf32>) -> tensor<8192x3072xf32>
  %eb = tensor.empty() : tensor<3072xf32>
  %b32 = linalg.map { arith.extf } ins(%bias : tensor<3072xf16>) outs(%eb : tensor<3072xf32>)
  %bb = linalg.broadcast ins(%b32 : tensor<3072xf32>) outs(%e : tensor<8192x3072xf32>) dimensions = [0]
  %h = linalg.elementwise kind=#linalg.elementwise_kind<add> ins(%y, %bb : tensor<8192x3072xf32>, tensor<8192x3072xf32>) outs(%e : tensor<8192x3072xf32>) -> tensor<8192x3072xf32>
  %eh = tensor.empty() : tensor<8192x3072xf16>
  %g = linalg.map ins(%h : tensor<8192x3072xf32>) outs(%eh : tensor<8192x3072xf16>)
    (%a: f32, %o: f16) {
      %t = arith.mulf %a, %rsqrt2 : f32
      %er = math.erf %t : f32
      %u = arith.addf %er, %one : f32
      %hx = arith.mulf %a, %half : f32
      %r = arith.mulf %hx, %u : f32
      %rh = arith.truncf %r : f32 to f16
      linalg.yield %rh : f16
    }
  return %g : tensor<8192x3072xf16>
}
