// Batched GEMMs (linalg.batch_matmul, torch.bmm) whose B is batched too,
// at b8 m1024 k1024 n512 in f16. The TMA GEMM lowering reads both
// operands as the matrices of their rows (collapsed on the host); a block
// runs one batch, and its B rows start at b * k. Before, only A could be
// batched, and these ran on mma.sync.
//
// RUN: spacefusion-opt %s --split-input-file --spacefusion-lower-gpu=format=isa --remarks-filter=smap --remark-format=emitRemark 2>&1 \
// RUN:   | FileCheck %s
// RUN: spacefusion-opt %s --split-input-file --spacefusion-lower-gpu=format=isa --mlir-print-ir-after=smap-distribute-blocks -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TMA

// CHECK: remark: [Passed] chosen | Category:smap:schedule | Function=bmm | Remark="scheduled for sm_90a: spatial [b=1, m=128, n=128] temporal [k=64], strategy wgmma_tma
// CHECK-LABEL: llvm.func @bmm(
// CHECK-SAME: smap.kernels = [{blocks = 256 : i64, parts = {stages = 3 : i64, tile_k = 64 : i64, tile_m = 128 : i64, tile_n = 128 : i64}, predicted = {{[{][^}]+[}]}}, smem = 99328 : i64, strategy = "wgmma_tma", threads = 128 : i64}]
// CHECK: gpu.binary @bmm_wgmma_tma_128x128x64_f16
// TMA-LABEL: func.func @bmm(
// TMA:      memref.collapse_shape %arg0 {{\[\[}}0, 1], [2]] : memref<8x1024x1024xf16> into memref<8192x1024xf16>
// TMA:      %[[BROWS:.*]] = memref.collapse_shape %arg1 {{\[\[}}0, 1], [2]] : memref<8x1024x512xf16> into memref<8192x512xf16>
// TMA:      %[[UB:.*]] = memref.cast %[[BROWS]]
// TMA:      %[[DB:.*]] = nvgpu.tma.create.descriptor %[[UB]] box[%{{.*}}, %{{.*}}] : memref<*xf16> -> <tensor = memref<64x64xf16, #gpu.address_space<workgroup>>
// TMA:      gpu.launch
// TMA:        %[[BATCH:.*]] = arith.divui %{{.*}}, %c8{{.*}} : index
// TMA:        nvgpu.tma.async.load
// TMA:        %[[B:.*]] = arith.addi %{{.*}}, %[[BATCH]] : index
// TMA:        %[[BK:.*]] = arith.muli %[[B]], %c1024{{.*}} : index
// TMA:        %[[ROW:.*]] = arith.addi %[[BK]], %{{.*}} : index
// TMA:        nvgpu.tma.async.load %[[DB]][%{{.*}}, %[[ROW]]]
func.func @bmm(%a: tensor<8x1024x1024xf16>, %b: tensor<8x1024x512xf16>) -> tensor<8x1024x512xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<8x1024x512xf16>
  %z = linalg.fill ins(%zero : f16) outs(%e : tensor<8x1024x512xf16>) -> tensor<8x1024x512xf16>
  %c = linalg.batch_matmul ins(%a, %b : tensor<8x1024x1024xf16>, tensor<8x1024x512xf16>) outs(%z : tensor<8x1024x512xf16>) -> tensor<8x1024x512xf16>
  return %c : tensor<8x1024x512xf16>
}

// -----

// B stored [b, n, k] (batch_matmul_transpose_b, Q.K^T without the
// softmax): every wgmma reads it K-major.
// CHECK: remark: [Passed] chosen | Category:smap:schedule | Function=bmm_kmajor | Remark="scheduled for sm_90a: {{.*}}strategy wgmma_tma
// CHECK-LABEL: llvm.func @bmm_kmajor(
// CHECK-SAME: strategy = "wgmma_tma"
// CHECK: gpu.binary @bmm_kmajor_wgmma_tma_
// CHECK-SAME: wgmma.mma_async.sync.aligned.m64n{{[0-9]+}}k16.f32.f16.f16 {{[^;]*}}, p, 1,  1, 0,  0;
// TMA-LABEL: func.func @bmm_kmajor(
// TMA:      memref.collapse_shape %arg1 {{\[\[}}0, 1], [2]] : memref<8x512x1024xf16> into memref<4096x1024xf16>
func.func @bmm_kmajor(%a: tensor<8x1024x1024xf16>, %b: tensor<8x512x1024xf16>) -> tensor<8x1024x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x1024x512xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x1024x512xf32>) -> tensor<8x1024x512xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<8x1024x1024xf16>, tensor<8x512x1024xf16>) outs(%z : tensor<8x1024x512xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %x32 = arith.extf %x : f16 to f32
    %y32 = arith.extf %y : f16 to f32
    %p = arith.mulf %x32, %y32 : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x1024x512xf32>
  return %c : tensor<8x1024x512xf32>
}

// -----

// A k no 64-wide slice divides: the last slice of a batched B[k, n] would
// read the next batch's rows (TMA zero-fills only past the whole tensor),
// so the GEMM stays on mma.sync.
// CHECK: remark: [Passed] chosen | Category:smap:schedule | Function=bmm_ragged_k | Remark="scheduled for sm_90a: {{.*}}strategy mma_sync
// CHECK-LABEL: llvm.func @bmm_ragged_k(
// CHECK-SAME: strategy = "mma_sync"
func.func @bmm_ragged_k(%a: tensor<8x1024x1000xf16>, %b: tensor<8x1000x512xf16>) -> tensor<8x1024x512xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<8x1024x512xf16>
  %z = linalg.fill ins(%zero : f16) outs(%e : tensor<8x1024x512xf16>) -> tensor<8x1024x512xf16>
  %c = linalg.batch_matmul ins(%a, %b : tensor<8x1024x1000xf16>, tensor<8x1000x512xf16>) outs(%z : tensor<8x1024x512xf16>) -> tensor<8x1024x512xf16>
  return %c : tensor<8x1024x512xf16>
}

// -----

// One weight for every batch, broadcast by linalg.broadcast as named-op
// frontends write it: smap-fold-broadcasts reads it as the 2-D matrix it
// is, and every block's B box comes from the same rows.
// CHECK: remark: [Passed] chosen | Category:smap:schedule | Function=shared_weight | Remark="scheduled for sm_90a: {{.*}}strategy wgmma_tma
// CHECK-LABEL: llvm.func @shared_weight(
// CHECK-SAME: strategy = "wgmma_tma"
// TMA-LABEL: func.func @shared_weight(
// TMA-NOT:  memref.collapse_shape %arg1
// TMA:      %[[UW:.*]] = memref.cast %arg1 : memref<1024x512xf16> to memref<*xf16>
// TMA:      nvgpu.tma.create.descriptor %[[UW]]
func.func @shared_weight(%a: tensor<8x1024x1024xf16>, %w: tensor<1024x512xf16>) -> tensor<8x1024x512xf16> {
  %eb = tensor.empty() : tensor<8x1024x512xf16>
  %wb = linalg.broadcast ins(%w : tensor<1024x512xf16>) outs(%eb : tensor<8x1024x512xf16>) dimensions = [0]
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<8x1024x512xf16>
  %z = linalg.fill ins(%zero : f16) outs(%e : tensor<8x1024x512xf16>) -> tensor<8x1024x512xf16>
  %c = linalg.batch_matmul ins(%a, %wb : tensor<8x1024x1024xf16>, tensor<8x1024x512xf16>) outs(%z : tensor<8x1024x512xf16>) -> tensor<8x1024x512xf16>
  return %c : tensor<8x1024x512xf16>
}
