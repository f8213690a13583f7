// RUN: spacefusion-opt %s | FileCheck %s
// Printing, parsing and printing again gives the same IR.
// RUN: spacefusion-opt %s | spacefusion-opt | FileCheck %s
// RUN: spacefusion-opt %s -o %t.first && spacefusion-opt %t.first -o %t.second && diff %t.first %t.second
// The generic form round-trips too.
// RUN: spacefusion-opt %s --mlir-print-op-generic | spacefusion-opt | FileCheck %s

// CHECK-LABEL: func.func @graph_with_everything
// CHECK-SAME: (%[[X:.*]]: tensor<128x64xf32>)
func.func @graph_with_everything(%x: tensor<128x64xf32>) -> tensor<128xf32> {
  // CHECK: %[[G:.*]] = smap.graph(%[[IN:.*]] = %[[X]] : tensor<128x64xf32>) -> (tensor<128xf32>)
  // CHECK-SAME: dims = [#smap.dim<"m", 128, parallel>, #smap.dim<"k", 64, temporal>]
  // CHECK-SAME: schedule = #smap.schedule<spatial = [m = 64], temporal = [k = 32], grid = [2], threads = 128, smem = 1024, regs = 32>
  // CHECK-SAME: target = #smap.target<name = "sm_90a", smem_per_block = 232448, regs_per_thread = 255, regs_per_sm = 65536, sm_count = 132, max_threads = 1024, bandwidth_gbps = 4800, f16_gflops = 989000, f32_gflops = 67000, arch = 90, features = ["mma_sync", "wgmma", "tma", "setmaxnreg", "cp_async", "clusters", "cache_hints"], smem_per_sm = 233472, l2_bytes = 52428800, mma_sync_gflops = 445000>
  %0 = smap.graph(%in = %x : tensor<128x64xf32>) -> (tensor<128xf32>) attributes {
      dims = [#smap.dim<"m", 128, parallel>, #smap.dim<"k", 64, temporal>],
      schedule = #smap.schedule<spatial = [m = 64], temporal = [k = 32], grid = [2], threads = 128, smem = 1024, regs = 32>,
      target = #smap.target<name = "sm_90a", smem_per_block = 232448, regs_per_thread = 255, regs_per_sm = 65536, sm_count = 132, max_threads = 1024, bandwidth_gbps = 4800, f16_gflops = 989000, f32_gflops = 67000, arch = 90, features = ["mma_sync", "wgmma", "tma", "setmaxnreg", "cp_async", "clusters", "cache_hints"], smem_per_sm = 233472, l2_bytes = 52428800, mma_sync_gflops = 445000>} {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<128xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128xf32>) -> tensor<128xf32>
    // CHECK: linalg.reduce ins(%[[IN]] : tensor<128x64xf32>)
    %r = linalg.reduce ins(%in : tensor<128x64xf32>) outs(%f : tensor<128xf32>) dimensions = [1]
      (%a: f32, %b: f32) {
        %s = arith.addf %a, %b : f32
        linalg.yield %s : f32
      }
    // CHECK: smap.yield %{{.*}} : tensor<128xf32>
    smap.yield %r : tensor<128xf32>
  }
  // CHECK: return %[[G]]
  return %0 : tensor<128xf32>
}

// CHECK-LABEL: func.func @graph_without_annotations
// CHECK: smap.graph(%{{.*}} = %{{.*}} : tensor<4xf32>, %{{.*}} = %{{.*}} : tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
func.func @graph_without_annotations(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0:2 = smap.graph(%x = %a : tensor<4xf32>, %y = %b : tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    smap.yield %y, %x : tensor<4xf32>, tensor<4xf32>
  }
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @graph_without_inputs
// CHECK: smap.graph() -> () {
// CHECK-NEXT: smap.yield
func.func @graph_without_inputs() {
  smap.graph() -> () {
    smap.yield
  }
  return
}

// CHECK-LABEL: func.func @spatial_slice
func.func @spatial_slice(%x: tensor<512x256xf32>) -> tensor<512x256xf32> {
  // CHECK: smap.spatial_slice [#smap.dim<"m", 512>, #smap.dim<"n", 256, parallel>] tiles [64, 128] results {{\[}}["m", "n"]] : tensor<512x256xf32>
  // CHECK-NEXT: ^bb0(%[[M:.*]]: index, %[[N:.*]]: index):
  // CHECK: tensor.extract_slice %{{.*}}[%[[M]], %[[N]]] [64, 128] [1, 1]
  %0 = smap.spatial_slice [#smap.dim<"m", 512>, #smap.dim<"n", 256, parallel>] tiles [64, 128] results [["m", "n"]] : tensor<512x256xf32> {
  ^bb0(%m: index, %n: index):
    %t = tensor.extract_slice %x[%m, %n] [64, 128] [1, 1] : tensor<512x256xf32> to tensor<64x128xf32>
    smap.yield %t : tensor<64x128xf32>
  }
  return %0 : tensor<512x256xf32>
}

// A tile that does not divide its dim still has the tile size (the last
// block, at offset 52, overlaps the one before).
// CHECK-LABEL: func.func @spatial_slice_ragged
// CHECK: tiles [48] results {{\[}}["m"]] : tensor<100xf32>
// CHECK: smap.yield %{{.*}} : tensor<48xf32>
func.func @spatial_slice_ragged(%x: tensor<100xf32>) -> tensor<100xf32> {
  %0 = smap.spatial_slice [#smap.dim<"m", 100>] tiles [48] results [["m"]] : tensor<100xf32> {
  ^bb0(%m: index):
    %t = tensor.extract_slice %x[%m] [48] [1] : tensor<100xf32> to tensor<48xf32>
    smap.yield %t : tensor<48xf32>
  }
  return %0 : tensor<100xf32>
}

// Online softmax state: running max, running sum, accumulator.
// CHECK-LABEL: func.func @temporal_slice
func.func @temporal_slice(%m0: tensor<64xf32>, %s0: tensor<64xf32>, %acc0: tensor<64x64xf32>)
    -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
  // CHECK: %{{.*}}:3 = smap.temporal_slice #smap.dim<"l", 512, temporal> step 64 inits(%{{.*}}, %{{.*}}, %{{.*}}) : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32> -> tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32> slice {
  // CHECK-NEXT: ^bb0(%[[OFF:.*]]: index, %{{.*}}: tensor<64xf32>, %{{.*}}: tensor<64xf32>, %{{.*}}: tensor<64x64xf32>):
  // CHECK: } update {
  // CHECK-NEXT: ^bb0(%{{.*}}: tensor<64xf32>, %{{.*}}: tensor<64xf32>, %{{.*}}: tensor<64x64xf32>, %{{.*}}: tensor<64xf32>, %{{.*}}: tensor<64xf32>):
  %r:3 = smap.temporal_slice #smap.dim<"l", 512, temporal> step 64
      inits(%m0, %s0, %acc0) : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
      -> tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
  slice {
  ^bb0(%off: index, %m: tensor<64xf32>, %s: tensor<64xf32>, %acc: tensor<64x64xf32>):
    smap.yield %m, %s : tensor<64xf32>, tensor<64xf32>
  } update {
  ^bb0(%m: tensor<64xf32>, %s: tensor<64xf32>, %acc: tensor<64x64xf32>, %mn: tensor<64xf32>, %ps: tensor<64xf32>):
    smap.yield %mn, %ps, %acc : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
  }
  return %r#0, %r#1, %r#2 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
}

// A loop a mask bounds: from the slice of %lo, up to %hi.
// CHECK-LABEL: func.func @temporal_slice_bounded
// CHECK-SAME: (%[[LO:[a-z0-9]+]]: index, %[[HI:[a-z0-9]+]]: index
// CHECK: smap.temporal_slice #smap.dim<"l", 512, temporal> step 64 from %[[LO]] upto %[[HI]] inits(
// CHECK-LABEL: func.func @temporal_slice_upto
// CHECK: smap.temporal_slice #smap.dim<"l", 512, temporal> step 64 upto %{{.*}} inits(
func.func @temporal_slice_bounded(%lo: index, %hi: index, %s0: tensor<64xf32>) -> tensor<64xf32> {
  %r = smap.temporal_slice #smap.dim<"l", 512, temporal> step 64 from %lo upto %hi
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
func.func @temporal_slice_upto(%hi: index, %s0: tensor<64xf32>) -> tensor<64xf32> {
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

// Every attribute on its own, as the analysis writes them on member ops.
// CHECK-LABEL: func.func @attributes
// The unclassified default is not printed.
// CHECK: smap.space = #smap.space<"QK", ["m", "l", "k"], {{\[}}[#smap.mapping<"l", o2a>], [#smap.mapping<"m", o2a>]], [#smap.mapping<"k", a2o, add>]>
// CHECK-SAME: test.dims = [#smap.dim<"a", 1>, #smap.dim<"b", 2, parallel>, #smap.dim<"c", 3, parallel_recompute>, #smap.dim<"d", 4, temporal>, #smap.dim<"e", 5, not_sliceable>]
// CHECK-SAME: test.mapping = [#smap.mapping<"m", o2o>, #smap.mapping<"l", o2a>, #smap.mapping<"k", a2o, add>, #smap.mapping<"l", a2o, max>, #smap.mapping<"l", a2o, min>, #smap.mapping<"l", a2o, mul>]
// CHECK-SAME: test.residency = #smap.schedule<spatial = [m = 128], temporal = [l = 128], grid = [2], threads = 256, smem = 93184, regs = 128, strategy = row_fragments_wgmma, stages = 2, blocks_per_sm = 2>
// CHECK-SAME: test.rows = #smap.schedule<spatial = [r = 1], temporal = [], grid = [16384], threads = 64, smem = 0, regs = 0, strategy = rows, rows_per_block = 2>
// CHECK-SAME: test.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 1, smem = 0, regs = 0>
// CHECK-SAME: test.strategy = #smap.schedule<spatial = [m = 64], temporal = [k = 64], grid = [2], threads = 128, smem = 1024, regs = 96, strategy = wgmma_tma, stages = 3>
// CHECK-SAME: test.target = #smap.target<name = "g", smem_per_block = 1024, regs_per_thread = 255, regs_per_sm = 65536, sm_count = 2, max_threads = 1024, bandwidth_gbps = 1, f16_gflops = 1, f32_gflops = 1, arch = 90, features = ["mma_sync", "wgmma"], l2_bytes = 4096>
// CHECK-SAME: test.z_kernel = #smap.kernel<strategy = wgmma_tma, blocks = 2, threads = 128, smem = 99328, parts = {stages = 3 : i64, tile_m = 128 : i64}>
// CHECK-SAME: test.z_predicted = #smap.kernel<strategy = simt, blocks = 4, threads = 256, smem = 4096, predicted = {blocks = 4 : i64, regs = 40 : i64, smem = 8192 : i64, stages = 0 : i64, strategy = "simt", threads = 256 : i64}>
func.func @attributes() attributes {
    test.mapping = [#smap.mapping<"m", o2o>, #smap.mapping<"l", o2a>, #smap.mapping<"k", a2o, add>,
                    #smap.mapping<"l", a2o, max>, #smap.mapping<"l", a2o, min>, #smap.mapping<"l", a2o, mul>],
    smap.space = #smap.space<"QK", ["m", "l", "k"], [[#smap.mapping<"l", o2a>], [#smap.mapping<"m", o2a>]], [#smap.mapping<"k", a2o, add>]>,
    test.dims = [#smap.dim<"a", 1, unclassified>, #smap.dim<"b", 2, parallel>, #smap.dim<"c", 3, parallel_recompute>,
                 #smap.dim<"d", 4, temporal>, #smap.dim<"e", 5, not_sliceable>],
    test.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 1, smem = 0, regs = 0>,
    test.residency = #smap.schedule<spatial = [m = 128], temporal = [l = 128], grid = [2], threads = 256, smem = 93184, regs = 128, strategy = row_fragments_wgmma, stages = 2, blocks_per_sm = 2>,
    test.strategy = #smap.schedule<spatial = [m = 64], temporal = [k = 64], grid = [2], threads = 128, smem = 1024, regs = 96, strategy = wgmma_tma, stages = 3>,
    test.rows = #smap.schedule<spatial = [r = 1], temporal = [], grid = [16384], threads = 64, smem = 0, regs = 0, strategy = rows, rows_per_block = 2>,
    test.target = #smap.target<name = "g", smem_per_block = 1024, regs_per_thread = 255, regs_per_sm = 65536, sm_count = 2, max_threads = 1024, bandwidth_gbps = 1, f16_gflops = 1, f32_gflops = 1, arch = 90, features = ["mma_sync", "wgmma"], l2_bytes = 4096>,
    test.z_kernel = #smap.kernel<strategy = wgmma_tma, blocks = 2, threads = 128, smem = 99328, parts = {tile_m = 128 : i64, stages = 3 : i64}>,
    test.z_predicted = #smap.kernel<strategy = simt, blocks = 4, threads = 256, smem = 4096, predicted = {strategy = "simt", blocks = 4 : i64, threads = 256 : i64, smem = 8192 : i64, regs = 40 : i64, stages = 0 : i64}>} {
  return
}
