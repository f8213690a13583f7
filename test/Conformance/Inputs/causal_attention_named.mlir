// Causal attention as Llama-2-7B prefill runs it (b1 h32 s2048 d128):
// scores of keys after the query (l > m, from linalg.index) replaced by -inf.
// Form: named ops: the heads folded into the batch, linalg.batch_matmul
// reading K as stored (transposed B through its indexing_maps), f16
// operands into f32, the mask and scale in one linalg.generic (no named op
// reads indices), linalg.softmax, P rounded to f16 by a linalg.map, the
// result expanded back.
func.func @causal_attention(%q: tensor<1x32x2048x128xf16>, %k: tensor<1x32x2048x128xf16>, %v: tensor<1x32x2048x128xf16>) -> tensor<1x32x2048x128xf16> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.08838834764831843 : f32
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x32x2048x128xf16> into tensor<32x2048x128xf16>
  %k3 = tensor.collapse_shape %k [[0, 1], [2], [3]] : tensor<1x32x2048x128xf16> into tensor<32x2048x128xf16>
  %v3 = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x32x2048x128xf16> into tensor<32x2048x128xf16>
  %es = tensor.empty() : tensor<32x2048x2048xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<32x2048x2048xf32>) -> tensor<32x2048x2048xf32>
  %s = linalg.batch_matmul
      indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q3, %k3 : tensor<32x2048x128xf16>, tensor<32x2048x128xf16>) outs(%zs : tensor<32x2048x2048xf32>) -> tensor<32x2048x2048xf32>
  %masked = linalg.generic {indexing_maps = [affine_map<(b, m, l) -> (b, m, l)>, affine_map<(b, m, l) -> (b, m, l)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<32x2048x2048xf32>) outs(%es : tensor<32x2048x2048xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %keep = arith.cmpi ule, %j, %i : index
    %y = arith.mulf %x, %scale : f32
    %r = arith.select %keep, %y, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<32x2048x2048xf32>
  %ep = tensor.empty() : tensor<32x2048x2048xf32>
  %p = linalg.softmax dimension(2) ins(%masked : tensor<32x2048x2048xf32>) outs(%ep : tensor<32x2048x2048xf32>) -> tensor<32x2048x2048xf32>
  %eph = tensor.empty() : tensor<32x2048x2048xf16>
  %ph = linalg.map { arith.truncf } ins(%p : tensor<32x2048x2048xf32>) outs(%eph : tensor<32x2048x2048xf16>)
  %eo = tensor.empty() : tensor<32x2048x128xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<32x2048x128xf32>) -> tensor<32x2048x128xf32>
  %o = linalg.batch_matmul ins(%ph, %v3 : tensor<32x2048x2048xf16>, tensor<32x2048x128xf16>) outs(%zo : tensor<32x2048x128xf32>) -> tensor<32x2048x128xf32>
  %eoh = tensor.empty() : tensor<32x2048x128xf16>
  %oh = linalg.map { arith.truncf } ins(%o : tensor<32x2048x128xf32>) outs(%eoh : tensor<32x2048x128xf16>)
  %r = tensor.expand_shape %oh [[0, 1], [2], [3]] output_shape [1, 32, 2048, 128] : tensor<32x2048x128xf16> into tensor<1x32x2048x128xf16>
  return %r : tensor<1x32x2048x128xf16>
}
