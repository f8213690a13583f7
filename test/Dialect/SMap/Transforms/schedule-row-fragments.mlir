// RUN: spacefusion-opt --smap-form-graphs --smap-fuse-conversions --smap-set-target --smap-analyze --smap-schedule \
// RUN:   %S/../../../Pipelines/Inputs/attention_f16.mlir --remarks-filter=smap --remark-format=emitRemark 2>&1 \
// RUN:   | FileCheck %s
// RUN: not spacefusion-opt --smap-form-graphs --smap-fuse-conversions --smap-set-target --smap-analyze \
// RUN:   '--smap-schedule=spatial=b:1,h:1,m:128 temporal=l:256' %S/../../../Pipelines/Inputs/attention_f16.mlir \
// RUN:   --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=WIDE

// f16 attention (2x4x1024x64) on sm_90a. Every intermediate is a tile of
// the block's query rows (m, the first contraction's rows) and at most one
// other dim, so the GPU lowering keeps them in registers as row fragments
// and the cost model prices the block that way: shared memory holds the
// staged input tiles only, the K and V tiles (which move with l) in two
// cp.async stages (a third would leave one block per SM instead of two):
// 64 x 72 x 2 (Q, rows padded by 16 bytes) + 2 x 2 x 128 x 72 x 2, plus the
// 1 KiB alignment slack of wgmma's swizzled tiles = 83968 bytes, the
// placement's; registers per lane: 32 + the state l carries (the
// output accumulator, 64 / 2, and the running max and sum, 2 each) + the
// step's two largest tiles (scores and probabilities, 128 / 2 each) = 196.
// CHECK: Remark="scheduled for sm_90a: spatial [b=1, h=1, m=64] temporal [l=128], strategy row_fragments_wgmma, 128 blocks x 128 threads, 83968 B shared memory, 196 registers/thread;

// K / V steps of 256: their two 256-wide tiles would need 36 + 2 x 128
// registers, more than the lowering's budget (224), so the block's
// intermediates are priced in shared memory, where they do not fit.
// WIDE: error: schedule spatial [b=1, h=1, m=128] temporal [l=256] does not fit target 'sm_90a': it needs 666624 bytes of shared memory per block, the target has 232448
