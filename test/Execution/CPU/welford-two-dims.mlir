// LayerNorm over two dims (a 16x16 plane per row, as torch.nn.LayerNorm
// with a 2-D normalized shape writes it), sliced temporally along one of
// them. The Chan/Welford update needs the number of elements the old state
// holds: the offset along the sliced dim times the extent of the other
// reduced dim. It used the offset alone (17200 of 25600 outputs wrong on
// the fuzzer's seed 2043).

// RUN: spacefusion-run %s --reps=1 --temporal=n:4 | FileCheck %s --check-prefixes=CHECK,SLICED
// RUN: spacefusion-run %s --reps=1 --temporal=m:2 --spatial=b:4 | FileCheck %s --check-prefixes=CHECK,SLICED
// RUN: spacefusion-run %s --reps=1 | FileCheck %s

// SLICED: temporally sliced
// CHECK: PASS

#x = affine_map<(b, m, n) -> (b, m, n)>
#r = affine_map<(b, m, n) -> (b)>
#b1 = affine_map<(b) -> (b)>
func.func @layernorm_2d(%x: tensor<32x16x16xf32>) -> tensor<32x16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %inv = arith.constant 3.906250e-03 : f32
  %eps = arith.constant 1.0e-05 : f32
  %er = tensor.empty() : tensor<32xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%er : tensor<32xf32>) -> tensor<32xf32>
  %sum = linalg.generic {indexing_maps = [#x, #r], iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%x : tensor<32x16x16xf32>) outs(%f0 : tensor<32xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %a = arith.addf %v, %acc : f32
    linalg.yield %a : f32
  } -> tensor<32xf32>
  %mean = linalg.generic {indexing_maps = [#b1, #b1], iterator_types = ["parallel"]}
      ins(%sum : tensor<32xf32>) outs(%er : tensor<32xf32>) {
  ^bb0(%v: f32, %o: f32):
    %a = arith.mulf %v, %inv : f32
    linalg.yield %a : f32
  } -> tensor<32xf32>
  %ex = tensor.empty() : tensor<32x16x16xf32>
  %d = linalg.generic {indexing_maps = [#x, #r, #x], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %mean : tensor<32x16x16xf32>, tensor<32xf32>) outs(%ex : tensor<32x16x16xf32>) {
  ^bb0(%v: f32, %mu: f32, %o: f32):
    %a = arith.subf %v, %mu : f32
    linalg.yield %a : f32
  } -> tensor<32x16x16xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%er : tensor<32xf32>) -> tensor<32xf32>
  %sq = linalg.generic {indexing_maps = [#x, #r], iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%d : tensor<32x16x16xf32>) outs(%f1 : tensor<32xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.mulf %v, %v : f32
    %a = arith.addf %s, %acc : f32
    linalg.yield %a : f32
  } -> tensor<32xf32>
  %rstd = linalg.generic {indexing_maps = [#b1, #b1], iterator_types = ["parallel"]}
      ins(%sq : tensor<32xf32>) outs(%er : tensor<32xf32>) {
  ^bb0(%v: f32, %o: f32):
    %a = arith.mulf %v, %inv : f32
    %e = arith.addf %a, %eps : f32
    %r = math.rsqrt %e : f32
    linalg.yield %r : f32
  } -> tensor<32xf32>
  %y = linalg.generic {indexing_maps = [#x, #r, #x], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%d, %rstd : tensor<32x16x16xf32>, tensor<32xf32>) outs(%ex : tensor<32x16x16xf32>) {
  ^bb0(%v: f32, %r: f32, %o: f32):
    %a = arith.mulf %v, %r : f32
    linalg.yield %a : f32
  } -> tensor<32x16x16xf32>
  return %y : tensor<32x16x16xf32>
}
