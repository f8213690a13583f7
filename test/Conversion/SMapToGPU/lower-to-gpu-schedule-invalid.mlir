// RUN: spacefusion-opt %s -split-input-file --convert-smap-to-gpu -verify-diagnostics

// convert-smap-to-gpu builds what the schedule says: a rows layout it cannot
// build (a schedule edited after smap-schedule) is an error naming why, and a
// graph scheduled as another strategy is not taken.

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
func.func @edited_rows(%arg0: tensor<8x256xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{convert-smap-to-gpu: the row kernel cannot be built: 1024 threads per row is not a multiple of 32 from 32 to 512}}
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

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
func.func @simt_graph(%arg0: tensor<8x256xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{convert-smap-to-gpu: not lowered to a GPU kernel: the graph is scheduled as simt, not as a row kernel (smap-schedule's remark says why)}}
  %0 = smap.graph(%arg1 = %arg0 : tensor<8x256xf32>) -> (tensor<8xf32>) attributes {dims = [#smap.dim<"m", 8, parallel>, #smap.dim<"k", 256, temporal>],
      schedule = #smap.schedule<spatial = [m = 1], temporal = [], grid = [8], threads = 256, smem = 0, regs = 0, strategy = simt>,
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

// A row too long for registers is streamed in tiles by a block of 512
// threads per row; an edited schedule with 256 cannot be built.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
func.func @edited_tiled_rows(%arg0: tensor<8x65536xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{convert-smap-to-gpu: the row kernel cannot be built: rows of 65536 elements do not fit in the registers of 256 threads; tiled rows take a block of 512 threads per row}}
  %0 = smap.graph(%arg1 = %arg0 : tensor<8x65536xf32>) -> (tensor<8xf32>) attributes {dims = [#smap.dim<"m", 8, parallel>, #smap.dim<"k", 65536, temporal>],
      schedule = #smap.schedule<spatial = [m = 1], temporal = [], grid = [8], threads = 256, smem = 128, regs = 0, strategy = rows, rows_per_block = 1>,
      target = #smap.target<name = "sm_90a", smem_per_block = 232448, regs_per_thread = 255, regs_per_sm = 65536, sm_count = 132, max_threads = 1024, bandwidth_gbps = 4800, f16_gflops = 989000, f32_gflops = 67000, arch = 90, features = ["mma_sync", "wgmma", "tma"]>} {
    %cst = arith.constant 0.000000e+00 : f32
    %1 = tensor.empty() : tensor<8xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<8xf32>) -> tensor<8xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%arg1 : tensor<8x65536xf32>) outs(%2 : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %4 = arith.addf %in, %out : f32
      linalg.yield %4 : f32
    } -> tensor<8xf32>
    smap.yield %3 : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}
