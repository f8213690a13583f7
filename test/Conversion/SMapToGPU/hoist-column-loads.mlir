// RUN: spacefusion-opt %s --smap-form-graphs --smap-schedule '--convert-smap-to-gpu=cache-hints=false' \
// RUN:   | FileCheck %s
// RUN: spacefusion-opt %s --smap-form-graphs \
// RUN:   --smap-schedule '--convert-smap-to-gpu=hoist-column-loads=false cache-hints=false' \
// RUN:   | FileCheck %s --check-prefix=LAZY
// RUN: spacefusion-opt %s --smap-form-graphs \
// RUN:   '--smap-schedule=rows-per-block=4' '--convert-smap-to-gpu=cache-hints=false' \
// RUN:   | FileCheck %s --check-prefix=PACKED

// A warp per row of 256 f32 (8 per lane) scaled by its rms and by gamma. By
// default gamma's loads come first, so that their latency overlaps the row's
// reduction; with hoist-column-loads=false they follow the reduction. The
// loads are plain vector.loads without cache hints (column-cache-hints.mlir
// has them).

// CHECK-LABEL: func.func @rms_scale(
// CHECK-SAME:      %[[X:.*]]: memref<16x256xf32>, %[[G:.*]]: memref<256xf32>
// CHECK-SAME:      smap.kernels = [{blocks = 8 : i64, parts = {chunks = 2 : i64, rows = 16 : i64, rows_per_block = 2 : i64, vector = 4 : i64}, predicted = {{[{][^}]+[}]}}, smem = 0 : i64, strategy = "rows", threads = 64 : i64}]
// CHECK:         gpu.launch
// CHECK-COUNT-2:   vector.load %[[G]][{{.*}}] {alignment = 16 : i64} : memref<256xf32>, vector<4xf32>
// CHECK-COUNT-2:   vector.load %{{.*}}[{{.*}}] {alignment = 16 : i64} : memref<4096xf32>, vector<4xf32>
// CHECK-COUNT-5:   gpu.shuffle  xor
// CHECK-NOT:       vector.load
// CHECK:           vector.store

// LAZY-LABEL: func.func @rms_scale(
// LAZY:         gpu.launch
// LAZY-COUNT-2:   vector.load %{{.*}}[{{.*}}] {alignment = 16 : i64} : memref<4096xf32>, vector<4xf32>
// LAZY-COUNT-5:   gpu.shuffle  xor
// LAZY-COUNT-2:   vector.load %{{.*}}[{{.*}}] {alignment = 16 : i64} : memref<256xf32>, vector<4xf32>
// LAZY:           vector.store

func.func @rms_scale(%x: tensor<16x256xf32>, %gamma: tensor<256xf32>) -> tensor<16x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %ss = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x256xf32>) outs(%f : tensor<16xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %sq = arith.mulf %in, %in : f32
    %y = arith.addf %sq, %acc : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  %e2 = tensor.empty() : tensor<16x256xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss, %gamma : tensor<16x256xf32>, tensor<16xf32>, tensor<256xf32>) outs(%e2 : tensor<16x256xf32>) {
  ^bb0(%in: f32, %s: f32, %g: f32, %o: f32):
    %r = math.rsqrt %s : f32
    %y = arith.mulf %in, %r : f32
    %z = arith.mulf %y, %g : f32
    linalg.yield %z : f32
  } -> tensor<16x256xf32>
  return %out : tensor<16x256xf32>
}

