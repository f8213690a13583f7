// RUN: spacefusion-opt %s --smap-form-graphs --smap-set-target=target=sm_90a --smap-schedule=one-wave=0 \
// RUN:   --convert-smap-to-gpu=other-graphs | FileCheck %s
// RUN: spacefusion-opt %s '--spacefusion-lower-gpu=format=isa' | FileCheck %s --check-prefix=GPU
// RUN: spacefusion-opt %s "--spacefusion-lower-gpu=one-wave=0 format=isa row-kernels=false" | FileCheck %s --check-prefix=NOROWS
// RUN: rm -rf %t && spacefusion-opt %s -o /dev/null "--spacefusion-lower-gpu=one-wave=0 format=isa dump-kernels-to=%t"
// RUN: FileCheck %s --check-prefix=DUMP < %t/gemm_then_rows_1_rows_f32.json
// RUN: ls %t | FileCheck %s --check-prefix=DUMP-FILES
// RUN: not spacefusion-opt %s --smap-form-graphs --smap-set-target=target=sm_90a --smap-schedule \
// RUN:   --convert-smap-to-gpu -o /dev/null 2>&1 | FileCheck %s --check-prefix=STRICT

// A row graph that is not the whole of its function (one of two graphs,
// fed by the other and by an argument) is replaced in place by its launch:
// its inputs read as buffers, its results written to new ones and given
// back as tensors for the bufferization of the rest of the function, which
// the general lowering then builds (issue 19: row kernels for any row
// graph, not only a function that is one graph).

// A GEMM, then a residual add and a row sum of squares over its result:
// the cost model cuts between them, and the second graph is a row graph.
// CHECK-LABEL: func.func @gemm_then_rows(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<256x512xf32>, %[[B:[a-z0-9]+]]: tensor<512x256xf32>, %[[R:[a-z0-9]+]]: tensor<256x256xf32>)
// CHECK-SAME: smap.kernels = [{blocks = 128 : i64, parts = {chunks = 2 : i64, rows = 256 : i64, rows_per_block = 2 : i64, vector = 4 : i64}
// CHECK-SAME: strategy = "rows", threads = 64 : i64}]
// CHECK:      %[[GEMM:.+]] = smap.graph(%{{.+}} = %[[A]] : tensor<256x512xf32>, %{{.+}} = %[[B]] : tensor<512x256xf32>)
// CHECK-SAME:   strategy = simt
// CHECK:      %[[CBUF:.+]] = bufferization.to_buffer %[[GEMM]] read_only : tensor<256x256xf32> to memref<256x256xf32>
// CHECK:      %[[CFLAT:.+]] = memref.collapse_shape %[[CBUF]] {{\[\[}}0, 1]] : memref<256x256xf32> into memref<65536xf32>
// CHECK:      %[[RBUF:.+]] = bufferization.to_buffer %[[R]] read_only : tensor<256x256xf32> to memref<256x256xf32>
// CHECK:      %[[RFLAT:.+]] = memref.collapse_shape %[[RBUF]]
// CHECK:      %[[HBUF:.+]] = memref.alloc() : memref<256x256xf32>
// CHECK:      %[[HFLAT:.+]] = memref.collapse_shape %[[HBUF]]
// CHECK:      %[[SBUF:.+]] = memref.alloc() : memref<256xf32>
// CHECK:      gpu.launch
// CHECK-SAME:   function(@gemm_then_rows_1_rows_f32)
// CHECK-DAG:    vector.load %[[CFLAT]]
// CHECK-DAG:    vector.load %[[RFLAT]]
// CHECK-DAG:    vector.store %{{.+}}, %[[HFLAT]]
// CHECK-DAG:    memref.store %{{.+}}, %[[SBUF]]
// CHECK:        gpu.terminator
// CHECK:      %[[H:.+]] = bufferization.to_tensor %[[HBUF]] restrict writable : memref<256x256xf32> to tensor<256x256xf32>
// CHECK:      %[[S:.+]] = bufferization.to_tensor %[[SBUF]] restrict writable : memref<256xf32> to tensor<256xf32>
// CHECK-NOT:  smap.graph
// CHECK:      return %[[H]], %[[S]]

// The whole lowering: the GEMM's block kernel, then the row kernel, in
// program order in the function's records; the row kernel reads the GEMM's
// buffer and writes the out-parameters, with no copy between them.
// GPU-LABEL: llvm.func @gemm_then_rows(
// GPU-SAME: smap.kernels = [{{{.*}}strategy = "simt"{{.*}}}, {blocks = 128 : i64, {{.*}}strategy = "rows", threads = 64 : i64}]
// GPU-NOT:  mgpuMemcpy
// GPU:      gpu.launch_func @gemm_then_rows_0_simt
// GPU-NOT:  mgpuMemcpy
// GPU:      gpu.launch_func @gemm_then_rows_1_rows_f32::@gemm_then_rows_1_rows_f32
// GPU-NOT:  mgpuMemcpy
// GPU:      llvm.return
// GPU:      gpu.binary @gemm_then_rows_0_simt
// GPU:      gpu.binary @gemm_then_rows_1_rows_f32

// row-kernels=false (the pipeline option) gives the row graph a block
// schedule instead.
// NOROWS-LABEL: llvm.func @gemm_then_rows(
// NOROWS-SAME: smap.kernels = [{{{.*}}strategy = "simt"{{.*}}}, {{{.*}}strategy = "simt"{{.*}}}]
// NOROWS-NOT: rows_1_rows_f32
// NOROWS: gpu.binary @gemm_then_rows_1_simt_f32

// The kernel dump pairs the outlined row kernel with its record (the
// second of the function's).
// DUMP: "blocks": 128
// DUMP: "strategy": "rows"
// DUMP: "kernel": "gemm_then_rows_1_rows_f32"
// The GEMM's sliced graph is named as its kernel.
// DUMP-FILES: gemm_then_rows_0_simt_64x8_f32.gpu.mlir
// DUMP-FILES: gemm_then_rows_0_simt_64x8_f32.smap.mlir
// DUMP-FILES: gemm_then_rows_1_rows_f32.gpu.mlir

// Without other-graphs, the graph that is no row kernel is an error.
// STRICT: error: convert-smap-to-gpu: not lowered to a GPU kernel: the graph is scheduled as simt, not as a row kernel

#id = affine_map<(m, n) -> (m, n)>
#row = affine_map<(m, n) -> (m)>
func.func @gemm_then_rows(%a: tensor<256x512xf32>, %b: tensor<512x256xf32>,
                          %r: tensor<256x256xf32>) -> (tensor<256x256xf32>, tensor<256xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %c = linalg.matmul ins(%a, %b : tensor<256x512xf32>, tensor<512x256xf32>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  %e2 = tensor.empty() : tensor<256x256xf32>
  %h = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %r : tensor<256x256xf32>, tensor<256x256xf32>) outs(%e2 : tensor<256x256xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<256x256xf32>
  %e3 = tensor.empty() : tensor<256xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<256xf32>) -> tensor<256xf32>
  %ss = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%h : tensor<256x256xf32>) outs(%f3 : tensor<256xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %q = arith.mulf %x, %x : f32
    %s = arith.addf %q, %acc : f32
    linalg.yield %s : f32
  } -> tensor<256xf32>
  return %h, %ss : tensor<256x256xf32>, tensor<256xf32>
}
