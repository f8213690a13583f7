// Attention over 197 tokens (ViT-B's length, a prime) on tensor cores: the
// query blocks and the key slices do not divide 197, so the last block and
// the last slice are read at 197 - 64 and 197 - 128 (static shapes, in
// bounds), the repeated keys left out of the sum and zeroed in P. It used
// to be scheduled on CUDA cores (no tile divides 197), 0.01x of SDPA
// FlashAttention-2 at b64 h12 d64; bench/results/fused-issue19-ragged.md has
// the measured rate.
//
// RUN: spacefusion-opt %s --spacefusion-lower-gpu=format=isa | FileCheck %s
//
// CHECK-LABEL: llvm.func @attention(
// CHECK-SAME: smap.kernels = [{blocks = 128 : i64, {{.*}}strategy = "row_fragments_wgmma", threads = 128 : i64}]
// CHECK: gpu.binary @attention_row_fragments_wgmma_64x16x128_f16
// CHECK-SAME: min.u64 {{[^;]*}}, 133;
// CHECK-SAME: wgmma.mma_async.sync.aligned.m64n
func.func @attention(%q: tensor<2x4x197x64xf16>, %k: tensor<2x4x197x64xf16>, %v: tensor<2x4x197x64xf16>) -> tensor<2x4x197x64xf16> {
  %e1 = tensor.empty() : tensor<2x4x197x64xf32>
  %g2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%q : tensor<2x4x197x64xf16>) outs(%e1 : tensor<2x4x197x64xf32>) {
  ^bb0(%in0: f16, %acc: f32):
    %y = arith.extf %in0 : f16 to f32
    linalg.yield %y : f32
  } -> tensor<2x4x197x64xf32>
  %e3 = tensor.empty() : tensor<2x4x197x64xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%k : tensor<2x4x197x64xf16>) outs(%e3 : tensor<2x4x197x64xf32>) {
  ^bb0(%in0: f16, %acc: f32):
    %y = arith.extf %in0 : f16 to f32
    linalg.yield %y : f32
  } -> tensor<2x4x197x64xf32>
  %e5 = tensor.empty() : tensor<2x4x197x64xf32>
  %g6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%v : tensor<2x4x197x64xf16>) outs(%e5 : tensor<2x4x197x64xf32>) {
  ^bb0(%in0: f16, %acc: f32):
    %y = arith.extf %in0 : f16 to f32
    linalg.yield %y : f32
  } -> tensor<2x4x197x64xf32>
  %c7 = arith.constant 0.000000000e+00 : f32
  %e9 = tensor.empty() : tensor<2x4x197x197xf32>
  %f8 = linalg.fill ins(%c7 : f32) outs(%e9 : tensor<2x4x197x197xf32>) -> tensor<2x4x197x197xf32>
  %g10 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l, k) -> (b, h, m, k)>, affine_map<(b, h, m, l, k) -> (b, h, l, k)>, affine_map<(b, h, m, l, k) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g2, %g4 : tensor<2x4x197x64xf32>, tensor<2x4x197x64xf32>) outs(%f8 : tensor<2x4x197x197xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<2x4x197x197xf32>
  %c11 = arith.constant 1.250000000e-01 : f32
  %e12 = tensor.empty() : tensor<2x4x197x197xf32>
  %g13 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g10 : tensor<2x4x197x197xf32>) outs(%e12 : tensor<2x4x197x197xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.mulf %in0, %c11 : f32
    linalg.yield %y : f32
  } -> tensor<2x4x197x197xf32>
  %c14 = arith.constant 0xFF800000 : f32
  %e16 = tensor.empty() : tensor<2x4x197xf32>
  %f15 = linalg.fill ins(%c14 : f32) outs(%e16 : tensor<2x4x197xf32>) -> tensor<2x4x197xf32>
  %g17 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g13 : tensor<2x4x197x197xf32>) outs(%f15 : tensor<2x4x197xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.maximumf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<2x4x197xf32>
  %e18 = tensor.empty() : tensor<2x4x197x197xf32>
  %g19 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g13, %g17 : tensor<2x4x197x197xf32>, tensor<2x4x197xf32>) outs(%e18 : tensor<2x4x197x197xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %d = arith.subf %in0, %in1 : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<2x4x197x197xf32>
  %c20 = arith.constant 0.000000000e+00 : f32
  %e22 = tensor.empty() : tensor<2x4x197xf32>
  %f21 = linalg.fill ins(%c20 : f32) outs(%e22 : tensor<2x4x197xf32>) -> tensor<2x4x197xf32>
  %g23 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g19 : tensor<2x4x197x197xf32>) outs(%f21 : tensor<2x4x197xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.addf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<2x4x197xf32>
  %e24 = tensor.empty() : tensor<2x4x197x197xf32>
  %g25 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g19, %g23 : tensor<2x4x197x197xf32>, tensor<2x4x197xf32>) outs(%e24 : tensor<2x4x197x197xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %y = arith.divf %in0, %in1 : f32
    linalg.yield %y : f32
  } -> tensor<2x4x197x197xf32>
  %c26 = arith.constant 0.000000000e+00 : f32
  %e28 = tensor.empty() : tensor<2x4x197x64xf32>
  %f27 = linalg.fill ins(%c26 : f32) outs(%e28 : tensor<2x4x197x64xf32>) -> tensor<2x4x197x64xf32>
  %g29 = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, l) -> (b, h, m, l)>, affine_map<(b, h, m, n, l) -> (b, h, l, n)>, affine_map<(b, h, m, n, l) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g25, %g6 : tensor<2x4x197x197xf32>, tensor<2x4x197x64xf32>) outs(%f27 : tensor<2x4x197x64xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<2x4x197x64xf32>
  %e30 = tensor.empty() : tensor<2x4x197x64xf16>
  %g31 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g29 : tensor<2x4x197x64xf32>) outs(%e30 : tensor<2x4x197x64xf16>) {
  ^bb0(%in0: f32, %acc: f16):
    %y = arith.truncf %in0 : f32 to f16
    linalg.yield %y : f16
  } -> tensor<2x4x197x64xf16>
  return %g31 : tensor<2x4x197x64xf16>
}

