// RUN: spacefusion-opt %s --smap-form-graphs --smap-schedule --convert-smap-to-gpu -split-input-file | FileCheck %s
// RUN: spacefusion-opt %s --smap-form-graphs --smap-schedule '--convert-smap-to-gpu=approx-math=false' \
// RUN:   -split-input-file | FileCheck %s --check-prefix=EXACT
// RUN: spacefusion-opt %s --smap-form-graphs --smap-schedule --convert-smap-to-gpu -split-input-file \
// RUN:   --remarks-filter=smap --remark-format=emitRemark 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK

// A short row (512 f16 = 16 per lane): one warp per row, 2 rows per block,
// two 16-byte loads per lane, butterfly shuffles only (no shared memory).

// CHECK-LABEL: func.func @softmax(
// CHECK-SAME:      %[[X:.*]]: memref<8x512xf16>, %[[Y:.*]]: memref<8x512xf16>)
// CHECK-SAME:      llvm.emit_c_interface
// CHECK-SAME:      smap.kernels = [{blocks = 4 : i64, parts = {chunks = 2 : i64, rows = 8 : i64, rows_per_block = 2 : i64, vector = 8 : i64}, predicted = {{[{][^}]+[}]}}, smem = 0 : i64, strategy = "rows", threads = 64 : i64}]
// CHECK-DAG:     %[[XF:.*]] = memref.collapse_shape %[[X]] {{\[\[}}0, 1]] : memref<8x512xf16> into memref<4096xf16>
// CHECK-DAG:     %[[YF:.*]] = memref.collapse_shape %[[Y]] {{\[\[}}0, 1]] : memref<8x512xf16> into memref<4096xf16>
// CHECK-DAG:     %[[GRID:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[BLOCK:.*]] = arith.constant 64 : index
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %[[GRID]], {{.*}}) threads({{.*}}) in ({{.*}} = %[[BLOCK]], {{.*}}) {
// CHECK-COUNT-2:   vector.load %[[XF]][{{.*}}] {alignment = 16 : i64} : memref<4096xf16>, vector<8xf16>
// CHECK-NOT:       vector.load
// The row max: five xor shuffles, then the row sum: five more.
// CHECK-COUNT-5:   gpu.shuffle  xor %{{.*}} : f32
// CHECK:           math.exp %{{.*}} fastmath<afn> : f32
// CHECK-COUNT-5:   gpu.shuffle  xor %{{.*}} : f32
// Dividing by the row sum: one reciprocal per row, a multiply per element.
// CHECK:           %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK:           %[[RECIP:.*]] = arith.divf %[[ONE]], %{{.*}} : f32
// CHECK-COUNT-16:  arith.mulf %{{.*}}, %[[RECIP]] : f32
// CHECK-NOT:       arith.divf
// CHECK-NOT:       gpu.barrier
// CHECK-COUNT-2:   vector.store %{{.*}}, %[[YF]][{{.*}}] {alignment = 16 : i64} : memref<4096xf16>, vector<8xf16>
// CHECK:           gpu.terminator

// With approx-math=false, exp keeps libdevice's exact-range expf.
// EXACT-LABEL: func.func @softmax(
// EXACT:         math.exp %{{[0-9]+}} : f32
// EXACT-NOT:     fastmath<afn>
// EXACT-LABEL: func.func @rmsnorm(

// The schedule's prediction is what is built.
// REMARK: remark: [Passed] rows | Category:smap:schedule | Function=softmax | Remark="runs as a row kernel on sm_90a: 8 rows of 512 ('n'): 32 threads per row, rows_per_block 2, 8-element vectors, 2 loads per thread; 4 blocks x 64 threads, 0 B shared memory"
// REMARK: remark: [Passed] row-kernel | Category:smap:convert-smap-to-gpu | Function=softmax | Remark="lowered to one kernel: strategy=rows blocks=4 threads=64 smem=0 rows=8 rows_per_block=2 vector=8 chunks=2"
// REMARK: remark: [Passed] rows | Category:smap:schedule | Function=rmsnorm | Remark="runs as a row kernel on sm_90a: 4 rows of 8192 ('n'): 512 threads per row, rows_per_block 1, 4-element vectors, 4 loads per thread; 4 blocks x 512 threads, 128 B shared memory"
// REMARK: remark: [Passed] row-kernel | Category:smap:convert-smap-to-gpu | Function=rmsnorm | Remark="lowered to one kernel: strategy=rows blocks=4 threads=512 smem=128 rows=4 rows_per_block=1 vector=4 chunks=4"

func.func @softmax(%x: tensor<8x512xf16>) -> tensor<8x512xf16> {
  %e1 = tensor.empty() : tensor<8x512xf32>
  %g2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x512xf16>) outs(%e1 : tensor<8x512xf32>) {
  ^bb0(%in0: f16, %acc: f32):
    %y = arith.extf %in0 : f16 to f32
    linalg.yield %y : f32
  } -> tensor<8x512xf32>
  %c3 = arith.constant 0xFF800000 : f32
  %e5 = tensor.empty() : tensor<8xf32>
  %f4 = linalg.fill ins(%c3 : f32) outs(%e5 : tensor<8xf32>) -> tensor<8xf32>
  %g6 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%g2 : tensor<8x512xf32>) outs(%f4 : tensor<8xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.maximumf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  %e7 = tensor.empty() : tensor<8x512xf32>
  %g8 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%g2, %g6 : tensor<8x512xf32>, tensor<8xf32>) outs(%e7 : tensor<8x512xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %d = arith.subf %in0, %in1 : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<8x512xf32>
  %c9 = arith.constant 0.000000000e+00 : f32
  %e11 = tensor.empty() : tensor<8xf32>
  %f10 = linalg.fill ins(%c9 : f32) outs(%e11 : tensor<8xf32>) -> tensor<8xf32>
  %g12 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%g8 : tensor<8x512xf32>) outs(%f10 : tensor<8xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.addf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  %e13 = tensor.empty() : tensor<8x512xf32>
  %g14 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%g8, %g12 : tensor<8x512xf32>, tensor<8xf32>) outs(%e13 : tensor<8x512xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %y = arith.divf %in0, %in1 : f32
    linalg.yield %y : f32
  } -> tensor<8x512xf32>
  %e15 = tensor.empty() : tensor<8x512xf16>
  %g16 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%g14 : tensor<8x512xf32>) outs(%e15 : tensor<8x512xf16>) {
  ^bb0(%in0: f32, %acc: f16):
    %y = arith.truncf %in0 : f32 to f16
    linalg.yield %y : f16
  } -> tensor<8x512xf16>
  return %g16 : tensor<8x512xf16>
}

