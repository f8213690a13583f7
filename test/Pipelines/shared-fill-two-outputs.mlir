// GPU fuzz seed 1934 (f32): one simt block computes two outputs that both
// start from a zero fill, the first GEMM's (%mm7, output #1) and the last
// one's (%mm30, output #0). The block's `cse` merged their fills; empty-
// tensor elimination put the shared fill in output #1's tile and
// bufferization computed %mm30 there (and %mm7 in a copy), then copied %mm7
// into output #1 before copying output #1's tile, by then %mm7, into output
// #0: output #0 was %mm7 on the GPU (384 of 384 wrong). Each writer of a
// fill in a block gets one of its own now (smap-privatize-fills), and each
// output is computed in its own tile.
//
// RUN: spacefusion-opt %s --spacefusion-lower-gpu=format=isa \
// RUN:   --mlir-print-ir-before=smap-distribute-blocks -o /dev/null 2>&1 | FileCheck %s
//
// Sliced along n (temporal=n:1), the block computes %mm7 (output #1, along n)
// again in a final pass over n, with staged tiles of its own; the bound left
// that pass out ("17712 bytes of shared memory, more than the 15072 its
// schedule predicted"): the SMG now says a dim needs a final pass whenever an
// output is indexed by it, as the temporal slicer builds one.
// RUN: spacefusion-opt %s --spacefusion-lower-gpu="format=isa spatial=b:4 temporal=n:1" \
// RUN:   | FileCheck %s --check-prefix=FINAL
// RUN: spacefusion-opt %s --smap-form-graphs --smap-set-target=target=sm_90a \
// RUN:   --smap-analyze --remarks-filter=smap -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIM

// CHECK-LABEL: func.func @fuzz(
// CHECK-SAME:    %[[OUT0:[a-z0-9]+]]: memref<128x1x3xf32>, %[[OUT1:[a-z0-9]+]]: memref<128x1x3xf32>)
// CHECK:         %[[T1:.*]] = memref.subview %[[OUT1]]
// CHECK:         linalg.fill {{.*}} outs(%[[T1]] :
// CHECK:         linalg.generic {{.*}} outs(%[[T1]] : {{.*}} #smap.space<"contract0"
// CHECK:         %[[T0:.*]] = memref.subview %[[OUT0]]
// CHECK:         linalg.fill {{.*}} outs(%[[T0]] :
// CHECK:         linalg.generic {{.*}} outs(%[[T0]] : {{.*}} #smap.space<"contract5"
// CHECK-NOT:     memref.copy
// CHECK:         memref.copy %[[T1]], %[[T1]]
// CHECK-NEXT:    memref.copy %[[T0]], %[[T0]]
// CHECK-NEXT:  } {mapping = [#gpu.block<x>]
// FINAL-LABEL: llvm.func @fuzz(
// FINAL-SAME: predicted = {blocks = 32 : i64, regs = {{[0-9]+}} : i64, smem = 21920 : i64, stages = 0 : i64, strategy = "simt", threads = 256 : i64}, smem = 13600 : i64, strategy = "simt"

// DIM: dim 'n'{{.*}}written in a final pass
// fuzz: seed=1934 dtype=f32 cse=0 steps=gemm(generic-transposed-b,128x1x3x128);reduce(maxnumf-nan,dims=1)+broadcast;gemm-chain(named-batch,128x1x257x3);gemm(generic-transposed-b,128x1x3x257) features=multi-output
#map0 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @fuzz(%arg0: tensor<3xf32>, %arg1: tensor<128x1x128xf32>, %arg2: tensor<3x128xf32>, %arg3: tensor<128x3x257xf32>, %arg4: tensor<3x257xf32>) -> (tensor<128x1x3xf32>, tensor<128x1x3xf32>) {
  %cst2 = arith.constant 0.000000e+00 : f32
  %cst9 = arith.constant 0x7FC00000 : f32
  %init1 = tensor.empty() : tensor<128x1x3xf32>
  %fill3 = linalg.fill ins(%cst2 : f32) outs(%init1 : tensor<128x1x3xf32>) -> tensor<128x1x3xf32>
  %mm7 = linalg.generic {indexing_maps = [#map0, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg1, %arg2 : tensor<128x1x128xf32>, tensor<3x128xf32>) outs(%fill3 : tensor<128x1x3xf32>) {
  ^bb0(%in3_0: f32, %in3_1: f32, %out3_0: f32):
    %v5 = arith.mulf %in3_0, %in3_1 : f32
    %v6 = arith.addf %out3_0, %v5 : f32
    linalg.yield %v6 : f32
  } -> tensor<128x1x3xf32>
  %init8 = tensor.empty() : tensor<128x3xf32>
  %fill10 = linalg.fill ins(%cst9 : f32) outs(%init8 : tensor<128x3xf32>) -> tensor<128x3xf32>
  %red13 = linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "reduction", "parallel"]} ins(%mm7 : tensor<128x1x3xf32>) outs(%fill10 : tensor<128x3xf32>) {
  ^bb0(%in10_0: f32, %out10_0: f32):
    %v12 = arith.maxnumf %in10_0, %out10_0 : f32
    linalg.yield %v12 : f32
  } -> tensor<128x3xf32>
  %init14 = tensor.empty() : tensor<128x1x3xf32>
  %bc17 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mm7, %red13 : tensor<128x1x3xf32>, tensor<128x3xf32>) outs(%init14 : tensor<128x1x3xf32>) {
  ^bb0(%in14_0: f32, %in14_1: f32, %out14_0: f32):
    %v16 = arith.subf %in14_0, %in14_1 : f32
    linalg.yield %v16 : f32
  } -> tensor<128x1x3xf32>
  %init18 = tensor.empty() : tensor<128x1x257xf32>
  %fill19 = linalg.fill ins(%cst2 : f32) outs(%init18 : tensor<128x1x257xf32>) -> tensor<128x1x257xf32>
  %mm20 = linalg.batch_matmul ins(%bc17, %arg3 : tensor<128x1x3xf32>, tensor<128x3x257xf32>) outs(%fill19 : tensor<128x1x257xf32>) -> tensor<128x1x257xf32>
  %init21 = tensor.empty() : tensor<128x1x257xf32>
  %act24 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mm20 : tensor<128x1x257xf32>) outs(%init21 : tensor<128x1x257xf32>) {
  ^bb0(%in21_0: f32, %out21_0: f32):
    %v23 = math.tanh %in21_0 : f32
    linalg.yield %v23 : f32
  } -> tensor<128x1x257xf32>
  %init25 = tensor.empty() : tensor<128x1x3xf32>
  %fill26 = linalg.fill ins(%cst2 : f32) outs(%init25 : tensor<128x1x3xf32>) -> tensor<128x1x3xf32>
  %mm30 = linalg.generic {indexing_maps = [#map0, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%act24, %arg4 : tensor<128x1x257xf32>, tensor<3x257xf32>) outs(%fill26 : tensor<128x1x3xf32>) {
  ^bb0(%in26_0: f32, %in26_1: f32, %out26_0: f32):
    %v28 = arith.mulf %in26_0, %in26_1 : f32
    %v29 = arith.addf %out26_0, %v28 : f32
    linalg.yield %v29 : f32
  } -> tensor<128x1x3xf32>
  return %mm30, %mm7 : tensor<128x1x3xf32>, tensor<128x1x3xf32>
}
