// RUN: spacefusion-opt %s --smap-form-graphs --smap-set-target=target=sm_90a --smap-analyze \
// RUN:   '--smap-schedule=spatial=m:64,n:128 temporal=k:64' --smap-spatial-slice --smap-temporal-slice \
// RUN:   '--convert-smap-to-scf=blocks-as-forall raster-group=2' | FileCheck %s --check-prefix=GROUPED
// RUN: spacefusion-opt %s --smap-form-graphs --smap-set-target=target=sm_90a --smap-analyze \
// RUN:   '--smap-schedule=spatial=m:64,n:128 temporal=k:64' --smap-spatial-slice --smap-temporal-slice \
// RUN:   --convert-smap-to-scf=blocks-as-forall | FileCheck %s --check-prefix=ROWMAJOR
// RUN: spacefusion-opt %s --smap-form-graphs --smap-set-target=target=sm_90a --smap-analyze \
// RUN:   '--smap-schedule=spatial=m:64,n:256 temporal=k:64' --smap-spatial-slice --smap-temporal-slice \
// RUN:   '--convert-smap-to-scf=blocks-as-forall raster-group=2' | FileCheck %s --check-prefix=NARROW

// A GEMM in 4 x 32 blocks of 64 x 128. With raster-group=2 the linear
// block id walks groups of two block rows, column by column inside a group
// (block 0 -> (0, 0), 1 -> (1, 0), 2 -> (0, 1), ... 64 -> (2, 0)), so that
// the blocks running at once share their A and B tiles in L2.
// GROUPED:       scf.forall (%[[BLK:.*]]) in (128)
// GROUPED:         %[[GROUP:.*]] = arith.divui %[[BLK]], %c64 : index
// GROUPED:         %[[FIRST:.*]] = arith.muli %[[GROUP]], %c2{{.*}} : index
// GROUPED:         %[[WITHIN:.*]] = arith.remui %[[BLK]], %c64 : index
// GROUPED:         %[[R:.*]] = arith.remui %[[WITHIN]], %c2{{.*}} : index
// GROUPED:         %[[ROW:.*]] = arith.addi %[[FIRST]], %[[R]] : index
// GROUPED:         %[[COL:.*]] = arith.divui %[[WITHIN]], %c2{{.*}} : index
// GROUPED:         %[[M:.*]] = arith.muli %[[ROW]], %c64{{.*}} : index
// GROUPED:         %[[N:.*]] = arith.muli %[[COL]], %c128{{.*}} : index
// GROUPED:         tensor.parallel_insert_slice %{{.*}} into %{{.*}}[%[[M]], %[[N]]] [64, 128]

// Without the option, row-major: n fastest.
// ROWMAJOR:      scf.forall (%[[BLK:.*]]) in (128)
// ROWMAJOR:        %[[COL:.*]] = arith.remui %[[BLK]], %c32 : index
// ROWMAJOR:        %[[N:.*]] = arith.muli %[[COL]], %c128{{.*}} : index
// ROWMAJOR:        %[[ROW:.*]] = arith.divui %[[BLK]], %c32{{.*}} : index
// ROWMAJOR:        %[[M:.*]] = arith.muli %[[ROW]], %c64{{.*}} : index
// ROWMAJOR:        tensor.parallel_insert_slice %{{.*}} into %{{.*}}[%[[M]], %[[N]]] [64, 128]

// 16 columns of 256 are fewer than the 32 that grouping needs: row-major.
// NARROW:        scf.forall (%[[BLK:.*]]) in (64)
// NARROW:          %[[COL:.*]] = arith.remui %[[BLK]], %c16 : index
// NARROW-NOT:      arith.divui %[[BLK]], %c32
// NARROW:          %[[ROW:.*]] = arith.divui %[[BLK]], %c16{{.*}} : index

func.func @gemm(%a: tensor<256x64xf32>, %b: tensor<64x4096xf32>) -> tensor<256x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x4096xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<256x4096xf32>) -> tensor<256x4096xf32>
  %r = linalg.matmul ins(%a, %b : tensor<256x64xf32>, tensor<64x4096xf32>) outs(%c : tensor<256x4096xf32>) -> tensor<256x4096xf32>
  return %r : tensor<256x4096xf32>
}