// -----

// A long row (8192 f32 = 256 per lane): one block of 512 threads per row;
// the row sum goes through shared memory across the 16 warps.

// CHECK-LABEL: func.func @rmsnorm(
// CHECK-SAME:      %[[X:.*]]: memref<4x8192xf32>, %[[G:.*]]: memref<8192xf32>, %[[Y:.*]]: memref<4x8192xf32>)
// CHECK-SAME:      smap.kernels = [{blocks = 4 : i64, parts = {chunks = 4 : i64, rows = 4 : i64, rows_per_block = 1 : i64, vector = 4 : i64}, predicted = {{[{][^}]+[}]}}, smem = 128 : i64, strategy = "rows", threads = 512 : i64}]
// CHECK:         gpu.launch
// CHECK-SAME:        workgroup(%[[SMEM:.*]] : memref<32xf32, #gpu.address_space<workgroup>>)
// CHECK-COUNT-4:   vector.load {{.*}} : memref<32768xf32>, vector<4xf32>
// CHECK-COUNT-5:   gpu.shuffle  xor
// CHECK:           memref.store %{{.*}}, %[[SMEM]]
// CHECK:           gpu.barrier
// CHECK-COUNT-16:  memref.load %[[SMEM]]
// One barrier per cross-warp reduction: the next reduction would publish
// into the other half of the slots.
// CHECK-NOT:       gpu.barrier
// CHECK:           math.rsqrt
// With a block per row, gamma is loaded on first use, after the reduction
// (hoisting it costs occupancy there), and read along the row only: no row
// offset.
// Plain loads: no cache hints with a block per row (column-cache-hints.mlir).
// CHECK-COUNT-4:   vector.load %[[G]][{{.*}}] {alignment = 16 : i64} : memref<8192xf32>, vector<4xf32>
// CHECK-COUNT-4:   vector.store {{.*}} : memref<32768xf32>, vector<4xf32>

