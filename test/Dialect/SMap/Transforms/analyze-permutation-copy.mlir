// RUN: spacefusion-opt %s --smap-form-graphs --smap-analyze | FileCheck %s

// A weight transposed by a copy generic (torch-mlir's aten.t) and read by a
// matmul: the copy is an input read permuted, which a block recomputes only
// for its own tile, as it would read the input itself. So m stays parallel
// (before: parallel_recompute, "copy1 is broadcast into matmul2", which
// kept the schedule from tiling the rows).
// CHECK-LABEL: func.func @transposed_weight
// CHECK: dims = [#smap.dim<"m", 256, parallel>, #smap.dim<"n", 64, parallel>, #smap.dim<"k", 128, temporal>]
#t = affine_map<(d0, d1) -> (d1, d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @transposed_weight(%x: tensor<256x128xf32>, %w: tensor<64x128xf32>) -> tensor<256x64xf32> {
  %e = tensor.empty() : tensor<128x64xf32>
  %wt = linalg.generic {indexing_maps = [#t, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<64x128xf32>) outs(%e : tensor<128x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<128x64xf32>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<256x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e2 : tensor<256x64xf32>) -> tensor<256x64xf32>
  %y = linalg.matmul ins(%x, %wt : tensor<256x128xf32>, tensor<128x64xf32>) outs(%f : tensor<256x64xf32>) -> tensor<256x64xf32>
  return %y : tensor<256x64xf32>
}
