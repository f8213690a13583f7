// LSTM cell (batch 64, input and hidden 1024, torch gate order i f g o,
// weights as torch stores them, [4H, in]): gates = X Wx^T + H Wh^T + b,
// c' = sig(f) c + sig(i) tanh(g), h' = sig(o) tanh(c'); returns (h', c').
// Form: named ops: two linalg.matmul of f16 operands into f32 reading the
// weights transposed through indexing_maps, linalg.elementwise adds, the
// bias extended (linalg.map) and broadcast (linalg.broadcast), the gates
// sliced, sigmoid as linalg.map, tanh and the products as
// linalg.elementwise, the results rounded by linalg.map.
func.func @lstm_cell(%x: tensor<64x1024xf16>, %wx: tensor<4096x1024xf16>, %h: tensor<64x1024xf16>, %wh: tensor<4096x1024xf16>, %bias: tensor<4096xf16>, %c: tensor<64x1024xf16>) -> (tensor<64x1024xf16>, tensor<64x1024xf16>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %eg = tensor.empty() : tensor<64x4096xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%eg : tensor<64x4096xf32>) -> tensor<64x4096xf32>
  %xw = linalg.matmul
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %wx : tensor<64x1024xf16>, tensor<4096x1024xf16>) outs(%z1 : tensor<64x4096xf32>) -> tensor<64x4096xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%eg : tensor<64x4096xf32>) -> tensor<64x4096xf32>
  %hw = linalg.matmul
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%h, %wh : tensor<64x1024xf16>, tensor<4096x1024xf16>) outs(%z2 : tensor<64x4096xf32>) -> tensor<64x4096xf32>
  %sum = linalg.elementwise kind=#linalg.elementwise_kind<add> ins(%xw, %hw : tensor<64x4096xf32>, tensor<64x4096xf32>) outs(%eg : tensor<64x4096xf32>) -> tensor<64x4096xf32>
  %eb = tensor.empty() : tensor<4096xf32>
  %b32 = linalg.map { arith.extf } ins(%bias : tensor<4096xf16>) outs(%eb : tensor<4096xf32>)
  %bb = linalg.broadcast ins(%b32 : tensor<4096xf32>) outs(%eg : tensor<64x4096xf32>) dimensions = [0]
  %gates = linalg.elementwise kind=#linalg.elementwise_kind<add> ins(%sum, %bb : tensor<64x4096xf32>, tensor<64x4096xf32>) outs(%eg : tensor<64x4096xf32>) -> tensor<64x4096xf32>
  %i_pre = tensor.extract_slice %gates[0, 0] [64, 1024] [1, 1] : tensor<64x4096xf32> to tensor<64x1024xf32>
  %f_pre = tensor.extract_slice %gates[0, 1024] [64, 1024] [1, 1] : tensor<64x4096xf32> to tensor<64x1024xf32>
  %g_pre = tensor.extract_slice %gates[0, 2048] [64, 1024] [1, 1] : tensor<64x4096xf32> to tensor<64x1024xf32>
  %o_pre = tensor.extract_slice %gates[0, 3072] [64, 1024] [1, 1] : tensor<64x4096xf32> to tensor<64x1024xf32>
  %e = tensor.empty() : tensor<64x1024xf32>
  %i = linalg.map ins(%i_pre : tensor<64x1024xf32>) outs(%e : tensor<64x1024xf32>)
    (%a: f32, %o: f32) {
      %n = arith.negf %a : f32
      %ex = math.exp %n : f32
      %d = arith.addf %ex, %one : f32
      %r = arith.divf %one, %d : f32
      linalg.yield %r : f32
    }
  %f = linalg.map ins(%f_pre : tensor<64x1024xf32>) outs(%e : tensor<64x1024xf32>)
    (%a: f32, %o: f32) {
      %n = arith.negf %a : f32
      %ex = math.exp %n : f32
      %d = arith.addf %ex, %one : f32
      %r = arith.divf %one, %d : f32
      linalg.yield %r : f32
    }
  %o = linalg.map ins(%o_pre : tensor<64x1024xf32>) outs(%e : tensor<64x1024xf32>)
    (%a: f32, %oo: f32) {
      %n = arith.negf %a : f32
      %ex = math.exp %n : f32
      %d = arith.addf %ex, %one : f32
      %r = arith.divf %one, %d : f32
      linalg.yield %r : f32
    }
  %g = linalg.elementwise kind=#linalg.elementwise_kind<tanh> ins(%g_pre : tensor<64x1024xf32>) outs(%e : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  %c32 = linalg.map { arith.extf } ins(%c : tensor<64x1024xf16>) outs(%e : tensor<64x1024xf32>)
  %fc = linalg.elementwise kind=#linalg.elementwise_kind<mul> ins(%f, %c32 : tensor<64x1024xf32>, tensor<64x1024xf32>) outs(%e : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  %ig = linalg.elementwise kind=#linalg.elementwise_kind<mul> ins(%i, %g : tensor<64x1024xf32>, tensor<64x1024xf32>) outs(%e : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  %c_new = linalg.elementwise kind=#linalg.elementwise_kind<add> ins(%fc, %ig : tensor<64x1024xf32>, tensor<64x1024xf32>) outs(%e : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  %tc = linalg.elementwise kind=#linalg.elementwise_kind<tanh> ins(%c_new : tensor<64x1024xf32>) outs(%e : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  %h_new = linalg.elementwise kind=#linalg.elementwise_kind<mul> ins(%o, %tc : tensor<64x1024xf32>, tensor<64x1024xf32>) outs(%e : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  %eh = tensor.empty() : tensor<64x1024xf16>
  %hh = linalg.map { arith.truncf } ins(%h_new : tensor<64x1024xf32>) outs(%eh : tensor<64x1024xf16>)
  %ch = linalg.map { arith.truncf } ins(%c_new : tensor<64x1024xf32>) outs(%eh : tensor<64x1024xf16>)
  return %hh, %ch : tensor<64x1024xf16>, tensor<64x1024xf16>
}
