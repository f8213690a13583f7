// A bf16 decode step (32 heads of 16 queries against 4096 keys, d128, the
// frontend form). Split into 4 parts of the keys, its partial graph runs as
// 128 row-fragment blocks of one 16-row warp, each reading K and V tiles no
// other block reads: the block gets four copies of its warp
// (row-warp-replicas, default 4). All 128 threads issue the staged K and
// V tiles' cp.async copies; every copy computes the same rows; only the
// first (warp 0) stores the results. Unsplit, the 128 blocks split the
// value head dim four ways and share each K tile: one warp (measured 0.91x
// with four). row-warp-replicas=1 keeps one warp. Measured on the H200 in
// bench/results/decode-row-replicas.md.
//
// RUN: spacefusion-opt %s '--spacefusion-lower-gpu=format=isa split=l:4' \
// RUN:   --remarks-filter=smap --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s
// RUN: spacefusion-opt %s '--spacefusion-lower-gpu=format=isa split=l:4' \
// RUN:   --mlir-print-ir-after=smap-distribute-blocks -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=IR
// RUN: spacefusion-opt %s --cse --linalg-fuse-elementwise-ops \
// RUN:   | spacefusion-opt '--spacefusion-pipeline=target=sm_90a split=l:4' \
// RUN:   --remarks-filter=smap --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s
// split-reductions=true chooses the same split (predicted 2.5x faster).
// RUN: spacefusion-opt %s '--spacefusion-lower-gpu=format=isa split-reductions=true' \
// RUN:   --remarks-filter=smap --remark-format=emitRemark -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=AUTO
// RUN: spacefusion-opt %s '--spacefusion-lower-gpu=format=isa split=l:4 row-warp-replicas=1' \
// RUN:   --remarks-filter=smap --remark-format=emitRemark -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ONE
// RUN: spacefusion-opt %s '--spacefusion-lower-gpu=format=isa' \
// RUN:   --remarks-filter=smap --remark-format=emitRemark -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SHARED
// RUN: not spacefusion-opt %s '--spacefusion-lower-gpu=format=isa row-warp-replicas=2' \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD

// AUTO: split | Category:smap:schedule | Function=attention | Remark="split dim 'l' (4096) into 4 parts run side by side and a merge: the best schedule (spatial [h=1, n=32] temporal [l=128]) runs 128 blocks on 132 SMs
// AUTO: block-kernel | Category:smap:distribute-blocks | Function=attention | Remark="lowered to one kernel: strategy=row_fragments blocks=128 threads=128
// AUTO-SAME: row_replicas=4
// CHECK: chosen | Category:smap:schedule | Function=attention | Remark="scheduled for sm_90a: spatial [b=1, m=1] temporal [l=128], strategy row_fragments, 128 blocks x 128 threads
// CHECK: block-kernel | Category:smap:distribute-blocks | Function=attention | Remark="lowered to one kernel: strategy=row_fragments blocks=128 threads=128
// CHECK-SAME: warp_rows=16 row_replicas=4

// The warp's copy number: warp 0 is the first; every warp takes rows 0-15.
// IR: gpu.launch {{.*}} threads(%[[TID:[a-z0-9]+]], {{.*}} function(@attention_0_row_fragments_128_bf16)
// IR: %[[WARP:[0-9]+]] = arith.divui %[[TID]], %{{.*}} : index
// IR: %[[FIRST:[0-9]+]] = arith.cmpi eq, %[[WARP]], %{{.*}} : index
// The staged tiles' copies are not guarded: all four warps issue them.
// IR-NOT: scf.if %[[FIRST]]
// IR: nvgpu.device_async_copy
// IR: scf.for
// IR-NOT: scf.if %[[FIRST]]
// IR: scf.yield
// The partial output leaves from the first copy only.
// IR: scf.if %[[FIRST]] {
// IR-NEXT: vector.store %{{.*}} : memref<1x1x1x16x128xf32, {{.*}}>, vector<2xf32>
// IR-NEXT: }

// ONE: block-kernel | Category:smap:distribute-blocks | Function=attention | Remark="lowered to one kernel: strategy=row_fragments blocks=128 threads=32
// ONE-NOT: row_replicas
// ONE-SAME: warp_rows=16 register_tiles

// SHARED: chosen | Category:smap:schedule | Function=attention | Remark="scheduled for sm_90a: spatial [h=1, n=32] temporal [l=128], strategy row_fragments, 128 blocks x 32 threads
// SHARED: block-kernel | Category:smap:distribute-blocks | Function=attention | Remark="lowered to one kernel: strategy=row_fragments blocks=128 threads=32
// SHARED-NOT: row_replicas

