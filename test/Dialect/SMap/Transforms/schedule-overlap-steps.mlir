// overlap-steps prices a temporal step's barriers as hidden under the
// memory traffic of the blocks: max(memory, compute + barriers) / wave
// utilization + waited loads, instead of adding every step's barrier to
// the slower of memory and compute. On a memory-bound decode-time
// projection (16 x 4096 x 4096, the weight as PyTorch stores it, [n, k])
// the candidates with and without many steps then tie on time, and the
// tie is broken by footprint: one-warp row-fragment blocks with k sliced
// by 128 and three cp.async stages (bench/results/overlap-steps lists
// what the option changes; its kernels are not measured yet).
//
// RUN: spacefusion-opt %s '--spacefusion-lower-gpu=overlap-steps=true candidates=2' --remarks-filter=smap \
// RUN:   --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s
// Off (the default), the steps add to the time and fewer steps win:
// RUN: spacefusion-opt %s '--spacefusion-lower-gpu=candidates=2' --remarks-filter=smap \
// RUN:   --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=ADDED
// A load a step waits for is not hidden: the given 2048-deep slice, which
// nothing loads ahead, keeps its 3 groups' latency (3.00 us over two
// steps) outside the max: 10.84 + 3.00.
// RUN: spacefusion-opt %s '--spacefusion-lower-gpu=overlap-steps=true spatial=n:32 temporal=k:2048' --remarks-filter=smap \
// RUN:   --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=WAITS
// The smap-schedule pass takes the option too, and refuses a non-boolean:
// RUN: not spacefusion-opt %s --smap-schedule=overlap-steps=sometimes -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD

// CHECK: candidate | {{.*}}Remark="#1: spatial [n=32] temporal [k=128], strategy row_fragments, 128 blocks x 32 threads,
// CHECK-SAME: 10.84 us = max(memory 10.51 / wave utilization 0.97, compute 2.41 / wave utilization 0.97 + barriers 6.40) + waited loads 0.00; ties the next on time
// CHECK: candidate | {{.*}}Remark="#2: spatial [n=32] temporal [k=512], strategy mma_sync, 128 blocks x 256 threads,
// CHECK-SAME: + barriers 1.60) + waited loads 0.00
// CHECK: chosen | {{.*}}Remark="scheduled for sm_90a: spatial [n=32] temporal [k=128], strategy row_fragments, 128 blocks x 32 threads
// CHECK: lowered to one kernel: strategy=row_fragments blocks=128 threads=32
// CHECK-SAME: cp_async=3

// ADDED: candidate | {{.*}}Remark="#1: spatial [n=32] temporal [k=1024], strategy mma_sync,
// ADDED-SAME: = max(memory 10.51, compute 2.41) / wave utilization 0.97 + steps 0.80;
// ADDED: chosen | {{.*}}Remark="scheduled for sm_90a: spatial [n=32] temporal [k=1024], strategy mma_sync

// WAITS: given | {{.*}}Remark="uses the given schedule on sm_90a: spatial [n=32] temporal [k=2048], strategy mma_sync
// WAITS-SAME: predicted 13.84 us
// WAITS-SAME: waited_copy_groups=3

// BAD: for the --overlap-steps option: 'sometimes' is invalid value for boolean argument

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
