// RUN: spacefusion-opt %s -split-input-file '--smap-schedule=one-wave=0 rows=false' --remarks-filter=smap --remark-format=emitRemark \
// RUN:   -verify-diagnostics | FileCheck %s

// The search: for the H200, one row per block; on the CPU target the same
// graph gets its own schedule. The remark gives the footprint (the row
// maxima: the f32 input is read from global memory and the result written
// there, neither staged), the predicted time and the runner-up.
// CHECK-LABEL: func.func @searched
// CHECK: smap.graph
// CHECK-SAME: schedule = #smap.schedule<spatial = [m = 1], temporal = [], grid = [64], threads = 256, smem = 16, regs = 32, strategy = simt>
#id = affine_map<(m, n) -> (m, n)>
#row = affine_map<(m, n) -> (m)>
func.func @searched(%x: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
  // expected-remark @below {{scheduled for sm_90a: spatial [m=1] temporal [], strategy simt, 64 blocks x 256 threads, 16 B shared memory, 32 registers/thread; predicted 1.80 us (0.5 MB global, 0.00 GFLOP); runner-up spatial [m=1] temporal [n=512], predicted 2.77 us; 77 candidates}}
  // expected-remark @below {{kept fused: the best cut (3.75 us) is not predicted twice as fast as the fused schedule (1.80 us); cuts tried: exp1 3.75 us}}
  %0 = smap.graph(%ax = %x : tensor<64x1024xf32>) -> (tensor<64x1024xf32>) attributes {target = #smap.target<name = "sm_90a", smem_per_block = 232448, regs_per_thread = 255, regs_per_sm = 65536, sm_count = 132, max_threads = 1024, bandwidth_gbps = 4800, f16_gflops = 989000, f32_gflops = 67000, arch = 90, features = ["mma_sync", "wgmma", "tma", "setmaxnreg", "cp_async", "clusters", "cache_hints"], smem_per_sm = 233472, l2_bytes = 52428800, mma_sync_gflops = 445000>} {
    %ninf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.0 : f32
    %e1 = tensor.empty() : tensor<64xf32>
    %e2 = tensor.empty() : tensor<64x1024xf32>
    %fmax = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
    %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%ax : tensor<64x1024xf32>) outs(%fmax : tensor<64xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    } -> tensor<64xf32>
    %exp = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
        ins(%ax, %max : tensor<64x1024xf32>, tensor<64xf32>) outs(%e2 : tensor<64x1024xf32>) {
    ^bb0(%in: f32, %m: f32, %out: f32):
      %d = arith.subf %in, %m : f32
      %ex = math.exp %d : f32
      linalg.yield %ex : f32
    } -> tensor<64x1024xf32>
    smap.yield %exp : tensor<64x1024xf32>
  }
  return %0 : tensor<64x1024xf32>
}

// -----

// A schedule written on the graph replaces the search; its estimates are
// recomputed. The exp needs the whole row's max: a final pass over n
// repeats the loop, and the shared-memory bound counts its buffers twice
// (2 x 64 B).
// CHECK-LABEL: func.func @given
// CHECK: schedule = #smap.schedule<spatial = [m = 16], temporal = [n = 256], grid = [4], threads = 128, smem = 128, regs = 33, strategy = simt>
#id = affine_map<(m, n) -> (m, n)>
#row = affine_map<(m, n) -> (m)>
func.func @given(%x: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
  // expected-remark @below {{uses the given schedule on sm_90a: spatial [m=16] temporal [n=256], strategy simt, 4 blocks x 128 threads, 128 B shared memory, 33 registers/thread}}
  %0 = smap.graph(%ax = %x : tensor<64x1024xf32>) -> (tensor<64x1024xf32>) attributes {target = #smap.target<name = "sm_90a", smem_per_block = 232448, regs_per_thread = 255, regs_per_sm = 65536, sm_count = 132, max_threads = 1024, bandwidth_gbps = 4800, f16_gflops = 989000, f32_gflops = 67000, arch = 90, features = ["mma_sync", "wgmma", "tma", "setmaxnreg", "cp_async", "clusters", "cache_hints"], smem_per_sm = 233472, l2_bytes = 52428800, mma_sync_gflops = 445000>, dims = [#smap.dim<"m", 64>, #smap.dim<"n", 1024>], schedule = #smap.schedule<spatial = [m = 16], temporal = [n = 256], grid = [4], threads = 128, smem = 0, regs = 0>} {
    %ninf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.0 : f32
    %e1 = tensor.empty() : tensor<64xf32>
    %e2 = tensor.empty() : tensor<64x1024xf32>
    %fmax = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
    %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%ax : tensor<64x1024xf32>) outs(%fmax : tensor<64xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    } -> tensor<64xf32>
    %exp = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
        ins(%ax, %max : tensor<64x1024xf32>, tensor<64xf32>) outs(%e2 : tensor<64x1024xf32>) {
    ^bb0(%in: f32, %m: f32, %out: f32):
      %d = arith.subf %in, %m : f32
      %ex = math.exp %d : f32
      linalg.yield %ex : f32
    } -> tensor<64x1024xf32>
    smap.yield %exp : tensor<64x1024xf32>
  }
  return %0 : tensor<64x1024xf32>
}

