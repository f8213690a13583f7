// bf16 reaches the tensor cores like f16: wgmma with .bf16 operands for a
// GEMM and for attention's row fragments, and mma.sync m16n8k16 .bf16 where
// wgmma does not apply (upstream's nvgpu.mma.sync lowering cannot type
// bf16 fragments in LLVM 22, so those go to nvvm.mma.sync directly).
// RUN: spacefusion-opt %s -split-input-file '--spacefusion-lower-gpu=one-wave=0 format=isa' | FileCheck %s

// A named linalg.matmul of bf16 operands into f32, rounded to bf16.
// CHECK-LABEL: llvm.func @linear_bf16(
// CHECK-SAME: smap.kernels = [{blocks = 128 : i64, {{.*}}strategy = "wgmma_tma", threads = 128 : i64}]
// CHECK: gpu.binary @linear_bf16_wgmma_tma_128x128x64_bf16
// CHECK-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// CHECK-NOT: fma.rn.f32
func.func @linear_bf16(%x: tensor<2048x1024xbf16>, %w: tensor<1024x1024xbf16>) -> tensor<2048x1024xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2048x1024xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
  %y = linalg.matmul ins(%x, %w : tensor<2048x1024xbf16>, tensor<1024x1024xbf16>) outs(%f : tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
  %eh = tensor.empty() : tensor<2048x1024xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<2048x1024xf32>) outs(%eh : tensor<2048x1024xbf16>) {
  ^bb0(%a: f32, %o: bf16):
    %t = arith.truncf %a : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<2048x1024xbf16>
  return %r : tensor<2048x1024xbf16>
}

// -----

// A GEMM too small to fill wgmma blocks: mma.sync on bf16 fragments.
// CHECK-LABEL: llvm.func @gemm(
// CHECK-SAME: strategy = "mma_sync"
// CHECK: gpu.binary @gemm_mma_sync_16x16_bf16
// CHECK-SAME: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
func.func @gemm(%a: tensor<256x128xbf16>, %b: tensor<128x384xbf16>) -> tensor<256x384xbf16> {
  %e1 = tensor.empty() : tensor<256x128xf32>
  %g2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<256x128xbf16>) outs(%e1 : tensor<256x128xf32>) {
  ^bb0(%in0: bf16, %acc: f32):
    %y = arith.extf %in0 : bf16 to f32
    linalg.yield %y : f32
  } -> tensor<256x128xf32>
  %e3 = tensor.empty() : tensor<128x384xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<128x384xbf16>) outs(%e3 : tensor<128x384xf32>) {
  ^bb0(%in0: bf16, %acc: f32):
    %y = arith.extf %in0 : bf16 to f32
    linalg.yield %y : f32
  } -> tensor<128x384xf32>
  %c5 = arith.constant 0.000000000e+00 : f32
  %e7 = tensor.empty() : tensor<256x384xf32>
  %f6 = linalg.fill ins(%c5 : f32) outs(%e7 : tensor<256x384xf32>) -> tensor<256x384xf32>
  %g8 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%g2, %g4 : tensor<256x128xf32>, tensor<128x384xf32>) outs(%f6 : tensor<256x384xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<256x384xf32>
  %e9 = tensor.empty() : tensor<256x384xbf16>
  %g10 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%g8 : tensor<256x384xf32>) outs(%e9 : tensor<256x384xbf16>) {
  ^bb0(%in0: f32, %acc: bf16):
    %y = arith.truncf %in0 : f32 to bf16
    linalg.yield %y : bf16
  } -> tensor<256x384xbf16>
  return %g10 : tensor<256x384xbf16>
}

// -----

