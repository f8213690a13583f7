// RUN: spacefusion-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// #smap.dim
//===----------------------------------------------------------------------===//

// expected-error @below {{dim name must not be empty}}
func.func @dim_empty_name() attributes {d = #smap.dim<"", 4>} { return }

// -----

// expected-error @below {{dim 'm' must have a positive extent, got 0}}
func.func @dim_zero_extent() attributes {d = #smap.dim<"m", 0>} { return }

// -----

// expected-error @below {{dim 'm' must have a positive extent, got -3}}
func.func @dim_negative_extent() attributes {d = #smap.dim<"m", -3>} { return }

// -----

// expected-error @below {{expected one of [unclassified, parallel, parallel_recompute, temporal, not_sliceable] for how a global dimension of a Space-Mapping Graph can be sliced, got: sideways}}
// expected-error @below {{failed to parse SMap_DimAttr parameter 'dimClass'}}
func.func @dim_unknown_class() attributes {d = #smap.dim<"m", 4, sideways>} { return }

// -----

//===----------------------------------------------------------------------===//
// #smap.mapping
//===----------------------------------------------------------------------===//

// expected-error @below {{mapping dim name must not be empty}}
func.func @mapping_empty_dim() attributes {m = #smap.mapping<"", o2o>} { return }

// -----

// expected-error @below {{a2o mapping along 'k' needs a combiner (add, max, min or mul)}}
func.func @mapping_a2o_without_combiner() attributes {m = #smap.mapping<"k", a2o>} { return }

// -----

// expected-error @below {{o2a mapping along 'l' cannot have a combiner}}
func.func @mapping_o2a_with_combiner() attributes {m = #smap.mapping<"l", o2a, add>} { return }

// -----

// expected-error @below {{o2o mapping along 'l' cannot have a combiner}}
func.func @mapping_o2o_with_combiner() attributes {m = #smap.mapping<"l", o2o, max>} { return }

// -----

//===----------------------------------------------------------------------===//
// #smap.space
//===----------------------------------------------------------------------===//

// expected-error @below {{space name must not be empty}}
func.func @space_empty_name() attributes {s = #smap.space<"", ["m"], [], []>} { return }

// -----

// expected-error @below {{space 'S' dims must be strings, got 3 : i64}}
func.func @space_dim_not_string() attributes {s = #smap.space<"S", [3], [], []>} { return }

// -----

// expected-error @below {{space 'S' lists dim 'm' twice}}
func.func @space_duplicate_dim() attributes {s = #smap.space<"S", ["m", "m"], [], []>} { return }

// -----

// expected-error @below {{space 'S' expects one mapping list per operand}}
func.func @space_operand_not_list() attributes {s = #smap.space<"S", ["m"], [#smap.mapping<"m", o2a>], []>} { return }

// -----

// expected-error @below {{space 'S' expects #smap.mapping entries, got "m"}}
func.func @space_operand_not_mapping() attributes {s = #smap.space<"S", ["m"], [["m"]], []>} { return }

// -----

// expected-error @below {{space 'S' has a mapping along unknown dim 'q'}}
func.func @space_unknown_dim() attributes {s = #smap.space<"S", ["m"], [[#smap.mapping<"q", o2a>]], []>} { return }

// -----

// expected-error @below {{space 'S' operand mappings cannot be a2o; list reductions separately}}
func.func @space_operand_a2o() attributes {s = #smap.space<"S", ["m"], [[#smap.mapping<"m", a2o, add>]], []>} { return }

// -----

// expected-error @below {{space 'S' reductions must be a2o mappings}}
func.func @space_reduction_not_a2o() attributes {s = #smap.space<"S", ["m"], [], [#smap.mapping<"m", o2a>]>} { return }

// -----

//===----------------------------------------------------------------------===//
// #smap.schedule
//===----------------------------------------------------------------------===//

// expected-error @below {{schedule slice size of 'm' must be positive, got 0}}
func.func @schedule_zero_tile() attributes {s = #smap.schedule<spatial = [m = 0], temporal = [], grid = [1], threads = 32, smem = 0, regs = 0>} { return }

// -----

// expected-error @below {{schedule slices dim 'm' more than once}}
func.func @schedule_dim_twice() attributes {s = #smap.schedule<spatial = [m = 4], temporal = [m = 2], grid = [1], threads = 32, smem = 0, regs = 0>} { return }

// -----

// expected-error @below {{schedule grid has 2 entries but 1 dims are spatially sliced}}
func.func @schedule_grid_rank() attributes {s = #smap.schedule<spatial = [m = 4], temporal = [], grid = [1, 1], threads = 32, smem = 0, regs = 0>} { return }

// -----

// expected-error @below {{schedule grid entries must be positive}}
func.func @schedule_grid_zero() attributes {s = #smap.schedule<spatial = [m = 4], temporal = [], grid = [0], threads = 32, smem = 0, regs = 0>} { return }

// -----

// expected-error @below {{schedule threads must be positive, got 0}}
func.func @schedule_no_threads() attributes {s = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 0, smem = 0, regs = 0>} { return }

// -----

// expected-error @below {{schedule resource estimates must not be negative}}
func.func @schedule_negative_smem() attributes {s = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 1, smem = -1, regs = 0>} { return }

// -----

// expected-error @below {{schedule rows_per_block is only for strategy rows, got it with simt}}
func.func @schedule_rows_per_block_simt() attributes {s = #smap.schedule<spatial = [m = 1], temporal = [], grid = [8], threads = 64, smem = 0, regs = 0, strategy = simt, rows_per_block = 2>} { return }

// -----

// expected-error @below {{schedule rows_per_block must be positive and divide the 9 rows, got 2}}
func.func @schedule_rows_per_block_divides() attributes {s = #smap.schedule<spatial = [m = 1], temporal = [], grid = [9], threads = 64, smem = 0, regs = 0, strategy = rows, rows_per_block = 2>} { return }

// -----

// expected-error @below {{schedule rows_per_block must be positive and divide the 8 rows, got 0}}
func.func @schedule_rows_without_rows_per_block() attributes {s = #smap.schedule<spatial = [m = 1], temporal = [], grid = [8], threads = 64, smem = 0, regs = 0, strategy = rows>} { return }

// -----

// expected-error @below {{schedule rows_per_block = 2 needs a warp per row (threads = 64), got threads = 256}}
func.func @schedule_rows_per_block_block_rows() attributes {s = #smap.schedule<spatial = [m = 1], temporal = [], grid = [8], threads = 256, smem = 0, regs = 0, strategy = rows, rows_per_block = 2>} { return }

// -----

// expected-error @below {{expected 'stages', 'rows_per_block' or 'blocks_per_sm'}}
func.func @schedule_unknown_key() attributes {s = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 1, smem = 0, regs = 0, strategy = simt, depth = 2>} { return }

// -----

// expected-error @below {{expected 'temporal'}}
func.func @schedule_missing_field() attributes {s = #smap.schedule<spatial = [], grid = [], threads = 1, smem = 0, regs = 0>} { return }

// -----

//===----------------------------------------------------------------------===//
// #smap.target
//===----------------------------------------------------------------------===//

// expected-error @below {{target name must not be empty}}
func.func @target_empty_name() attributes {t = #smap.target<name = "", smem_per_block = 1, regs_per_thread = 1, regs_per_sm = 1, sm_count = 1, max_threads = 1, bandwidth_gbps = 1, f16_gflops = 1, f32_gflops = 1>} { return }

// -----

// expected-error @below {{target 'sm_90a' sm_count must be positive, got 0}}
func.func @target_no_sms() attributes {t = #smap.target<name = "sm_90a", smem_per_block = 1, regs_per_thread = 1, regs_per_sm = 1, sm_count = 0, max_threads = 1, bandwidth_gbps = 1, f16_gflops = 1, f32_gflops = 1>} { return }

// -----

// expected-error @below {{struct is missing required parameter: f32_gflops}}
func.func @target_missing_field() attributes {t = #smap.target<name = "x", smem_per_block = 1, regs_per_thread = 1, regs_per_sm = 1, sm_count = 1, max_threads = 1, bandwidth_gbps = 1, f16_gflops = 1>} { return }

// -----

//===----------------------------------------------------------------------===//
// smap.graph
//===----------------------------------------------------------------------===//

func.func @graph_dim_twice(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'smap.graph' op lists dim 'm' twice}}
  %0 = smap.graph(%a = %x : tensor<4xf32>) -> (tensor<4xf32>) attributes {dims = [#smap.dim<"m", 4>, #smap.dim<"m", 4>]} {
    smap.yield %a : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @graph_schedule_without_dims(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'smap.graph' op has a schedule but no dims to check it against}}
  %0 = smap.graph(%a = %x : tensor<4xf32>) -> (tensor<4xf32>) attributes {schedule = #smap.schedule<spatial = [m = 2], temporal = [], grid = [2], threads = 32, smem = 0, regs = 0>} {
    smap.yield %a : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @graph_schedule_unknown_spatial_dim(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'smap.graph' op schedule spatially slices unknown dim 'q'}}
  %0 = smap.graph(%a = %x : tensor<4xf32>) -> (tensor<4xf32>) attributes {dims = [#smap.dim<"m", 4>], schedule = #smap.schedule<spatial = [q = 2], temporal = [], grid = [2], threads = 32, smem = 0, regs = 0>} {
    smap.yield %a : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @graph_schedule_unknown_temporal_dim(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'smap.graph' op schedule temporally slices unknown dim 'q'}}
  %0 = smap.graph(%a = %x : tensor<4xf32>) -> (tensor<4xf32>) attributes {dims = [#smap.dim<"m", 4>], schedule = #smap.schedule<spatial = [], temporal = [q = 2], grid = [], threads = 32, smem = 0, regs = 0>} {
    smap.yield %a : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @graph_tile_larger_than_dim(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'smap.graph' op schedule spatial size 8 of dim 'm' exceeds its extent 4}}
  %0 = smap.graph(%a = %x : tensor<4xf32>) -> (tensor<4xf32>) attributes {dims = [#smap.dim<"m", 4>], schedule = #smap.schedule<spatial = [m = 8], temporal = [], grid = [1], threads = 32, smem = 0, regs = 0>} {
    smap.yield %a : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @graph_slice_larger_than_dim(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'smap.graph' op schedule temporal size 5 of dim 'm' exceeds its extent 4}}
  %0 = smap.graph(%a = %x : tensor<4xf32>) -> (tensor<4xf32>) attributes {dims = [#smap.dim<"m", 4>], schedule = #smap.schedule<spatial = [], temporal = [m = 5], grid = [], threads = 32, smem = 0, regs = 0>} {
    smap.yield %a : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @graph_wrong_grid(%x: tensor<100xf32>) -> tensor<100xf32> {
  // expected-error @below {{'smap.graph' op schedule grid has 3 blocks along 'm' but its tiles imply 4}}
  %0 = smap.graph(%a = %x : tensor<100xf32>) -> (tensor<100xf32>) attributes {dims = [#smap.dim<"m", 100>], schedule = #smap.schedule<spatial = [m = 32], temporal = [], grid = [3], threads = 32, smem = 0, regs = 0>} {
    smap.yield %a : tensor<100xf32>
  }
  return %0 : tensor<100xf32>
}

// -----

func.func @graph_over_smem_budget(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'smap.graph' op schedule needs 300000 bytes of shared memory per block but target 'sm_90a' has 232448}}
  %0 = smap.graph(%a = %x : tensor<4xf32>) -> (tensor<4xf32>) attributes {dims = [#smap.dim<"m", 4>], schedule = #smap.schedule<spatial = [m = 4], temporal = [], grid = [1], threads = 32, smem = 300000, regs = 0>, target = #smap.target<name = "sm_90a", smem_per_block = 232448, regs_per_thread = 255, regs_per_sm = 65536, sm_count = 132, max_threads = 1024, bandwidth_gbps = 4800, f16_gflops = 989000, f32_gflops = 67000, arch = 90, features = ["mma_sync", "wgmma", "tma", "setmaxnreg", "cp_async", "clusters", "cache_hints"], smem_per_sm = 233472, l2_bytes = 52428800, mma_sync_gflops = 445000>} {
    smap.yield %a : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @graph_over_thread_budget(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'smap.graph' op schedule uses 2048 threads per block but target 'sm_90a' allows 1024}}
  %0 = smap.graph(%a = %x : tensor<4xf32>) -> (tensor<4xf32>) attributes {dims = [#smap.dim<"m", 4>], schedule = #smap.schedule<spatial = [m = 4], temporal = [], grid = [1], threads = 2048, smem = 0, regs = 0>, target = #smap.target<name = "sm_90a", smem_per_block = 232448, regs_per_thread = 255, regs_per_sm = 65536, sm_count = 132, max_threads = 1024, bandwidth_gbps = 4800, f16_gflops = 989000, f32_gflops = 67000, arch = 90, features = ["mma_sync", "wgmma", "tma", "setmaxnreg", "cp_async", "clusters", "cache_hints"], smem_per_sm = 233472, l2_bytes = 52428800, mma_sync_gflops = 445000>} {
    smap.yield %a : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @graph_over_register_budget(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'smap.graph' op schedule needs 300 registers per thread but target 'sm_90a' has 255}}
  %0 = smap.graph(%a = %x : tensor<4xf32>) -> (tensor<4xf32>) attributes {dims = [#smap.dim<"m", 4>], schedule = #smap.schedule<spatial = [m = 4], temporal = [], grid = [1], threads = 32, smem = 0, regs = 300>, target = #smap.target<name = "sm_90a", smem_per_block = 232448, regs_per_thread = 255, regs_per_sm = 65536, sm_count = 132, max_threads = 1024, bandwidth_gbps = 4800, f16_gflops = 989000, f32_gflops = 67000, arch = 90, features = ["mma_sync", "wgmma", "tma", "setmaxnreg", "cp_async", "clusters", "cache_hints"], smem_per_sm = 233472, l2_bytes = 52428800, mma_sync_gflops = 445000>} {
    smap.yield %a : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// A row kernel's count is what every thread of the block gets (nvvm.maxnreg).
func.func @rows_over_register_file(%x: tensor<4x8192xf32>) -> tensor<4x8192xf32> {
  // expected-error @below {{'smap.graph' op schedule gives 512 threads 200 registers each but the SM of target 'sm_90a' has 65536}}
  %0 = smap.graph(%a = %x : tensor<4x8192xf32>) -> (tensor<4x8192xf32>) attributes {dims = [#smap.dim<"m", 4>, #smap.dim<"n", 8192>], schedule = #smap.schedule<spatial = [m = 1], temporal = [], grid = [4], threads = 512, smem = 0, regs = 200, strategy = rows, rows_per_block = 1>, target = #smap.target<name = "sm_90a", smem_per_block = 232448, regs_per_thread = 255, regs_per_sm = 65536, sm_count = 132, max_threads = 1024, bandwidth_gbps = 4800, f16_gflops = 989000, f32_gflops = 67000, arch = 90, features = ["mma_sync", "wgmma", "tma", "setmaxnreg", "cp_async", "clusters", "cache_hints"], smem_per_sm = 233472, l2_bytes = 52428800, mma_sync_gflops = 445000>} {
    smap.yield %a : tensor<4x8192xf32>
  }
  return %0 : tensor<4x8192xf32>
}

// -----

// A declared residency needs a GPU strategy and the count it gives.
// expected-error @below {{schedule blocks_per_sm must be 0, or positive with a GPU strategy and the registers it gives each thread, got 2 with none and regs = 0}}
func.func @schedule_blocks_per_sm_without_strategy() attributes {s = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 1, smem = 0, regs = 0, strategy = none, blocks_per_sm = 2>} { return }

// -----

// expected-error @below {{schedule blocks_per_sm must be 0, or positive with a GPU strategy and the registers it gives each thread, got -1 with simt and regs = 64}}
func.func @schedule_blocks_per_sm_negative() attributes {s = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 128, smem = 0, regs = 64, strategy = simt, blocks_per_sm = -1>} { return }

// -----

// Two blocks of 256 threads at 160 registers each take 81920 of the SM's 65536.
func.func @residency_over_register_file(%x: tensor<4x8192xf32>) -> tensor<4x8192xf32> {
  // expected-error @below {{'smap.graph' op schedule declares 2 blocks per SM of 256 threads with 160 registers each, but the SM of target 'sm_90a' has 65536}}
  %0 = smap.graph(%a = %x : tensor<4x8192xf32>) -> (tensor<4x8192xf32>) attributes {dims = [#smap.dim<"m", 4>, #smap.dim<"n", 8192>], schedule = #smap.schedule<spatial = [m = 1], temporal = [], grid = [4], threads = 256, smem = 0, regs = 160, strategy = simt, blocks_per_sm = 2>, target = #smap.target<name = "sm_90a", smem_per_block = 232448, regs_per_thread = 255, regs_per_sm = 65536, sm_count = 132, max_threads = 1024, bandwidth_gbps = 4800, f16_gflops = 989000, f32_gflops = 67000, arch = 90, features = ["mma_sync", "wgmma", "tma", "setmaxnreg", "cp_async", "clusters", "cache_hints"], smem_per_sm = 233472, l2_bytes = 52428800, mma_sync_gflops = 445000>} {
    smap.yield %a : tensor<4x8192xf32>
  }
  return %0 : tensor<4x8192xf32>
}

// -----

// Two blocks of 120000 bytes (and 1 KiB reserved each) do not fit 233472.
func.func @residency_over_shared_memory(%x: tensor<4x8192xf32>) -> tensor<4x8192xf32> {
  // expected-error @below {{'smap.graph' op schedule declares 2 blocks per SM of 120000 bytes of shared memory, but the SM of target 'sm_90a' has 233472}}
  %0 = smap.graph(%a = %x : tensor<4x8192xf32>) -> (tensor<4x8192xf32>) attributes {dims = [#smap.dim<"m", 4>, #smap.dim<"n", 8192>], schedule = #smap.schedule<spatial = [m = 1], temporal = [], grid = [4], threads = 256, smem = 120000, regs = 128, strategy = simt, blocks_per_sm = 2>, target = #smap.target<name = "sm_90a", smem_per_block = 232448, regs_per_thread = 255, regs_per_sm = 65536, sm_count = 132, max_threads = 1024, bandwidth_gbps = 4800, f16_gflops = 989000, f32_gflops = 67000, arch = 90, features = ["mma_sync", "wgmma", "tma", "setmaxnreg", "cp_async", "clusters", "cache_hints"], smem_per_sm = 233472, l2_bytes = 52428800, mma_sync_gflops = 445000>} {
    smap.yield %a : tensor<4x8192xf32>
  }
  return %0 : tensor<4x8192xf32>
}

// -----

func.func @graph_block_arg_count(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'smap.graph' op body takes 2 block arguments but 1 are expected}}
  %0 = "smap.graph"(%x) ({
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    smap.yield %a : tensor<4xf32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @graph_block_arg_type(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'smap.graph' op body block argument #0 has type 'tensor<4xf16>' but 'tensor<4xf32>' is expected}}
  %0 = "smap.graph"(%x) ({
  ^bb0(%a: tensor<4xf16>):
    %e = tensor.empty() : tensor<4xf32>
    smap.yield %e : tensor<4xf32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @graph_yield_count(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = smap.graph(%a = %x : tensor<4xf32>) -> (tensor<4xf32>) {
    // expected-error @below {{'smap.yield' op yields 2 values but the graph expects 1}}
    smap.yield %a, %a : tensor<4xf32>, tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @graph_yield_type(%x: tensor<4xf32>) -> tensor<8xf32> {
  %0 = smap.graph(%a = %x : tensor<4xf32>) -> (tensor<8xf32>) {
    // expected-error @below {{'smap.yield' op value #0 has type 'tensor<4xf32>' but the graph expects 'tensor<8xf32>'}}
    smap.yield %a : tensor<4xf32>
  }
  return %0 : tensor<8xf32>
}

// -----

func.func @graph_not_isolated(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-note @below {{required by region isolation constraints}}
  %0 = smap.graph() -> (tensor<4xf32>) {
    // expected-error @below {{'smap.yield' op using value defined outside the region}}
    smap.yield %x : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @graph_memref_input(%x: tensor<?xf32>) -> tensor<?xf32> {
  %m = memref.alloc() : memref<4xf32>
  // expected-error @below {{operand #0 must be variadic of ranked tensor of any type values or signless integer or index or floating-point, but got 'memref<4xf32>'}}
  %0 = "smap.graph"(%m) ({
  ^bb0(%a: memref<4xf32>):
    smap.yield %x : tensor<?xf32>
  }) : (memref<4xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

//===----------------------------------------------------------------------===//
// smap.spatial_slice
//===----------------------------------------------------------------------===//

func.func @spatial_no_dims() -> tensor<4xf32> {
  // expected-error @below {{'smap.spatial_slice' op must slice at least one dim}}
  %0 = smap.spatial_slice [] tiles [] results [["m"]] : tensor<4xf32> {
  ^bb0:
    %e = tensor.empty() : tensor<4xf32>
    smap.yield %e : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @spatial_tile_count() -> tensor<4xf32> {
  // expected-error @below {{'smap.spatial_slice' op has 2 tile sizes for 1 dims}}
  %0 = smap.spatial_slice [#smap.dim<"m", 4>] tiles [2, 2] results [["m"]] : tensor<4xf32> {
  ^bb0(%m: index):
    %e = tensor.empty() : tensor<2xf32>
    smap.yield %e : tensor<2xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @spatial_dim_twice() -> tensor<4x4xf32> {
  // expected-error @below {{'smap.spatial_slice' op lists dim 'm' twice}}
  %0 = smap.spatial_slice [#smap.dim<"m", 4>, #smap.dim<"m", 4>] tiles [2, 2] results [["m", "m"]] : tensor<4x4xf32> {
  ^bb0(%m: index, %n: index):
    %e = tensor.empty() : tensor<2x2xf32>
    smap.yield %e : tensor<2x2xf32>
  }
  return %0 : tensor<4x4xf32>
}

// -----

func.func @spatial_tile_too_large() -> tensor<4xf32> {
  // expected-error @below {{'smap.spatial_slice' op tile size 8 of dim 'm' must be in [1, 4]}}
  %0 = smap.spatial_slice [#smap.dim<"m", 4>] tiles [8] results [["m"]] : tensor<4xf32> {
  ^bb0(%m: index):
    %e = tensor.empty() : tensor<8xf32>
    smap.yield %e : tensor<8xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @spatial_block_args() -> tensor<4xf32> {
  // expected-error @below {{'smap.spatial_slice' op body block argument #0 has type 'i32' but 'index' is expected}}
  %0 = smap.spatial_slice [#smap.dim<"m", 4>] tiles [2] results [["m"]] : tensor<4xf32> {
  ^bb0(%m: i32):
    %e = tensor.empty() : tensor<2xf32>
    smap.yield %e : tensor<2xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @spatial_result_dims_count() -> tensor<4xf32> {
  // expected-error @below {{'smap.spatial_slice' op has 2 result_dims entries for 1 results}}
  %0 = smap.spatial_slice [#smap.dim<"m", 4>] tiles [2] results [["m"], ["m"]] : tensor<4xf32> {
  ^bb0(%m: index):
    %e = tensor.empty() : tensor<2xf32>
    smap.yield %e : tensor<2xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @spatial_result_dims_rank() -> tensor<4xf32> {
  // expected-error @below {{'smap.spatial_slice' op result_dims #0 must list one dim name per dimension of 'tensor<4xf32>'}}
  %0 = smap.spatial_slice [#smap.dim<"m", 4>] tiles [2] results [["m", "n"]] : tensor<4xf32> {
  ^bb0(%m: index):
    %e = tensor.empty() : tensor<2xf32>
    smap.yield %e : tensor<2xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @spatial_result_not_varying() -> tensor<4xf32> {
  // expected-error @below {{'smap.spatial_slice' op result #0 does not vary along sliced dim 'n': every block would write all of it}}
  %0 = smap.spatial_slice [#smap.dim<"m", 4>, #smap.dim<"n", 8>] tiles [2, 2] results [["m"]] : tensor<4xf32> {
  ^bb0(%m: index, %n: index):
    %e = tensor.empty() : tensor<2xf32>
    smap.yield %e : tensor<2xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @spatial_yield_count() -> tensor<4xf32> {
  %0 = smap.spatial_slice [#smap.dim<"m", 4>] tiles [2] results [["m"]] : tensor<4xf32> {
  ^bb0(%m: index):
    // expected-error @below {{'smap.yield' op yields 0 tiles for 1 results}}
    smap.yield
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @spatial_tile_element_type() -> tensor<4xf32> {
  %0 = smap.spatial_slice [#smap.dim<"m", 4>] tiles [2] results [["m"]] : tensor<4xf32> {
  ^bb0(%m: index):
    %e = tensor.empty() : tensor<2xf16>
    // expected-error @below {{'smap.yield' op tile #0 must be a tensor of rank 1 and element type 'f32'}}
    smap.yield %e : tensor<2xf16>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @spatial_tile_size() -> tensor<4xf32> {
  %0 = smap.spatial_slice [#smap.dim<"m", 4>] tiles [2] results [["m"]] : tensor<4xf32> {
  ^bb0(%m: index):
    %e = tensor.empty() : tensor<3xf32>
    // expected-error @below {{'smap.yield' op tile #0 dimension 0 ('m') must be 2}}
    smap.yield %e : tensor<3xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @spatial_ragged_tile_dynamic(%n: index) -> tensor<5xf32> {
  %0 = smap.spatial_slice [#smap.dim<"m", 5>] tiles [2] results [["m"]] : tensor<5xf32> {
  ^bb0(%m: index):
    %e = tensor.empty(%n) : tensor<?xf32>
    // expected-error @below {{'smap.yield' op tile #0 dimension 0 ('m') must be 2}}
    smap.yield %e : tensor<?xf32>
  }
  return %0 : tensor<5xf32>
}

// -----

func.func @spatial_unsliced_dim_size() -> tensor<4x8xf32> {
  %0 = smap.spatial_slice [#smap.dim<"m", 4>] tiles [2] results [["m", "n"]] : tensor<4x8xf32> {
  ^bb0(%m: index):
    %e = tensor.empty() : tensor<2x4xf32>
    // expected-error @below {{'smap.yield' op tile #0 dimension 1 ('n', not sliced) must have the result's size 8}}
    smap.yield %e : tensor<2x4xf32>
  }
  return %0 : tensor<4x8xf32>
}

// -----

func.func @spatial_result_extent() -> tensor<6xf32> {
  // expected-error @below {{'smap.spatial_slice' op result #0 dimension 0 ('m') must have the dim's extent 4}}
  %0 = smap.spatial_slice [#smap.dim<"m", 4>] tiles [2] results [["m"]] : tensor<6xf32> {
  ^bb0(%m: index):
    %e = tensor.empty() : tensor<2xf32>
    smap.yield %e : tensor<2xf32>
  }
  return %0 : tensor<6xf32>
}

// -----

//===----------------------------------------------------------------------===//
// smap.temporal_slice
//===----------------------------------------------------------------------===//

func.func @temporal_slice_too_large(%s: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'smap.temporal_slice' op slice size 1024 of dim 'l' must be in [1, 512]}}
  %0 = smap.temporal_slice #smap.dim<"l", 512> step 1024 inits(%s) : tensor<4xf32> -> tensor<4xf32> slice {
  ^bb0(%off: index, %a: tensor<4xf32>):
    smap.yield %a : tensor<4xf32>
  } update {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    smap.yield %b : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @temporal_slice_zero(%s: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'smap.temporal_slice' op slice size 0 of dim 'l' must be in [1, 512]}}
  %0 = smap.temporal_slice #smap.dim<"l", 512> step 0 inits(%s) : tensor<4xf32> -> tensor<4xf32> slice {
  ^bb0(%off: index, %a: tensor<4xf32>):
    smap.yield %a : tensor<4xf32>
  } update {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    smap.yield %b : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @temporal_no_state() {
  // expected-error @below {{'smap.temporal_slice' op must carry at least one value}}
  "smap.temporal_slice"() <{dim = #smap.dim<"l", 512>, slice_size = 64 : i64}> ({
  ^bb0(%off: index):
    smap.yield
  }, {
  ^bb0:
    smap.yield
  }) : () -> ()
  return
}

// -----

func.func @temporal_result_types(%s: tensor<4xf32>) -> tensor<8xf32> {
  // expected-error @below {{'smap.temporal_slice' op result types must match the inits' types}}
  %0 = smap.temporal_slice #smap.dim<"l", 512> step 64 inits(%s) : tensor<4xf32> -> tensor<8xf32> slice {
  ^bb0(%off: index, %a: tensor<4xf32>):
    smap.yield %a : tensor<4xf32>
  } update {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    smap.yield %b : tensor<4xf32>
  }
  return %0 : tensor<8xf32>
}

// -----

func.func @temporal_slice_args(%s: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'smap.temporal_slice' op slice takes 1 block arguments but 2 are expected}}
  %0 = smap.temporal_slice #smap.dim<"l", 512> step 64 inits(%s) : tensor<4xf32> -> tensor<4xf32> slice {
  ^bb0(%a: tensor<4xf32>):
    smap.yield %a : tensor<4xf32>
  } update {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    smap.yield %b : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @temporal_slice_offset_type(%s: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'smap.temporal_slice' op slice block argument #0 has type 'i64' but 'index' is expected}}
  %0 = smap.temporal_slice #smap.dim<"l", 512> step 64 inits(%s) : tensor<4xf32> -> tensor<4xf32> slice {
  ^bb0(%off: i64, %a: tensor<4xf32>):
    smap.yield %a : tensor<4xf32>
  } update {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    smap.yield %b : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @temporal_update_args(%s: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'smap.temporal_slice' op update block argument #1 has type 'tensor<4xf16>' but 'tensor<4xf32>' is expected}}
  %0 = smap.temporal_slice #smap.dim<"l", 512> step 64 inits(%s) : tensor<4xf32> -> tensor<4xf32> slice {
  ^bb0(%off: index, %a: tensor<4xf32>):
    smap.yield %a : tensor<4xf32>
  } update {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf16>):
    smap.yield %a : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @temporal_update_yield(%s: tensor<4xf32>) -> tensor<4xf32> {
  %0 = smap.temporal_slice #smap.dim<"l", 512> step 64 inits(%s) : tensor<4xf32> -> tensor<4xf32> slice {
  ^bb0(%off: index, %a: tensor<4xf32>):
    smap.yield %a : tensor<4xf32>
  } update {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    // expected-error @below {{'smap.yield' op yields 2 values but the carried state expects 1}}
    smap.yield %a, %b : tensor<4xf32>, tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

//===----------------------------------------------------------------------===//
// smap.yield
//===----------------------------------------------------------------------===//

func.func @yield_outside() {
  // expected-error @below {{'smap.yield' op expects parent op to be one of 'smap.graph, smap.spatial_slice, smap.temporal_slice'}}
  smap.yield
}

// -----

//===----------------------------------------------------------------------===//
// Terminators: every smap region ends with smap.yield
//===----------------------------------------------------------------------===//

func.func @graph_without_yield(%a: tensor<4xf32>) {
  // expected-error @below {{'smap.graph' op region of the graph must end with smap.yield}}
  "smap.graph"(%a) ({
  ^bb0(%x: tensor<4xf32>):
    llvm.unreachable
  }) : (tensor<4xf32>) -> ()
  return
}

// -----

func.func @spatial_slice_without_yield(%x: tensor<8xf32>) {
  // expected-error @below {{'smap.spatial_slice' op body must end with smap.yield}}
  %0 = smap.spatial_slice [#smap.dim<"m", 8>] tiles [4] results [["m"]] : tensor<8xf32> {
  ^bb0(%m: index):
    llvm.unreachable
  }
  return
}

// -----

func.func @temporal_slice_without_yield(%s0: tensor<4xf32>) {
  // expected-error @below {{'smap.temporal_slice' op slice region must end with smap.yield}}
  %r = smap.temporal_slice #smap.dim<"l", 8, temporal> step 4
      inits(%s0) : tensor<4xf32> -> tensor<4xf32>
  slice {
  ^bb0(%off: index, %s: tensor<4xf32>):
    llvm.unreachable
  } update {
  ^bb0(%s: tensor<4xf32>, %p: tensor<4xf32>):
    smap.yield %p : tensor<4xf32>
  }
  return
}

// -----

func.func @temporal_update_without_yield(%s0: tensor<4xf32>) {
  // expected-error @below {{'smap.temporal_slice' op region of the carried state must end with smap.yield}}
  %r = smap.temporal_slice #smap.dim<"l", 8, temporal> step 4
      inits(%s0) : tensor<4xf32> -> tensor<4xf32>
  slice {
  ^bb0(%off: index, %s: tensor<4xf32>):
    smap.yield %s : tensor<4xf32>
  } update {
  ^bb0(%s: tensor<4xf32>, %p: tensor<4xf32>):
    llvm.unreachable
  }
  return
}

// -----

//===----------------------------------------------------------------------===//
// ODS constraints of smap.graph: one block, dims of #smap.dim, ranked tensor
// results, tensor or scalar inputs
//===----------------------------------------------------------------------===//

func.func @graph_empty_region(%a: tensor<4xf32>) {
  // expected-error @below {{'smap.graph' op region #0 ('body') failed to verify constraint: region with 1 blocks}}
  "smap.graph"(%a) ({
  }) : (tensor<4xf32>) -> ()
  return
}

// -----

func.func @graph_dims_not_dims(%a: tensor<4xf32>) {
  // expected-error @below {{'smap.graph' op attribute 'dims' failed to satisfy constraint: array of #smap.dim}}
  "smap.graph"(%a) ({
  ^bb0(%x: tensor<4xf32>):
    smap.yield
  }) {dims = [1, 2]} : (tensor<4xf32>) -> ()
  return
}

// -----

func.func @graph_unranked_result(%a: tensor<4xf32>) {
  // expected-error @below {{'smap.graph' op result #0 must be variadic of ranked tensor of any type values, but got 'tensor<*xf32>'}}
  %0 = "smap.graph"(%a) ({
  ^bb0(%x: tensor<4xf32>):
    %c = tensor.cast %x : tensor<4xf32> to tensor<*xf32>
    smap.yield %c : tensor<*xf32>
  }) : (tensor<4xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @graph_memref_input(%a: memref<4xf32>) {
  // expected-error @below {{'smap.graph' op operand #0 must be variadic of ranked tensor of any type values or signless integer or index or floating-point, but got 'memref<4xf32>'}}
  "smap.graph"(%a) ({
  ^bb0(%x: memref<4xf32>):
    smap.yield
  }) : (memref<4xf32>) -> ()
  return
}

// -----

// expected-error @below {{target 'g' has unknown feature "tensor_memory" (known: mma_sync, wgmma, tma, setmaxnreg, cp_async, clusters, cache_hints)}}
func.func @target_unknown_feature() attributes {t = #smap.target<name = "g", smem_per_block = 1, regs_per_thread = 1, regs_per_sm = 1, sm_count = 1, max_threads = 32, bandwidth_gbps = 1, f16_gflops = 1, f32_gflops = 1, arch = 100, features = ["tensor_memory"]>} { return }

// -----

// expected-error @below {{target 'g' lists feature "wgmma" twice}}
func.func @target_feature_twice() attributes {t = #smap.target<name = "g", smem_per_block = 1, regs_per_thread = 1, regs_per_sm = 1, sm_count = 1, max_threads = 32, bandwidth_gbps = 1, f16_gflops = 1, f32_gflops = 1, arch = 90, features = ["wgmma", "wgmma"]>} { return }

// -----

// expected-error @below {{target 'g' is a CPU (arch 0) and has no GPU features}}
func.func @target_cpu_features() attributes {t = #smap.target<name = "g", smem_per_block = 1, regs_per_thread = 1, regs_per_sm = 1, sm_count = 1, max_threads = 32, bandwidth_gbps = 1, f16_gflops = 1, f32_gflops = 1, features = ["wgmma"]>} { return }

// -----

// expected-error @below {{target 'g' is a GPU (arch 90) and needs max_threads > 1}}
func.func @target_gpu_one_thread() attributes {t = #smap.target<name = "g", smem_per_block = 1, regs_per_thread = 1, regs_per_sm = 1, sm_count = 1, max_threads = 1, bandwidth_gbps = 1, f16_gflops = 1, f32_gflops = 1, arch = 90>} { return }

// -----

// expected-error @below {{target 'g' l2_gbps must not be negative, got -1}}
func.func @target_negative_l2_rate() attributes {t = #smap.target<name = "g", smem_per_block = 1, regs_per_thread = 1, regs_per_sm = 1, sm_count = 1, max_threads = 32, bandwidth_gbps = 1, f16_gflops = 1, f32_gflops = 1, arch = 90, l2_gbps = -1>} { return }

// -----

// expected-error @below {{expected one of [none, loops, simt, mma_sync, row_fragments, row_fragments_wgmma, wgmma_tma, wgmma_tma_ws, rows] for how the GPU lowering builds the kernel of a scheduled graph, got: tcgen05}}
func.func @schedule_unknown_strategy() attributes {t = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 1, smem = 0, regs = 0, strategy = tcgen05>} { return }

// -----

// expected-error @below {{a kernel's strategy must be a GPU strategy, got none}}
func.func @kernel_no_strategy() attributes {t = #smap.kernel<strategy = none, blocks = 1, threads = 1, smem = 0>} { return }

// -----

// expected-error @below {{a loops kernel (an op outside every graph) has no prediction, shared memory or scratch}}
func.func @kernel_loops_predicted() attributes {t = #smap.kernel<strategy = loops, blocks = 1, threads = 1, smem = 0, predicted = {strategy = "loops", blocks = 1 : i64, threads = 1 : i64, smem = 0 : i64, regs = 0 : i64, stages = 0 : i64}>} { return }

// -----

// expected-error @below {{a loops kernel (an op outside every graph) has no prediction, shared memory or scratch}}
func.func @kernel_loops_smem() attributes {t = #smap.kernel<strategy = loops, blocks = 1, threads = 1, smem = 16>} { return }

// -----

// expected-error @below {{unknown kernel part 'tile_x'}}
func.func @kernel_unknown_part() attributes {t = #smap.kernel<strategy = simt, blocks = 1, threads = 32, smem = 0, parts = {tile_x = 2 : i64}>} { return }

// -----

// expected-error @below {{kernel part 'stages' must be a non-negative integer}}
func.func @kernel_negative_part() attributes {t = #smap.kernel<strategy = wgmma_tma, blocks = 1, threads = 128, smem = 0, parts = {stages = -1 : i64}>} { return }

// -----

// expected-error @below {{a kernel's prediction has no field 'grid'}}
func.func @kernel_predicted_unknown() attributes {t = #smap.kernel<strategy = simt, blocks = 1, threads = 32, smem = 0, predicted = {grid = 2 : i64}>} { return }

// -----

// expected-error @below {{a kernel's predicted strategy must name a strategy}}
func.func @kernel_predicted_strategy() attributes {t = #smap.kernel<strategy = simt, blocks = 1, threads = 32, smem = 0, predicted = {strategy = "tcgen05"}>} { return }

// -----

// expected-error @below {{a kernel's predicted 'smem' must be a non-negative integer}}
func.func @kernel_predicted_negative() attributes {t = #smap.kernel<strategy = simt, blocks = 1, threads = 32, smem = 0, predicted = {smem = -1 : i64}>} { return }

// -----

// expected-error @below {{'func.func' op attribute 'smap.kernels': a kernel record's 'predicted' must be a dictionary}}
func.func @kernel_record_predicted_string() attributes {smap.kernels = [{strategy = "simt", blocks = 1 : i64, threads = 32 : i64, smem = 0 : i64, predicted = "blocks=1"}]} { return }

// -----

// expected-error @below {{'func.func' op unknown attribute 'smap.threads' of the smap dialect}}
func.func @retired_attribute() attributes {smap.threads = 128 : i64} { return }

// -----

// expected-error @below {{'func.func' op attribute 'smap.staged' must be a non-negative integer, got -1 : i64}}
func.func @negative_staged() attributes {smap.staged = -1 : i64} { return }

// -----

// expected-error @below {{'func.func' op attribute 'smap.kernels' must be a list of kernel records (dictionaries), got ["blocks=1"]}}
func.func @string_kernels() attributes {smap.kernels = ["blocks=1"]} { return }

// -----

// expected-error @below {{'func.func' op attribute 'smap.kernels': a kernel record needs an integer 'threads'}}
func.func @kernel_record_without_threads() attributes {smap.kernels = [{strategy = "simt", blocks = 1 : i64, smem = 0 : i64}]} { return }

// -----

// expected-error @below {{'func.func' op attribute 'smap.kernels': a kernel record has no field 'grid'}}
func.func @kernel_record_unknown_field() attributes {smap.kernels = [{strategy = "simt", blocks = 1 : i64, threads = 32 : i64, smem = 0 : i64, grid = 2 : i64}]} { return }

// -----

// expected-error @below {{schedule stages must be 2 to 4 for a wgmma strategy, 1 to 3 for a row-fragment one, at most 3 for simt and mma_sync and absent otherwise, got 1 for wgmma_tma}}
func.func @wgmma_one_stage() attributes {t = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 128, smem = 0, regs = 0, strategy = wgmma_tma, stages = 1>} { return }

// -----

// expected-error @below {{schedule stages must be 2 to 4 for a wgmma strategy, 1 to 3 for a row-fragment one, at most 3 for simt and mma_sync and absent otherwise, got 4 for simt}}
func.func @simt_stages() attributes {t = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 128, smem = 0, regs = 0, strategy = simt, stages = 4>} { return }

// -----

// expected-error @below {{schedule stages must be 2 to 4 for a wgmma strategy, 1 to 3 for a row-fragment one, at most 3 for simt and mma_sync and absent otherwise, got 2 for rows}}
func.func @rows_stages() attributes {t = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 32, smem = 0, regs = 0, strategy = rows, stages = 2, rows_per_block = 1>} { return }

// -----

// The loop bounds of a temporal slice are indices.
func.func @temporal_slice_bound_not_index(%hi: i32, %s0: tensor<64xf32>) -> tensor<64xf32> {
  // expected-note @-1 {{prior use here}}
  // expected-error @+1 {{use of value '%hi' expects different type than prior uses: 'index' vs 'i32'}}
  %r = smap.temporal_slice #smap.dim<"l", 512, temporal> step 64 upto %hi
      inits(%s0) : tensor<64xf32> -> tensor<64xf32>
  slice {
  ^bb0(%off: index, %s: tensor<64xf32>):
    smap.yield %s : tensor<64xf32>
  } update {
  ^bb0(%s: tensor<64xf32>, %p: tensor<64xf32>):
    smap.yield %p : tensor<64xf32>
  }
  return %r : tensor<64xf32>
}