// -----

#id = affine_map<(m, n) -> (m, n)>
#row = affine_map<(m, n) -> (m)>
func.func @unknown_dim(%x: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
  // expected-error @below {{invalid schedule: schedule slices unknown dim 'q' (the graph's dims are m n; dims of extent 1 are folded away)}}
  %0 = smap.graph(%ax = %x : tensor<64x1024xf32>) -> (tensor<64x1024xf32>) attributes {target = #smap.target<name = "sm_90a", smem_per_block = 232448, regs_per_thread = 255, regs_per_sm = 65536, sm_count = 132, max_threads = 1024, bandwidth_gbps = 4800, f16_gflops = 989000, f32_gflops = 67000, arch = 90, features = ["mma_sync", "wgmma", "tma", "setmaxnreg", "cp_async", "clusters", "cache_hints"], smem_per_sm = 233472, l2_bytes = 52428800, mma_sync_gflops = 445000>, dims = [#smap.dim<"m", 64>, #smap.dim<"n", 1024>, #smap.dim<"q", 4>], schedule = #smap.schedule<spatial = [q = 2], temporal = [], grid = [2], threads = 32, smem = 0, regs = 0>} {
    %ninf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.0 : f32
    %e1 = tensor.empty() : tensor<64xf32>
    %e2 = tensor.empty() : tensor<64x1024xf32>
    %fmax = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
    %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%ax : tensor<64x1024xf32>) outs(%fmax : tensor<64xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    } -> tensor<64xf32>
    %exp = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
        ins(%ax, %max : tensor<64x1024xf32>, tensor<64xf32>) outs(%e2 : tensor<64x1024xf32>) {
    ^bb0(%in: f32, %m: f32, %out: f32):
      %d = arith.subf %in, %m : f32
      %ex = math.exp %d : f32
      linalg.yield %ex : f32
    } -> tensor<64x1024xf32>
    smap.yield %exp : tensor<64x1024xf32>
  }
  return %0 : tensor<64x1024xf32>
}

// -----

#id = affine_map<(m, n) -> (m, n)>
#row = affine_map<(m, n) -> (m)>
func.func @spatial_on_temporal(%x: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
  // expected-error @below {{invalid schedule: dim 'n' is temporal and cannot be sliced spatially}}
  %0 = smap.graph(%ax = %x : tensor<64x1024xf32>) -> (tensor<64x1024xf32>) attributes {target = #smap.target<name = "sm_90a", smem_per_block = 232448, regs_per_thread = 255, regs_per_sm = 65536, sm_count = 132, max_threads = 1024, bandwidth_gbps = 4800, f16_gflops = 989000, f32_gflops = 67000, arch = 90, features = ["mma_sync", "wgmma", "tma", "setmaxnreg", "cp_async", "clusters", "cache_hints"], smem_per_sm = 233472, l2_bytes = 52428800, mma_sync_gflops = 445000>, dims = [#smap.dim<"m", 64>, #smap.dim<"n", 1024>], schedule = #smap.schedule<spatial = [n = 64], temporal = [], grid = [16], threads = 32, smem = 0, regs = 0>} {
    %ninf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.0 : f32
    %e1 = tensor.empty() : tensor<64xf32>
    %e2 = tensor.empty() : tensor<64x1024xf32>
    %fmax = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
    %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%ax : tensor<64x1024xf32>) outs(%fmax : tensor<64xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    } -> tensor<64xf32>
    %exp = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
        ins(%ax, %max : tensor<64x1024xf32>, tensor<64xf32>) outs(%e2 : tensor<64x1024xf32>) {
    ^bb0(%in: f32, %m: f32, %out: f32):
      %d = arith.subf %in, %m : f32
      %ex = math.exp %d : f32
      linalg.yield %ex : f32
    } -> tensor<64x1024xf32>
    smap.yield %exp : tensor<64x1024xf32>
  }
  return %0 : tensor<64x1024xf32>
}

// -----

