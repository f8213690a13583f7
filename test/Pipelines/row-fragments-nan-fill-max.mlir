// RUN: spacefusion-opt %s '--spacefusion-lower-gpu=one-wave=0 format=isa' \
// RUN:   --mlir-print-ir-after=smap-distribute-blocks -o /dev/null 2>&1 | FileCheck %s

// Attention over 16 keys in one block (no temporal slice), with
// linalg.softmax, whose upstream decomposition starts the row max from NaN
// (maxnumf's identity). The row-fragment kernel combines the four lanes of
// a row and then that NaN init with the body's own maxnumf; with maximumf
// every output was NaN (GPU fuzz seed 350, all 65792 elements of both
// outputs, on an H100).
// The lane's own slots are folded from maxnumf's identity, NaN, not from
// -inf: a row of NaN stays NaN.
// CHECK: %[[NAN:.*]] = arith.constant 0xFFC00000 : f32
// CHECK: gpu.launch
// CHECK: %[[START:.*]] = arith.constant 0x7FC00000 : f32
// CHECK-NEXT: arith.maxnumf %{{.*}}, %[[START]] : f32
// CHECK: %[[LANES:.*]], %{{.*}} = gpu.shuffle xor %[[OWN:.*]], %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: %[[ONE:.*]] = arith.maxnumf %[[OWN]], %[[LANES]] : f32
// CHECK: %[[FOUR:.*]] = arith.maxnumf %[[ONE]], %{{.*}} : f32
// CHECK-NEXT: arith.maxnumf %[[FOUR]], %[[NAN]] : f32
// CHECK-NOT: arith.maximumf
// CHECK: smap.kernel = #smap.kernel<strategy = row_fragments
#map0 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @fuzz(%arg1: tensor<2x64x16xf16>, %arg2: tensor<2x16x16xf16>, %arg3: tensor<2x16x16xf16>) -> (tensor<2x64x16xf16>) {
  %cst2 = arith.constant 0.000000e+00 : f32
  %cst12 = arith.constant 2.500000e-01 : f32
  %init1 = tensor.empty() : tensor<2x64x16xf32>
  %fill3 = linalg.fill ins(%cst2 : f32) outs(%init1 : tensor<2x64x16xf32>) -> tensor<2x64x16xf32>
  %mm9 = linalg.generic {indexing_maps = [#map0, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg1, %arg2 : tensor<2x64x16xf16>, tensor<2x16x16xf16>) outs(%fill3 : tensor<2x64x16xf32>) {
  ^bb0(%in3_0: f16, %in3_1: f16, %out3_0: f32):
    %v5 = arith.extf %in3_0 : f16 to f32
    %v6 = arith.extf %in3_1 : f16 to f32
    %v7 = arith.mulf %v5, %v6 : f32
    %v8 = arith.addf %out3_0, %v7 : f32
    linalg.yield %v8 : f32
  } -> tensor<2x64x16xf32>
  %init10 = tensor.empty() : tensor<2x64x16xf32>
  %scale14 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mm9 : tensor<2x64x16xf32>) outs(%init10 : tensor<2x64x16xf32>) {
  ^bb0(%in10_0: f32, %out10_0: f32):
    %v13 = arith.mulf %in10_0, %cst12 : f32
    linalg.yield %v13 : f32
  } -> tensor<2x64x16xf32>
  %init15 = tensor.empty() : tensor<2x64x16xf32>
  %softmax16 = linalg.softmax dimension(2) ins(%scale14 : tensor<2x64x16xf32>) outs(%init15 : tensor<2x64x16xf32>) -> tensor<2x64x16xf32>
  %init17 = tensor.empty() : tensor<2x64x16xf32>
  %fill18 = linalg.fill ins(%cst2 : f32) outs(%init17 : tensor<2x64x16xf32>) -> tensor<2x64x16xf32>
  %mm19 = linalg.batch_matmul ins(%softmax16, %arg3 : tensor<2x64x16xf32>, tensor<2x16x16xf16>) outs(%fill18 : tensor<2x64x16xf32>) -> tensor<2x64x16xf32>
  %init20 = tensor.empty() : tensor<2x64x16xf16>
  %trunc23 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mm19 : tensor<2x64x16xf32>) outs(%init20 : tensor<2x64x16xf16>) {
  ^bb0(%in20_0: f32, %out20_0: f16):
    %v22 = arith.truncf %in20_0 : f32 to f16
    linalg.yield %v22 : f16
  } -> tensor<2x64x16xf16>
  return %trunc23 : tensor<2x64x16xf16>
}
