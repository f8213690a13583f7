// A decode-like attention (16 queries against 1024 keys, bf16) that the
// schedule partitions: the first kernel (Q.K^T and the scale, on row
// fragments) writes the scores to the scratch buffer between the kernels,
// the second one (softmax and P.V) reads them. The row-fragment lowering
// took that scratch, allocated outside the block, for a block buffer and
// refused the kernel it had been scheduled for ("writes a block buffer
// that is not a row tile"): the function did not compile.
//
// RUN: spacefusion-opt %s '--spacefusion-lower-gpu=one-wave=0 format=isa' | FileCheck %s
//
// CHECK-LABEL: llvm.func @attention(
// CHECK-SAME: smap.kernels = [{blocks = 16 : i64, parts = {ldmatrix = 2 : i64, mma_sync = 1 : i64, register_tiles = 1 : i64, row_replicas = 4 : i64, warp_rows = 16 : i64}, predicted = {{[{][^}]+[}]}}, smem = 39168 : i64, strategy = "row_fragments", threads = 128 : i64},
// CHECK-SAME: {blocks = 128 : i64, {{.*}}strategy = "simt"
// CHECK: gpu.binary @attention_0_row_fragments_128_bf16
// CHECK-SAME: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
func.func @attention(%q: tensor<1x2x16x128xbf16>, %k: tensor<1x2x1024x128xbf16>, %v: tensor<1x2x1024x128xbf16>) -> tensor<1x2x16x128xbf16> {
  %e1 = tensor.empty() : tensor<1x2x16x128xf32>
  %g2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%q : tensor<1x2x16x128xbf16>) outs(%e1 : tensor<1x2x16x128xf32>) {
  ^bb0(%in0: bf16, %acc: f32):
    %y = arith.extf %in0 : bf16 to f32
    linalg.yield %y : f32
  } -> tensor<1x2x16x128xf32>
  %e3 = tensor.empty() : tensor<1x2x1024x128xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%k : tensor<1x2x1024x128xbf16>) outs(%e3 : tensor<1x2x1024x128xf32>) {
  ^bb0(%in0: bf16, %acc: f32):
    %y = arith.extf %in0 : bf16 to f32
    linalg.yield %y : f32
  } -> tensor<1x2x1024x128xf32>
  %e5 = tensor.empty() : tensor<1x2x1024x128xf32>
  %g6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%v : tensor<1x2x1024x128xbf16>) outs(%e5 : tensor<1x2x1024x128xf32>) {
  ^bb0(%in0: bf16, %acc: f32):
    %y = arith.extf %in0 : bf16 to f32
    linalg.yield %y : f32
  } -> tensor<1x2x1024x128xf32>
  %c7 = arith.constant 0.000000000e+00 : f32
  %e9 = tensor.empty() : tensor<1x2x16x1024xf32>
  %f8 = linalg.fill ins(%c7 : f32) outs(%e9 : tensor<1x2x16x1024xf32>) -> tensor<1x2x16x1024xf32>
  %g10 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l, k) -> (b, h, m, k)>, affine_map<(b, h, m, l, k) -> (b, h, l, k)>, affine_map<(b, h, m, l, k) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g2, %g4 : tensor<1x2x16x128xf32>, tensor<1x2x1024x128xf32>) outs(%f8 : tensor<1x2x16x1024xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<1x2x16x1024xf32>
  %c11 = arith.constant 8.838834765e-02 : f32
  %e12 = tensor.empty() : tensor<1x2x16x1024xf32>
  %g13 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g10 : tensor<1x2x16x1024xf32>) outs(%e12 : tensor<1x2x16x1024xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.mulf %in0, %c11 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x16x1024xf32>
  %c14 = arith.constant 0xFF800000 : f32
  %e16 = tensor.empty() : tensor<1x2x16xf32>
  %f15 = linalg.fill ins(%c14 : f32) outs(%e16 : tensor<1x2x16xf32>) -> tensor<1x2x16xf32>
  %g17 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g13 : tensor<1x2x16x1024xf32>) outs(%f15 : tensor<1x2x16xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.maximumf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<1x2x16xf32>
  %e18 = tensor.empty() : tensor<1x2x16x1024xf32>
  %g19 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g13, %g17 : tensor<1x2x16x1024xf32>, tensor<1x2x16xf32>) outs(%e18 : tensor<1x2x16x1024xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %d = arith.subf %in0, %in1 : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<1x2x16x1024xf32>
  %c20 = arith.constant 0.000000000e+00 : f32
  %e22 = tensor.empty() : tensor<1x2x16xf32>
  %f21 = linalg.fill ins(%c20 : f32) outs(%e22 : tensor<1x2x16xf32>) -> tensor<1x2x16xf32>
  %g23 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g19 : tensor<1x2x16x1024xf32>) outs(%f21 : tensor<1x2x16xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.addf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<1x2x16xf32>
  %e24 = tensor.empty() : tensor<1x2x16x1024xf32>
  %g25 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g19, %g23 : tensor<1x2x16x1024xf32>, tensor<1x2x16xf32>) outs(%e24 : tensor<1x2x16x1024xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %y = arith.divf %in0, %in1 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x16x1024xf32>
  %c26 = arith.constant 0.000000000e+00 : f32
  %e28 = tensor.empty() : tensor<1x2x16x128xf32>
  %f27 = linalg.fill ins(%c26 : f32) outs(%e28 : tensor<1x2x16x128xf32>) -> tensor<1x2x16x128xf32>
  %g29 = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, l) -> (b, h, m, l)>, affine_map<(b, h, m, n, l) -> (b, h, l, n)>, affine_map<(b, h, m, n, l) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g25, %g6 : tensor<1x2x16x1024xf32>, tensor<1x2x1024x128xf32>) outs(%f27 : tensor<1x2x16x128xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<1x2x16x128xf32>
  %e30 = tensor.empty() : tensor<1x2x16x128xbf16>
  %g31 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g29 : tensor<1x2x16x128xf32>) outs(%e30 : tensor<1x2x16x128xbf16>) {
  ^bb0(%in0: f32, %acc: bf16):
    %y = arith.truncf %in0 : f32 to bf16
    linalg.yield %y : bf16
  } -> tensor<1x2x16x128xbf16>
  return %g31 : tensor<1x2x16x128xbf16>
}
