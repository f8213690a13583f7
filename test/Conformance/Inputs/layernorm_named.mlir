// LayerNorm over BERT-base's hidden dim (8192 tokens x 768),
// decomposed as torch-mlir writes aten.native_layer_norm.
// Form: named ops, as StableHLO's primitive-op lowering writes it: f16
// operands extended by linalg.map, linalg.reduce for the sums,
// linalg.broadcast of the row statistics and of gamma / beta,
// linalg.elementwise for the arithmetic, a linalg.map for the row
// statistics' scalar math, rounded back by a linalg.map.
func.func @layernorm(%x: tensor<8192x768xf16>, %gamma: tensor<768xf16>, %beta: tensor<768xf16>) -> tensor<8192x768xf16> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 768.0 : f32
  %eps = arith.constant 1.000000e-05 : f32
  %e2 = tensor.empty() : tensor<8192x768xf32>
  %e1 = tensor.empty() : tensor<8192xf32>
  %ec = tensor.empty() : tensor<768xf32>
  %x32 = linalg.map { arith.extf } ins(%x : tensor<8192x768xf16>) outs(%e2 : tensor<8192x768xf32>)
  %g32 = linalg.map { arith.extf } ins(%gamma : tensor<768xf16>) outs(%ec : tensor<768xf32>)
  %b32 = linalg.map { arith.extf } ins(%beta : tensor<768xf16>) outs(%ec : tensor<768xf32>)
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8192xf32>) -> tensor<8192xf32>
  %sum = linalg.reduce { arith.addf } ins(%x32 : tensor<8192x768xf32>) outs(%z1 : tensor<8192xf32>) dimensions = [1]
  %mean = linalg.map ins(%sum : tensor<8192xf32>) outs(%e1 : tensor<8192xf32>)
    (%s: f32, %o: f32) {
      %m = arith.divf %s, %n : f32
      linalg.yield %m : f32
    }
  %meanb = linalg.broadcast ins(%mean : tensor<8192xf32>) outs(%e2 : tensor<8192x768xf32>) dimensions = [1]
  %d = linalg.elementwise kind=#linalg.elementwise_kind<sub> ins(%x32, %meanb : tensor<8192x768xf32>, tensor<8192x768xf32>) outs(%e2 : tensor<8192x768xf32>) -> tensor<8192x768xf32>
  %sq = linalg.elementwise kind=#linalg.elementwise_kind<mul> ins(%d, %d : tensor<8192x768xf32>, tensor<8192x768xf32>) outs(%e2 : tensor<8192x768xf32>) -> tensor<8192x768xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8192xf32>) -> tensor<8192xf32>
  %sqsum = linalg.reduce { arith.addf } ins(%sq : tensor<8192x768xf32>) outs(%z2 : tensor<8192xf32>) dimensions = [1]
  %rstd = linalg.map ins(%sqsum : tensor<8192xf32>) outs(%e1 : tensor<8192xf32>)
    (%s: f32, %o: f32) {
      %var = arith.divf %s, %n : f32
      %ve = arith.addf %var, %eps : f32
      %r = math.rsqrt %ve : f32
      linalg.yield %r : f32
    }
  %rstdb = linalg.broadcast ins(%rstd : tensor<8192xf32>) outs(%e2 : tensor<8192x768xf32>) dimensions = [1]
  %nrm = linalg.elementwise kind=#linalg.elementwise_kind<mul> ins(%d, %rstdb : tensor<8192x768xf32>, tensor<8192x768xf32>) outs(%e2 : tensor<8192x768xf32>) -> tensor<8192x768xf32>
  %gb = linalg.broadcast ins(%g32 : tensor<768xf32>) outs(%e2 : tensor<8192x768xf32>) dimensions = [0]
  %sc = linalg.elementwise kind=#linalg.elementwise_kind<mul> ins(%nrm, %gb : tensor<8192x768xf32>, tensor<8192x768xf32>) outs(%e2 : tensor<8192x768xf32>) -> tensor<8192x768xf32>
  %bb = linalg.broadcast ins(%b32 : tensor<768xf32>) outs(%e2 : tensor<8192x768xf32>) dimensions = [0]
  %y = linalg.elementwise kind=#linalg.elementwise_kind<add> ins(%sc, %bb : tensor<8192x768xf32>, tensor<8192x768xf32>) outs(%e2 : tensor<8192x768xf32>) -> tensor<8192x768xf32>
  %eh = tensor.empty() : tensor<8192x768xf16>
  %yh = linalg.map { arith.truncf } ins(%y : tensor<8192x768xf32>) outs(%eh : tensor<8192x768xf16>)
  return %yh : tensor<8192x768xf16>
}
