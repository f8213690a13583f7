// RUN: spacefusion-opt %s -split-input-file --smap-schedule -verify-diagnostics | FileCheck %s

// A schedule with strategy rows written on the graph (by the user or an
// earlier pass) is checked with the module convert-smap-to-gpu builds from
// (Analysis/RowKernelPlan.h), never re-decided.

// A row kernel given as a schedule is checked against the row-kernel plan
// and recorded with what it builds (here the shared memory is 0: a warp per
// row needs no cross-warp step).
// CHECK-LABEL: func.func @given_rows
// CHECK: smap.graph
// CHECK-SAME: schedule = #smap.schedule<spatial = [m = 1], temporal = [], grid = [8], threads = 128, smem = 0, regs = 0, strategy = rows, rows_per_block = 4>
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
func.func @given_rows(%arg0: tensor<8x256xf32>) -> tensor<8xf32> {
  %0 = smap.graph(%arg1 = %arg0 : tensor<8x256xf32>) -> (tensor<8xf32>) attributes {dims = [#smap.dim<"m", 8, parallel>, #smap.dim<"k", 256, temporal>],
      schedule = #smap.schedule<spatial = [m = 1], temporal = [], grid = [8], threads = 128, smem = 0, regs = 0, strategy = rows, rows_per_block = 4>,
      target = #smap.target<name = "sm_90a", smem_per_block = 232448, regs_per_thread = 255, regs_per_sm = 65536, sm_count = 132, max_threads = 1024, bandwidth_gbps = 4800, f16_gflops = 989000, f32_gflops = 67000, arch = 90, features = ["mma_sync", "wgmma", "tma"]>} {
    %cst = arith.constant 0.000000e+00 : f32
    %1 = tensor.empty() : tensor<8xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<8xf32>) -> tensor<8xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%arg1 : tensor<8x256xf32>) outs(%2 : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %4 = arith.addf %in, %out : f32
      linalg.yield %4 : f32
    } -> tensor<8xf32>
    smap.yield %3 : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}

// -----

// A block of 256 threads per row: the schedule gets the 128 bytes of shared
// memory its warps combine their partials in.
// CHECK-LABEL: func.func @given_rows_block
// CHECK: smap.graph
// CHECK-SAME: schedule = #smap.schedule<spatial = [m = 1], temporal = [], grid = [8], threads = 256, smem = 128, regs = 0, strategy = rows, rows_per_block = 1>
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
func.func @given_rows_block(%arg0: tensor<8x256xf32>) -> tensor<8xf32> {
  %0 = smap.graph(%arg1 = %arg0 : tensor<8x256xf32>) -> (tensor<8xf32>) attributes {dims = [#smap.dim<"m", 8, parallel>, #smap.dim<"k", 256, temporal>],
      schedule = #smap.schedule<spatial = [m = 1], temporal = [], grid = [8], threads = 256, smem = 0, regs = 0, strategy = rows, rows_per_block = 1>,
      target = #smap.target<name = "sm_90a", smem_per_block = 232448, regs_per_thread = 255, regs_per_sm = 65536, sm_count = 132, max_threads = 1024, bandwidth_gbps = 4800, f16_gflops = 989000, f32_gflops = 67000, arch = 90, features = ["mma_sync", "wgmma", "tma"]>} {
    %cst = arith.constant 0.000000e+00 : f32
    %1 = tensor.empty() : tensor<8xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<8xf32>) -> tensor<8xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%arg1 : tensor<8x256xf32>) outs(%2 : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %4 = arith.addf %in, %out : f32
      linalg.yield %4 : f32
    } -> tensor<8xf32>
    smap.yield %3 : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}

// -----

// A given register count is kept (the graph's verifier bounds it by the
// target's register file).
// CHECK-LABEL: func.func @given_rows_registers
// CHECK: smap.graph
// CHECK-SAME: schedule = #smap.schedule<spatial = [m = 1], temporal = [], grid = [8], threads = 512, smem = 128, regs = 96, strategy = rows, rows_per_block = 1>
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
func.func @given_rows_registers(%arg0: tensor<8x2048xf32>) -> tensor<8xf32> {
  %0 = smap.graph(%arg1 = %arg0 : tensor<8x2048xf32>) -> (tensor<8xf32>) attributes {dims = [#smap.dim<"m", 8, parallel>, #smap.dim<"k", 2048, temporal>],
      schedule = #smap.schedule<spatial = [m = 1], temporal = [], grid = [8], threads = 512, smem = 128, regs = 96, strategy = rows, rows_per_block = 1>,
      target = #smap.target<name = "sm_90a", smem_per_block = 232448, regs_per_thread = 255, regs_per_sm = 65536, sm_count = 132, max_threads = 1024, bandwidth_gbps = 4800, f16_gflops = 989000, f32_gflops = 67000, arch = 90, features = ["mma_sync", "wgmma", "tma"]>} {
    %cst = arith.constant 0.000000e+00 : f32
    %1 = tensor.empty() : tensor<8xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<8xf32>) -> tensor<8xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%arg1 : tensor<8x2048xf32>) outs(%2 : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %4 = arith.addf %in, %out : f32
      linalg.yield %4 : f32
    } -> tensor<8xf32>
    smap.yield %3 : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}

// -----

