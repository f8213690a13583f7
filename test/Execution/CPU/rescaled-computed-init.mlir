// Online softmax whose P.V contraction accumulates into a computed value (a
// bias, outs(%bias) instead of a zero fill), and the 1/sum factor postponed
// past the loop: out = bias + (exp(s - max) / sum) . v. The loop used to
// carry the state from the bias and then rescale and divide all of it,
// computing (bias + exp . v) / sum (4111 of 4112 outputs wrong on the
// fuzzer's seed 2128). The state now starts from 0 and the bias is added
// after the corrections.

// RUN: spacefusion-run %s --reps=1 --spatial=m:8 --temporal=l:16 | FileCheck %s --check-prefixes=CHECK,SLICED
// RUN: spacefusion-run %s --reps=1 --temporal=l:32 | FileCheck %s --check-prefixes=CHECK,SLICED
// RUN: spacefusion-run %s --reps=1 | FileCheck %s

// SLICED: temporally sliced
// CHECK: PASS

#ml = affine_map<(m, l) -> (m, l)>
#m = affine_map<(m, l) -> (m)>
#pv_p = affine_map<(m, n, l) -> (m, l)>
#pv_v = affine_map<(m, n, l) -> (l, n)>
#pv_o = affine_map<(m, n, l) -> (m, n)>
func.func @attention_bias(%s: tensor<32x64xf32>, %v: tensor<64x16xf32>,
                          %b: tensor<32x16xf32>) -> tensor<32x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %half = arith.constant 0.5 : f32
  %er = tensor.empty() : tensor<32xf32>
  %mf = linalg.fill ins(%ninf : f32) outs(%er : tensor<32xf32>) -> tensor<32xf32>
  %max = linalg.generic {indexing_maps = [#ml, #m], iterator_types = ["parallel", "reduction"]}
      ins(%s : tensor<32x64xf32>) outs(%mf : tensor<32xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<32xf32>
  %ee = tensor.empty() : tensor<32x64xf32>
  %exp = linalg.generic {indexing_maps = [#ml, #m, #ml], iterator_types = ["parallel", "parallel"]}
      ins(%s, %max : tensor<32x64xf32>, tensor<32xf32>) outs(%ee : tensor<32x64xf32>) {
  ^bb0(%x: f32, %mx: f32, %o: f32):
    %d = arith.subf %x, %mx : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<32x64xf32>
  %sf = linalg.fill ins(%zero : f32) outs(%er : tensor<32xf32>) -> tensor<32xf32>
  %sum = linalg.generic {indexing_maps = [#ml, #m], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<32x64xf32>) outs(%sf : tensor<32xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<32xf32>
  %p = linalg.generic {indexing_maps = [#ml, #m, #ml], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<32x64xf32>, tensor<32xf32>) outs(%ee : tensor<32x64xf32>) {
  ^bb0(%x: f32, %t: f32, %o: f32):
    %r = arith.divf %x, %t : f32
    linalg.yield %r : f32
  } -> tensor<32x64xf32>
  %eb = tensor.empty() : tensor<32x16xf32>
  %bias = linalg.generic {indexing_maps = [#ml, #ml], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<32x16xf32>) outs(%eb : tensor<32x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.mulf %x, %half : f32
    linalg.yield %r : f32
  } -> tensor<32x16xf32>
  %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<32x64xf32>, tensor<64x16xf32>) outs(%bias : tensor<32x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %a = arith.addf %acc, %m : f32
    linalg.yield %a : f32
  } -> tensor<32x16xf32>
  return %o : tensor<32x16xf32>
}
