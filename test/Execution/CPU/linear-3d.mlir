// A linear layer on 3-D f16 input with a bias, as torch-mlir writes it
// (transposed weight as a copy generic, collapse, 2-D matmul into f32,
// bias and rounding, expand): the relayouts fold into one contraction over
// (b, s, n, k) (smap-fold-contraction-relayouts), which is sliced along b, s
// and n and checked against the f64 reference.

// RUN: spacefusion-run %s --reps=1 --spatial=b:1,m:32,n:32 | FileCheck %s
// CHECK: @linear on cpu, 1 fusion graph(s)
// CHECK: graph 0: #smap.schedule<spatial = [b = 1, m = 32, n = 32]
// CHECK: out of tolerance: #0 0 of 16384: PASS

#t = affine_map<(d0, d1) -> (d1, d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>
func.func @linear(%x: tensor<2x128x256xf16>, %w: tensor<64x256xf16>, %b: tensor<64xf32>) -> tensor<2x128x64xf16> {
  %e = tensor.empty() : tensor<256x64xf16>
  %wt = linalg.generic {indexing_maps = [#t, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<64x256xf16>) outs(%e : tensor<256x64xf16>) {
  ^bb0(%in: f16, %out: f16):
    linalg.yield %in : f16
  } -> tensor<256x64xf16>
  %x2 = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x128x256xf16> into tensor<256x256xf16>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<256x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e2 : tensor<256x64xf32>) -> tensor<256x64xf32>
  %y2 = linalg.matmul ins(%x2, %wt : tensor<256x256xf16>, tensor<256x64xf16>) outs(%f : tensor<256x64xf32>) -> tensor<256x64xf32>
  %eh = tensor.empty() : tensor<256x64xf16>
  %r = linalg.generic {indexing_maps = [#id2, #bias, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%y2, %b : tensor<256x64xf32>, tensor<64xf32>) outs(%eh : tensor<256x64xf16>) {
  ^bb0(%a: f32, %c: f32, %o: f16):
    %s = arith.addf %a, %c : f32
    %h = arith.truncf %s : f32 to f16
    linalg.yield %h : f16
  } -> tensor<256x64xf16>
  %y = tensor.expand_shape %r [[0, 1], [2]] output_shape [2, 128, 64] : tensor<256x64xf16> into tensor<2x128x64xf16>
  return %y : tensor<2x128x64xf16>
}
