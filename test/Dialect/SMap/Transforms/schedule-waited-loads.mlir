// A block whose steps wait for their own tiles pays their load latency in
// every step: a decode-time projection (16 x 4096 x 4096, the weight as
// PyTorch stores it, [n, k]) in 32-column blocks with k sliced by 2048
// moves 192 KB a step, more than two cp.async stages fit beside nothing
// else and more than registers hold, so nothing loads a step ahead: each of
// the 256 threads waits for one 16-chunk group of x's tile and two of the
// weight's (`waited_copy_groups`), 0.5 us each per step
// (kGpuWaitedLoadLatency, fitted to the H100's unpipelined candidates in
// bench/results/one-wave-h100). The search used to choose that schedule
// (11.24 us predicted, no pipeline, measured 31.4 us); it now ranks it
// fourth and chooses k = 1024 with two cp.async stages.
//
// RUN: spacefusion-opt %s '--spacefusion-lower-gpu=candidates=4' --remarks-filter=smap \
// RUN:   --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s
// waited-loads=false prices the steps' barriers only, as the model did:
// RUN: spacefusion-opt %s '--spacefusion-lower-gpu=waited-loads=false' --remarks-filter=smap \
// RUN:   --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNPRICED
// A value that is not a boolean is refused:
// RUN: not spacefusion-opt %s '--spacefusion-lower-gpu=waited-loads=maybe' -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD
// RUN: spacefusion-opt %s '--spacefusion-lower-gpu=spatial=n:32 temporal=k:2048' --remarks-filter=smap \
// RUN:   --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=WAITS
// RUN: spacefusion-opt %s '--spacefusion-lower-gpu=spatial=n:32 temporal=k:1024' --remarks-filter=smap \
// RUN:   --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=STAGED

// CHECK: candidate | {{.*}}Remark="#1: spatial [n=32] temporal [k=1024], strategy mma_sync, 128 blocks x 256 threads,
// CHECK-SAME: + steps 0.80;
// CHECK-NOT: waited_copy_groups
// CHECK: candidate | {{.*}}Remark="#4: spatial [n=32] temporal [k=2048], strategy mma_sync, 128 blocks x 256 threads,
// CHECK-SAME: + steps 3.40;
// CHECK-SAME: waited_copy_groups=3
// CHECK: chosen | {{.*}}Remark="scheduled for sm_90a: spatial [n=32] temporal [k=1024], strategy mma_sync

// UNPRICED: chosen | {{.*}}Remark="scheduled for sm_90a: spatial [n=32] temporal [k=2048], strategy mma_sync, 128 blocks x 256 threads, 199424 B shared memory, 34 registers/thread; predicted 11.24 us

// BAD: for the --waited-loads option: 'maybe' is invalid value for boolean argument

// WAITS: given | {{.*}}Remark="uses the given schedule on sm_90a: spatial [n=32] temporal [k=2048], strategy mma_sync, 128 blocks x 256 threads, 199424 B shared memory
// WAITS-SAME: waited_copy_groups=3
// STAGED: given | {{.*}}Remark="uses the given schedule on sm_90a: spatial [n=32] temporal [k=1024], strategy mma_sync, 128 blocks x 256 threads, 200192 B shared memory
// STAGED-NOT: waited_copy_groups

func.func @linear(%x: tensor<16x4096xbf16>, %w: tensor<4096x4096xbf16>) -> tensor<16x4096xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x4096xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x4096xf32>) -> tensor<16x4096xf32>
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<16x4096xbf16>, tensor<4096x4096xbf16>) outs(%f : tensor<16x4096xf32>) -> tensor<16x4096xf32>
  %er = tensor.empty() : tensor<16x4096xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<16x4096xf32>) outs(%er : tensor<16x4096xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<16x4096xbf16>
  return %r : tensor<16x4096xbf16>
}
