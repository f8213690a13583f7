// A reduction computed in a 16-bit type (linalg.softmax over bf16 or f16,
// decomposed in that type) reduces across a warp by shuffles, which move
// 32-bit values: the row kernel shuffled the 16-bit value itself, and
// nvvm.shfl.sync's verifier rejected the IR (fuzzer seeds 526, 549). The
// value travels extended to f32 and comes back rounded (exact both ways).
// RUN: spacefusion-opt %s -split-input-file --spacefusion-lower-gpu=format=isa | FileCheck %s
// RUN: spacefusion-opt %s -split-input-file --spacefusion-pipeline="target=sm_90a" -o /dev/null

// CHECK-LABEL: gpu.binary @softmax_bf16_kernel
// CHECK-SAME: cvt.f32.bf16
// CHECK-SAME: shfl.sync.bfly.b32
// CHECK-SAME: cvt.rn.bf16.f32
func.func @softmax_bf16(%x: tensor<7xbf16>) -> tensor<7xbf16> {
  %e = tensor.empty() : tensor<7xbf16>
  %y = linalg.softmax dimension(0) ins(%x : tensor<7xbf16>) outs(%e : tensor<7xbf16>) -> tensor<7xbf16>
  return %y : tensor<7xbf16>
}

// -----

// CHECK-LABEL: gpu.binary @softmax_f16_kernel
// CHECK-SAME: cvt.f32.f16
// CHECK-SAME: shfl.sync.bfly.b32
// CHECK-SAME: cvt.rn.f16.f32
func.func @softmax_f16(%x: tensor<4x300xf16>) -> tensor<4x300xf16> {
  %e = tensor.empty() : tensor<4x300xf16>
  %y = linalg.softmax dimension(1) ins(%x : tensor<4x300xf16>) outs(%e : tensor<4x300xf16>) -> tensor<4x300xf16>
  return %y : tensor<4x300xf16>
}
