// Causal attention as frontends write it (bf16, f32 scores, the index
// compare and select of -inf, P rounded before P.V), on the row-fragment
// wgmma kernel: the temporal slicer leaves the mask's test out of the key
// slices every query row of the block sees whole (`select %cut, masked,
// unmasked` in the slice), and the row-fragment lowering turns that test,
// uniform over the block, into an `scf.if` around the scores' registers:
// the compares and selects run only on the diagonal slice, the other
// slices scale the scores and nothing else.
//
// RUN: spacefusion-opt %S/Inputs/attention_causal_frontend_bf16.mlir \
// RUN:   --spacefusion-lower-gpu=format=isa --mlir-print-ir-after=smap-distribute-blocks \
// RUN:   -o /dev/null 2>&1 | FileCheck %s

// CHECK-LABEL: func.func @attention_causal(
// CHECK-SAME: strategy = "row_fragments_wgmma"
// CHECK: scf.for %[[AT:[a-z0-9_]+]] =
// CHECK: %[[SLICE_END:.*]] = arith.addi %[[AT]], %c128{{.*}} : index
// CHECK: %[[CUT:.*]] = arith.cmpi sgt, %[[SLICE_END]], %{{.*}} : index
// CHECK: %{{.*}}:64 = scf.if %[[CUT]] -> (f32,
// CHECK: %[[SCORE:.*]] = arith.mulf
// CHECK: %[[HIDE:.*]] = arith.cmpi ugt
// CHECK: arith.select %[[HIDE]], %{{.*}}, %[[SCORE]] : f32
// CHECK: } else {
// CHECK-NOT: arith.cmpi
// CHECK-NOT: arith.select
// CHECK: scf.yield
// CHECK-NOT: scf.if %[[CUT]]