// Attention as bf16 frontends write it (operands extended in the
// contraction bodies, P rounded to bf16): one kernel, row fragments on
// wgmma with bf16 operands.
// CHECK-LABEL: llvm.func @attention(
// CHECK-SAME: smap.kernels = [{blocks = 128 : i64, {{.*}}strategy = "row_fragments_wgmma", threads = 256 : i64}]
// CHECK: gpu.binary @attention_row_fragments_wgmma_128x128_bf16
// CHECK-SAME: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
func.func @attention(%q: tensor<2x8x1024x64xbf16>, %k: tensor<2x8x1024x64xbf16>, %v: tensor<2x8x1024x64xbf16>) -> tensor<2x8x1024x64xbf16> {
  %c1 = arith.constant 0.000000000e+00 : f32
  %e3 = tensor.empty() : tensor<2x8x1024x1024xf32>
  %f2 = linalg.fill ins(%c1 : f32) outs(%e3 : tensor<2x8x1024x1024xf32>) -> tensor<2x8x1024x1024xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l, k) -> (b, h, m, k)>, affine_map<(b, h, m, l, k) -> (b, h, l, k)>, affine_map<(b, h, m, l, k) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x8x1024x64xbf16>, tensor<2x8x1024x64xbf16>) outs(%f2 : tensor<2x8x1024x1024xf32>) {
  ^bb0(%in0: bf16, %in1: bf16, %acc: f32):
    %x = arith.extf %in0 : bf16 to f32
    %w = arith.extf %in1 : bf16 to f32
    %p = arith.mulf %x, %w : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<2x8x1024x1024xf32>
  %c5 = arith.constant 1.250000000e-01 : f32
  %e6 = tensor.empty() : tensor<2x8x1024x1024xf32>
  %g7 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g4 : tensor<2x8x1024x1024xf32>) outs(%e6 : tensor<2x8x1024x1024xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.mulf %in0, %c5 : f32
    linalg.yield %y : f32
  } -> tensor<2x8x1024x1024xf32>
  %c8 = arith.constant 0xFF800000 : f32
  %e10 = tensor.empty() : tensor<2x8x1024xf32>
  %f9 = linalg.fill ins(%c8 : f32) outs(%e10 : tensor<2x8x1024xf32>) -> tensor<2x8x1024xf32>
  %g11 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g7 : tensor<2x8x1024x1024xf32>) outs(%f9 : tensor<2x8x1024xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.maximumf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<2x8x1024xf32>
  %e12 = tensor.empty() : tensor<2x8x1024x1024xf32>
  %g13 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g7, %g11 : tensor<2x8x1024x1024xf32>, tensor<2x8x1024xf32>) outs(%e12 : tensor<2x8x1024x1024xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %d = arith.subf %in0, %in1 : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<2x8x1024x1024xf32>
  %c14 = arith.constant 0.000000000e+00 : f32
  %e16 = tensor.empty() : tensor<2x8x1024xf32>
  %f15 = linalg.fill ins(%c14 : f32) outs(%e16 : tensor<2x8x1024xf32>) -> tensor<2x8x1024xf32>
  %g17 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g13 : tensor<2x8x1024x1024xf32>) outs(%f15 : tensor<2x8x1024xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.addf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<2x8x1024xf32>
  %e18 = tensor.empty() : tensor<2x8x1024x1024xbf16>
  %g19 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g13, %g17 : tensor<2x8x1024x1024xf32>, tensor<2x8x1024xf32>) outs(%e18 : tensor<2x8x1024x1024xbf16>) {
  ^bb0(%in0: f32, %in1: f32, %acc: bf16):
    %r = arith.divf %in0, %in1 : f32
    %y = arith.truncf %r : f32 to bf16
    linalg.yield %y : bf16
  } -> tensor<2x8x1024x1024xbf16>
  %c20 = arith.constant 0.000000000e+00 : f32
  %e22 = tensor.empty() : tensor<2x8x1024x64xf32>
  %f21 = linalg.fill ins(%c20 : f32) outs(%e22 : tensor<2x8x1024x64xf32>) -> tensor<2x8x1024x64xf32>
  %g23 = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, l) -> (b, h, m, l)>, affine_map<(b, h, m, n, l) -> (b, h, l, n)>, affine_map<(b, h, m, n, l) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g19, %v : tensor<2x8x1024x1024xbf16>, tensor<2x8x1024x64xbf16>) outs(%f21 : tensor<2x8x1024x64xf32>) {
  ^bb0(%in0: bf16, %in1: bf16, %acc: f32):
    %x = arith.extf %in0 : bf16 to f32
    %w = arith.extf %in1 : bf16 to f32
    %p = arith.mulf %x, %w : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<2x8x1024x64xf32>
  %e24 = tensor.empty() : tensor<2x8x1024x64xbf16>
  %g25 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g23 : tensor<2x8x1024x64xf32>) outs(%e24 : tensor<2x8x1024x64xbf16>) {
  ^bb0(%in0: f32, %acc: bf16):
    %y = arith.truncf %in0 : f32 to bf16
    linalg.yield %y : bf16
  } -> tensor<2x8x1024x64xbf16>
  return %g25 : tensor<2x8x1024x64xbf16>
}

