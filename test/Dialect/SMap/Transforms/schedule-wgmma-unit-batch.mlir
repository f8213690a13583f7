// RUN: spacefusion-opt --smap-form-graphs --smap-fuse-conversions --smap-set-target --smap-analyze --smap-schedule %s \
// RUN:   --remarks-filter=smap --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s

// A batched f16 GEMM with a batch of one (torch.bmm of one matrix, what a
// 3-D linear of batch 1 becomes). The analysis folds the unit batch loop
// away, so the space has one dim fewer than the op has loops; the wgmma
// check indexed the space's dims by loop position (reading past their end:
// a crash, GPU fuzz seed 1360, or another dim's extent). It maps loops to
// dims now, a unit loop to none: the GEMM is a wgmma_tma one.

// CHECK-LABEL: remark: [Passed] chosen
// CHECK-SAME:    spatial [m=128, n=128] temporal [k=64], strategy wgmma_tma, 256 blocks x 128 threads

#a = affine_map<(b, m, k, n) -> (b, m, k)>
#b = affine_map<(b, m, k, n) -> (b, k, n)>
#c = affine_map<(b, m, k, n) -> (b, m, n)>
func.func @batch_of_one(%x: tensor<1x2048x1024xf16>, %w: tensor<1x1024x2048xf16>) -> tensor<1x2048x2048xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2048x2048xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2048x2048xf32>) -> tensor<1x2048x2048xf32>
  %r = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction", "parallel"]}
      ins(%x, %w : tensor<1x2048x1024xf16>, tensor<1x1024x2048xf16>) outs(%f : tensor<1x2048x2048xf32>) {
  ^bb0(%p: f16, %q: f16, %acc: f32):
    %pe = arith.extf %p : f16 to f32
    %qe = arith.extf %q : f16 to f32
    %m = arith.mulf %pe, %qe : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x2048x2048xf32>
  return %r : tensor<1x2048x2048xf32>
}
