// Blocks the cost model must not predict as row fragments, because the
// row-slab lowering refuses them (found by the fuzzer; each RUN failed with
// "the schedule's strategy row_fragments cannot be built: 'linalg.generic'
// does not index its row buffers by one row dim"):
// - a row reduction that reads a graph input along its other dim (an
//   RMSNorm's sum of squares, a softmax of an input): no row tile describes
//   that dim (seeds 331 and 867, minimized);
// - a ragged temporal slice along the head dim of Q.K^T (257 in slices of
//   128): the slicer zeroes the keys the last slice repeats in K's tile, a
//   graph input, which no row-slab op writes (seed 867 as generated).
//
// RUN: split-file %s %t
// RUN: spacefusion-opt --cse %t/sum-of-squares.mlir | spacefusion-opt \
// RUN:   '--spacefusion-lower-gpu=format=isa' --remarks-filter=smap \
// RUN:   --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s
// RUN: spacefusion-opt %t/softmax-input.mlir '--spacefusion-lower-gpu=format=isa' \
// RUN:   --remarks-filter=smap --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s
// RUN: spacefusion-opt %t/ragged-head-dim.mlir '--spacefusion-lower-gpu=one-wave=0 format=isa' \
// RUN:   --remarks-filter=smap --remark-format=emitRemark -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RAGGED

// CHECK-NOT: error
// CHECK-NOT: strategy row_fragments
// CHECK: block-kernel | Category:smap:distribute-blocks | Function=fuzz | Remark="lowered to one kernel: strategy=
// CHECK-NOT: error

// The attention graph keeps its schedule (16 rows, keys in slices of 128
// along the ragged head dim) on the shared-memory tensor-core lowering.
// RAGGED-NOT: error
// RAGGED: Remark="scheduled for sm_90a: spatial [m=16] temporal [k=128], strategy [[S:[a-z_]+]],
// RAGGED-NOT: row_fragments
// RAGGED: block-kernel | Category:smap:distribute-blocks | Function=fuzz | Remark="lowered to one kernel: strategy=[[S]] blocks=7
// RAGGED-NOT: error

//--- sum-of-squares.mlir
#map0 = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
#map2 = affine_map<(d0) -> (d0)>
func.func @fuzz(%arg1: tensor<16x100xf16>, %min1: tensor<128x16xf16>) -> (tensor<128x100xf16>) {
  %cst2 = arith.constant 0.000000e+00 : f32
  %init19 = tensor.empty() : tensor<128xf32>
  %fill20 = linalg.fill ins(%cst2 : f32) outs(%init19 : tensor<128xf32>) -> tensor<128xf32>
  %red25 = linalg.generic {indexing_maps = [#map0, #map1], iterator_types = ["parallel", "reduction"]} ins(%min1 : tensor<128x16xf16>) outs(%fill20 : tensor<128xf32>) {
  ^bb0(%in20_0: f16, %out20_0: f32):
    %v22 = arith.extf %in20_0 : f16 to f32
    %v23 = arith.mulf %v22, %v22 : f32
    %v24 = arith.addf %v23, %out20_0 : f32
    linalg.yield %v24 : f32
  } -> tensor<128xf32>
  %init36 = tensor.empty() : tensor<128x16xf16>
  %bc41 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel"]} ins(%min1, %red25 : tensor<128x16xf16>, tensor<128xf32>) outs(%init36 : tensor<128x16xf16>) {
  ^bb0(%in36_0: f16, %in36_1: f32, %out36_0: f16):
    %v38 = arith.extf %in36_0 : f16 to f32
    %v39 = arith.mulf %v38, %in36_1 : f32
    %v40 = arith.truncf %v39 : f32 to f16
    linalg.yield %v40 : f16
  } -> tensor<128x16xf16>
  %init42 = tensor.empty() : tensor<128x100xf32>
  %fill43 = linalg.fill ins(%cst2 : f32) outs(%init42 : tensor<128x100xf32>) -> tensor<128x100xf32>
  %mm44 = linalg.matmul ins(%bc41, %arg1 : tensor<128x16xf16>, tensor<16x100xf16>) outs(%fill43 : tensor<128x100xf32>) -> tensor<128x100xf32>
  %init45 = tensor.empty() : tensor<128x100xf16>
  %trunc48 = linalg.generic {indexing_maps = [#map0, #map0], iterator_types = ["parallel", "parallel"]} ins(%mm44 : tensor<128x100xf32>) outs(%init45 : tensor<128x100xf16>) {
  ^bb0(%in45_0: f32, %out45_0: f16):
    %v47 = arith.truncf %in45_0 : f32 to f16
    linalg.yield %v47 : f16
  } -> tensor<128x100xf16>
  return %trunc48 : tensor<128x100xf16>
}

//--- softmax-input.mlir
#map0 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map2 = affine_map<(d0, d1) -> (d0, d1)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map4 = affine_map<(d0, d1, d2) -> (d2, d1)>
func.func @fuzz(%arg3: tensor<16x16xf16>, %min1: tensor<100x16xf32>) -> (tensor<100x16xf16>) {
  %cst13 = arith.constant 0.000000e+00 : f32
  %init30 = tensor.empty() : tensor<100x16xf32>
  %softmax31 = linalg.softmax dimension(1) ins(%min1 : tensor<100x16xf32>) outs(%init30 : tensor<100x16xf32>) -> tensor<100x16xf32>
  %init32 = tensor.empty() : tensor<100x16xf32>
  %fill33 = linalg.fill ins(%cst13 : f32) outs(%init32 : tensor<100x16xf32>) -> tensor<100x16xf32>
  %mm34 = linalg.matmul ins(%softmax31, %arg3 : tensor<100x16xf32>, tensor<16x16xf16>) outs(%fill33 : tensor<100x16xf32>) -> tensor<100x16xf32>
  %init35 = tensor.empty() : tensor<100x16xf16>
  %trunc38 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%mm34 : tensor<100x16xf32>) outs(%init35 : tensor<100x16xf16>) {
  ^bb0(%in35_0: f32, %out35_0: f16):
    %v37 = arith.truncf %in35_0 : f32 to f16
    linalg.yield %v37 : f16
  } -> tensor<100x16xf16>
  return %trunc38 : tensor<100x16xf16>
}

