// RUN: rm -rf %t && spacefusion-opt %examples/lstm_cell.mlir -o /dev/null \
// RUN:   "--spacefusion-pipeline=one-wave=0 target=sm_90a format=isa dump-kernels-to=%t"
// RUN: ls %t | FileCheck %s --check-prefix=FILES
// RUN: FileCheck %s --check-prefix=RECORD < %t/lstm_cell_0_simt_8_f32.json
// RUN: FileCheck %s --check-prefix=GPU < %t/lstm_cell_0_simt_8_f32.gpu.mlir
// RUN: FileCheck %s --check-prefix=PTX < %t/lstm_cell_0_simt_8_f32.ptx
// RUN: FileCheck %s --check-prefix=LLVM < %t/lstm_cell_0_simt_8_f32.ll
// RUN: FileCheck %s --check-prefix=SMAP < %t/lstm_cell_0_simt_8_f32.smap.mlir
// RUN: rm -rf %t.attn && spacefusion-opt %examples/attention.mlir -o /dev/null \
// RUN:   "--spacefusion-pipeline=target=sm_90a format=isa dump-kernels-to=%t.attn"
// RUN: ls %t.attn | FileCheck %s --check-prefix=ATTN-FILES
// RUN: FileCheck %s --check-prefix=ATTN-SMAP < %t.attn/attention_simt_64x128_f32.smap.mlir
// RUN: rm -rf %t.rows && spacefusion-opt %examples/layernorm.mlir -o /dev/null \
// RUN:   "--spacefusion-pipeline=target=sm_90a dump-kernels-to=%t.rows"
// RUN: ls %t.rows | FileCheck %s --check-prefix=ROWS
// RUN: FileCheck %s --check-prefix=ROWS-RECORD < %t.rows/layernorm_rows_f32.json
// RUN: not spacefusion-opt %examples/layernorm.mlir -o /dev/null \
// RUN:   "--spacefusion-pipeline=target=sm_90a dump-kernels-to=/proc/spacefusion-no-such-dir" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NODIR
// RUN: not spacefusion-opt %s --smap-dump-kernels 2>&1 | FileCheck %s --check-prefix=NOARG
// RUN: not spacefusion-opt %s "--smap-dump-kernels=dir=%t.stage stage=ptx" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STAGE

// Each kernel in files named after it (function, kernel number when the
// function has several, strategy, tiles, element type): its GPU IR, the
// record of what was built next to the schedule that predicted it, its
// code (PTX with format=isa, a cubin by default) and its graph as sliced.
// FILES:      lstm_cell_0_simt_8_f32.gpu.mlir
// FILES-NEXT: lstm_cell_0_simt_8_f32.json
// FILES-NEXT: lstm_cell_0_simt_8_f32.ll
// FILES-NEXT: lstm_cell_0_simt_8_f32.ptx
// FILES-NEXT: lstm_cell_0_simt_8_f32.smap.mlir
// FILES-NEXT: lstm_cell_1_simt_f32.gpu.mlir
// FILES-NEXT: lstm_cell_1_simt_f32.json
// FILES-NEXT: lstm_cell_1_simt_f32.ll
// FILES-NEXT: lstm_cell_1_simt_f32.ptx
// FILES-NEXT: lstm_cell_1_simt_f32.smap.mlir

// The sliced graph, its operands named in the function's scope, with the
// schedule that names the kernel; the block's graph inside it is no kernel
// of its own.
// SMAP:      smap.graph(%{{.*}} = %arg0 : tensor<64x256xf32>
// SMAP-SAME:   schedule = #smap.schedule<spatial = [l = 8], temporal = []
// SMAP:      smap.spatial_slice {{.*}} tiles [8]
// SMAP:        smap.graph
// SMAP-NOT:  smap.spatial_slice

// Attention's sliced graph shows the temporal loop over the keys with its
// update functions (Update-then-Aggregate).
// ATTN-FILES:      attention_simt_64x128_f32.gpu.mlir
// ATTN-FILES:      attention_simt_64x128_f32.smap.mlir
// ATTN-SMAP:       smap.spatial_slice
// ATTN-SMAP:       smap.temporal_slice #smap.dim<"l", 512, temporal> step 128

// RECORD:      "built": {
// RECORD:        "blocks": 128,
// RECORD:        "predicted": {
// RECORD-NEXT:     "blocks": 128,
// RECORD:          "strategy": "simt",
// RECORD-NEXT:     "threads": 256
// RECORD-NEXT:   },
// RECORD-NEXT:   "scratch": 0,
// RECORD-NEXT:   "smem": [[SMEM:[0-9]+]],
// RECORD-NEXT:   "strategy": "simt",
// RECORD-NEXT:   "threads": 256
// RECORD:      "function": "lstm_cell",
// RECORD-NEXT: "kernel": "lstm_cell_0_simt_8_f32",
// RECORD-NEXT: "location": "{{.*}}lstm_cell.mlir:{{[0-9]+}}:{{[0-9]+}}",
// RECORD-NEXT: "schedule": {
// RECORD-NEXT:   "attribute": "#smap.schedule<spatial = [l = 8], temporal = [], grid = [128], threads = 256, smem = [[SMEM]],
// RECORD:        "smem": [[SMEM]],
// RECORD-NEXT:   "spatial": {
// RECORD-NEXT:     "l": 8
// RECORD-NEXT:   },
// RECORD:        "strategy": "simt",

// The block's GPU IR: buffers in dynamic shared memory, threads located.
// GPU:      gpu.launch blocks
// GPU-SAME:   dynamic_shared_memory_size
// GPU-SAME:   function(@lstm_cell_0_simt_8_f32)
// GPU:        gpu.dynamic_shared_memory
// GPU:        memref.view
// GPU:        gpu.barrier
// GPU:        gpu.terminator

// PTX:      .target sm_90a
// PTX-NOT:  .loc

// The kernel's LLVM IR as the NVVM serialization receives it: the kernel
// function (no line info unless line-info=true).
// LLVM:      define ptx_kernel void @lstm_cell_0_simt_8_f32(
// LLVM-NOT:  !dbg
// PTX:      .entry lstm_cell_0_simt_8_f32(

// A row kernel, outlined before the block lowering: its gpu.module, its
// record (no schedule: the row layout is in the record's parts), a cubin.
// ROWS:      layernorm_rows_f32.cubin
// ROWS-NEXT: layernorm_rows_f32.gpu.mlir
// ROWS-NEXT: layernorm_rows_f32.json
// ROWS-NEXT: layernorm_rows_f32.ll
// ROWS-RECORD:     "strategy": "rows"
// ROWS-RECORD:     "kernel": "layernorm_rows_f32"
// ROWS-RECORD-NOT: "schedule"

// NODIR: error: smap-dump-kernels: cannot create '/proc/spacefusion-no-such-dir'
// NOARG: error: smap-dump-kernels: no directory (dir=...)
// STAGE: error: smap-dump-kernels: unknown stage 'ptx' (smap, gpu, llvm or binary)
