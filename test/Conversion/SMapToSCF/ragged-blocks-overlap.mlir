// RUN: spacefusion-opt %s "--spacefusion-pipeline=one-wave=0 target=sm_90a lower-to-gpu=false" \
// RUN:   | spacefusion-opt --convert-smap-to-scf=blocks-as-forall | FileCheck %s
// RUN: spacefusion-opt %s '--spacefusion-lower-gpu=one-wave=0 format=isa' \
// RUN:   --mlir-print-ir-after=smap-distribute-blocks -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BLOCKS

// A tile that does not divide its dim (16 into 257 columns) moves the last
// block back to end at the extent: it overlaps its neighbour's columns
// 241..255. Both write the same values there, which is harmless only for a
// tile written once. A zero fill then a GEMM accumulating into it reads the
// tile back: in the output it would read the other block's zero or sum
// (GPU fuzz seed 408, a race). Such a tile is computed in a block buffer
// and copied out once, into a tensor.empty tagged smap.overlapped_tile
// (which cse cannot merge with the GEMM's own); the cost model counts the
// buffer (smem 6400 against 5376 for the divided GEMM).

// CHECK-LABEL: func.func @gemm_ragged
// CHECK:         scf.forall (%{{.*}}) in (136) shared_outs(%[[OUT:.*]] = %{{.*}})
// CHECK:           %[[COL:.*]] = arith.minui %{{.*}}, %c241 : index
// CHECK:           %[[ACC0:.*]] = tensor.empty() : tensor<16x16xf32>
// CHECK:           %[[ZERO:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[ACC0]] : tensor<16x16xf32>)
// CHECK:           %[[GEMM:.*]] = linalg.generic {{.*}} outs(%[[ZERO]] : tensor<16x16xf32>)
// CHECK:           %[[OWN:.*]] = tensor.empty() {smap.overlapped_tile} : tensor<16x16xf32>
// CHECK:           %[[COPY:.*]] = linalg.copy ins(%[[GEMM]] : tensor<16x16xf32>) outs(%[[OWN]] : tensor<16x16xf32>)
// CHECK:           tensor.parallel_insert_slice %[[COPY]] into %[[OUT]][%{{.*}}, %[[COL]]] [16, 16]
// CHECK:         smap.schedule = #smap.schedule<spatial = [m = 16, n = 16], temporal = [], grid = [8, 17], threads = 256, smem = 6400,

// BLOCKS-LABEL: func.func @gemm_ragged(
// BLOCKS-SAME:    %[[C:[a-z0-9]+]]: memref<128x257xf32>
// BLOCKS-SAME:    smem = 6400 : i64, strategy = "mma_sync"
// BLOCKS:         %[[TILE:.*]] = memref.subview %[[C]][%{{.*}}, %{{.*}}] [16, 16] [1, 1]
// BLOCKS:         %[[VIEW:.*]] = memref.view %{{.*}}[%c5376][] : {{.*}} to memref<16x16xf32, #gpu.address_space<workgroup>>
// BLOCKS:         %[[ACC:.*]] = memref.memory_space_cast %[[VIEW]]
// BLOCKS-NOT:     memref.store {{.*}}, %[[TILE]]
// BLOCKS:         memref.store %cst{{.*}}, %[[ACC]]
// BLOCKS-NOT:     memref.store {{.*}}, %[[TILE]]
// BLOCKS:         memref.store %{{.*}}, %[[ACC]]
// BLOCKS:         %[[SUM:.*]] = memref.load %[[ACC]]
// BLOCKS-NEXT:    memref.store %[[SUM]], %[[TILE]]
// BLOCKS-NOT:     memref.store {{.*}}, %[[TILE]]
// BLOCKS:         gpu.terminator
func.func @gemm_ragged(%a: tensor<128x64xf16>, %b: tensor<64x257xf16>) -> tensor<128x257xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x257xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<128x257xf32>) -> tensor<128x257xf32>
  %r = linalg.matmul ins(%a, %b : tensor<128x64xf16>, tensor<64x257xf16>) outs(%f : tensor<128x257xf32>) -> tensor<128x257xf32>
  return %r : tensor<128x257xf32>
}

// Divided tiles do not overlap: the GEMM accumulates in the output.
// CHECK-LABEL: func.func @gemm_divided
// CHECK-NOT:     smap.overlapped_tile
// CHECK:         smap.schedule = #smap.schedule<spatial = [m = 16, n = 16], temporal = [], grid = [8, 16], threads = 256, smem = 5376,
// BLOCKS-LABEL: func.func @gemm_divided(
// BLOCKS-SAME:    smem = 5376 : i64, strategy = "mma_sync"
func.func @gemm_divided(%a: tensor<128x64xf16>, %b: tensor<64x256xf16>) -> tensor<128x256xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x256xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
  %r = linalg.matmul ins(%a, %b : tensor<128x64xf16>, tensor<64x256xf16>) outs(%f : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %r : tensor<128x256xf32>
}

// A ReLU after the GEMM writes each element of its ragged tile once: it
// goes straight into the output (the GEMM's tile was a block buffer
// already), no copy. Both share one tensor.empty, as after cse.
// CHECK-LABEL: func.func @gemm_relu_ragged
// CHECK-NOT:     smap.overlapped_tile
// CHECK:         %[[RELU:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<16x16xf32>) outs(%{{.*}} : tensor<16x16xf32>)
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      arith.maximumf
// CHECK-NEXT:      linalg.yield
// CHECK-NEXT:    } -> tensor<16x16xf32>
// CHECK-NEXT:    scf.forall.in_parallel {
// CHECK-NEXT:      tensor.parallel_insert_slice %[[RELU]] into
// CHECK:         smem = 6400,
func.func @gemm_relu_ragged(%a: tensor<128x64xf16>, %b: tensor<64x257xf16>) -> tensor<128x257xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x257xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<128x257xf32>) -> tensor<128x257xf32>
  %r = linalg.matmul ins(%a, %b : tensor<128x64xf16>, tensor<64x257xf16>) outs(%f : tensor<128x257xf32>) -> tensor<128x257xf32>
  %relu = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r : tensor<128x257xf32>) outs(%e : tensor<128x257xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %z : f32
    linalg.yield %m : f32
  } -> tensor<128x257xf32>
  return %relu : tensor<128x257xf32>
}
