// RUN: spacefusion-opt %examples/gemm_chain.mlir '--spacefusion-lower-gpu=format=isa' | FileCheck %s
// RUN: spacefusion-opt %examples/gemm_chain.mlir '--spacefusion-pipeline=target=sm_90a lower-to-gpu' \
// RUN:   | FileCheck %s --check-prefix=PIPELINE
// RUN: not spacefusion-opt %examples/gemm_chain.mlir '--spacefusion-pipeline=target=cpu lower-to-gpu' \
// RUN:   --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=NOTGPU
// RUN: spacefusion-opt %S/Inputs/gemm_f16.mlir '--spacefusion-lower-gpu=format=isa spatial=m:16,n:32' | FileCheck %s --check-prefix=MMA
// RUN: spacefusion-opt %S/Inputs/gemm_f16.mlir '--spacefusion-lower-gpu=format=isa spatial=m:128,n:128 temporal=k:64' \
// RUN:   | FileCheck %s --check-prefix=WGMMA
// RUN: spacefusion-opt %S/Inputs/gemm_f16.mlir '--spacefusion-lower-gpu=format=isa spatial=m:128,n:128 temporal=k:64 warp-specialize=1' \
// RUN:   | FileCheck %s --check-prefix=WS
// RUN: spacefusion-opt %S/Inputs/attention_f16.mlir '--spacefusion-lower-gpu=format=isa' | FileCheck %s --check-prefix=FLASH
// RUN: spacefusion-opt %S/Inputs/attention_f16.mlir '--spacefusion-lower-gpu=format=isa wgmma=false' \
// RUN:   | FileCheck %s --check-prefix=FLASH-SYNC
// RUN: spacefusion-opt %S/Inputs/attention_kt_f16.mlir '--spacefusion-lower-gpu=format=isa' | FileCheck %s --check-prefix=KT
// RUN: spacefusion-opt %S/Inputs/attention_f16.mlir '--spacefusion-lower-gpu=format=isa spatial=b:1,h:1,m:32 temporal=l:64' \
// RUN:   --remarks-filter=smap --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=ROWS32
// RUN: spacefusion-opt %S/Inputs/attention_f16.mlir '--spacefusion-lower-gpu=format=isa async-stages=1' | FileCheck %s --check-prefix=NOASYNC
// RUN: not spacefusion-opt %S/Inputs/gemm_f16.mlir '--spacefusion-lower-gpu=spatial=q:64' \
// RUN:   --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=BADDIM
// RUN: not spacefusion-opt %S/Inputs/gemm_f16.mlir '--spacefusion-lower-gpu=spatial=m:100000' \
// RUN:   --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=RAGGED
// RUN: spacefusion-opt %examples/attention.mlir '--spacefusion-lower-gpu=format=isa' \
// RUN:   --remarks-filter=smap --remark-format=emitRemark 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK

// Graphs outside the row class take the general path of the same pipeline:
// scheduled and sliced, bufferized, and each spatial block a thread block
// (smap-distribute-blocks). The chain of three GEMMs is one kernel whose
// blocks keep their intermediates in dynamic shared memory, synchronize
// between ops, and accumulate on CUDA cores; the f32 operand tiles the
// temporal loop moves are staged in three cp.async stages.

// CHECK:       llvm.func @gemm_chain(
// CHECK-SAME:    smap.kernels = [{blocks = 128 : i64, parts = {cp_async = 3 : i64, fma = 3 : i64, fma_lanes = 8 : i64, prefetch = 1 : i64}, predicted = {{[{][^}]+[}]}}, smem = 227968 : i64, strategy = "simt", threads = 256 : i64}]
// CHECK:         %[[SMEM:.*]] = llvm.mlir.constant(227968 : i32) : i32
// CHECK:         %[[GRID:.*]] = llvm.mlir.constant(128 : index) : i64
// CHECK:         gpu.launch_func @gemm_chain_simt_8x32_f32::@gemm_chain_simt_8x32_f32 blocks in (%[[GRID]], %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) : i64 dynamic_shared_memory_size %[[SMEM]]
// CHECK:       llvm.func @_mlir_ciface_gemm_chain(
// CHECK:       gpu.binary @gemm_chain_simt_8x32_f32
// CHECK-SAME:    .target sm_90a
// CHECK-SAME:    .shared .align 16 .b8 __dynamic_shmem__0
// CHECK-SAME:    st.shared.b32
// CHECK-SAME:    bar.sync
// CHECK-SAME:    ld.shared.b32
// CHECK-SAME:    mul.rn.f32
// CHECK-SAME:    add.rn.f32

