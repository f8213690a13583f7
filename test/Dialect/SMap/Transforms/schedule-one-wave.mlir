// smap-schedule's one-wave option: how a grid of one wave or less is
// priced. 0 (the slots): by the share of all block slots it fills, SMs x
// the blocks resident per SM, so a grid of small blocks that fits one wave
// looks mostly idle (384 blocks of 11 KB, 8 resident per SM: 0.36). 1: a
// memory-bound one: by the share of the SMs it keeps busy (the same grid:
// 3 blocks on the busiest SM, 0.97), so the search prefers the 32 x 32
// tiles that move half the bytes. 2 (the default): every one-wave grid so
// (bench/results/one-wave-h100 measured the three).
//
// RUN: spacefusion-opt %s '--spacefusion-lower-gpu=candidates=1 one-wave=0' --remarks-filter=smap \
// RUN:   --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=SLOTS
// RUN: spacefusion-opt %s '--spacefusion-lower-gpu=candidates=1' --remarks-filter=smap \
// RUN:   --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=SMS
// RUN: spacefusion-opt %s '--spacefusion-lower-gpu=candidates=1 one-wave=1' --remarks-filter=smap \
// RUN:   --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=SMS
// RUN: spacefusion-opt %s '--spacefusion-lower-gpu=candidates=1 one-wave=2' --remarks-filter=smap \
// RUN:   --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=SMS
// A count that is not a mode is refused.
// RUN: not spacefusion-opt %s '--spacefusion-lower-gpu=one-wave=3' -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD

// SLOTS: candidate | Category:smap:schedule | Function=gemm | Remark="#1: spatial [m=16, n=16] temporal [], strategy mma_sync, 384 blocks
// SLOTS-SAME: / wave utilization 0.36 + steps
// SLOTS: chosen | Category:smap:schedule | Function=gemm | Remark="scheduled for sm_90a: spatial [m=16, n=16] temporal [], strategy mma_sync, 384 blocks
// SMS: candidate | Category:smap:schedule | Function=gemm | Remark="#1: spatial [m=32, n=32] temporal [], strategy mma_sync, 96 blocks
// SMS-SAME: max(memory 0.37, compute 0.11) / wave utilization 0.73 + steps
// SMS: chosen | Category:smap:schedule | Function=gemm | Remark="scheduled for sm_90a: spatial [m=32, n=32] temporal [], strategy mma_sync, 96 blocks
// BAD: one-wave=3 is not 0 (the block slots), 1 (the busy SMs when memory-bound) or 2 (the busy SMs)
func.func @gemm(%a: tensor<256x128xf16>, %b: tensor<128x384xf16>) -> tensor<256x384xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x384xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<256x384xf32>) -> tensor<256x384xf32>
  %c = linalg.matmul ins(%a, %b : tensor<256x128xf16>, tensor<128x384xf16>) outs(%f : tensor<256x384xf32>) -> tensor<256x384xf32>
  %eh = tensor.empty() : tensor<256x384xf16>
  %h = linalg.map { arith.truncf } ins(%c : tensor<256x384xf32>) outs(%eh : tensor<256x384xf16>)
  return %h : tensor<256x384xf16>
}
