// RUN: spacefusion-opt %s --smap-spatial-slice --smap-temporal-slice --convert-smap-to-scf | FileCheck %s
// RUN: spacefusion-opt %s --smap-spatial-slice --smap-temporal-slice --convert-smap-to-scf | FileCheck %s --check-prefix=NOSMAP
// NOSMAP-NOT: smap.{{graph|spatial_slice|temporal_slice|yield}}

// The sliced graph becomes loops on tensors: a loop over the blocks that
// inserts each block's tile, a loop over the slices carrying the partial
// sums, and a final-pass loop; no smap op remains.

// CHECK-LABEL: func.func @rows
// CHECK-NOT: smap.
// CHECK: %[[C64:.*]] = arith.constant 64 : index
// CHECK: %[[C16:.*]] = arith.constant 16 : index
// CHECK: %[[GRID:.*]] = scf.for %[[B:.*]] = %{{.*}} to %[[C64]] step %[[C16]] iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<64x32xf32>) {
// CHECK: tensor.extract_slice %{{.*}}[%[[B]], 0] [16, 32] [1, 1]
// CHECK: %[[C8:.*]] = arith.constant 8 : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[C8]] iter_args(%{{.*}} = %{{.*}}) -> (tensor<16xf32>) {
// CHECK: scf.yield %{{.*}} : tensor<16xf32>
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<16x32xf32>) {
// CHECK: tensor.insert_slice
// CHECK: %[[INS:.*]] = tensor.insert_slice %{{.*}} into %[[ACC]][%[[B]], 0] [16, 32] [1, 1] : tensor<16x32xf32> into tensor<64x32xf32>
// CHECK-NEXT: scf.yield %[[INS]]
// CHECK: return %[[GRID]]
#id = affine_map<(m, n) -> (m, n)>
#row = affine_map<(m, n) -> (m)>
func.func @rows(%x: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %0 = smap.graph(%ax = %x : tensor<64x32xf32>) -> (tensor<64x32xf32>) attributes {
      dims = [#smap.dim<"m", 64, parallel>, #smap.dim<"n", 32, temporal>],
      schedule = #smap.schedule<spatial = [m = 16], temporal = [n = 8], grid = [4], threads = 1, smem = 0, regs = 0>} {
    %zero = arith.constant 0.0 : f32
    %e1 = tensor.empty() : tensor<64xf32>
    %e2 = tensor.empty() : tensor<64x32xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
    %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%ax : tensor<64x32xf32>) outs(%f : tensor<64xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %r = arith.addf %in, %acc : f32
      linalg.yield %r : f32
    } -> tensor<64xf32>
    // Adds the row index: linalg.index must count from the block's origin.
    %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
        ins(%ax, %sum : tensor<64x32xf32>, tensor<64xf32>) outs(%e2 : tensor<64x32xf32>) {
    ^bb0(%in: f32, %s: f32, %out: f32):
      %i = linalg.index 0 : index
      %ii = arith.index_cast %i : index to i32
      %fi = arith.sitofp %ii : i32 to f32
      %d = arith.divf %in, %s : f32
      %r = arith.addf %d, %fi : f32
      linalg.yield %r : f32
    } -> tensor<64x32xf32>
    smap.yield %y : tensor<64x32xf32>
  }
  return %0 : tensor<64x32xf32>
}