// --spacefusion-pipeline goes the same way with lower-to-gpu, for a GPU target.
// PIPELINE:    llvm.func @_mlir_ciface_gemm_chain(
// PIPELINE:    gpu.binary @gemm_chain_simt_8x32_f32
// PIPELINE-SAME: chip = "sm_90a"
// NOTGPU: error: spacefusion-lower-gpu: the GPU path needs a GPU target (sm_90a, sm_80), not 'cpu'

// An f16 GEMM: the f16 -> f32 extensions fold into the contraction, the
// schedule picks tiles that fit m16n8k16, and the kernel stages its operand
// tiles in shared memory with 16-byte copies and runs mma.sync on fragments
// loaded with ldmatrix.
// The same GEMM in 128x128 blocks with k sliced by 64 runs on Hopper's
// wgmma: the host encodes a TMA descriptor per operand; in the kernel,
// bulk tensor copies complete on mbarriers and wgmma (m64n128k16, two per
// k16 step for the 128 rows) keeps one group in flight until the last.
// WGMMA:       llvm.func @gemm(
// WGMMA-SAME:    smap.kernels = [{blocks = 6 : i64, parts = {stages = 2 : i64, tile_k = 64 : i64, tile_m = 128 : i64, tile_n = 128 : i64}, predicted = {{[{][^}]+[}]}}, smem = 66560 : i64, strategy = "wgmma_tma", threads = 128 : i64}]
// WGMMA-COUNT-2: llvm.call @mgpuTensorMapEncodeTiledMemref(
// WGMMA:       gpu.binary @gemm_wgmma_tma_128x128x64_f16
// WGMMA-SAME:    mbarrier.init.shared.b64
// WGMMA-SAME:    mbarrier.arrive.expect_tx.shared.b64
// WGMMA-SAME:    cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// WGMMA-SAME:    mbarrier.try_wait.parity.shared.b64
// WGMMA-SAME:    wgmma.fence.sync.aligned
// WGMMA-SAME:    wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// WGMMA-SAME:    wgmma.commit_group.sync.aligned
// WGMMA-SAME:    wgmma.wait_group.sync.aligned \091;
// WGMMA-SAME:    wgmma.wait_group.sync.aligned \090;

// Warp-specialized, the kernel declares its 384 threads (so that ptxas caps
// every thread at 168 registers, the count setmaxnreg starts from); the
// producer warpgroup gives up registers down to 40, the consumers take them
// up to 232; the consumers meet at named barrier 1 (256 threads) before
// their accumulators overwrite the stages, return to 168, and only after the
// block barrier does the producer take its registers back.
// WS:          llvm.func @gemm(
// WS-SAME:       smap.kernels = [{blocks = 6 : i64, parts = {consumers = 2 : i64, producer_warps = 4 : i64, regs_consumer = 232 : i64, regs_entry = 168 : i64, regs_producer = 40 : i64, stages = 2 : i64, tile_k = 64 : i64, tile_m = 128 : i64, tile_n = 128 : i64}, predicted = {{[{][^}]+[}]}}, smem = 66560 : i64, strategy = "wgmma_tma_ws", threads = 384 : i64}]
// WS:          gpu.binary @gemm_wgmma_tma_ws_128x128x64_f16
// ptxas honours setmaxnreg only with the entry count declared (168 of
// each thread's registers, smap-set-kernel-register-counts).
// WS-SAME:       .maxntid 384, 1, 1
// WS-SAME:       .maxnreg 168
// WS-SAME:       setmaxnreg.dec.sync.aligned.u32 \0940;
// WS-SAME:       cp.async.bulk.tensor.2d
// WS-SAME:       setmaxnreg.inc.sync.aligned.u32 \09232;
// WS-SAME:       wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// WS-SAME:       bar.sync \091, 256;
// WS-SAME:       setmaxnreg.dec.sync.aligned.u32 \09168;
// WS-SAME:       bar.sync \090;
// WS-SAME:       setmaxnreg.inc.sync.aligned.u32 \09168;