#id = affine_map<(m, n) -> (m, n)>
#row = affine_map<(m, n) -> (m)>
func.func @temporal_on_parallel(%x: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
  // expected-error @below {{invalid schedule: dim 'm' is parallel and cannot be sliced temporally}}
  %0 = smap.graph(%ax = %x : tensor<64x1024xf32>) -> (tensor<64x1024xf32>) attributes {target = #smap.target<name = "sm_90a", smem_per_block = 232448, regs_per_thread = 255, regs_per_sm = 65536, sm_count = 132, max_threads = 1024, bandwidth_gbps = 4800, f16_gflops = 989000, f32_gflops = 67000, arch = 90, features = ["mma_sync", "wgmma", "tma", "setmaxnreg", "cp_async", "clusters", "cache_hints"], smem_per_sm = 233472, l2_bytes = 52428800, mma_sync_gflops = 445000>, dims = [#smap.dim<"m", 64>, #smap.dim<"n", 1024>], schedule = #smap.schedule<spatial = [], temporal = [m = 8], grid = [], threads = 32, smem = 0, regs = 0>} {
    %ninf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.0 : f32
    %e1 = tensor.empty() : tensor<64xf32>
    %e2 = tensor.empty() : tensor<64x1024xf32>
    %fmax = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
    %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%ax : tensor<64x1024xf32>) outs(%fmax : tensor<64xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    } -> tensor<64xf32>
    %exp = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
        ins(%ax, %max : tensor<64x1024xf32>, tensor<64xf32>) outs(%e2 : tensor<64x1024xf32>) {
    ^bb0(%in: f32, %m: f32, %out: f32):
      %d = arith.subf %in, %m : f32
      %ex = math.exp %d : f32
      linalg.yield %ex : f32
    } -> tensor<64x1024xf32>
    smap.yield %exp : tensor<64x1024xf32>
  }
  return %0 : tensor<64x1024xf32>
}

// -----

#id = affine_map<(m, n) -> (m, n)>
#row = affine_map<(m, n) -> (m)>
// A tile that does not divide its dim overlaps the last block with its
// neighbour, so both must compute the same values: not when an op
// accumulates into a graph input (the second block would add to what the
// first wrote).
func.func @ragged_accumulate(%x: tensor<64x1024xf32>, %y: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
  // expected-error @below {{invalid schedule: size 48 of dim 'm' leaves a ragged last tile, and}}
  %0 = smap.graph(%ax = %x : tensor<64x1024xf32>, %ay = %y : tensor<64x1024xf32>) -> (tensor<64x1024xf32>) attributes {target = #smap.target<name = "sm_90a", smem_per_block = 232448, regs_per_thread = 255, regs_per_sm = 65536, sm_count = 132, max_threads = 1024, bandwidth_gbps = 4800, f16_gflops = 989000, f32_gflops = 67000, arch = 90, features = ["mma_sync", "wgmma", "tma", "setmaxnreg", "cp_async", "clusters", "cache_hints"], smem_per_sm = 233472, l2_bytes = 52428800, mma_sync_gflops = 445000>, dims = [#smap.dim<"m", 64>, #smap.dim<"n", 1024>], schedule = #smap.schedule<spatial = [m = 48], temporal = [], grid = [2], threads = 32, smem = 0, regs = 0>} {
    %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%ax : tensor<64x1024xf32>) outs(%ay : tensor<64x1024xf32>) {
    ^bb0(%a: f32, %o: f32):
      %s = arith.addf %a, %o : f32
      linalg.yield %s : f32
    } -> tensor<64x1024xf32>
    smap.yield %r : tensor<64x1024xf32>
  }
  return %0 : tensor<64x1024xf32>
}

// -----

// A forced schedule over the target's budget is an error, not a silent
// fallback.
#id = affine_map<(m, n) -> (m, n)>
#row = affine_map<(m, n) -> (m)>
func.func @over_budget(%x: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
  // expected-error @below {{schedule spatial [m=32] temporal [] does not fit target 'tiny': it needs 262272 bytes of shared memory per block, the target has 200000}}
  %0 = smap.graph(%ax = %x : tensor<64x1024xf32>) -> (tensor<64x1024xf32>) attributes {target = #smap.target<name = "tiny", smem_per_block = 200000, regs_per_thread = 255, regs_per_sm = 65536, sm_count = 4, max_threads = 256, bandwidth_gbps = 100, f16_gflops = 1000, f32_gflops = 1000, arch = 90>, dims = [#smap.dim<"m", 64>, #smap.dim<"n", 1024>], schedule = #smap.schedule<spatial = [m = 32], temporal = [], grid = [2], threads = 32, smem = 0, regs = 0>} {
    %ninf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.0 : f32
    %e1 = tensor.empty() : tensor<64xf32>
    %e2 = tensor.empty() : tensor<64x1024xf32>
    %fmax = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
    %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%ax : tensor<64x1024xf32>) outs(%fmax : tensor<64xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    } -> tensor<64xf32>
    %exp = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
        ins(%ax, %max : tensor<64x1024xf32>, tensor<64xf32>) outs(%e2 : tensor<64x1024xf32>) {
    ^bb0(%in: f32, %m: f32, %out: f32):
      %d = arith.subf %in, %m : f32
      %ex = math.exp %d : f32
      linalg.yield %ex : f32
    } -> tensor<64x1024xf32>
    smap.yield %exp : tensor<64x1024xf32>
  }
  return %0 : tensor<64x1024xf32>
}
