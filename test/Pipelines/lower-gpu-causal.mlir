// Causal attention as frontends write it (bf16, f32 scores, the index
// compare and select of -inf, P rounded before P.V), on the row-fragment
// wgmma kernel: the temporal slicer leaves the mask's test out of the key
// slices every query row of the block sees whole (`select %cut, masked,
// unmasked` in the slice), and the row-fragment lowering turns that test,
// uniform over the block, into an `scf.if` around the scores' registers:
// the compares and selects run only on the diagonal slice, the other
// slices scale the scores and nothing else. A prefix LM (causal, the first
// 320 keys seen by every query) gets the same kernel: its loop ends at the
// slice past max(block's last query + 1, 320), and its cut test compares
// the slice's end with max(block's first query + 1, 320).
//
// RUN: spacefusion-opt %S/Inputs/attention_causal_frontend_bf16.mlir \
// RUN:   --spacefusion-lower-gpu=format=isa --mlir-print-ir-after=smap-distribute-blocks \
// RUN:   -o /dev/null 2>&1 | FileCheck %s
// RUN: spacefusion-opt %S/Inputs/attention_prefix_frontend_bf16.mlir \
// RUN:   --spacefusion-lower-gpu=format=isa --mlir-print-ir-after=smap-distribute-blocks \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=PREFIX

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

// PREFIX-LABEL: func.func @attention_prefix(
// PREFIX-SAME: strategy = "row_fragments_wgmma"
// PREFIX: %[[PAST:.*]] = arith.maxsi %{{.*}}, %c320 : index
// PREFIX: %[[ONE:.*]] = arith.maxsi %[[PAST]], %c128 : index
// PREFIX: scf.for %[[AT:[a-z0-9_]+]] = %c0 to %[[END:[0-9]+]] step %c128
// PREFIX: %[[SLICE_END:.*]] = arith.addi %[[AT]], %c128{{.*}} : index
// PREFIX: %[[VISIBLE_END:.*]] = arith.maxsi %{{.*}}, %c320 : index
// PREFIX: %[[CUT:.*]] = arith.cmpi sgt, %[[SLICE_END]], %[[VISIBLE_END]] : index
// PREFIX: %{{.*}}:64 = scf.if %[[CUT]] -> (f32,
// PREFIX: %[[SCORE:.*]] = arith.mulf
// PREFIX: %[[SEEN:.*]] = arith.cmpi ule
// PREFIX: %[[IN_PREFIX:.*]] = arith.cmpi ult, %{{.*}}, %c320 : index
// PREFIX: %[[KEEP:.*]] = arith.ori %[[SEEN]], %[[IN_PREFIX]] : i1
// PREFIX: arith.select %[[KEEP]], %[[SCORE]], %{{.*}} : f32
// PREFIX: } else {
// PREFIX-NOT: arith.cmpi
// PREFIX-NOT: arith.select
// PREFIX: scf.yield
