// A linear layer on 3-D input as torch-mlir writes it (f16 storage type,
// the weight transposed by a copy generic, the activations collapsed, a 2-D
// matmul, the result expanded), at b4 s512 k1024 n1024. The relayouts fold
// into the contraction (smap-fold-contraction-relayouts) and the f16
// accumulation is widened (smap-widen-accumulators): the batch and
// sequence dims are sliceable and the weight is read as [n, k]. The TMA
// GEMM lowering takes B only as [k, n], so the schedule picks the
// row-fragment wgmma lowering, which reads a K-major B
// (readsBothOperandsKMajor). Before, b and s were merged by the reshapes
// and the transpose was recomputed by every block: one CUDA-core kernel of
// 128 blocks, each over all 2048 rows.
//
// RUN: spacefusion-opt %s --spacefusion-lower-gpu=format=isa --remarks-filter=smap --remark-format=emitRemark 2>&1 \
// RUN:   | FileCheck %s
//
// CHECK: remark: [Passed] chosen | Category:smap:schedule | Function=linear | Remark="scheduled for sm_90a: spatial [b=1, m=128, n=128] temporal [k={{[0-9]+}}], strategy row_fragments_wgmma
// CHECK-LABEL: llvm.func @linear(
// CHECK-SAME: smap.kernels = [{blocks = 128 : i64, {{.*}}strategy = "row_fragments_wgmma", threads = 256 : i64}]
// CHECK: gpu.binary @linear_row_fragments_wgmma_128x128x256_f16
// CHECK-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
#map = affine_map<(d0, d1) -> (d1, d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @linear(%x: tensor<4x512x1024xf16>, %w: tensor<1024x1024xf16>) -> tensor<4x512x1024xf16> {
  %c = tensor.collapse_shape %x [[0, 1], [2]] : tensor<4x512x1024xf16> into tensor<2048x1024xf16>
  %e = tensor.empty() : tensor<1024x1024xf16>
  %wt = linalg.generic {indexing_maps = [#map, #id], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<1024x1024xf16>) outs(%e : tensor<1024x1024xf16>) {
  ^bb0(%a: f16, %o: f16):
    linalg.yield %a : f16
  } -> tensor<1024x1024xf16>
  %zero = arith.constant 0.0 : f16
  %e2 = tensor.empty() : tensor<2048x1024xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e2 : tensor<2048x1024xf16>) -> tensor<2048x1024xf16>
  %m = linalg.matmul ins(%c, %wt : tensor<2048x1024xf16>, tensor<1024x1024xf16>) outs(%f : tensor<2048x1024xf16>) -> tensor<2048x1024xf16>
  %r = tensor.expand_shape %m [[0, 1], [2]] output_shape [4, 512, 1024] : tensor<2048x1024xf16> into tensor<4x512x1024xf16>
  return %r : tensor<4x512x1024xf16>
}
