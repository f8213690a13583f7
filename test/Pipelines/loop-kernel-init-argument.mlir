// A loop kernel whose init is a function argument (an elementwise op written
// in destination style over its last input). Bufferization took arguments
// as writable: the kernel stored into the caller's input and then copied it
// to the result. The input is read-only now (smap-read-only-arguments): it
// is copied into the result first and the kernel writes the result.
//
// RUN: spacefusion-opt %s --spacefusion-lower-gpu=format=isa \
// RUN:   --mlir-print-ir-after=smap-distribute-blocks -o /dev/null 2>&1 | FileCheck %s

// CHECK-LABEL: func.func @accumulate_into_input(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: memref<7x128x100xf32>, %{{[a-z0-9]+}}: memref<7x12800xf32>, %{{[a-z0-9]+}}: memref<7x12800xf32>,
// CHECK-SAME:    %[[ACC:[a-z0-9]+]]: memref<7x12800xf32>, %[[OUT:[a-z0-9]+]]: memref<7x12800xf32>)
// CHECK:         gpu.memcpy async [%{{.*}}] %[[OUT]], %[[ACC]]
// CHECK:         gpu.launch blocks
// CHECK-SAME:      function(@accumulate_into_input_loops_f32)
// CHECK-NOT:       memref.store {{.*}}, %[[ACC]]
// CHECK:           memref.store %{{.*}}, %[[OUT]]
// CHECK-NOT:       memref.store {{.*}}, %[[ACC]]
// CHECK:         return

#map0 = affine_map<(d0, d1) -> (d0, d1)>
func.func @accumulate_into_input(%arg0: tensor<7x128x100xf32>, %arg1: tensor<7x12800xf32>, %arg2: tensor<7x12800xf32>, %arg3: tensor<7x12800xf32>) -> (tensor<7x12800xf32>) {
  %cst5 = arith.constant 1.000000e+00 : f32
  %cst10 = arith.constant 5.000000e-01 : f32
  %col_sh1 = tensor.collapse_shape %arg0 [[0], [1, 2]] : tensor<7x128x100xf32> into tensor<7x12800xf32>
  %init2 = tensor.empty() : tensor<7x12800xf32>
  %ew14 = linalg.generic {indexing_maps = [#map0, #map0, #map0, #map0], iterator_types = ["parallel", "parallel"]} ins(%col_sh1, %arg1, %arg2 : tensor<7x12800xf32>, tensor<7x12800xf32>, tensor<7x12800xf32>) outs(%arg3 : tensor<7x12800xf32>) {
  ^bb0(%in2_0: f32, %in2_1: f32, %in2_2: f32, %in2_3: f32):
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