func.func @rmsnorm(%x: tensor<4x8192xf32>, %gamma: tensor<8192xf32>) -> tensor<4x8192xf32> {
  %c1 = arith.constant 0.000000000e+00 : f32
  %e3 = tensor.empty() : tensor<4xf32>
  %f2 = linalg.fill ins(%c1 : f32) outs(%e3 : tensor<4xf32>) -> tensor<4xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8192xf32>) outs(%f2 : tensor<4xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %sq = arith.mulf %in0, %in0 : f32
    %y = arith.addf %sq, %acc : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  %c5 = arith.constant 8.192000000e+03 : f32
  %e6 = tensor.empty() : tensor<4xf32>
  %g7 = linalg.generic {indexing_maps = [affine_map<(m) -> (m)>, affine_map<(m) -> (m)>], iterator_types = ["parallel"]}
      ins(%g4 : tensor<4xf32>) outs(%e6 : tensor<4xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.divf %in0, %c5 : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  %c8 = arith.constant 1.000000000e-06 : f32
  %e9 = tensor.empty() : tensor<4xf32>
  %g10 = linalg.generic {indexing_maps = [affine_map<(m) -> (m)>, affine_map<(m) -> (m)>], iterator_types = ["parallel"]}
      ins(%g7 : tensor<4xf32>) outs(%e9 : tensor<4xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %v = arith.addf %in0, %c8 : f32
    %y = math.rsqrt %v : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  %e11 = tensor.empty() : tensor<4x8192xf32>
  %g12 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %g10, %gamma : tensor<4x8192xf32>, tensor<4xf32>, tensor<8192xf32>) outs(%e11 : tensor<4x8192xf32>) {
  ^bb0(%in0: f32, %in1: f32, %in2: f32, %acc: f32):
    %t = arith.mulf %in0, %in1 : f32
    %y = arith.mulf %t, %in2 : f32
    linalg.yield %y : f32
  } -> tensor<4x8192xf32>
  return %g12 : tensor<4x8192xf32>
}

// -----

// A ragged row (100 f32 = 25 vectors of 4 for 32 lanes): one chunk per lane,
// valid in lanes 0-24 only. Masked lanes load the row's last vector (so
// everything stays finite), contribute the combiner's identity to the
// reductions and store nothing.

// CHECK-LABEL: func.func @softmax(
// CHECK-SAME:      smap.kernels = [{blocks = 4 : i64, parts = {chunks = 1 : i64, ragged = 1 : i64, rows = 8 : i64, rows_per_block = 2 : i64, vector = 4 : i64}, predicted = {{[{][^}]+[}]}}, smem = 0 : i64, strategy = "rows", threads = 64 : i64}]
// CHECK:         %[[VALID:.*]] = arith.cmpi ult, %[[START:.*]], %c100 : index
// CHECK:         %[[CLAMPED:.*]] = arith.minui %[[START]], %c96 : index
// CHECK:         %[[INDEX:.*]] = arith.addi %{{.*}}, %[[CLAMPED]] : index
// CHECK:         vector.load %{{.*}}[%[[INDEX]]] {alignment = 16 : i64} : memref<800xf32>, vector<4xf32>
// The max ignores masked lanes through -inf, the sum through 0.
// CHECK-COUNT-4: arith.select %[[VALID]], %{{.*}}, %cst{{.*}} : f32
// CHECK:         gpu.shuffle  xor
// CHECK-COUNT-4: arith.select %[[VALID]], %{{.*}}, %cst{{.*}} : f32
// CHECK:         gpu.shuffle  xor
// CHECK:         scf.if %[[VALID]] {
// CHECK-NEXT:      vector.store %{{.*}} : memref<800xf32>, vector<4xf32>

// REMARK: remark: [Passed] row-kernel | Category:smap:convert-smap-to-gpu | Function=softmax | Remark="lowered to one kernel: strategy=rows blocks=4 threads=64 smem=0 rows=8 rows_per_block=2 vector=4 chunks=1 ragged=1"

func.func @softmax(%x: tensor<8x100xf32>) -> tensor<8x100xf32> {
  %c1 = arith.constant 0xFF800000 : f32
  %e3 = tensor.empty() : tensor<8xf32>
  %f2 = linalg.fill ins(%c1 : f32) outs(%e3 : tensor<8xf32>) -> tensor<8xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x100xf32>) outs(%f2 : tensor<8xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.maximumf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  %e5 = tensor.empty() : tensor<8x100xf32>
  %g6 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %g4 : tensor<8x100xf32>, tensor<8xf32>) outs(%e5 : tensor<8x100xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %d = arith.subf %in0, %in1 : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<8x100xf32>
  %c7 = arith.constant 0.000000000e+00 : f32
  %e9 = tensor.empty() : tensor<8xf32>
  %f8 = linalg.fill ins(%c7 : f32) outs(%e9 : tensor<8xf32>) -> tensor<8xf32>
  %g10 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%g6 : tensor<8x100xf32>) outs(%f8 : tensor<8xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.addf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  %e11 = tensor.empty() : tensor<8x100xf32>
  %g12 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%g6, %g10 : tensor<8x100xf32>, tensor<8xf32>) outs(%e11 : tensor<8x100xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %y = arith.divf %in0, %in1 : f32
    linalg.yield %y : f32
  } -> tensor<8x100xf32>
  return %g12 : tensor<8x100xf32>
}