// RMSNorm over 1024 f16 (one reduction, 128 vectors of 8): a block of 4
// warps per row, one vector per thread, instead of a warp per row; a block
// per row keeps gamma's loads after the reduction.
// CHECK-LABEL: func.func @rmsnorm(
// CHECK-SAME:      smap.kernels = [{blocks = 16 : i64, parts = {chunks = 1 : i64, rows = 16 : i64, rows_per_block = 1 : i64, vector = 8 : i64}, predicted = {{[{][^}]+[}]}}, smem = 128 : i64, strategy = "rows", threads = 128 : i64}]
// CHECK:         gpu.barrier
// CHECK:         math.rsqrt
// CHECK:         vector.load %{{.*}}[{{.*}}] {alignment = 16 : i64} : memref<1024xf16>, vector<8xf16>
// LAZY-LABEL: func.func @rmsnorm(
// LAZY-SAME:      threads = 128
// A requested rows-per-block keeps the warp per row.
// PACKED-LABEL: func.func @rmsnorm(
// PACKED-SAME:      smap.kernels = [{blocks = 4 : i64, parts = {chunks = 4 : i64, rows = 16 : i64, rows_per_block = 4 : i64, vector = 8 : i64}, predicted = {{[{][^}]+[}]}}, smem = 0 : i64, strategy = "rows", threads = 128 : i64}]
func.func @rmsnorm(%x: tensor<16x1024xf16>, %gamma: tensor<1024xf16>) -> tensor<16x1024xf16> {
  %e1 = tensor.empty() : tensor<16x1024xf32>
  %g2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x1024xf16>) outs(%e1 : tensor<16x1024xf32>) {
  ^bb0(%in0: f16, %acc: f32):
    %y = arith.extf %in0 : f16 to f32
    linalg.yield %y : f32
  } -> tensor<16x1024xf32>
  %e3 = tensor.empty() : tensor<1024xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%gamma : tensor<1024xf16>) outs(%e3 : tensor<1024xf32>) {
  ^bb0(%in0: f16, %acc: f32):
    %y = arith.extf %in0 : f16 to f32
    linalg.yield %y : f32
  } -> tensor<1024xf32>
  %c5 = arith.constant 0.000000000e+00 : f32
  %e7 = tensor.empty() : tensor<16xf32>
  %f6 = linalg.fill ins(%c5 : f32) outs(%e7 : tensor<16xf32>) -> tensor<16xf32>
  %g8 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%g2 : tensor<16x1024xf32>) outs(%f6 : tensor<16xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %sq = arith.mulf %in0, %in0 : f32
    %y = arith.addf %sq, %acc : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  %c9 = arith.constant 1.024000000e+03 : f32
  %e10 = tensor.empty() : tensor<16xf32>
  %g11 = linalg.generic {indexing_maps = [affine_map<(m) -> (m)>, affine_map<(m) -> (m)>], iterator_types = ["parallel"]}
      ins(%g8 : tensor<16xf32>) outs(%e10 : tensor<16xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.divf %in0, %c9 : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  %c12 = arith.constant 1.000000000e-06 : f32
  %e13 = tensor.empty() : tensor<16xf32>
  %g14 = linalg.generic {indexing_maps = [affine_map<(m) -> (m)>, affine_map<(m) -> (m)>], iterator_types = ["parallel"]}
      ins(%g11 : tensor<16xf32>) outs(%e13 : tensor<16xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %v = arith.addf %in0, %c12 : f32
    %y = math.rsqrt %v : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  %e15 = tensor.empty() : tensor<16x1024xf32>
  %g16 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%g2, %g14, %g4 : tensor<16x1024xf32>, tensor<16xf32>, tensor<1024xf32>) outs(%e15 : tensor<16x1024xf32>) {
  ^bb0(%in0: f32, %in1: f32, %in2: f32, %acc: f32):
    %t = arith.mulf %in0, %in1 : f32
    %y = arith.mulf %t, %in2 : f32
    linalg.yield %y : f32
  } -> tensor<16x1024xf32>
  %e17 = tensor.empty() : tensor<16x1024xf16>
  %g18 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%g16 : tensor<16x1024xf32>) outs(%e17 : tensor<16x1024xf16>) {
  ^bb0(%in0: f32, %acc: f16):
    %y = arith.truncf %in0 : f32 to f16
    linalg.yield %y : f16
  } -> tensor<16x1024xf16>
  return %g18 : tensor<16x1024xf16>
}

