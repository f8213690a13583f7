// A matmul of f16 into f16, as torch-mlir writes a half-precision mm,
// reaches wgmma: the pipelines accumulate it in f32 and round the result
// (smap-widen-accumulators, what cuBLAS computes). With
// widen-accumulators=false the program's f16 accumulation is kept, on CUDA
// cores (before, that was the only path).
//
// RUN: spacefusion-opt %s --spacefusion-lower-gpu=format=isa | FileCheck %s
// RUN: spacefusion-opt %s --spacefusion-pipeline="target=sm_90a" | FileCheck %s --check-prefix=PIPELINE
// RUN: spacefusion-opt %s --spacefusion-lower-gpu="format=isa widen-accumulators=false" \
// RUN:   | FileCheck %s --check-prefix=KEPT
// RUN: spacefusion-opt %s --spacefusion-pipeline="target=sm_90a widen-accumulators=false" \
// RUN:   | FileCheck %s --check-prefix=KEPT
//
// CHECK-LABEL: llvm.func @mm_f16(
// CHECK-SAME: smap.kernels = [{blocks = 128 : i64, {{.*}}strategy = "wgmma_tma", threads = 128 : i64}]
// CHECK: gpu.binary @mm_f16_wgmma_tma_128x128x64_f16
// CHECK-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// PIPELINE-LABEL: llvm.func @mm_f16(
// PIPELINE-SAME: strategy = "wgmma_tma"
// KEPT-LABEL: llvm.func @mm_f16(
// KEPT-SAME: strategy = "simt"
func.func @mm_f16(%x: tensor<2048x1024xf16>, %w: tensor<1024x1024xf16>) -> tensor<2048x1024xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<2048x1024xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<2048x1024xf16>) -> tensor<2048x1024xf16>
  %y = linalg.matmul ins(%x, %w : tensor<2048x1024xf16>, tensor<1024x1024xf16>) outs(%f : tensor<2048x1024xf16>) -> tensor<2048x1024xf16>
  return %y : tensor<2048x1024xf16>
}
