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

// The whole cell does not fit: the first GEMM is cut off. The rest fits
// with m = 1 blocks, but its two outputs (C' and H') share no dim with the
// GEMM's columns l, so only m is sliced and the schedule is predicted 5x
// slower than its parts: it is cut again, into the second GEMM and the
// gates.
// CHECK-LABEL: func.func @lstm_cell
// CHECK: %[[XW:.*]] = smap.graph(%{{.*}} = %arg0 : tensor<64x256xf32>, %{{.*}} = %arg1 : tensor<256x1024xf32>)
// CHECK-SAME: schedule = #smap.schedule<spatial = [m = 4, l = 128], temporal = []
// CHECK: %[[HW:.*]] = smap.graph(%{{.*}} = %arg2 : tensor<64x256xf32>, %{{.*}} = %arg3 : tensor<256x1024xf32>)
// CHECK-SAME: dims = [#smap.dim<"m", 64, parallel>, #smap.dim<"l", 1024, parallel>, #smap.dim<"k1", 256, temporal>]
// CHECK-SAME: schedule = #smap.schedule<spatial = [m = 4, l = 128], temporal = []
// CHECK: smap.graph(%{{.*}} = %[[XW]] : tensor<64x1024xf32>, %{{.*}} = %[[HW]] : tensor<64x1024xf32>
// CHECK-SAME: schedule = #smap.schedule<spatial = [m = 8], temporal = []
// CHECK-NOT: smap.graph

// REMARK: remark: [Analysis] partition | Category:smap:schedule | Remark="no schedule fits target 'sm_90a': the smallest candidate (spatial [m=1] temporal [k=1]) needs 1082372 bytes of shared memory per block, the target has 232448; partitioned before matmul1, the cut moves 524288 bytes through global memory; cuts tried: matmul1 {{.*}}"
// REMARK: remark: [Passed] chosen | Category:smap:schedule | Remark="scheduled for sm_90a: spatial [m=4, l=128] temporal []
// REMARK: remark: [Analysis] partition | Category:smap:schedule | Remark="the best fused schedule (spatial [m=1] temporal [k1=32]) is predicted at 30.77 us, the parts at 6.36 us; partitioned before addf1
// REMARK: remark: [Passed] chosen | Category:smap:schedule | Remark="scheduled for sm_90a: spatial [m=4, l=128] temporal []
// REMARK: remark: [Passed] chosen | Category:smap:schedule | Remark="scheduled for sm_90a: spatial [m=8] temporal []

// NOPART: error: no schedule fits target 'sm_90a': the smallest candidate (spatial [m=1] temporal [k=1]) needs 1082372 bytes of shared memory per block, the target has 232448
// BADOPT: error: smap-schedule: expected dim:size with a positive size, got 'm64'
// BADSIZE: error: smap-schedule: expected dim:size with a positive size, got 'k:0'
