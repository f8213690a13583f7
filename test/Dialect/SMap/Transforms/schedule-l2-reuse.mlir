// smap-schedule's l2-reuse=true prices the re-reads of an input that L2
// still holds at the target's l2_gbps instead of DRAM bandwidth. A decode
// step's projection (16 tokens) re-reads the 32 KB of activations in each
// of its 128 blocks: with the option only the first read comes from DRAM
// (the weights, 8 MB, are read once either way). Off by default
// (bench/results/model-check-h100 measured what it changes).
//
// RUN: spacefusion-opt %s --smap-form-graphs --smap-set-target=target=sm_90a \
// RUN:   --smap-analyze --smap-schedule --remarks-filter=smap \
// RUN:   --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: spacefusion-opt %s --smap-form-graphs --smap-set-target=target=sm_90a \
// RUN:   --smap-analyze '--smap-schedule=l2-reuse=true' --remarks-filter=smap \
// RUN:   --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=ON
// The GPU pipeline forwards the option.
// RUN: spacefusion-opt %s '--spacefusion-pipeline=target=sm_90a lower-to-gpu=false l2-reuse=true' \
// RUN:   --remarks-filter=smap --remark-format=emitRemark -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ON
// A target without an L2 rate keeps DRAM pricing under the option.
// RUN: spacefusion-opt %s --smap-form-graphs --smap-set-target=target=sm_80 \
// RUN:   --smap-analyze '--smap-schedule=l2-reuse=true' --remarks-filter=smap \
// RUN:   --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=NORATE

// OFF: chosen | Category:smap:schedule | Function=decode_projection | Remark="scheduled for sm_90a: spatial [n=32] temporal [], strategy mma_sync, 128 blocks
// OFF-SAME: predicted 2.76 us (12.8 MB global, 0.27 GFLOP)
// ON: chosen | Category:smap:schedule | Function=decode_projection | Remark="scheduled for sm_90a: spatial [n=32] temporal [], strategy mma_sync, 128 blocks
// ON-SAME: predicted 1.87 us (12.8 MB global (8.7 MB from DRAM), 0.27 GFLOP)
// NORATE: chosen | Category:smap:schedule | Function=decode_projection | Remark="scheduled for sm_80:
// NORATE-SAME: MB global, 0.27 GFLOP)
func.func @decode_projection(%x: tensor<16x1024xbf16>, %w: tensor<1024x4096xbf16>) -> tensor<16x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x4096xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x4096xf32>) -> tensor<16x4096xf32>
  %y = linalg.matmul ins(%x, %w : tensor<16x1024xbf16>, tensor<1024x4096xbf16>) outs(%f : tensor<16x4096xf32>) -> tensor<16x4096xf32>
  return %y : tensor<16x4096xf32>
}
