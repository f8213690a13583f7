// The residency a block kernel is built for: smap-schedule declares it in
// the schedule (`blocks_per_sm`), gives every thread what that many blocks
// leave it of the register file as the schedule's `regs`, and the kernel
// starts with that count (`.maxnreg`), so ptxas fits the blocks.
//
// ViT attention (197 keys): its 128-key slices are ragged, and the mask
// code takes ptxas past 128 registers (one block per SM) unless told;
// two blocks fit in shared memory, so the search declares two.
// RUN: spacefusion-opt %S/Inputs/attention_vit_f16.mlir '--spacefusion-lower-gpu=format=isa' \
// RUN:   --remarks-filter=smap --remark-format=emitRemark 2>&1 | FileCheck %s --check-prefix=VIT
// 1024 keys: no ragged slice, ptxas keeps two blocks on its own; nothing declared.
// RUN: spacefusion-opt %S/Inputs/attention_f16.mlir '--spacefusion-lower-gpu=format=isa' \
// RUN:   | FileCheck %s --check-prefix=EVEN
// The option declares a residency for every block kernel, the row kernels too.
// RUN: spacefusion-opt %S/Inputs/attention_f16.mlir '--spacefusion-lower-gpu=format=isa blocks-per-sm=2' \
// RUN:   --remarks-filter=smap --remark-format=emitRemark 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: spacefusion-opt %examples/softmax_last.mlir '--spacefusion-lower-gpu=format=isa blocks-per-sm=4' \
// RUN:   | FileCheck %s --check-prefix=ROWS
// Residencies that cannot be built are refused, naming why.
// RUN: not spacefusion-opt %S/Inputs/attention_vit_f16.mlir \
// RUN:   '--spacefusion-lower-gpu=spatial=b:1,h:1,m:128 temporal=l:128 blocks-per-sm=3' \
// RUN:   --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=SMEM
// RUN: not spacefusion-opt %S/Inputs/gemm_f16.mlir \
// RUN:   '--spacefusion-lower-gpu=spatial=m:128,n:128 temporal=k:64 warp-specialize=1 blocks-per-sm=1' \
// RUN:   --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=WS
// RUN: not spacefusion-opt %examples/rmsnorm.mlir '--spacefusion-lower-gpu=blocks-per-sm=32' \
// RUN:   --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=ROWREGS
// RUN: not spacefusion-opt %S/Inputs/attention_vit_f16.mlir '--spacefusion-lower-gpu=blocks-per-sm=33' \
// RUN:   2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not spacefusion-opt %S/Inputs/attention_vit_f16.mlir --smap-form-graphs --smap-set-target \
// RUN:   --smap-analyze '--smap-schedule=blocks-per-sm=-1' 2>&1 | FileCheck %s --check-prefix=RANGE-PASS

// VIT: Remark="scheduled for sm_90a: spatial [b=1, h=1, m=128] temporal [l=128], strategy row_fragments_wgmma, 1536 blocks x 256 threads, 93184 B shared memory, 128 registers/thread (declared: 2 blocks per SM);
// VIT-SAME: blocks_per_sm=2
// VIT-SAME: registers=128
// VIT:      llvm.func @attention(
// VIT-SAME:   smap.kernels = [{blocks = 1536 : i64, parts = {blocks_per_sm = 2 : i64,
// VIT-SAME:   regs_entry = 128 : i64
// VIT-SAME:   predicted = {blocks = 1536 : i64, regs = 128 : i64,
// VIT:      gpu.binary @attention_row_fragments_wgmma
// VIT-SAME:   .maxntid 256, 1, 1
// VIT-SAME:   .maxnreg 128

// EVEN:      llvm.func @attention(
// EVEN-NOT:    blocks_per_sm
// EVEN-SAME:   strategy = "row_fragments_wgmma"
// EVEN:      gpu.binary @attention_row_fragments_wgmma
// EVEN-NOT:    .maxnreg

// 128 threads: two blocks leave each thread 256 registers, the cap is 255.
// OPTION: Remark="scheduled for sm_90a: {{.*}}, {{[0-9]+}} blocks x 128 threads, {{[0-9]+}} B shared memory, 255 registers/thread (declared: 2 blocks per SM);
// OPTION: gpu.binary @attention_row_fragments_wgmma
// OPTION-SAME: .maxnreg 255

// Four blocks of 64 threads: 256 registers each, capped at 255.
// ROWS:      smap.kernels = [{blocks = 2048 : i64, parts = {blocks_per_sm = 4 : i64, chunks = 8 : i64, regs_entry = 255 : i64
// ROWS-SAME:   strategy = "rows", threads = 64 : i64}]
// ROWS:      .maxnreg 255

// SMEM: error: schedule spatial [b=1, h=1, m=128] temporal [l=128] does not fit target 'sm_90a': it needs 93184 bytes of shared memory per block: 3 such blocks do not fit an SM
// WS: error: schedule spatial [m=128, n=128] temporal [k=64] does not fit target 'sm_90a': it moves registers between its warpgroups (setmaxnreg), which a declared residency would cap
// ROWREGS: error: smap-schedule: blocks-per-sm=32: the row kernel 32 blocks of 128 threads leave each thread 16 registers
// RANGE: error: spacefusion-lower-gpu: blocks-per-sm=33 is not in [0, 32] (0: not declared)
// RANGE-PASS: error: smap-schedule: blocks-per-sm=-1 is not in [0, 32] (0: not declared)
