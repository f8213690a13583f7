// RUN: spacefusion-opt "--spacefusion-pipeline=target=sm_90a lower-to-gpu=false" %examples/attention.mlir \
// RUN:   | spacefusion-opt --convert-smap-to-scf=blocks-as-forall | FileCheck %s

// The GPU form of the slicing ops: the 2x8x8 spatial blocks of attention
// become one scf.forall of 128 blocks mapped to #gpu.block<x>, whose body
// recovers the (b, h, m) offsets by delinearization (m fastest) and writes
// its 1x1x64x64 tile with tensor.parallel_insert_slice. The slice of the
// first GEMM's zero-filled output is a fill of the slice (no whole 64x512
// tile). In the temporal loop over l, every state value is updated in its
// iteration argument, so that bufferization keeps one buffer per state:
// the running sum and accumulator are rescaled in place by
// exp(m_old - m_new), then the slice's row sum and P.V accumulate directly
// into them (no zero tile, no second pass); the new max is copied.

// CHECK-LABEL: func.func @attention
// CHECK:       %[[INIT:.*]] = tensor.empty() : tensor<2x8x512x64xf32>
// CHECK:       scf.forall (%[[BLK:.*]]) in (128) shared_outs(%[[OUT:.*]] = %[[INIT]])
// CHECK:         %[[MIDX:.*]] = arith.remui %[[BLK]], %{{.*}} : index
// CHECK:         %[[M:.*]] = arith.muli %[[MIDX]], %{{.*}} : index
// CHECK:         %[[REST:.*]] = arith.divui %[[BLK]], %{{.*}} : index
// CHECK:         tensor.extract_slice %arg0[%[[B:.*]], %[[H:.*]], %[[M]], 0] [1, 1, 64, 64]
// CHECK:         scf.for %[[L:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[MAX:.*]] = %{{.*}}, %[[SUM:.*]] = %{{.*}}, %[[ACC:.*]] = %{{.*}})
// CHECK:           %[[QKE:.*]] = tensor.empty() : tensor<1x1x64x128xf32>
// CHECK-NEXT:      %[[QK0:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[QKE]] : tensor<1x1x64x128xf32>)
// CHECK-NEXT:      linalg.generic {{.*}} outs(%[[QK0]] : tensor<1x1x64x128xf32>)
// CHECK:           %[[NEWMAX:.*]] = linalg.generic {{.*}} ins(%[[MAX]], %{{.*}} : {{.*}}) outs(%{{.*}} : tensor<1x1x64xf32>)
// CHECK:           %[[SUMSCALED:.*]] = linalg.generic {{.*}} ins(%[[MAX]], %[[NEWMAX]] : {{.*}}) outs(%[[SUM]] : tensor<1x1x64xf32>)
// CHECK:             math.exp
// CHECK:             arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK:           %[[NS:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%{{.*}} : tensor<1x1x64x128xf32>) outs(%[[SUMSCALED]] : tensor<1x1x64xf32>)
// CHECK:           %[[ACCSCALED:.*]] = linalg.generic {{.*}} ins(%[[MAX]], %[[NEWMAX]] : {{.*}}) outs(%[[ACC]] : tensor<1x1x64x64xf32>)
// CHECK:           %[[NA:.*]] = linalg.generic {{.*}} outs(%[[ACCSCALED]] : tensor<1x1x64x64xf32>)
// CHECK:           %[[NM:.*]] = linalg.copy ins(%{{.*}} : tensor<1x1x64xf32>) outs(%[[MAX]] : tensor<1x1x64xf32>)
// CHECK-NEXT:      scf.yield %[[NM]], %[[NS]], %[[NA]]
// CHECK:         scf.forall.in_parallel {
// CHECK-NEXT:      tensor.parallel_insert_slice %{{.*}} into %[[OUT]][%[[B]], %[[H]], %[[M]], 0] [1, 1, 64, 64] [1, 1, 1, 1]
// CHECK:       } {mapping = [#gpu.block<x>], smap.schedule = #smap.schedule<spatial = [b = 1, h = 1, m = 64], temporal = [l = 128], grid = [2, 8, 8], threads = 256,
// CHECK-SAME:    strategy = simt, stages = 2>, smap.target = #smap.target<name = "sm_90a"
