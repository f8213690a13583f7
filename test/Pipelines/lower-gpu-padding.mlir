// A padding mask from a per-batch length as frontends write it (bf16, f32
// scores, keys from lens[b] on hidden by a compare of linalg.index with the
// length and a select of -inf, P rounded before P.V) on the row-fragment
// wgmma kernel: each block reads its batch's length once from global
// memory, the key loop ends at the slice that holds it, and the mask's test
// (the length read, the compare and the select) runs only in the branch of
// the one slice that reaches past it.
//
// RUN: spacefusion-opt %S/Inputs/attention_padded_frontend_bf16.mlir \
// RUN:   --spacefusion-lower-gpu=format=isa --mlir-print-ir-after=smap-distribute-blocks \
// RUN:   -o /dev/null 2>&1 | FileCheck %s

// CHECK-LABEL: func.func @attention_padded(
// CHECK-SAME: %[[LENS:[a-z0-9]+]]: memref<2xi64>
// CHECK-SAME: strategy = "row_fragments_wgmma"
// CHECK: %[[BLOCK_LENS:.*]] = memref.subview %[[LENS]][%{{.*}}] [1] [1] : memref<2xi64> to memref<1xi64
// CHECK: %[[LEN:.*]] = memref.load %[[BLOCK_LENS]][%{{.*}}] : memref<1xi64
// CHECK: %[[LEN_INDEX:.*]] = arith.index_cast %[[LEN]] : i64 to index
// CHECK: arith.maxsi %[[LEN_INDEX]], %c128
// CHECK: %[[END:.*]] = arith.minui %{{.*}}, %c1024 : index
// CHECK: scf.for %[[AT:[a-z0-9_]+]] = %c0 to %[[END]] step %c128
// CHECK: %[[SLICE_END:.*]] = arith.addi %[[AT]], %c128{{.*}} : index
// CHECK: %[[CUT:.*]] = arith.cmpi sgt, %[[SLICE_END]], %{{.*}} : index
// CHECK: %{{.*}}:64 = scf.if %[[CUT]] -> (f32,
// CHECK: %[[ROW_LEN:.*]] = memref.load %[[BLOCK_LENS]]
// CHECK: %[[SCORE:.*]] = arith.mulf
// CHECK: %[[HIDE:.*]] = arith.cmpi sge, %{{.*}}, %[[ROW_LEN]] : i64
// CHECK: arith.select %[[HIDE]], %{{.*}}, %[[SCORE]] : f32
// CHECK: } else {
// CHECK-NOT: memref.load %[[BLOCK_LENS]]
// CHECK-NOT: arith.cmpi
// CHECK-NOT: arith.select
// CHECK: scf.yield
// CHECK-NOT: scf.if %[[CUT]]
