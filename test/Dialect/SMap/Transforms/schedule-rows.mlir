// RUN: spacefusion-opt %s -split-input-file --smap-form-graphs --smap-schedule | FileCheck %s
// RUN: spacefusion-opt %s -split-input-file --smap-form-graphs --smap-schedule \
// RUN:   --remarks-filter=smap --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: not spacefusion-opt %s -split-input-file --smap-form-graphs '--smap-schedule=rows-per-block=4' \
// RUN:   --remarks-filter=smap --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=PACKED
// RUN: spacefusion-opt %s -split-input-file --smap-form-graphs '--smap-schedule=rows=false' \
// RUN:   | FileCheck %s --check-prefix=NOROWS

// smap-schedule decides the row kernels too (strategy rows), with the layout
// convert-smap-to-gpu builds: threads per block, rows per block and the shared
// memory the cross-warp step needs.

// A softmax as torch-mlir writes it for f16 (extension, f32 math, rounding),
// after --cse (one tensor.empty shared): a warp per row, two rows per block.
// CHECK-LABEL: func.func @softmax_f16
// CHECK: smap.graph
// CHECK-SAME: schedule = #smap.schedule<spatial = [m = 1], temporal = [], grid = [4096], threads = 64, smem = 0, regs = 0, strategy = rows, rows_per_block = 2>
// REMARK: remark: [Passed] rows | Category:smap:schedule | Function={{[a-z_0-9]+}} | Remark="runs as a row kernel on sm_90a: 4096 rows of 1024 ('n'): 32 threads per row, rows_per_block 2, 8-element vectors, 4 loads per thread; 2048 blocks x 64 threads, 0 B shared memory"
// PACKED: remark: [Passed] rows | Category:smap:schedule | Function={{[a-z_0-9]+}} | Remark="runs as a row kernel on sm_90a: 4096 rows of 1024 ('n'): 32 threads per row, rows_per_block 4, 8-element vectors, 4 loads per thread; 1024 blocks x 128 threads, 0 B shared memory"
// NOROWS-LABEL: func.func @softmax_f16
// NOROWS-NOT: strategy = rows
// NOROWS: return
#id = affine_map<(m, n) -> (m, n)>
#row = affine_map<(m, n) -> (m)>
func.func @softmax_f16(%x: tensor<4096x1024xf16>) -> tensor<4096x1024xf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4096x1024xf32>
  %er = tensor.empty() : tensor<4096xf32>
  %xf = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4096x1024xf16>) outs(%e : tensor<4096x1024xf32>) {
  ^bb0(%a: f16, %o: f32):
    %w = arith.extf %a : f16 to f32
    linalg.yield %w : f32
  } -> tensor<4096x1024xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<4096xf32>) -> tensor<4096xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%xf : tensor<4096x1024xf32>) outs(%fm : tensor<4096xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maximumf %a, %acc : f32
    linalg.yield %m : f32
  } -> tensor<4096xf32>
  %exp = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xf, %max : tensor<4096x1024xf32>, tensor<4096xf32>) outs(%e : tensor<4096x1024xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<4096x1024xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%er : tensor<4096xf32>) -> tensor<4096xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<4096x1024xf32>) outs(%fs : tensor<4096xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4096xf32>
  %eh = tensor.empty() : tensor<4096x1024xf16>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<4096x1024xf32>, tensor<4096xf32>) outs(%eh : tensor<4096x1024xf16>) {
  ^bb0(%a: f32, %s: f32, %o: f16):
    %q = arith.divf %a, %s : f32
    %h = arith.truncf %q : f32 to f16
    linalg.yield %h : f16
  } -> tensor<4096x1024xf16>
  return %y : tensor<4096x1024xf16>
}

// -----

// A row of 8192 f32 takes a block of 512 threads, whose warps combine their
// partials through 128 bytes of shared memory.
// CHECK-LABEL: func.func @row_sum_8192
// CHECK: smap.graph
// CHECK-SAME: schedule = #smap.schedule<spatial = [m = 1], temporal = [], grid = [64], threads = 512, smem = 128, regs = 0, strategy = rows, rows_per_block = 1>
// REMARK: remark: [Passed] rows | Category:smap:schedule | Function={{[a-z_0-9]+}} | Remark="runs as a row kernel on sm_90a: 64 rows of 8192 ('k'): 512 threads per row, rows_per_block 1, 4-element vectors, 4 loads per thread; 64 blocks x 512 threads, 128 B shared memory"
// A block per row cannot hold several rows: asking for it is an error.
// PACKED: error: smap-schedule: the row kernel cannot be built: rows-per-block applies to a warp per row; a row of 8192 elements takes 512 threads
#id = affine_map<(m, n) -> (m, n)>
#row = affine_map<(m, n) -> (m)>
func.func @row_sum_8192(%x: tensor<64x8192xf32>) -> tensor<64xf32> {
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<64xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%er : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x8192xf32>) outs(%fs : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  return %sum : tensor<64xf32>
}

