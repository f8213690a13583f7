// The LSTM cell does not fit the H200 in one graph: its gate windows keep
// the 1024-wide gate dim whole. The scheduler partitions it where both parts
// fit and schedules each part.
// RUN: spacefusion-opt --smap-form-graphs --smap-set-target --smap-schedule=one-wave=0 %examples/lstm_cell.mlir \
// RUN:   --remarks-filter=smap --remark-format=emitRemark 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// Without partitioning, the same graph is an error.
// RUN: not spacefusion-opt --smap-form-graphs --smap-set-target '--smap-schedule=partition=false' \
// RUN:   %examples/lstm_cell.mlir 2>&1 | FileCheck %s --check-prefix=NOPART
// Malformed options are errors.
// RUN: not spacefusion-opt --smap-form-graphs --smap-schedule="spatial=m64" %examples/lstm_cell.mlir 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BADOPT
// RUN: not spacefusion-opt --smap-form-graphs --smap-schedule="temporal=k:0" %examples/lstm_cell.mlir 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BADSIZE

// The whole cell does not fit: the gate windows keep l whole. It is cut
// where the gates start: the two GEMMs and their sum fit with m x l blocks
// (their result moves through global memory), and the gates, which read
// that result through windows of l (kept whole, so never sliced), with m
// blocks. (The windows of a part's input used to be recorded along the
// part's first dim, which mispriced this cut and split off the first GEMM
// instead.)
// CHECK-LABEL: func.func @lstm_cell
// CHECK: %[[XW:.*]] = smap.graph(%{{.*}} = %arg0 : tensor<64x256xf32>, %{{.*}} = %arg1 : tensor<256x1024xf32>, %{{.*}} = %arg2 : tensor<64x256xf32>, %{{.*}} = %arg3 : tensor<256x1024xf32>
// CHECK-SAME: dims = [#smap.dim<"m", 64, parallel>, #smap.dim<"l", 1024, parallel>, #smap.dim<"k", 256, temporal>, #smap.dim<"k1", 256, temporal>]
// CHECK-SAME: schedule = #smap.schedule<spatial = [l = 8], temporal = []
// CHECK: smap.graph(%{{.*}} = %[[XW]] : tensor<64x1024xf32>
// CHECK-SAME: dims = [#smap.dim<"m", 64, parallel>, #smap.dim<"n", 256, parallel>]
// CHECK-SAME: schedule = #smap.schedule<spatial = [m = 1], temporal = []
// CHECK-NOT: smap.graph

// REMARK: remark: [Analysis] partition | Category:smap:schedule | Function=lstm_cell | Remark="no schedule fits target 'sm_90a': the smallest candidate (spatial [m=1] temporal [k=1]) needs 1082372 bytes of shared memory per block, the target has 232448; partitioned before extract_slice3, the cut moves 524288 bytes through global memory; cuts tried: matmul1 {{.*}}"
// REMARK: remark: [Passed] chosen | Category:smap:schedule | Function=lstm_cell | Remark="scheduled for sm_90a: spatial [l=8] temporal []
// REMARK: remark: [Passed] chosen | Category:smap:schedule | Function=lstm_cell | Remark="scheduled for sm_90a: spatial [m=1] temporal []

// NOPART: error: no schedule fits target 'sm_90a': the smallest candidate (spatial [m=1] temporal [k=1]) needs 1082372 bytes of shared memory per block, the target has 232448
// BADOPT: error: smap-schedule: expected dim:size with a positive size, got 'm64'
// BADSIZE: error: smap-schedule: expected dim:size with a positive size, got 'k:0'
