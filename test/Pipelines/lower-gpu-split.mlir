// A bf16 decode step (32 heads of 16 queries against 4096 keys, d128, the
// frontend form) split into 8 parts of 512 keys (split-KV): the partial
// graph's 256 blocks stage K and V from expand_shape views of the
// arguments, which keep the arguments' 16-byte alignment, so their tiles
// arrive by 16-byte cp.async copies in a three-stage pipeline; the merge is
// a kernel of its own. The partial graph runs as row fragments: its
// per-part max and sum (graph outputs) get block buffers of their own
// (privatizeRunningOutputs), so the loop carries them in registers and
// stores them once after it. Timed on the H200 in
// bench/results/decode-row-fragments.md.
//
// RUN: spacefusion-opt %s '--spacefusion-lower-gpu=format=isa split=l:8' \
// RUN:   --remarks-filter=smap --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s
// RUN: spacefusion-opt %s '--spacefusion-lower-gpu=format=isa split=l:8' \
// RUN:   --mlir-print-ir-after=smap-distribute-blocks -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STATE
// Tiles given with a split tile the partial graph (they replaced the split
// silently before); the merge graph is still searched.
// RUN: spacefusion-opt %s '--spacefusion-lower-gpu=one-wave=0 format=isa split=l:8 spatial=b:1,m:1 temporal=l:64' \
// RUN:   --remarks-filter=smap --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=GIVEN

// CHECK: split | Category:smap:schedule | Function=attention | Remark="split dim 'l' (4096) into 8 parts
// CHECK: block-kernel | Category:smap:distribute-blocks | Function=attention | Remark="lowered to one kernel: strategy=row_fragments blocks=256 threads=32
// CHECK-SAME: register_tiles=9 prefetch=1 cp_async=3
// CHECK: block-kernel | Category:smap:distribute-blocks | Function=attention | Remark="lowered to one kernel: strategy=simt

// GIVEN: given | Category:smap:schedule | Function=attention | Remark="uses the given schedule on sm_90a: spatial [b=1, m=1] temporal [l=64], strategy row_fragments, 256 blocks
// GIVEN: chosen | Category:smap:schedule | Function=attention | Remark="scheduled for sm_90a: spatial [h=1, m=1, n=16] temporal [], strategy simt
// GIVEN: split | Category:smap:schedule | Function=attention | Remark="split dim 'l' (4096) into 8 parts
// GIVEN: block-kernel | {{.*}} Remark="lowered to one kernel: strategy=row_fragments blocks=256 threads=32 smem=108800
// GIVEN: block-kernel | {{.*}} Remark="lowered to one kernel: strategy=simt blocks=4096

// The per-part max and sum (memref<1x1x1x16xf32> views of the partial
// outputs) are written after the temporal loop only, from its results.
// STATE: gpu.launch {{.*}} function(@attention_0_row_fragments_128_bf16)
// STATE-NOT: memref.store {{.*}} : memref<1x1x1x16xf32
// STATE: %[[STATE:[0-9]+]]:{{[0-9]+}} = scf.for
// STATE-NOT: memref.store {{.*}} : memref<1x1x1x16xf32
// STATE: scf.yield
// STATE: memref.store %[[STATE]]#0, %{{.*}} : memref<1x1x1x16xf32
// STATE: memref.store %[[STATE]]#1, %{{.*}} : memref<1x1x1x16xf32
// STATE: memref.store %[[STATE]]#2, %{{.*}} : memref<1x1x1x16xf32
// STATE: memref.store %[[STATE]]#3, %{{.*}} : memref<1x1x1x16xf32
// STATE-NEXT: gpu.terminator
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