// -----

// A row of 32768 f32 leaves each of 512 threads 64 elements, more than half
// of the 64 registers a thread has when two blocks share the SM (65536):
// the block gets the whole register file, 128 per thread, recorded as the
// schedule's regs (smap-set-kernel-register-counts gives it to ptxas).
// CHECK-LABEL: func.func @row_sum_32768
// CHECK: smap.graph
// CHECK-SAME: schedule = #smap.schedule<spatial = [m = 1], temporal = [], grid = [8], threads = 512, smem = 128, regs = 128, strategy = rows, rows_per_block = 1>
// REMARK: remark: [Passed] rows | Category:smap:schedule | Function={{[a-z_0-9]+}} | Remark="runs as a row kernel on sm_90a: 8 rows of 32768 ('k'): 512 threads per row, rows_per_block 1, 4-element vectors, 16 loads per thread; 8 blocks x 512 threads, 128 B shared memory, 128 registers per thread (the SM's whole register file: the 64 elements of a row each thread holds would not fit two blocks per SM)"
#id = affine_map<(m, n) -> (m, n)>
#row = affine_map<(m, n) -> (m)>
func.func @row_sum_32768(%x: tensor<8x32768xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<8xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x32768xf32>) outs(%fs : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %sum : tensor<8xf32>
}

// -----

// Half a row of that: 32 elements per thread fit two blocks per SM, and
// ptxas keeps its own count.
// CHECK-LABEL: func.func @row_sum_16384
// CHECK: smap.graph
// CHECK-SAME: schedule = #smap.schedule<spatial = [m = 1], temporal = [], grid = [8], threads = 512, smem = 128, regs = 0, strategy = rows, rows_per_block = 1>
#id = affine_map<(m, n) -> (m, n)>
#row = affine_map<(m, n) -> (m)>
func.func @row_sum_16384(%x: tensor<8x16384xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<8xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x16384xf32>) outs(%fs : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %sum : tensor<8xf32>
}

// -----

// Two graphs in one function: each is a row kernel (convert-smap-to-gpu
// builds them in place rather than replacing the function).
// CHECK-LABEL: func.func @two_graphs
// CHECK: smap.graph
// CHECK-SAME: strategy = rows
// CHECK: smap.graph
// CHECK-SAME: strategy = rows
// CHECK: return
// REMARK: remark: [Passed] rows | Category:smap:schedule | Function=two_graphs | Remark="runs as a row kernel on sm_90a: 64 rows of 256 ('k')
// REMARK: remark: [Passed] rows | Category:smap:schedule | Function=two_graphs | Remark="runs as a row kernel on sm_90a: 64 rows of 256 ('k')
#id = affine_map<(m, n) -> (m, n)>
#row = affine_map<(m, n) -> (m)>
func.func @two_graphs(%x: tensor<64x256xf32>, %z: tensor<64x256xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<64xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%er : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x256xf32>) outs(%fs : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  %er2 = tensor.empty() : tensor<64xf32>
  %fs2 = linalg.fill ins(%zero : f32) outs(%er2 : tensor<64xf32>) -> tensor<64xf32>
  %sum2 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%z : tensor<64x256xf32>) outs(%fs2 : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.maximumf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  return %sum, %sum2 : tensor<64xf32>, tensor<64xf32>
}

// -----

// A scalar graph input (a scale passed by value): no row kernel reads it,
// so the graph gets a block schedule; the remark says why.
// CHECK-LABEL: func.func @scaled_sum
// CHECK-NOT: strategy = rows
// CHECK: return
// REMARK: remark: [Missed] not-rows | Category:smap:schedule | Function=scaled_sum | Remark="not a row kernel: a graph input is not a tensor"
#id = affine_map<(m, n) -> (m, n)>
#row = affine_map<(m, n) -> (m)>
func.func @scaled_sum(%x: tensor<64x256xf32>, %s: f32) -> tensor<64xf32> {
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<64xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%er : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x256xf32>) outs(%fs : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.mulf %a, %s : f32
    %r = arith.addf %m, %acc : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  return %sum : tensor<64xf32>
}