//--- ragged-head-dim.mlir
// fuzz: seed=867 dtype=f16 cse=0 steps=reduce(max,dims=2);attention(100x16x257x16,softmax=named,pv=named,kt) features=multi-output
#map0 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map2 = affine_map<(d0, d1) -> (d0, d1)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map4 = affine_map<(d0, d1, d2) -> (d2, d1)>
func.func @fuzz(%arg0: tensor<128x7x3xf16>, %arg1: tensor<100x257xf16>, %arg2: tensor<257x16xf16>, %arg3: tensor<16x16xf16>) -> (tensor<100x16xf16>, tensor<128x7xf16>) {
  %cst2 = arith.constant 0xFF800000 : f32
  %cst13 = arith.constant 0.000000e+00 : f32
  %cst23 = arith.constant 6.237829e-02 : f32
  %init1 = tensor.empty() : tensor<128x7xf32>
  %fill3 = linalg.fill ins(%cst2 : f32) outs(%init1 : tensor<128x7xf32>) -> tensor<128x7xf32>
  %red7 = linalg.generic {indexing_maps = [#map0, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0 : tensor<128x7x3xf16>) outs(%fill3 : tensor<128x7xf32>) {
  ^bb0(%in3_0: f16, %out3_0: f32):
    %v5 = arith.extf %in3_0 : f16 to f32
    %v6 = arith.maximumf %v5, %out3_0 : f32
    linalg.yield %v6 : f32
  } -> tensor<128x7xf32>
  %init8 = tensor.empty() : tensor<128x7xf16>
  %trunc11 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%red7 : tensor<128x7xf32>) outs(%init8 : tensor<128x7xf16>) {
  ^bb0(%in8_0: f32, %out8_0: f16):
    %v10 = arith.truncf %in8_0 : f32 to f16
    linalg.yield %v10 : f16
  } -> tensor<128x7xf16>
  %init12 = tensor.empty() : tensor<100x16xf32>
  %fill14 = linalg.fill ins(%cst13 : f32) outs(%init12 : tensor<100x16xf32>) -> tensor<100x16xf32>
  %mm20 = linalg.generic {indexing_maps = [#map3, #map4, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg1, %arg2 : tensor<100x257xf16>, tensor<257x16xf16>) outs(%fill14 : tensor<100x16xf32>) {
  ^bb0(%in14_0: f16, %in14_1: f16, %out14_0: f32):
    %v16 = arith.extf %in14_0 : f16 to f32
    %v17 = arith.extf %in14_1 : f16 to f32
    %v18 = arith.mulf %v16, %v17 : f32
    %v19 = arith.addf %out14_0, %v18 : f32
    linalg.yield %v19 : f32
  } -> tensor<100x16xf32>
  %init21 = tensor.empty() : tensor<100x16xf32>
  %scale25 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%mm20 : tensor<100x16xf32>) outs(%init21 : tensor<100x16xf32>) {
  ^bb0(%in21_0: f32, %out21_0: f32):
    %v24 = arith.mulf %in21_0, %cst23 : f32
    linalg.yield %v24 : f32
  } -> tensor<100x16xf32>
  %init26 = tensor.empty() : tensor<100x16xf32>
  %squash29 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%scale25 : tensor<100x16xf32>) outs(%init26 : tensor<100x16xf32>) {
  ^bb0(%in26_0: f32, %out26_0: f32):
    %v28 = math.tanh %in26_0 : f32
    linalg.yield %v28 : f32
  } -> tensor<100x16xf32>
  %init30 = tensor.empty() : tensor<100x16xf32>
  %softmax31 = linalg.softmax dimension(1) ins(%squash29 : tensor<100x16xf32>) outs(%init30 : tensor<100x16xf32>) -> tensor<100x16xf32>
  %init32 = tensor.empty() : tensor<100x16xf32>
  %fill33 = linalg.fill ins(%cst13 : f32) outs(%init32 : tensor<100x16xf32>) -> tensor<100x16xf32>
  %mm34 = linalg.matmul ins(%softmax31, %arg3 : tensor<100x16xf32>, tensor<16x16xf16>) outs(%fill33 : tensor<100x16xf32>) -> tensor<100x16xf32>
  %init35 = tensor.empty() : tensor<100x16xf16>
  %trunc38 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%mm34 : tensor<100x16xf32>) outs(%init35 : tensor<100x16xf16>) {
  ^bb0(%in35_0: f32, %out35_0: f16):
    %v37 = arith.truncf %in35_0 : f32 to f16
    linalg.yield %v37 : f16
  } -> tensor<100x16xf16>
  return %trunc38, %trunc11 : tensor<100x16xf16>, tensor<128x7xf16>
}