// -----

// 96 f32 is 24 vectors of 4: fewer than a warp's lanes, so the 16-byte
// accesses are kept and lanes 24-31 masked (this shape once crashed the
// access-width search).

// CHECK-LABEL: func.func @rmsnorm_96(
// CHECK-SAME:      smap.kernels = [{blocks = 3 : i64, parts = {chunks = 1 : i64, ragged = 1 : i64, rows = 3 : i64, rows_per_block = 1 : i64, vector = 4 : i64}, predicted = {{[{][^}]+[}]}}, smem = 0 : i64, strategy = "rows", threads = 32 : i64}]
// CHECK:         vector.load {{.*}} : memref<288xf32>, vector<4xf32>

// REMARK: remark: [Passed] row-kernel | Category:smap:convert-smap-to-gpu | Function=rmsnorm_96 | Remark="lowered to one kernel: strategy=rows blocks=3 threads=32 smem=0 rows=3 rows_per_block=1 vector=4 chunks=1 ragged=1"

func.func @rmsnorm_96(%x: tensor<3x96xf32>, %gamma: tensor<96xf32>) -> tensor<3x96xf32> {
  %c1 = arith.constant 0.000000000e+00 : f32
  %e3 = tensor.empty() : tensor<3xf32>
  %f2 = linalg.fill ins(%c1 : f32) outs(%e3 : tensor<3xf32>) -> tensor<3xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<3x96xf32>) outs(%f2 : tensor<3xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %sq = arith.mulf %in0, %in0 : f32
    %y = arith.addf %sq, %acc : f32
    linalg.yield %y : f32
  } -> tensor<3xf32>
  %c5 = arith.constant 9.600000000e+01 : f32
  %e6 = tensor.empty() : tensor<3xf32>
  %g7 = linalg.generic {indexing_maps = [affine_map<(m) -> (m)>, affine_map<(m) -> (m)>], iterator_types = ["parallel"]}
      ins(%g4 : tensor<3xf32>) outs(%e6 : tensor<3xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.divf %in0, %c5 : f32
    linalg.yield %y : f32
  } -> tensor<3xf32>
  %c8 = arith.constant 1.000000000e-06 : f32
  %e9 = tensor.empty() : tensor<3xf32>
  %g10 = linalg.generic {indexing_maps = [affine_map<(m) -> (m)>, affine_map<(m) -> (m)>], iterator_types = ["parallel"]}
      ins(%g7 : tensor<3xf32>) outs(%e9 : tensor<3xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %v = arith.addf %in0, %c8 : f32
    %y = math.rsqrt %v : f32
    linalg.yield %y : f32
  } -> tensor<3xf32>
  %e11 = tensor.empty() : tensor<3x96xf32>
  %g12 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %g10, %gamma : tensor<3x96xf32>, tensor<3xf32>, tensor<96xf32>) outs(%e11 : tensor<3x96xf32>) {
  ^bb0(%in0: f32, %in1: f32, %in2: f32, %acc: f32):
    %t = arith.mulf %in0, %in1 : f32
    %y = arith.mulf %t, %in2 : f32
    linalg.yield %y : f32
  } -> tensor<3x96xf32>
  return %g12 : tensor<3x96xf32>
}
