// The LSTM cell does not fit the H200 in one graph: its gate windows keep
// the 1024-wide gate dim whole. The scheduler partitions it where both parts
// fit and schedules each part.
// RUN: spacefusion-opt --smap-form-graphs --smap-set-target --smap-schedule %examples/lstm_cell.mlir \
// RUN:   --remarks-filter=smap --remark-format=emitRemark 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// Without partitioning, the same graph is an error.
// RUN: not spacefusion-opt --smap-form-graphs --smap-set-target --smap-schedule=partition=false \
// RUN:   %examples/lstm_cell.mlir 2>&1 | FileCheck %s --check-prefix=NOPART
// Malformed options are errors.
// RUN: not spacefusion-opt --smap-form-graphs --smap-schedule="spatial=m64" %examples/lstm_cell.mlir 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BADOPT
// RUN: not spacefusion-opt --smap-form-graphs --smap-schedule="temporal=k:0" %examples/lstm_cell.mlir 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BADSIZE

// The first GEMM alone; the second joins the gates, whose two outputs (C'
// and H') share no dim with the first GEMM's columns l, so only m is sliced.
// CHECK-LABEL: func.func @lstm_cell
// CHECK: %[[XW:.*]] = smap.graph(%{{.*}} = %arg0 : tensor<64x256xf32>, %{{.*}} = %arg1 : tensor<256x1024xf32>)
// CHECK-SAME: schedule = #smap.schedule<spatial = [m = 4, l = 128], temporal = []
// CHECK: smap.graph(%{{.*}} = %arg2 : tensor<64x256xf32>, %{{.*}} = %arg3 : tensor<256x1024xf32>, %{{.*}} = %[[XW]] : tensor<64x1024xf32>
// CHECK-SAME: dims = [#smap.dim<"m", 64, parallel>, #smap.dim<"n", 256, parallel>, #smap.dim<"l", 1024, parallel>, #smap.dim<"k1", 256, temporal>]
// CHECK-SAME: schedule = #smap.schedule<spatial = [m = 1], temporal = [k1 = 32]
// CHECK-NOT: smap.graph

// REMARK: remark: [Analysis] partition | Category:smap:schedule | Remark="no schedule fits target 'sm_90a': the smallest candidate (spatial [m=1] temporal [k=1]) needs 1082372 bytes of shared memory per block, the target has 232448; partitioned before matmul1, the cut moves 524288 bytes through global memory"
// REMARK: remark: [Passed] chosen | Category:smap:schedule | Remark="scheduled for sm_90a: spatial [m=4, l=128] temporal []
// REMARK: remark: [Passed] chosen | Category:smap:schedule | Remark="scheduled for sm_90a: spatial [m=1] temporal [k1=32]

// NOPART: error: no schedule fits target 'sm_90a': the smallest candidate (spatial [m=1] temporal [k=1]) needs 1082372 bytes of shared memory per block, the target has 232448
// BADOPT: error: smap-schedule: expected dim:size with a positive size, got 'm64'
// BADSIZE: error: smap-schedule: expected dim:size with a positive size, got 'k:0'
