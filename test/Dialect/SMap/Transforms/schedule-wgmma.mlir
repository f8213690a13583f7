// RUN: spacefusion-opt --smap-form-graphs --smap-fuse-conversions --smap-set-target --smap-analyze --smap-schedule %s \
// RUN:   --remarks-filter=smap --remark-format=emitRemark 2>&1 | FileCheck %s
// RUN: spacefusion-opt --smap-form-graphs --smap-fuse-conversions --smap-set-target=target=sm_80 --smap-analyze \
// RUN:   --smap-schedule %s | FileCheck %s --check-prefix=SM80

// An f16 GEMM (2048x1024x512) on sm_90a: tiles wgmma takes (128x128 with k
// sliced by 64) are costed at the f16 peak with the wgmma block's footprint
// (1 KiB of alignment + max(S TMA stages of 32 KiB, the 64 KiB accumulator
// tile), S = 3 for the 128 blocks, which fill one wave either way and take
// the deeper pipeline; 32 + 128 registers per thread for one warpgroup's
// accumulators);
// the runner-up (k by 128, mma.sync) at the target's mma_sync_gflops. On
// sm_80 the GEMM runs on mma.sync: a lone GEMM has nothing to keep in
// registers between ops, so the row-fragment strategy does not apply
// (RowFragments.cpp would refuse it), and shared memory holds the padded
// operand tiles in two cp.async stages and the accumulator tile.

// CHECK:       Remark="scheduled for sm_90a: spatial [m=128, n=128] temporal [k=64], strategy wgmma_tma, 128 blocks x 128 threads, 99328 B shared memory, 160 registers/thread; predicted 9.71 us ({{.*}}); runner-up spatial [m=128, n=128] temporal [k=128], predicted 10.79 us
// CHECK:       schedule = #smap.schedule<spatial = [m = 128, n = 128], temporal = [k = 64], grid = [16, 8], threads = 128, smem = 99328, regs = 160, strategy = wgmma_tma, stages = 3>
// SM80:        schedule = #smap.schedule<spatial = [m = 128, n = 128], temporal = [k = 64], grid = [16, 8], threads = 256, smem = 137216, regs = 96, strategy = mma_sync, stages = 2>
func.func @gemm(%a: tensor<2048x512xf16>, %b: tensor<512x1024xf16>) -> tensor<2048x1024xf16> {
  %e1 = tensor.empty() : tensor<2048x512xf32>
  %g2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<2048x512xf16>) outs(%e1 : tensor<2048x512xf32>) {
  ^bb0(%in0: f16, %acc: f32):
    %y = arith.extf %in0 : f16 to f32
    linalg.yield %y : f32
  } -> tensor<2048x512xf32>
  %e3 = tensor.empty() : tensor<512x1024xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<512x1024xf16>) outs(%e3 : tensor<512x1024xf32>) {
  ^bb0(%in0: f16, %acc: f32):
    %y = arith.extf %in0 : f16 to f32
    linalg.yield %y : f32
  } -> tensor<512x1024xf32>
  %c5 = arith.constant 0.000000000e+00 : f32
  %e7 = tensor.empty() : tensor<2048x1024xf32>
  %f6 = linalg.fill ins(%c5 : f32) outs(%e7 : tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
  %g8 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%g2, %g4 : tensor<2048x512xf32>, tensor<512x1024xf32>) outs(%f6 : tensor<2048x1024xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<2048x1024xf32>
  %e9 = tensor.empty() : tensor<2048x1024xf16>
  %g10 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%g8 : tensor<2048x1024xf32>) outs(%e9 : tensor<2048x1024xf16>) {
  ^bb0(%in0: f32, %acc: f16):
    %y = arith.truncf %in0 : f32 to f16
    linalg.yield %y : f16
  } -> tensor<2048x1024xf16>
  return %g10 : tensor<2048x1024xf16>
}
