// Linear layers whose weight is [n, k] (as PyTorch stores it) on the TMA
// GEMM lowering (wgmma_tma): the named linalg.matmul with indexing maps
// that read B transposed (upstream's form of matmul_transpose_b), and the
// torch-mlir form of `mm(x, w.t())` (a transposing copy generic of the
// weight, folded into the contraction by smap-fold-contraction-relayouts),
// also after upstream cse + fuse-elementwise. B is one TMA box of 128 rows
// per stage and every wgmma reads it K-major (imm-trans-b 0).
//
// RUN: spacefusion-opt %s --spacefusion-lower-gpu=format=isa --remarks-filter=smap --remark-format=emitRemark 2>&1 \
// RUN:   | FileCheck %s
// RUN: spacefusion-opt %s --cse --linalg-fuse-elementwise-ops | spacefusion-opt --spacefusion-lower-gpu=format=isa \
// RUN:   | FileCheck %s --check-prefix=UPSTREAM
//
// CHECK: remark: [Passed] chosen | Category:smap:schedule | Function=linear | Remark="scheduled for sm_90a: spatial [m=128, n=128] temporal [k=64], strategy wgmma_tma, 128 blocks x 128 threads, 99328 B shared memory
// CHECK: remark: [Passed] chosen | Category:smap:schedule | Function=mm_t | Remark="scheduled for sm_90a: spatial [m=128, n=128] temporal [k=64], strategy wgmma_tma, 128 blocks x 128 threads, 99328 B shared memory
// CHECK-LABEL: llvm.func @linear(
// CHECK-SAME: smap.kernels = [{blocks = 128 : i64, parts = {stages = 3 : i64, tile_k = 64 : i64, tile_m = 128 : i64, tile_n = 128 : i64}, predicted = {{[{][^}]+[}]}}, smem = 99328 : i64, strategy = "wgmma_tma", threads = 128 : i64}]
// CHECK: gpu.binary @linear_wgmma_tma_128x128x64_f16
// CHECK-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{[^;]*}}, p, 1,  1, 0,  0;
// CHECK-NOT: p, 1,  1, 0,  1;
// CHECK-LABEL: llvm.func @mm_t(
// CHECK-SAME: smap.kernels = [{blocks = 128 : i64, parts = {stages = 3 : i64, tile_k = 64 : i64, tile_m = 128 : i64, tile_n = 128 : i64}, predicted = {{[{][^}]+[}]}}, smem = 99328 : i64, strategy = "wgmma_tma", threads = 128 : i64}]
// CHECK: gpu.binary @mm_t_wgmma_tma_128x128x64_bf16
// CHECK-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{[^;]*}}, p, 1,  1, 0,  0;
// CHECK-NOT: p, 1,  1, 0,  1;
// UPSTREAM-LABEL: llvm.func @linear(
// UPSTREAM-SAME: strategy = "wgmma_tma"
// UPSTREAM-LABEL: llvm.func @mm_t(
// UPSTREAM-SAME: strategy = "wgmma_tma"
func.func @linear(%x: tensor<2048x1024xf16>, %w: tensor<1024x1024xf16>) -> tensor<2048x1024xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2048x1024xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<2048x1024xf16>, tensor<1024x1024xf16>) outs(%f : tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
  %er = tensor.empty() : tensor<2048x1024xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<2048x1024xf32>) outs(%er : tensor<2048x1024xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2048x1024xf16>
  return %r : tensor<2048x1024xf16>
}

func.func @mm_t(%x: tensor<2048x1024xbf16>, %w: tensor<1024x1024xbf16>) -> tensor<2048x1024xbf16> {
  %et = tensor.empty() : tensor<1024x1024xbf16>
  %wt = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<1024x1024xbf16>) outs(%et : tensor<1024x1024xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    linalg.yield %in : bf16
  } -> tensor<1024x1024xbf16>
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<2048x1024xbf16>
  %f = linalg.fill ins(%zero : bf16) outs(%e : tensor<2048x1024xbf16>) -> tensor<2048x1024xbf16>
  %y = linalg.matmul ins(%x, %wt : tensor<2048x1024xbf16>, tensor<1024x1024xbf16>) outs(%f : tensor<2048x1024xbf16>) -> tensor<2048x1024xbf16>
  return %y : tensor<2048x1024xbf16>
}
