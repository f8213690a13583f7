// GPU fuzz seed 408 as compiled (the fuzzer's module after cse): f32
// causal attention of 128 queries by 3 keys, a computed init (Q.K^T added
// to 0.5 x a graph input), one tensor.empty shared by several ops. One
// simt kernel of 2x128 tiles: 257 value columns leave the third column
// block ragged, moved back to columns 129..256 over its neighbour's. The
// P.V GEMM's zero fill and accumulation used to run in the output, where
// the two blocks read each other's zeros and sums (wrong elements, changing
// from run to run on an H100). Now they run in a block buffer in shared
// memory, which the schedule counts (smem 3504, exactly what is placed),
// and each element of the tile is stored to the output once, after the
// loop.
//
// RUN: spacefusion-opt %s '--spacefusion-lower-gpu=one-wave=0 format=isa' \
// RUN:   --mlir-print-ir-after=smap-distribute-blocks -o /dev/null 2>&1 | FileCheck %s

// CHECK-LABEL: func.func @fuzz(
// CHECK-SAME:    %[[OUT:[a-z0-9]+]]: memref<1x128x257xf32>)
// CHECK-SAME:    predicted = {blocks = 192 : i64, regs = 32 : i64, smem = 3504 : i64, stages = 0 : i64, strategy = "simt"
// CHECK:         arith.minui %{{.*}}, %c129 : index
// CHECK:         %[[TILE:.*]] = memref.subview %[[OUT]]
// CHECK:         %[[VIEW:.*]] = memref.view %{{.*}} to memref<1x2x128xf32, #gpu.address_space<workgroup>>
// CHECK:         %[[ACC:.*]] = memref.memory_space_cast %[[VIEW]]
// CHECK-NOT:     memref.store {{.*}}, %[[TILE]]
// CHECK:         memref.store %cst{{.*}}, %[[ACC]]
// CHECK:         gpu.barrier
// CHECK:         %[[PARTIAL:.*]] = memref.load %[[ACC]]
// CHECK:         scf.for {{.*}} iter_args(%{{.*}} = %[[PARTIAL]])
// CHECK:         memref.store %{{.*}}, %[[ACC]]
// CHECK:         gpu.barrier
// CHECK:         %[[SUM:.*]] = memref.load %[[ACC]]
// CHECK-NEXT:    memref.store %[[SUM]], %[[TILE]]
// CHECK-NOT:     memref.store {{.*}}, %[[TILE]]
// CHECK:         gpu.terminator

#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1)>
module {
  func.func @fuzz(%arg0: tensor<3x16x7x3xf32>, %arg1: tensor<1x128x100xf32>, %arg2: tensor<1x3x100xf32>, %arg3: tensor<1x3x257xf32>, %arg4: tensor<1x128x3xf32>) -> tensor<1x128x257xf32> {
    %cst = arith.constant 5.000000e-01 : f32
    %cst_0 = arith.constant 1.000000e-01 : f32
    %cst_1 = arith.constant 0xFF800000 : f32
    %true = arith.constant true
    %cst_2 = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<1x128x3xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg4 : tensor<1x128x3xf32>) outs(%0 : tensor<1x128x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %16 = arith.mulf %in, %cst : f32
      linalg.yield %16 : f32
    } -> tensor<1x128x3xf32>
    %2 = linalg.generic {indexing_maps = [#map1, #map2, #map3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg1, %arg2 : tensor<1x128x100xf32>, tensor<1x3x100xf32>) outs(%1 : tensor<1x128x3xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %16 = arith.mulf %in, %in_3 : f32
      %17 = arith.addf %out, %16 : f32
      linalg.yield %17 : f32
    } -> tensor<1x128x3xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%2 : tensor<1x128x3xf32>) outs(%0 : tensor<1x128x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %16 = arith.mulf %in, %cst_0 : f32
      linalg.yield %16 : f32
    } -> tensor<1x128x3xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%3 : tensor<1x128x3xf32>) outs(%0 : tensor<1x128x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %16 = math.tanh %in : f32
      linalg.yield %16 : f32
    } -> tensor<1x128x3xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%4 : tensor<1x128x3xf32>) outs(%0 : tensor<1x128x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %16 = linalg.index 2 : index
      %17 = linalg.index 1 : index
      %18 = arith.cmpi sgt, %16, %17 : index
      %19 = arith.xori %18, %true : i1
      %20 = arith.select %19, %in, %cst_1 : f32
      linalg.yield %20 : f32
    } -> tensor<1x128x3xf32>
    %6 = tensor.empty() : tensor<1x128xf32>
    %7 = linalg.fill ins(%cst_1 : f32) outs(%6 : tensor<1x128xf32>) -> tensor<1x128xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%5 : tensor<1x128x3xf32>) outs(%7 : tensor<1x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %16 = arith.maximumf %in, %out : f32
      linalg.yield %16 : f32
    } -> tensor<1x128xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map4, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%5, %8 : tensor<1x128x3xf32>, tensor<1x128xf32>) outs(%0 : tensor<1x128x3xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %16 = arith.subf %in, %in_3 : f32
      %17 = math.exp %16 : f32
      linalg.yield %17 : f32
    } -> tensor<1x128x3xf32>
    %10 = linalg.fill ins(%cst_2 : f32) outs(%6 : tensor<1x128xf32>) -> tensor<1x128xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%9 : tensor<1x128x3xf32>) outs(%10 : tensor<1x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %16 = arith.addf %in, %out : f32
      linalg.yield %16 : f32
    } -> tensor<1x128xf32>
    %12 = linalg.generic {indexing_maps = [#map, #map4, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%9, %11 : tensor<1x128x3xf32>, tensor<1x128xf32>) outs(%0 : tensor<1x128x3xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %16 = arith.divf %in, %in_3 : f32
      linalg.yield %16 : f32
    } -> tensor<1x128x3xf32>
    %13 = tensor.empty() : tensor<1x128x257xf32>
    %14 = linalg.fill ins(%cst_2 : f32) outs(%13 : tensor<1x128x257xf32>) -> tensor<1x128x257xf32>
    %15 = linalg.batch_matmul ins(%12, %arg3 : tensor<1x128x3xf32>, tensor<1x3x257xf32>) outs(%14 : tensor<1x128x257xf32>) -> tensor<1x128x257xf32>
    return %15 : tensor<1x128x257xf32>
  }
}

