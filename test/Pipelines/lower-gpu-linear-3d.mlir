// A linear layer on 3-D input as torch-mlir writes it (f16 storage type,
// the weight transposed by a copy generic, the activations collapsed, a 2-D
// matmul, the result expanded), at b4 s512 k1024 n1024. The relayouts fold
// into the contraction (smap-fold-contraction-relayouts) and the f16
// accumulation is widened (smap-widen-accumulators): the batch and
// sequence dims are sliceable and the weight is read as [n, k]. The TMA
// GEMM lowering takes both: a block runs one batch (b = 1), its A rows a
// box of the activations read as the matrix of their rows (collapsed on the
// host to 2048 x 1024, the row coordinate b * 512 + s), B one box of 128
// weight rows, every wgmma reading it K-major (imm-trans-b 0); the 2-D
// accumulator tile is expanded to the block's 1 x 128 x 128 for the
// epilogue. Before, b and s were merged by the reshapes and the transpose
// was recomputed by every block (one CUDA-core kernel of 128 blocks, each
// over all 2048 rows); then the row-fragment wgmma lowering took it.
//
// RUN: spacefusion-opt %s --spacefusion-lower-gpu=format=isa --remarks-filter=smap --remark-format=emitRemark 2>&1 \
// RUN:   | FileCheck %s
// RUN: spacefusion-opt %s --spacefusion-lower-gpu=format=isa --mlir-print-ir-after=smap-distribute-blocks -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TMA
//
// CHECK: remark: [Passed] chosen | Category:smap:schedule | Function=linear | Remark="scheduled for sm_90a: spatial [b=1, m=128, n=128] temporal [k=64], strategy wgmma_tma
// CHECK-LABEL: llvm.func @linear(
// CHECK-SAME: smap.kernels = [{blocks = 128 : i64, parts = {stages = 3 : i64, tile_k = 64 : i64, tile_m = 128 : i64, tile_n = 128 : i64}, predicted = {{[{][^}]+[}]}}, smem = 99328 : i64, strategy = "wgmma_tma", threads = 128 : i64}]
// CHECK: gpu.binary @linear_wgmma_tma_128x128x64_f16
// CHECK-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{[^;]*}}, p, 1,  1, 0,  0;
// TMA:      %[[ROWS:.*]] = memref.collapse_shape %arg0 {{\[\[}}0, 1], [2]] : memref<4x512x1024xf16> into memref<2048x1024xf16>
// TMA:      %[[UA:.*]] = memref.cast %[[ROWS]] : memref<2048x1024xf16> to memref<*xf16>
// TMA:      %[[DA:.*]] = nvgpu.tma.create.descriptor %[[UA]] box[%{{.*}}, %{{.*}}] : memref<*xf16> -> <tensor = memref<128x64xf16, #gpu.address_space<workgroup>>
// TMA:      %[[DB:.*]] = nvgpu.tma.create.descriptor %{{.*}} box[%{{.*}}, %{{.*}}] : memref<*xf16> -> <tensor = memref<128x64xf16, #gpu.address_space<workgroup>>
// TMA:      gpu.launch
// TMA:        %[[BROWS:.*]] = arith.muli %{{.*}}, %c512{{.*}} : index
// TMA:        %[[ROW:.*]] = arith.addi %[[BROWS]], %{{.*}} : index
// TMA:        nvgpu.tma.async.load %[[DA]][%{{.*}}, %[[ROW]]]
// TMA:        nvgpu.tma.async.load %[[DB]]
// TMA:        nvgpu.warpgroup.mma.store
// TMA:        %[[TILE:.*]] = memref.expand_shape %{{.*}} {{\[\[}}0, 1], [2]] output_shape [1, 128, 128] : memref<128x128xf32, #gpu.address_space<workgroup>> into memref<1x128x128xf32, #gpu.address_space<workgroup>>
// TMA:        memref.memory_space_cast %[[TILE]] : memref<1x128x128xf32, #gpu.address_space<workgroup>> to memref<1x128x128xf32>
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
