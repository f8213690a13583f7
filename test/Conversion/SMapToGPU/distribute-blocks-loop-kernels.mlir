// RUN: spacefusion-opt --split-input-file --smap-distribute-blocks %s \
// RUN:   --remarks-filter=smap --remark-format=emitRemark 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks

// A linalg op left on buffers in the host function (outside every graph)
// becomes a kernel of its own: a thread per element of its parallel loops
// (here 16 x 40 = 640: 3 blocks of 256, the last one masked), the last
// parallel loop fastest, the reduction loop in order inside, the body as
// written.
// CHECK-LABEL: func.func @integer_sum(
// CHECK-SAME: %[[X:.*]]: memref<16x8x40xi32>, %[[OUT:.*]]: memref<16x40xi32>)
// CHECK-SAME: smap.kernels = [{blocks = 3 : i64, smem = 0 : i64, strategy = "loops", threads = 256 : i64}]
// CHECK: gpu.memset
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C3:.*]], %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C256:.*]],
// CHECK-SAME: function(@integer_sum_loops_i32)
// CHECK: %[[SCALED:.*]] = arith.muli %[[BX]], %{{.*}} : index
// CHECK: %[[ID:.*]] = arith.addi %[[SCALED]], %[[TX]] : index
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[ID]], %{{.*}} : index
// CHECK: scf.if %[[IN]] {
// CHECK: %[[J:.*]] = arith.remui %[[ID]], %[[C40:.*]] : index
// CHECK: %[[REST:.*]] = arith.divui %[[ID]], %[[C40]] : index
// CHECK: %[[I:.*]] = arith.remui %[[REST]], %{{.*}} : index
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[V:.*]] = memref.load %[[X]][%[[I]], %[[K]], %[[J]]]
// CHECK: %[[ACC:.*]] = memref.load %[[OUT]][%[[I]], %[[J]]]
// CHECK: %[[SUM:.*]] = arith.addi %[[V]], %[[ACC]] : i32
// CHECK: memref.store %[[SUM]], %[[OUT]][%[[I]], %[[J]]]
// REMARK: remark: [Passed] loop-kernel | Category:smap:distribute-blocks | Function=integer_sum | Remark="outside every fusion graph (see the smap-form-graphs remarks): lowered to a loop kernel: strategy=loops blocks=3 threads=256 smem=0"
func.func @integer_sum(%x: memref<16x8x40xi32>, %out: memref<16x40xi32>) {
  %zero = arith.constant 0 : i32
  linalg.fill ins(%zero : i32) outs(%out : memref<16x40xi32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>],
                  iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : memref<16x8x40xi32>) outs(%out : memref<16x40xi32>) {
  ^bb0(%v: i32, %acc: i32):
    %s = arith.addi %v, %acc : i32
    linalg.yield %s : i32
  }
  return
}

// -----

// A gather (tensor.extract, bufferized to memref.load) and linalg.index:
// the index is the thread's own element, the load stays in the body.
// CHECK-LABEL: func.func @gather(
// CHECK-SAME: %[[TABLE:.*]]: memref<100xf64>, %[[IDS:.*]]: memref<64xi32>, %[[OUT:.*]]: memref<64xf64>)
// CHECK: gpu.launch
// CHECK-SAME: function(@gather_loops_f64)
// CHECK: %[[ID:.*]] = memref.load %[[IDS]][%[[E:.*]]] : memref<64xi32>
// CHECK: %[[CAST:.*]] = arith.index_cast %[[ID]]
// CHECK: %[[ROW:.*]] = memref.load %[[TABLE]][%[[CAST]]]
// CHECK: %[[POS:.*]] = arith.index_cast %[[E]] : index to i64
func.func @gather(%table: memref<100xf64>, %ids: memref<64xi32>, %out: memref<64xf64>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%ids : memref<64xi32>) outs(%out : memref<64xf64>) {
  ^bb0(%id: i32, %o: f64):
    %i = arith.index_cast %id : i32 to index
    %v = memref.load %table[%i] : memref<100xf64>
    %e = linalg.index 0 : index
    %p = arith.index_cast %e : index to i64
    %f = arith.sitofp %p : i64 to f64
    %r = arith.addf %v, %f : f64
    linalg.yield %r : f64
  }
  return
}

// -----

// A copy between strided buffers (one half of a concatenation) is a loop
// kernel; a copy between contiguous buffers is a device memcpy.
// CHECK-LABEL: func.func @concat(
// CHECK-SAME: smap.kernels = [{blocks = 1 : i64, smem = 0 : i64, strategy = "loops", threads = 128 : i64}]
// CHECK: gpu.memcpy
// CHECK: gpu.launch
// CHECK-SAME: function(@concat_loops_f32)
func.func @concat(%a: memref<8x16xf32>, %b: memref<8x16xf32>, %out: memref<8x32xf32>, %copy: memref<8x16xf32>) {
  memref.copy %a, %copy : memref<8x16xf32> to memref<8x16xf32>
  %right = memref.subview %out[0, 16] [8, 16] [1, 1] : memref<8x32xf32> to memref<8x16xf32, strided<[32, 1], offset: 16>>
  memref.copy %b, %right : memref<8x16xf32> to memref<8x16xf32, strided<[32, 1], offset: 16>>
  return
}
