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

// CHECK-LABEL: func.func @lstm_cell
// CHECK: %[[GEMMS:.*]]:2 = smap.graph
// CHECK-SAME: schedule = #smap.schedule<spatial = [l = 128, n = 64], temporal = [k = 64]
// CHECK: smap.graph(%{{.*}} = %[[GEMMS]]#0 : tensor<64x1024xf32>, %{{.*}} = %[[GEMMS]]#1 : tensor<64x1024xf32>
// CHECK-SAME: schedule = #smap.schedule<spatial = [m = 8], temporal = []
// CHECK-NOT: smap.graph

// REMARK: remark: [Analysis] partition | Category:smap:schedule | Remark="no schedule fits target 'sm_90a': the smallest candidate (spatial [m=1] temporal [k=1]) needs 1078276 bytes of shared memory per block, the target has 232448; partitioned before addf2, the cut moves 1048576 bytes through global memory"
// REMARK: remark: [Passed] chosen | Category:smap:schedule | Remark="scheduled for sm_90a: spatial [l=128, n=64] temporal [k=64]
// REMARK: remark: [Passed] chosen | Category:smap:schedule | Remark="scheduled for sm_90a: spatial [m=8] temporal []

// NOPART: error: no schedule fits target 'sm_90a': the smallest candidate (spatial [m=1] temporal [k=1]) needs 1078276 bytes of shared memory per block, the target has 232448
// BADOPT: error: smap-schedule: expected dim:size with a positive size, got 'm64'
// BADSIZE: error: smap-schedule: expected dim:size with a positive size, got 'k:0'