// BAD: smap-schedule: row-warp-replicas=2 is neither 1 (one warp) nor 4
func.func @attention(%q: tensor<1x32x16x128xbf16>, %k: tensor<1x32x4096x128xbf16>, %v: tensor<1x32x4096x128xbf16>) -> tensor<1x32x16x128xbf16> {
  %e1 = tensor.empty() : tensor<1x32x16x128xf32>
  %g2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%q : tensor<1x32x16x128xbf16>) outs(%e1 : tensor<1x32x16x128xf32>) {
  ^bb0(%in0: bf16, %acc: f32):
    %y = arith.extf %in0 : bf16 to f32
    linalg.yield %y : f32
  } -> tensor<1x32x16x128xf32>
  %e3 = tensor.empty() : tensor<1x32x4096x128xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%k : tensor<1x32x4096x128xbf16>) outs(%e3 : tensor<1x32x4096x128xf32>) {
  ^bb0(%in0: bf16, %acc: f32):
    %y = arith.extf %in0 : bf16 to f32
    linalg.yield %y : f32
  } -> tensor<1x32x4096x128xf32>
  %e5 = tensor.empty() : tensor<1x32x4096x128xf32>
  %g6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%v : tensor<1x32x4096x128xbf16>) outs(%e5 : tensor<1x32x4096x128xf32>) {
  ^bb0(%in0: bf16, %acc: f32):
    %y = arith.extf %in0 : bf16 to f32
    linalg.yield %y : f32
  } -> tensor<1x32x4096x128xf32>
  %c7 = arith.constant 0.000000000e+00 : f32
  %e9 = tensor.empty() : tensor<1x32x16x4096xf32>
  %f8 = linalg.fill ins(%c7 : f32) outs(%e9 : tensor<1x32x16x4096xf32>) -> tensor<1x32x16x4096xf32>
  %g10 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l, k) -> (b, h, m, k)>, affine_map<(b, h, m, l, k) -> (b, h, l, k)>, affine_map<(b, h, m, l, k) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g2, %g4 : tensor<1x32x16x128xf32>, tensor<1x32x4096x128xf32>) outs(%f8 : tensor<1x32x16x4096xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<1x32x16x4096xf32>
  %c11 = arith.constant 8.838834765e-02 : f32
  %e12 = tensor.empty() : tensor<1x32x16x4096xf32>
  %g13 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g10 : tensor<1x32x16x4096xf32>) outs(%e12 : tensor<1x32x16x4096xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.mulf %in0, %c11 : f32
    linalg.yield %y : f32
  } -> tensor<1x32x16x4096xf32>
  %c14 = arith.constant 0xFF800000 : f32
  %e16 = tensor.empty() : tensor<1x32x16xf32>
  %f15 = linalg.fill ins(%c14 : f32) outs(%e16 : tensor<1x32x16xf32>) -> tensor<1x32x16xf32>
  %g17 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g13 : tensor<1x32x16x4096xf32>) outs(%f15 : tensor<1x32x16xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.maximumf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<1x32x16xf32>
  %e18 = tensor.empty() : tensor<1x32x16x4096xf32>
  %g19 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g13, %g17 : tensor<1x32x16x4096xf32>, tensor<1x32x16xf32>) outs(%e18 : tensor<1x32x16x4096xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %d = arith.subf %in0, %in1 : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<1x32x16x4096xf32>
  %c20 = arith.constant 0.000000000e+00 : f32
  %e22 = tensor.empty() : tensor<1x32x16xf32>
  %f21 = linalg.fill ins(%c20 : f32) outs(%e22 : tensor<1x32x16xf32>) -> tensor<1x32x16xf32>
  %g23 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g19 : tensor<1x32x16x4096xf32>) outs(%f21 : tensor<1x32x16xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.addf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<1x32x16xf32>
  %e24 = tensor.empty() : tensor<1x32x16x4096xf32>
  %g25 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g19, %g23 : tensor<1x32x16x4096xf32>, tensor<1x32x16xf32>) outs(%e24 : tensor<1x32x16x4096xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %y = arith.divf %in0, %in1 : f32
    linalg.yield %y : f32
  } -> tensor<1x32x16x4096xf32>
  %c26 = arith.constant 0.000000000e+00 : f32
  %e28 = tensor.empty() : tensor<1x32x16x128xf32>
  %f27 = linalg.fill ins(%c26 : f32) outs(%e28 : tensor<1x32x16x128xf32>) -> tensor<1x32x16x128xf32>
  %g29 = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, l) -> (b, h, m, l)>, affine_map<(b, h, m, n, l) -> (b, h, l, n)>, affine_map<(b, h, m, n, l) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g25, %g6 : tensor<1x32x16x4096xf32>, tensor<1x32x4096x128xf32>) outs(%f27 : tensor<1x32x16x128xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<1x32x16x128xf32>
  %e30 = tensor.empty() : tensor<1x32x16x128xbf16>
  %g31 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g29 : tensor<1x32x16x128xf32>) outs(%e30 : tensor<1x32x16x128xbf16>) {
  ^bb0(%in0: f32, %acc: bf16):
    %y = arith.truncf %in0 : f32 to bf16
    linalg.yield %y : bf16
  } -> tensor<1x32x16x128xbf16>
  return %g31 : tensor<1x32x16x128xbf16>
}
