// A staged tile whose last dimension is a unit one (the fuzzer's bf16
// attention with a value head dim of 1, seed 143): smap-stage-block-operands
// pads that dimension too (1x16x1 -> 1x16x9), and the schedule's footprint
// counts it so, 16-byte aligned; the block lowering would refuse a block
// whose buffers take more shared memory than its schedule predicted. Both
// kernels are built with the shared memory predicted.
// RUN: spacefusion-opt %s '--spacefusion-pipeline=one-wave=0 target=sm_90a' --mlir-print-ir-before=smap-distribute-blocks -o %t 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SCHEDULE
// RUN: FileCheck %s --check-prefix=BUILT < %t

// SCHEDULE: memref.alloc() {{.*}} : memref<1x2x136xbf16>
// SCHEDULE: smap.schedule = #smap.schedule<spatial = [b = 1, m = 1, l = 2], temporal = [], grid = [3, 128, 8], threads = 32, smem = 816, regs = 32, strategy = simt>
// SCHEDULE: memref.alloc() {{.*}} : memref<1x16x9xbf16>
// SCHEDULE: smap.schedule = #smap.schedule<spatial = [b = 1, m = 1], temporal = [], grid = [3, 128], threads = 32, smem = 400, regs = 32, strategy = simt>
// BUILT: smap.kernels = [{blocks = 3072 : i64, parts = {fma = 1 : i64}, predicted = {{[{][^}]+[}]}}, smem = 816 : i64, strategy = "simt", threads = 32 : i64}, {blocks = 384 : i64, parts = {fma = 1 : i64}, predicted = {blocks = 384 : i64, regs = 32 : i64, smem = 400 : i64, {{[^}]+[}]}}, smem = 400 : i64, strategy = "simt", threads = 32 : i64}]
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1)>
module {
  func.func @fuzz(%arg0: tensor<3xbf16>, %arg1: tensor<3x128x128xbf16>, %arg2: tensor<3x16x128xbf16>, %arg3: tensor<3x16x1xbf16>) -> tensor<3x128x1xbf16> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0.0883883535 : f32
    %cst_1 = arith.constant 0xFF800000 : f32
    %0 = tensor.empty() : tensor<3x128x16xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<3x128x16xf32>) -> tensor<3x128x16xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg1, %arg2 : tensor<3x128x128xbf16>, tensor<3x16x128xbf16>) outs(%1 : tensor<3x128x16xf32>) {
    ^bb0(%in: bf16, %in_2: bf16, %out: f32):
      %22 = arith.extf %in : bf16 to f32
      %23 = arith.extf %in_2 : bf16 to f32
      %24 = arith.mulf %22, %23 : f32
      %25 = arith.addf %out, %24 : f32
      linalg.yield %25 : f32
    } -> tensor<3x128x16xf32>
    %3 = tensor.empty() : tensor<3x128x16xf32>
    %4 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%2 : tensor<3x128x16xf32>) outs(%3 : tensor<3x128x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %22 = arith.mulf %in, %cst_0 : f32
      linalg.yield %22 : f32
    } -> tensor<3x128x16xf32>
    %5 = tensor.empty() : tensor<3x128x16xf32>
    %6 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%4 : tensor<3x128x16xf32>) outs(%5 : tensor<3x128x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %22 = math.tanh %in : f32
      linalg.yield %22 : f32
    } -> tensor<3x128x16xf32>
    %7 = tensor.empty() : tensor<3x128xf32>
    %8 = linalg.fill ins(%cst_1 : f32) outs(%7 : tensor<3x128xf32>) -> tensor<3x128xf32>
    %9 = linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%6 : tensor<3x128x16xf32>) outs(%8 : tensor<3x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %22 = arith.maximumf %in, %out : f32
      linalg.yield %22 : f32
    } -> tensor<3x128xf32>
    %10 = tensor.empty() : tensor<3x128x16xf32>
    %11 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6, %9 : tensor<3x128x16xf32>, tensor<3x128xf32>) outs(%10 : tensor<3x128x16xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %22 = arith.subf %in, %in_2 : f32
      %23 = math.exp %22 : f32
      linalg.yield %23 : f32
    } -> tensor<3x128x16xf32>
    %12 = tensor.empty() : tensor<3x128xf32>
    %13 = linalg.fill ins(%cst : f32) outs(%12 : tensor<3x128xf32>) -> tensor<3x128xf32>
    %14 = linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%11 : tensor<3x128x16xf32>) outs(%13 : tensor<3x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %22 = arith.addf %in, %out : f32
      linalg.yield %22 : f32
    } -> tensor<3x128xf32>
    %15 = tensor.empty() : tensor<3x128x16xf32>
    %16 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%11, %14 : tensor<3x128x16xf32>, tensor<3x128xf32>) outs(%15 : tensor<3x128x16xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %22 = arith.divf %in, %in_2 : f32
      linalg.yield %22 : f32
    } -> tensor<3x128x16xf32>
    %17 = tensor.empty() : tensor<3x128x1xf32>
    %18 = linalg.fill ins(%cst : f32) outs(%17 : tensor<3x128x1xf32>) -> tensor<3x128x1xf32>
    %19 = linalg.batch_matmul ins(%16, %arg3 : tensor<3x128x16xf32>, tensor<3x16x1xbf16>) outs(%18 : tensor<3x128x1xf32>) -> tensor<3x128x1xf32>
    %20 = tensor.empty() : tensor<3x128x1xbf16>
    %21 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%19 : tensor<3x128x1xf32>) outs(%20 : tensor<3x128x1xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %22 = arith.truncf %in : f32 to bf16
      linalg.yield %22 : bf16
    } -> tensor<3x128x1xbf16>
    return %21 : tensor<3x128x1xbf16>
  }
}

