// RUN: spacefusion-opt %s --smap-check-entry-shapes -split-input-file | FileCheck %s

// A public entry point takes its static memrefs with dynamic sizes (the same
// descriptor), compares every size on entry, and reports the first mismatch
// to the runtime before returning; scalars, dynamic memrefs and private
// functions are left alone.

// CHECK: llvm.mlir.global internal constant @[[NAME:__smap_entry_name_entry]]("entry\00")
// CHECK-LABEL: func.func @entry
// CHECK-SAME: (%[[X:.*]]: memref<?x?xf16>, %[[S:.*]]: f32, %[[Y:.*]]: memref<?xf32>, %[[Z:.*]]: memref<?xf32>)
// CHECK-SAME: attributes {smap.checked_entry}
// CHECK:       %[[C0:.*]] = arith.constant 0 : index
// CHECK:       %[[D0:.*]] = memref.dim %[[X]], %[[C0]] : memref<?x?xf16>
// CHECK:       %[[C4:.*]] = arith.constant 4 : index
// CHECK:       %[[EQ0:.*]] = arith.cmpi eq, %[[D0]], %[[C4]] : index
// CHECK:       %[[D1:.*]] = memref.dim %[[X]], %{{.*}} : memref<?x?xf16>
// CHECK:       %[[XS:.*]] = memref.cast %[[X]] : memref<?x?xf16> to memref<4x8xf16>
// CHECK:       %[[DZ:.*]] = memref.dim %[[Z]], %{{.*}} : memref<?xf32>
// CHECK:       %[[ZS:.*]] = memref.cast %[[Z]] : memref<?xf32> to memref<8xf32>
// CHECK:       cf.cond_br %[[OK:.*]], ^[[BODY:bb[0-9]+]](%[[XS]], %[[S]], %[[Y]], %[[ZS]] : memref<4x8xf16>, f32, memref<?xf32>, memref<8xf32>), ^[[BAD:bb[0-9]+]]
// CHECK:     ^[[BAD]]:
// CHECK:       %[[NAMEPTR:.*]] = llvm.mlir.addressof @[[NAME]] : !llvm.ptr
// CHECK:       cf.cond_br %[[EQ0]]
// CHECK:       %[[ACTUAL:.*]] = arith.index_cast %[[D0]] : index to i64
// CHECK-DAG:   %[[ARG0:.*]] = arith.constant 0 : i64
// CHECK-DAG:   %[[EXPECTED:.*]] = arith.constant 4 : i64
// CHECK:       call @spacefusionRuntimeArgumentMismatch(%[[NAMEPTR]], %[[ARG0]], %{{.*}}, %[[EXPECTED]], %[[ACTUAL]])
// CHECK-NEXT:  return
// CHECK:       arith.constant 3 : i64
// CHECK:       call @spacefusionRuntimeArgumentMismatch
// CHECK:     ^[[BODY]](%{{.*}}: memref<4x8xf16>, %{{.*}}: f32, %{{.*}}: memref<?xf32>, %[[ZB:.*]]: memref<8xf32>):
// CHECK:       memref.load %[[ZB]]
// CHECK: func.func private @helper(memref<4xf32>)
// CHECK: func.func private @spacefusionRuntimeArgumentMismatch(!llvm.ptr, i64, i64, i64, i64)
func.func @entry(%x: memref<4x8xf16>, %s: f32, %y: memref<?xf32>, %z: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %v = memref.load %z[%c0] : memref<8xf32>
  memref.store %v, %z[%c0] : memref<8xf32>
  return
}
func.func private @helper(%x: memref<4xf32>)

// -----

// Nothing to check: no declaration is added.
// CHECK-LABEL: func.func @scalars_only(%{{.*}}: f32, %{{.*}}: memref<?xf32>)
// CHECK-NOT: smap.checked_entry
// CHECK-NOT: spacefusionRuntimeArgumentMismatch
func.func @scalars_only(%s: f32, %y: memref<?xf32>) {
  return
}