// A layout the row kernel cannot build is an error naming why.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
func.func @given_rows_too_many_threads(%arg0: tensor<8x256xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{invalid schedule: strategy rows: 1024 threads per row is not a multiple of 32 from 32 to 512}}
  %0 = smap.graph(%arg1 = %arg0 : tensor<8x256xf32>) -> (tensor<8xf32>) attributes {dims = [#smap.dim<"m", 8, parallel>, #smap.dim<"k", 256, temporal>],
      schedule = #smap.schedule<spatial = [m = 1], temporal = [], grid = [8], threads = 1024, smem = 0, regs = 0, strategy = rows, rows_per_block = 1>,
      target = #smap.target<name = "sm_90a", smem_per_block = 232448, regs_per_thread = 255, regs_per_sm = 65536, sm_count = 132, max_threads = 1024, bandwidth_gbps = 4800, f16_gflops = 989000, f32_gflops = 67000, arch = 90, features = ["mma_sync", "wgmma", "tma"]>} {
    %cst = arith.constant 0.000000e+00 : f32
    %1 = tensor.empty() : tensor<8xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<8xf32>) -> tensor<8xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%arg1 : tensor<8x256xf32>) outs(%2 : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %4 = arith.addf %in, %out : f32
      linalg.yield %4 : f32
    } -> tensor<8xf32>
    smap.yield %3 : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}

// -----

// Rows are the grid; a tile of two rows is what rows_per_block says.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
func.func @given_rows_tiles(%arg0: tensor<8x256xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{invalid schedule: strategy rows slices every row dim by 1 and nothing temporally: #smap.schedule<spatial = [m = 1], temporal = [], grid = [8], threads = 64, smem = 0, regs = 0, strategy = rows, rows_per_block = 2>}}
  %0 = smap.graph(%arg1 = %arg0 : tensor<8x256xf32>) -> (tensor<8xf32>) attributes {dims = [#smap.dim<"m", 8, parallel>, #smap.dim<"k", 256, temporal>],
      schedule = #smap.schedule<spatial = [m = 2], temporal = [], grid = [4], threads = 64, smem = 0, regs = 0, strategy = rows, rows_per_block = 2>,
      target = #smap.target<name = "sm_90a", smem_per_block = 232448, regs_per_thread = 255, regs_per_sm = 65536, sm_count = 132, max_threads = 1024, bandwidth_gbps = 4800, f16_gflops = 989000, f32_gflops = 67000, arch = 90, features = ["mma_sync", "wgmma", "tma"]>} {
    %cst = arith.constant 0.000000e+00 : f32
    %1 = tensor.empty() : tensor<8xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<8xf32>) -> tensor<8xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%arg1 : tensor<8x256xf32>) outs(%2 : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %4 = arith.addf %in, %out : f32
      linalg.yield %4 : f32
    } -> tensor<8xf32>
    smap.yield %3 : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}

// -----

// A CPU runs no row kernel.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
func.func @given_rows_cpu(%arg0: tensor<8x256xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{invalid schedule: strategy rows needs a GPU target, not 'cpu'}}
  %0 = smap.graph(%arg1 = %arg0 : tensor<8x256xf32>) -> (tensor<8xf32>) attributes {dims = [#smap.dim<"m", 8, parallel>, #smap.dim<"k", 256, temporal>],
      schedule = #smap.schedule<spatial = [m = 1], temporal = [], grid = [8], threads = 64, smem = 0, regs = 0, strategy = rows, rows_per_block = 2>,
      target = #smap.target<name = "cpu", smem_per_block = 232448, regs_per_thread = 255, regs_per_sm = 65536, sm_count = 132, max_threads = 1024, bandwidth_gbps = 4800, f16_gflops = 989000, f32_gflops = 67000, arch = 0>} {
    %cst = arith.constant 0.000000e+00 : f32
    %1 = tensor.empty() : tensor<8xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<8xf32>) -> tensor<8xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%arg1 : tensor<8x256xf32>) outs(%2 : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %4 = arith.addf %in, %out : f32
      linalg.yield %4 : f32
    } -> tensor<8xf32>
    smap.yield %3 : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}

// -----

// Shared memory beyond the partials asks for the row cached in it, which
// only a row streamed in tiles has (256 columns fit the registers).
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
func.func @given_rows_cache_untiled(%arg0: tensor<8x256xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{invalid schedule: strategy rows: only a row streamed in tiles that reads whole-row inputs is cached in shared memory}}
  %0 = smap.graph(%arg1 = %arg0 : tensor<8x256xf32>) -> (tensor<8xf32>) attributes {dims = [#smap.dim<"m", 8, parallel>, #smap.dim<"k", 256, temporal>],
      schedule = #smap.schedule<spatial = [m = 1], temporal = [], grid = [8], threads = 256, smem = 4096, regs = 0, strategy = rows, rows_per_block = 1>,
      target = #smap.target<name = "sm_90a", smem_per_block = 232448, regs_per_thread = 255, regs_per_sm = 65536, sm_count = 132, max_threads = 1024, bandwidth_gbps = 4800, f16_gflops = 989000, f32_gflops = 67000, arch = 90, features = ["mma_sync", "wgmma", "tma"]>} {
    %cst = arith.constant 0.000000e+00 : f32
    %1 = tensor.empty() : tensor<8xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<8xf32>) -> tensor<8xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%arg1 : tensor<8x256xf32>) outs(%2 : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %4 = arith.addf %in, %out : f32
      linalg.yield %4 : f32
    } -> tensor<8xf32>
    smap.yield %3 : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}
