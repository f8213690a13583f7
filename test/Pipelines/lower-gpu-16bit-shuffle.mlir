// A reduction computed in a 16-bit type (linalg.softmax over bf16 or f16,
// decomposed in that type) reduces across a warp by shuffles, which move
// 32-bit values: the row kernel shuffled the 16-bit value itself, and
// nvvm.shfl.sync's verifier rejected the IR (fuzzer seeds 526, 549). The
// value travels extended to f32 and comes back rounded (exact both ways).
// RUN: spacefusion-opt %s -split-input-file --spacefusion-lower-gpu=format=isa | FileCheck %s
// RUN: spacefusion-opt %s -split-input-file --spacefusion-pipeline="target=sm_90a" -o /dev/null

// CHECK-LABEL: gpu.binary @softmax_bf16_rows_bf16
// CHECK-SAME: cvt.f32.bf16
// CHECK-SAME: shfl.sync.bfly.b32
// CHECK-SAME: cvt.rn.bf16.f32
func.func @softmax_bf16(%x: tensor<7xbf16>) -> tensor<7xbf16> {
  %e = tensor.empty() : tensor<7xbf16>
  %y = linalg.softmax dimension(0) ins(%x : tensor<7xbf16>) outs(%e : tensor<7xbf16>) -> tensor<7xbf16>
  return %y : tensor<7xbf16>
}

// -----

// CHECK-LABEL: gpu.binary @softmax_f16_rows_f16
// CHECK-SAME: cvt.f32.f16
// CHECK-SAME: shfl.sync.bfly.b32
// CHECK-SAME: cvt.rn.f16.f32
func.func @softmax_f16(%x: tensor<4x300xf16>) -> tensor<4x300xf16> {
  %e = tensor.empty() : tensor<4x300xf16>
  %y = linalg.softmax dimension(1) ins(%x : tensor<4x300xf16>) outs(%e : tensor<4x300xf16>) -> tensor<4x300xf16>
  return %y : tensor<4x300xf16>
}

// -----

// f16 data summed into an f32 accumulator, and an f16 sum accumulated in
// f16 (issue 17: f16 accumulators stored to f32 buffers, shuffles of f16).
// Two graphs, each a row kernel in place (the f16 sum widened to f32 and
// rounded once, as smap-widen-accumulators does).
// CHECK-LABEL: gpu.binary @sums_0_rows_f16
// CHECK-SAME: cvt.f32.f16
// CHECK-SAME: shfl.sync.bfly.b32
// CHECK-NOT: cvt.rn.f16.f32
// CHECK-LABEL: gpu.binary @sums_1_rows_f16
// CHECK-SAME: shfl.sync.bfly.b32
// CHECK-SAME: cvt.rn.f16.f32
#rc = affine_map<(r, c) -> (r, c)>
#r = affine_map<(r, c) -> (r)>
func.func @sums(%x: tensor<64x256xf16>) -> (tensor<64xf32>, tensor<64xf16>) {
  %zero = arith.constant 0.0 : f32
  %zeroh = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %s = linalg.generic {indexing_maps = [#rc, #r], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x256xf16>) outs(%f : tensor<64xf32>) {
  ^bb0(%v: f16, %acc: f32):
    %w = arith.extf %v : f16 to f32
    %a = arith.addf %w, %acc : f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  %eh = tensor.empty() : tensor<64xf16>
  %fh = linalg.fill ins(%zeroh : f16) outs(%eh : tensor<64xf16>) -> tensor<64xf16>
  %sh = linalg.generic {indexing_maps = [#rc, #r], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x256xf16>) outs(%fh : tensor<64xf16>) {
  ^bb0(%v: f16, %acc: f16):
    %a = arith.addf %v, %acc : f16
    linalg.yield %a : f16
  } -> tensor<64xf16>
  return %s, %sh : tensor<64xf32>, tensor<64xf16>
}
