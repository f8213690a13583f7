// GPU fuzz seed 893 (f32): one elementwise op over four 7x12800 operands,
// one of them a collapse_shape of 7x128x100. The collapse leaves only b to
// slice, and a block of one b needs 307200 bytes of shared memory, more
// than sm_90a has: the pipeline failed ("no schedule fits"). The graph is
// now dissolved with a remark and its op runs as a loop kernel.
//
// RUN: spacefusion-opt %s --spacefusion-lower-gpu=format=isa \
// RUN:   --mlir-print-ir-after=smap-distribute-blocks -o /dev/null 2>&1 | FileCheck %s

// CHECK-LABEL: func.func @fuzz(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: memref<7x128x100xf32>
// CHECK-SAME:    smap.kernels = [{blocks = 350 : i64, smem = 0 : i64, strategy = "loops", threads = 256 : i64}]
// CHECK:         %[[FLAT:.*]] = memref.collapse_shape %[[X]] {{\[}}[0], [1, 2]]
// CHECK:         gpu.launch blocks
// CHECK-SAME:      function(@fuzz_loops_f32)
// CHECK:           memref.load %[[FLAT]]
// CHECK:           arith.maximumf
// CHECK:         return
#map0 = affine_map<(d0, d1) -> (d0, d1)>
func.func @fuzz(%arg0: tensor<7x128x100xf32>, %arg1: tensor<7x12800xf32>, %arg2: tensor<7x12800xf32>, %arg3: tensor<7x12800xf32>) -> (tensor<7x12800xf32>) {
  %cst5 = arith.constant 1.000000e+00 : f32
  %cst10 = arith.constant 5.000000e-01 : f32
  %col_sh1 = tensor.collapse_shape %arg0 [[0], [1, 2]] : tensor<7x128x100xf32> into tensor<7x12800xf32>
  %init2 = tensor.empty() : tensor<7x12800xf32>
  %ew14 = linalg.generic {indexing_maps = [#map0, #map0, #map0, #map0, #map0], iterator_types = ["parallel", "parallel"]} ins(%col_sh1, %arg1, %arg2, %arg3 : tensor<7x12800xf32>, tensor<7x12800xf32>, tensor<7x12800xf32>, tensor<7x12800xf32>) outs(%init2 : tensor<7x12800xf32>) {
  ^bb0(%in2_0: f32, %in2_1: f32, %in2_2: f32, %in2_3: f32, %out2_0: f32):
    %v4 = arith.mulf %in2_1, %in2_1 : f32
    %v6 = arith.addf %cst5, %v4 : f32
    %v7 = arith.divf %in2_0, %v6 : f32
    %v8 = arith.maximumf %v7, %in2_2 : f32
    %v9 = arith.addf %v8, %in2_3 : f32
    %v11 = arith.mulf %cst10, %cst10 : f32
    %v12 = arith.addf %cst5, %v11 : f32
    %v13 = arith.divf %v9, %v12 : f32
    linalg.yield %v13 : f32
  } -> tensor<7x12800xf32>
  return %ew14 : tensor<7x12800xf32>
}

