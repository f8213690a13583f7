// A GEMM whose f32 accumulator is the function's result (f16 operands
// extended in the body, no epilogue: a matmul with an f32 output, as
// mixed-precision frontends write it). Bufferization used to accumulate
// straight into the output, and the wgmma lowering, which the schedule had
// chosen, failed: "the contraction does not accumulate into a block
// buffer". smap-stage-block-operands now keeps the accumulator in a block
// tile and copies it to the output, so the kernel is the scheduled one.
//
// RUN: spacefusion-opt %s --spacefusion-lower-gpu=format=isa | FileCheck %s
//
// CHECK-LABEL: llvm.func @linear_f32_result(
// CHECK-SAME: smap.kernels = [{blocks = 128 : i64, {{.*}}smem = 99328 : i64, strategy = "wgmma_tma", threads = 128 : i64}]
// CHECK: gpu.binary @linear_f32_result_wgmma_tma_128x128x64_f16
// CHECK-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @linear_f32_result(%x: tensor<2048x1024xf16>, %w: tensor<1024x1024xf16>) -> tensor<2048x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2048x1024xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
  %y = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<2048x1024xf16>, tensor<1024x1024xf16>) outs(%init : tensor<2048x1024xf32>) {
  ^bb0(%p: f16, %q: f16, %acc: f32):
    %p32 = arith.extf %p : f16 to f32
    %q32 = arith.extf %q : f16 to f32
    %t = arith.mulf %p32, %q32 : f32
    %s = arith.addf %acc, %t : f32
    linalg.yield %s : f32
  } -> tensor<2048x1024xf32>
  return %y : tensor<2048x1024xf32>
}
