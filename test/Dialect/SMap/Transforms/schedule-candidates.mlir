// smap-schedule's candidates=N reports the N best candidates of the search,
// best first, each with what its prediction is made of and what decided its
// rank; the first is the schedule chosen. Off by default.
//
// RUN: spacefusion-opt %s --smap-form-graphs --smap-set-target=target=sm_90a \
// RUN:   --smap-analyze '--smap-schedule=candidates=3' --remarks-filter=smap \
// RUN:   --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s
// RUN: spacefusion-opt %s '--spacefusion-pipeline=target=sm_90a lower-to-gpu=false candidates=2' \
// RUN:   --remarks-filter=smap --remark-format=emitRemark -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PIPELINE
// RUN: spacefusion-opt %s --smap-form-graphs --smap-set-target=target=sm_90a \
// RUN:   --smap-analyze --smap-schedule --remarks-filter=smap \
// RUN:   --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF

// CHECK: candidate | Category:smap:schedule | Function=gemm | Remark="#1: spatial [[BEST:.*]], strategy {{[a-z_]+}}, 
// CHECK-SAME: predicted [[US:[0-9.]+]] us
// CHECK-SAME: [[US]] us = max(memory {{[0-9.]+}}, compute {{[0-9.]+}}) / wave utilization {{[0-9.]+}} + steps {{[0-9.]+}};
// CHECK-SAME: {{(faster than the next|ties the next on time)}}
// CHECK-SAME: rank=1
// CHECK: candidate | Category:smap:schedule | Function=gemm | Remark="#2:
// CHECK-SAME: rank=2
// CHECK: candidate | Category:smap:schedule | Function=gemm | Remark="#3:
// CHECK-SAME: last kept
// CHECK-SAME: memory_us={{.*}}rank=3
// CHECK-NOT: candidate |
// CHECK: chosen | Category:smap:schedule | Function=gemm | Remark="scheduled for sm_90a: spatial [[BEST]], strategy {{[a-z_]+}}, 

// PIPELINE-COUNT-2: candidate | Category:smap:schedule | Function=gemm
// PIPELINE-NOT: candidate |
// PIPELINE: chosen

// OFF-NOT: candidate |
// OFF: chosen
func.func @gemm(%x: tensor<64x256xf32>, %w: tensor<256x32xf32>) -> tensor<64x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  %y = linalg.matmul ins(%x, %w : tensor<64x256xf32>, tensor<256x32xf32>) outs(%f : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %y : tensor<64x32xf32>
}
