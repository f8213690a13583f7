// Each strategy option of smap-schedule changes the strategy it records
// (and with it the threads, stages and footprint), on f16 attention and on
// an f16 GEMM (the inputs of schedule-row-fragments.mlir and
// schedule-wgmma.mlir).

// RUN: spacefusion-opt --smap-form-graphs --smap-fuse-conversions --smap-set-target --smap-analyze \
// RUN:   --smap-schedule %S/../../../Pipelines/Inputs/attention_f16.mlir | FileCheck %s --check-prefix=ATT
// RUN: spacefusion-opt --smap-form-graphs --smap-fuse-conversions --smap-set-target --smap-analyze \
// RUN:   --smap-schedule=wgmma=false %S/../../../Pipelines/Inputs/attention_f16.mlir | FileCheck %s --check-prefix=ATT-NOWGMMA
// RUN: spacefusion-opt --smap-form-graphs --smap-fuse-conversions --smap-set-target --smap-analyze \
// RUN:   --smap-schedule=row-fragments=false %S/../../../Pipelines/Inputs/attention_f16.mlir | FileCheck %s --check-prefix=ATT-NOROWS
// RUN: spacefusion-opt --smap-form-graphs --smap-fuse-conversions --smap-set-target --smap-analyze \
// RUN:   --smap-schedule=tensor-cores=false %S/../../../Pipelines/Inputs/attention_f16.mlir | FileCheck %s --check-prefix=ATT-SIMT
// RUN: spacefusion-opt --smap-form-graphs --smap-fuse-conversions --smap-set-target=target=sm_80 --smap-analyze \
// RUN:   --smap-schedule %S/../../../Pipelines/Inputs/attention_f16.mlir | FileCheck %s --check-prefix=ATT-SM80
// RUN: spacefusion-opt --smap-form-graphs --smap-fuse-conversions --smap-set-target --smap-analyze \
// RUN:   --smap-schedule %S/schedule-wgmma.mlir | FileCheck %s --check-prefix=GEMM
// RUN: spacefusion-opt --smap-form-graphs --smap-fuse-conversions --smap-set-target --smap-analyze \
// RUN:   --smap-schedule=warp-specialize=1 %S/schedule-wgmma.mlir | FileCheck %s --check-prefix=GEMM-WS
// RUN: spacefusion-opt --smap-form-graphs --smap-fuse-conversions --smap-set-target --smap-analyze \
// RUN:   '--smap-schedule=warp-specialize=1 producer-warps=1' %S/schedule-wgmma.mlir | FileCheck %s --check-prefix=GEMM-WARP
// RUN: spacefusion-opt --smap-form-graphs --smap-fuse-conversions --smap-set-target --smap-analyze \
// RUN:   --smap-schedule=async-stages=2 %S/schedule-wgmma.mlir | FileCheck %s --check-prefix=GEMM-TWO
// RUN: spacefusion-opt --smap-form-graphs --smap-fuse-conversions --smap-set-target --smap-analyze \
// RUN:   --smap-schedule=wgmma=false %S/schedule-wgmma.mlir | FileCheck %s --check-prefix=GEMM-NOWGMMA
// The GPU pipeline passes its options to smap-schedule, and its manifest
// lists what was built.
// RUN: spacefusion-opt %S/../../../Pipelines/Inputs/attention_f16.mlir -o /dev/null \
// RUN:   '--spacefusion-lower-gpu=format=isa tensor-cores=false kernel-manifest=%t-simt.json'
// RUN: FileCheck %s --check-prefix=MANIFEST-SIMT --input-file=%t-simt.json
// RUN: spacefusion-opt %S/../../../Pipelines/Inputs/attention_f16.mlir -o /dev/null \
// RUN:   '--spacefusion-lower-gpu=format=isa row-fragments=false kernel-manifest=%t-mma.json'
// RUN: FileCheck %s --check-prefix=MANIFEST-MMA --input-file=%t-mma.json
// RUN: not spacefusion-opt --smap-schedule=producer-warps=2 %S/schedule-wgmma.mlir 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BADWARPS

