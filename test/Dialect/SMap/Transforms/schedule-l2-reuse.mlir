// smap-schedule's l2-reuse=true prices the re-reads of an input that L2
// still holds at the target's l2_gbps instead of DRAM bandwidth. A decode
// step's projection (16 tokens) re-reads the 128 KB of activations in every
// block: with the option only the first read comes from DRAM, so more,
// narrower blocks look cheaper. Off by default (bench/results/
// model-check-h100 measured the narrower blocks slower).
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

// OFF: chosen | Category:smap:schedule | Function=decode_projection | Remark="scheduled for sm_90a: spatial [n=32] temporal [k=2048]
// OFF-SAME: predicted {{[0-9.]+}} us ({{[0-9.]+}} MB global, 1.07 GFLOP)
// ON: chosen | Category:smap:schedule | Function=decode_projection | Remark="scheduled for sm_90a: spatial [n=16] temporal [k=2048]
// ON-SAME: 256 blocks
// ON-SAME: (67.4 MB global (33.9 MB from DRAM), 1.07 GFLOP)
// NORATE: chosen | Category:smap:schedule | Function=decode_projection | Remark="scheduled for sm_80:
// NORATE-NOT: from DRAM
// NORATE-SAME: GFLOP)
func.func @decode_projection(%x: tensor<16x4096xbf16>, %w: tensor<4096x4096xbf16>) -> tensor<16x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x4096xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x4096xf32>) -> tensor<16x4096xf32>
  %y = linalg.matmul ins(%x, %w : tensor<16x4096xbf16>, tensor<4096x4096xbf16>) outs(%f : tensor<16x4096xf32>) -> tensor<16x4096xf32>
  return %y : tensor<16x4096xf32>
}
