// A temporal step of the shared-memory strategies (simt, mma_sync) waits on
// a block barrier after each contraction, reduction and elementwise group;
// a block alone on its SM cannot hide them. The bf16 decode step (16
// queries against 4096 keys, the frontend form, 128 blocks of one per SM)
// therefore keeps its intermediates in registers (row fragments): 5 phases
// per step make the mma_sync candidate's 16 steps cost 16 x 5 x 0.2 us.
// Measured on the H200: 0.059 ms against 0.121 ms for the mma_sync kernel
// (bench/results/decode-row-fragments.md).
//
// RUN: spacefusion-opt %s '--spacefusion-pipeline=target=sm_90a lower-to-gpu=false candidates=4' \
// RUN:   --remarks-filter=smap --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s
// RUN: spacefusion-opt %s --cse --linalg-fuse-elementwise-ops \
// RUN:   | spacefusion-opt '--spacefusion-pipeline=target=sm_90a lower-to-gpu=false candidates=4' \
// RUN:   --remarks-filter=smap --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s

// CHECK: candidate | Category:smap:schedule | Function=attention | Remark="#1: spatial [h=1, n=32] temporal [l=128], strategy row_fragments, 128 blocks x 32 threads
// CHECK-SAME: + steps 6.40;
// CHECK: candidate | Category:smap:schedule | Function=attention | Remark="#4: spatial [h=1, n=32] temporal [l=256], strategy mma_sync, 128 blocks x 256 threads
// CHECK-SAME: + steps 16.00;
// CHECK: chosen | Category:smap:schedule | Function=attention | Remark="scheduled for sm_90a: spatial [h=1, n=32] temporal [l=128], strategy row_fragments
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
