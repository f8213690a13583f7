// RMSNorm followed by a GEMM, with rsqrt(sum / n + eps) computed in the same
// generic that multiplies X (as linalg-fuse-elementwise-ops leaves it). The
// factor is postponed past the temporal loop and recomputed from its
// operands; its scalar constants live outside the generic, and the slicer
// used to leave the postponed factor reading the erased generic's body
// (use-after-free: SIGSEGV or garbage whenever the hidden dim was sliced).

// RUN: spacefusion-run %s | FileCheck %s
// RUN: spacefusion-run %s --spatial=m:16 --temporal=l:32 | FileCheck %s --check-prefixes=CHECK,SLICED
// RUN: spacefusion-run %s --spatial=m:16,n:16 --temporal=l:16 | FileCheck %s --check-prefixes=CHECK,SLICED
// RUN: spacefusion-opt %s --spacefusion-pipeline="target=sm_90a" -o /dev/null

// SLICED: temporally sliced
// CHECK: PASS

#rc  = affine_map<(r, c) -> (r, c)>
#row = affine_map<(r, c) -> (r)>
#col = affine_map<(r, c) -> (c)>
func.func @rmsnorm_gemm(%x: tensor<64x128xf32>, %gamma: tensor<128xf32>,
                        %w: tensor<128x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 1.280000e+02 : f32
  %eps = arith.constant 9.99999997E-7 : f32
  %e1 = tensor.empty() : tensor<64xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
  %sqsum = linalg.generic {indexing_maps = [#rc, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x128xf32>) outs(%f1 : tensor<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %sq = arith.mulf %in, %in : f32
    %a = arith.addf %sq, %acc : f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  %e2 = tensor.empty() : tensor<64x128xf32>
  %normed = linalg.generic {indexing_maps = [#rc, #row, #col, #rc], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sqsum, %gamma : tensor<64x128xf32>, tensor<64xf32>, tensor<128xf32>) outs(%e2 : tensor<64x128xf32>) {
  ^bb0(%in: f32, %s: f32, %g: f32, %out: f32):
    %ms = arith.divf %s, %n : f32
    %a = arith.addf %ms, %eps : f32
    %r = math.rsqrt %a : f32
    %t = arith.mulf %in, %r : f32
    %u = arith.mulf %t, %g : f32
    linalg.yield %u : f32
  } -> tensor<64x128xf32>
  %e3 = tensor.empty() : tensor<64x64xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %out = linalg.matmul ins(%normed, %w : tensor<64x128xf32>, tensor<128x64xf32>)
      outs(%f3 : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %out : tensor<64x64xf32>
}