// MMA:         llvm.func @gemm(
// MMA-SAME:      smap.kernels = [{blocks = {{[0-9]+}} : i64, parts = {ldmatrix = 2 : i64, mma_sync = 1 : i64}, predicted = {{[{][^}]+[}]}}, smem = {{[0-9]+}} : i64, strategy = "mma_sync", threads = 256 : i64}]
// MMA:         gpu.binary @gemm_mma_sync_16x32_f16
// MMA-SAME:      ld.global.v4.b32
// MMA-SAME:      st.shared.v4.b32
// MMA-SAME:      ldmatrix.sync.aligned.m8n8.x4
// MMA-SAME:      mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32

// On sm_90a the same contractions are wgmma of each warpgroup's 64 rows on
// those registers: Q K^T reads both tiles through descriptors (K-major),
// P V takes P from registers and V through a transposed (N-major)
// descriptor; the staged tiles are 128-byte swizzled by the cp.async copies,
// whose writes are fenced for the async proxy before the barrier. The
// accumulators are read only after the group's wait.
// FLASH:       llvm.func @attention(
// FLASH-SAME:    smap.kernels = [{blocks = 128 : i64, parts = {cp_async = 2 : i64, prefetch = 1 : i64, register_tiles = 8 : i64, warp_rows = 16 : i64, wgmma = 2 : i64}, predicted = {{[{][^}]+[}]}}, smem = 83968 : i64, strategy = "row_fragments_wgmma", threads = 128 : i64}]
// FLASH:       gpu.binary @attention_row_fragments_wgmma_64x128_f16
// FLASH-SAME:    fence.proxy.async.shared::cta
// FLASH-SAME:    cp.async.cg.shared.global
// FLASH-SAME:    cp.async.commit_group
// FLASH-SAME:    cp.async.wait_group \090;
// FLASH-SAME:    fence.proxy.async.shared::cta
// FLASH-SAME:    bar.sync
// FLASH-SAME:    wgmma.fence.sync.aligned
// FLASH-SAME:    wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{[{][^}]*[}]}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1, 0, 0;
// FLASH-SAME:    wgmma.commit_group.sync.aligned
// FLASH-SAME:    wgmma.wait_group.sync.aligned \090;
// FLASH-SAME:    shfl.sync.bfly.b32
// FLASH-SAME:    ex2.approx
// FLASH-SAME:    cvt.rn.f16x2.f32
// FLASH-SAME:    wgmma.fence.sync.aligned
// FLASH-SAME:    wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{[{][^}]*[}]}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, p, 1, 1, 1;
// FLASH-SAME:    wgmma.wait_group.sync.aligned \090;
// FLASH-SAME:    cp.async.wait_group \090;
// FLASH-NOT:     ldmatrix

// K given as [k, l]: the K tile's contiguous dim is the scores' n (l), so
// Q K^T reads it through a transposed (N-major) descriptor too.
// KT:          smap.kernels = [{blocks = 128 : i64, parts = {cp_async = 2 : i64, prefetch = 1 : i64, register_tiles = 8 : i64, warp_rows = 16 : i64, wgmma = 2 : i64}, predicted = {{[{][^}]+[}]}}, smem = 81920 : i64, strategy = "row_fragments_wgmma", threads = 128 : i64}]
// KT:          gpu.binary @attention_kt_row_fragments_wgmma_64x128_f16
// KT-SAME:       wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{[{][^}]*[}]}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1, 0, 1;
// KT-SAME:       wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{[{][^}]*[}]}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, p, 1, 1, 1;