// Attention: wgmma on the row fragments, two cp.async copies of K and V.
// ATT: schedule = #smap.schedule<spatial = [b = 1, h = 1, m = 64], temporal = [l = 128], grid = [2, 4, 16], threads = 128, smem = 83968, regs = 196, strategy = row_fragments_wgmma, stages = 2>
// Without wgmma: the same rows on mma.sync, no swizzle slack.
// ATT-NOWGMMA: schedule = #smap.schedule<spatial = [b = 1, h = 1, m = 64], temporal = [l = 128], grid = [2, 4, 16], threads = 128, smem = 82944, regs = 196, strategy = row_fragments, stages = 2>
// Without row fragments: intermediates in shared memory, 256 threads; the
// scale and exp write over the scores (smap-place-block-buffers), so beside
// the online softmax's own buffers (the slice's max, the new running max and
// its -inf guard, the finished P.V before its rounding) three cp.async
// copies of the K and V tiles fit.
// ATT-NOROWS: schedule = #smap.schedule<spatial = [b = 1, h = 1, m = 64], temporal = [l = 128], grid = [2, 4, 16], threads = 256, smem = 186624, regs = 49, strategy = mma_sync, stages = 3>
// On CUDA cores alone: 64-row blocks, so that Q.K^T's and P.V's register
// micro-tiles are 4 x 8 (3/8 of an operand load per FMA; 8-row blocks leave
// 2 x 2, a load per FMA, which the model prices at 4x the FMAs' time).
// The f32 forms measured 3.5-4.9x faster with these micro-tiles priced
// (bench/results/simt-staged-f32).
// ATT-SIMT: schedule = #smap.schedule<spatial = [b = 1, h = 1, m = 64], temporal = [l = 128], grid = [2, 4, 16], threads = 256, smem = 186624, regs = 49, strategy = simt, stages = 3>
// On sm_80 (no wgmma feature): row fragments on mma.sync.
// ATT-SM80: schedule = #smap.schedule<{{.*}} strategy = row_fragments, stages = {{[1-3]}}>

// For the GEMM, one warpgroup and three TMA stages for its 128 blocks.
// GEMM: schedule = #smap.schedule<spatial = [m = 128, n = 128], temporal = [k = 64], grid = [16, 8], threads = 128, smem = 99328, regs = 160, strategy = wgmma_tma, stages = 3>
// Warp-specialized: two consumer warpgroups and a producer warpgroup (384
// threads) or warp (288).
// GEMM-WS: threads = 384, {{.*}} strategy = wgmma_tma_ws, stages = 3>
// GEMM-WARP: threads = 288, {{.*}} strategy = wgmma_tma_ws, stages = 3>
// GEMM-TWO: threads = 128, smem = 66560, regs = 160, strategy = wgmma_tma, stages = 2>
// GEMM-NOWGMMA: schedule = #smap.schedule<spatial = [m = 128, n = 128], temporal = [k = 128], grid = [16, 8], threads = 256, smem = 204800, regs = 96, strategy = mma_sync, stages = 2>
// BADWARPS: error: smap-schedule: producer-warps=2 is neither 1 (a warp) nor 4 (a warpgroup)

// MANIFEST-SIMT-NOT:  "strategy": "{{(mma_sync|row_fragments|row_fragments_wgmma)}}"
// MANIFEST-SIMT:      "strategy": "simt"
// MANIFEST-SIMT-NOT:  "strategy": "{{(mma_sync|row_fragments|row_fragments_wgmma)}}"
// MANIFEST-SIMT:      "name": "attention"
// MANIFEST-MMA:       "mma_sync": 2
// MANIFEST-MMA:       "strategy": "mma_sync"
// MANIFEST-MMA:       "name": "attention"