// Blocks of 32 query rows (one warp with two slabs) cannot be split into
// warpgroups of 64 rows: the block stays on mma.sync, and says why once.
// ROWS32:     Remark="uses the given schedule on sm_90a: spatial [b=1, h=1, m=32] temporal [l=64], strategy row_fragments, 256 blocks x 32 threads
// ROWS32:     Remark="lowered to one kernel: strategy=row_fragments blocks=256 threads=32 smem=59904 mma_sync=2 ldmatrix=3 warp_rows=32

// With wgmma=false (any chip before sm_90):
// f16 attention from unfused linalg: online softmax between two tensor-core
// contractions, in registers (row fragments): each warp owns 16 query rows,
// the row max and sum are butterfly shuffles over the four lanes of a row,
// exp is the hardware ex2, the probabilities are packed to f16 pairs as the
// A operand of P V, and V is read transposed by ldmatrix. The K / V tiles
// arrive by a two-stage cp.async pipeline (a third stage would leave room
// for one block per SM instead of two): one step's group before the loop,
// then per step one wait, one barrier and the group one step ahead.
// FLASH-SYNC:       llvm.func @attention(
// FLASH-SYNC-SAME:    smap.kernels = [{blocks = 128 : i64, parts = {cp_async = 2 : i64, ldmatrix = 3 : i64, mma_sync = 2 : i64, prefetch = 1 : i64, register_tiles = 8 : i64, warp_rows = 16 : i64}, predicted = {{[{][^}]+[}]}}, smem = 82944 : i64, strategy = "row_fragments", threads = 128 : i64}]
// FLASH-SYNC:       gpu.binary @attention_row_fragments_64x128_f16
// FLASH-SYNC-SAME:    ld.global.v4.b32
// FLASH-SYNC-SAME:    cp.async.cg.shared.global
// FLASH-SYNC-SAME:    cp.async.commit_group
// FLASH-SYNC-SAME:    cp.async.wait_group \090;
// FLASH-SYNC-SAME:    bar.sync
// FLASH-SYNC-SAME:    cp.async.cg.shared.global
// FLASH-SYNC-SAME:    cp.async.commit_group
// FLASH-SYNC-SAME:    ldmatrix.sync.aligned.m8n8.x4.shared.b16
// FLASH-SYNC-SAME:    mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// FLASH-SYNC-SAME:    shfl.sync.bfly.b32
// FLASH-SYNC-SAME:    ex2.approx
// FLASH-SYNC-SAME:    cvt.rn.f16x2.f32
// FLASH-SYNC-SAME:    ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// FLASH-SYNC-SAME:    mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// FLASH-SYNC-SAME:    cp.async.wait_group \090;

// Attention: smap-schedule says it is no row kernel, the block lowering takes
// it.
// REMARK: remark: [Missed] not-rows | Category:smap:schedule | Function={{[a-z_0-9]+}} | Remark="not a row kernel: 'linalg.generic' is a contraction (GEMM-like); contractions need the tensor-core lowering"
// REMARK: remark: [Passed] block-kernel | Category:smap:distribute-blocks | Function={{[a-z_0-9]+}} | Remark="lowered to one kernel: strategy=simt blocks=128 threads=256 smem=207104 prefetch=1 cp_async=2 fma=2 fma_lanes=32"

// A schedule forced through the pipeline (`spatial`, `temporal`) is checked
// like smap-schedule's: an unknown dim or a tile larger than its dim is an
// error naming it; `async-stages=1` stages tiles through registers, without
// cp.async.
// BADDIM: error: invalid schedule: schedule slices unknown dim 'q'
// RAGGED: error: invalid schedule: size 100000 of dim 'm' is not in [1, 
// NOASYNC:     llvm.func @attention(
// NOASYNC-SAME:  smap.kernels = [{blocks = 128 : i64, parts = {prefetch = 1 : i64, register_tiles = 8 : i64, warp_rows = 16 : i64, wgmma = 2 : i64}, predicted = {{[{][^}]+[}]}}, smem = 47104 : i64, strategy = "row_fragments_wgmma", threads = 128 : i64}]
// NOASYNC:     gpu.binary @attention_row_fragments_wgmma_64x128_f16
// NOASYNC-NOT:   cp.async
