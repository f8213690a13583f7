// RUN: spacefusion-opt --split-input-file --verify-diagnostics --smap-distribute-blocks %s

// The block lowering builds the schedule's strategy or fails naming why; it
// never falls back to another strategy.

// wgmma needs the target feature: sm_80 has none.

#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
func.func @gemm_sm80(%arg0: memref<64x64xf16>, %arg1: memref<64x64xf16>, %arg2: memref<64x64xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %cst = arith.constant 0.000000e+00 : f32
  // expected-error @below {{smap-distribute-blocks: the schedule's strategy wgmma_tma cannot be built: target 'sm_80' lacks wgmma}}
  scf.forall (%blk) in (1) {
    %acc = memref.alloc() : memref<64x64xf32>
    linalg.fill ins(%cst : f32) outs(%acc : memref<64x64xf32>)
    scf.for %k = %c0 to %c64 step %c64 {
      %at = memref.subview %arg0[0, %k] [64, 64] [1, 1] : memref<64x64xf16> to memref<64x64xf16, strided<[64, 1], offset: ?>>
      %sa = memref.alloc() : memref<64x64xf16>
      linalg.copy ins(%at : memref<64x64xf16, strided<[64, 1], offset: ?>>) outs(%sa : memref<64x64xf16>)
      %bt = memref.subview %arg1[%k, 0] [64, 64] [1, 1] : memref<64x64xf16> to memref<64x64xf16, strided<[64, 1], offset: ?>>
      %sb = memref.alloc() : memref<64x64xf16>
      linalg.copy ins(%bt : memref<64x64xf16, strided<[64, 1], offset: ?>>) outs(%sb : memref<64x64xf16>)
      linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
          ins(%sa, %sb : memref<64x64xf16>, memref<64x64xf16>) outs(%acc : memref<64x64xf32>) {
      ^bb0(%x: f16, %y: f16, %o: f32):
        %xf = arith.extf %x : f16 to f32
        %yf = arith.extf %y : f16 to f32
        %p = arith.mulf %xf, %yf : f32
        %s = arith.addf %o, %p : f32
        linalg.yield %s : f32
      }
    }
    memref.copy %acc, %arg2 : memref<64x64xf32> to memref<64x64xf32>
  } {mapping = [#gpu.block<x>], smap.target = #smap.target<name = "sm_80", smem_per_block = 166912, regs_per_thread = 255, regs_per_sm = 65536, sm_count = 108, max_threads = 1024, bandwidth_gbps = 2039, f16_gflops = 312000, f32_gflops = 19500, arch = 80, features = ["mma_sync", "cp_async", "cache_hints"], smem_per_sm = 167936, l2_bytes = 41943040>, smap.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 128, smem = 0, regs = 0, strategy = wgmma_tma, stages = 2>}
  return
}


// -----

// A k of 32 is not a wgmma tile.

#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
func.func @gemm_k32(%arg0: memref<64x64xf16>, %arg1: memref<64x64xf16>, %arg2: memref<64x64xf32>) {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %cst = arith.constant 0.000000e+00 : f32
  // expected-error @below {{smap-distribute-blocks: the schedule's strategy wgmma_tma cannot be built: the tile 64x64x32 is not one wgmma supports here ({64,128}x{64..256}x64)}}
  scf.forall (%blk) in (1) {
    %acc = memref.alloc() : memref<64x64xf32>
    linalg.fill ins(%cst : f32) outs(%acc : memref<64x64xf32>)
    scf.for %k = %c0 to %c64 step %c32 {
      %at = memref.subview %arg0[0, %k] [64, 32] [1, 1] : memref<64x64xf16> to memref<64x32xf16, strided<[64, 1], offset: ?>>
      %sa = memref.alloc() : memref<64x32xf16>
      linalg.copy ins(%at : memref<64x32xf16, strided<[64, 1], offset: ?>>) outs(%sa : memref<64x32xf16>)
      %bt = memref.subview %arg1[%k, 0] [32, 64] [1, 1] : memref<64x64xf16> to memref<32x64xf16, strided<[64, 1], offset: ?>>
      %sb = memref.alloc() : memref<32x64xf16>
      linalg.copy ins(%bt : memref<32x64xf16, strided<[64, 1], offset: ?>>) outs(%sb : memref<32x64xf16>)
      linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
          ins(%sa, %sb : memref<64x32xf16>, memref<32x64xf16>) outs(%acc : memref<64x64xf32>) {
      ^bb0(%x: f16, %y: f16, %o: f32):
        %xf = arith.extf %x : f16 to f32
        %yf = arith.extf %y : f16 to f32
        %p = arith.mulf %xf, %yf : f32
        %s = arith.addf %o, %p : f32
        linalg.yield %s : f32
      }
    }
    memref.copy %acc, %arg2 : memref<64x64xf32> to memref<64x64xf32>
  } {mapping = [#gpu.block<x>], smap.target = #smap.target<name = "sm_90a", smem_per_block = 232448, regs_per_thread = 255, regs_per_sm = 65536, sm_count = 132, max_threads = 1024, bandwidth_gbps = 4800, f16_gflops = 989000, f32_gflops = 67000, arch = 90, features = ["mma_sync", "wgmma", "tma", "setmaxnreg", "cp_async", "clusters", "cache_hints"], smem_per_sm = 233472, l2_bytes = 52428800, mma_sync_gflops = 445000>, smap.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 128, smem = 0, regs = 0, strategy = wgmma_tma, stages = 2>}
  return
}


// -----

// Two TMA stages do not fit the target's 30000 bytes: an error, not a quiet mma.sync.

#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
func.func @gemm_small_smem(%arg0: memref<64x128xf16>, %arg1: memref<128x64xf16>, %arg2: memref<64x64xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %cst = arith.constant 0.000000e+00 : f32
  // expected-error @below {{smap-distribute-blocks: the schedule's strategy wgmma_tma cannot be built: two TMA stages of 16384 bytes and the accumulator tile (16384 bytes) do not fit in the 30000 bytes of shared memory the block's other buffers leave}}
  scf.forall (%blk) in (1) {
    %acc = memref.alloc() : memref<64x64xf32>
    linalg.fill ins(%cst : f32) outs(%acc : memref<64x64xf32>)
    scf.for %k = %c0 to %c128 step %c64 {
      %at = memref.subview %arg0[0, %k] [64, 64] [1, 1] : memref<64x128xf16> to memref<64x64xf16, strided<[128, 1], offset: ?>>
      %sa = memref.alloc() : memref<64x64xf16>
      linalg.copy ins(%at : memref<64x64xf16, strided<[128, 1], offset: ?>>) outs(%sa : memref<64x64xf16>)
      %bt = memref.subview %arg1[%k, 0] [64, 64] [1, 1] : memref<128x64xf16> to memref<64x64xf16, strided<[64, 1], offset: ?>>
      %sb = memref.alloc() : memref<64x64xf16>
      linalg.copy ins(%bt : memref<64x64xf16, strided<[64, 1], offset: ?>>) outs(%sb : memref<64x64xf16>)
      linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
          ins(%sa, %sb : memref<64x64xf16>, memref<64x64xf16>) outs(%acc : memref<64x64xf32>) {
      ^bb0(%x: f16, %y: f16, %o: f32):
        %xf = arith.extf %x : f16 to f32
        %yf = arith.extf %y : f16 to f32
        %p = arith.mulf %xf, %yf : f32
        %s = arith.addf %o, %p : f32
        linalg.yield %s : f32
      }
    }
    memref.copy %acc, %arg2 : memref<64x64xf32> to memref<64x64xf32>
  } {mapping = [#gpu.block<x>], smap.target = #smap.target<name = "sm_90a", smem_per_block = 30000, regs_per_thread = 255, regs_per_sm = 65536, sm_count = 132, max_threads = 1024, bandwidth_gbps = 4800, f16_gflops = 989000, f32_gflops = 67000, arch = 90, features = ["mma_sync", "wgmma", "tma", "setmaxnreg", "cp_async", "clusters", "cache_hints"], smem_per_sm = 233472, l2_bytes = 52428800, mma_sync_gflops = 445000>, smap.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 128, smem = 0, regs = 0, strategy = wgmma_tma, stages = 2>}
  return
}


// -----

// The schedule's threads fix the row slabs per warp (32 rows on 64 threads:
// one 16-row slab per warp, on 32: two); 96 threads cannot hold 32 rows (nor 32
// rows of one warp copied four times: 128).

#q = affine_map<(m, l, k) -> (m, k)>
#k = affine_map<(m, l, k) -> (l, k)>
#s = affine_map<(m, l, k) -> (m, l)>
#id = affine_map<(m, l) -> (m, l)>
#row = affine_map<(m, l) -> (m)>
#vec = affine_map<(m) -> (m)>
#pvp = affine_map<(m, n, l) -> (m, l)>
#pvv = affine_map<(m, n, l) -> (l, n)>
#pvo = affine_map<(m, n, l) -> (m, n)>
func.func @attention_block(%q: memref<64x16xf16>, %k: memref<32x16xf16>,
                           %v: memref<32x16xf16>, %out: memref<64x16xf16>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  // expected-error @below {{smap-distribute-blocks: the schedule's strategy row_fragments cannot be built: its 96 threads do not hold 32 rows as 16- or 32-row warp slabs}}
  scf.forall (%blk) in (2) {
    %r0 = arith.muli %blk, %c32 : index
    %qg = memref.subview %q[%r0, 0] [32, 16] [1, 1] : memref<64x16xf16> to memref<32x16xf16, strided<[16, 1], offset: ?>>
    %qs = memref.alloc() : memref<32x24xf16>
    %qt = memref.subview %qs[0, 0] [32, 16] [1, 1] : memref<32x24xf16> to memref<32x16xf16, strided<[24, 1]>>
    linalg.copy ins(%qg : memref<32x16xf16, strided<[16, 1], offset: ?>>) outs(%qt : memref<32x16xf16, strided<[24, 1]>>)
    %max = memref.alloc() : memref<32xf32>
    %sum = memref.alloc() : memref<32xf32>
    %acc = memref.alloc() : memref<32x16xf32>
    linalg.fill ins(%ninf : f32) outs(%max : memref<32xf32>)
    linalg.fill ins(%zero : f32) outs(%sum : memref<32xf32>)
    linalg.fill ins(%zero : f32) outs(%acc : memref<32x16xf32>)
    scf.for %l0 = %c0 to %c32 step %c16 {
      %kg = memref.subview %k[%l0, 0] [16, 16] [1, 1] : memref<32x16xf16> to memref<16x16xf16, strided<[16, 1], offset: ?>>
      %ks = memref.alloc() : memref<16x24xf16>
      %kt = memref.subview %ks[0, 0] [16, 16] [1, 1] : memref<16x24xf16> to memref<16x16xf16, strided<[24, 1]>>
      linalg.copy ins(%kg : memref<16x16xf16, strided<[16, 1], offset: ?>>) outs(%kt : memref<16x16xf16, strided<[24, 1]>>)
      %vg = memref.subview %v[%l0, 0] [16, 16] [1, 1] : memref<32x16xf16> to memref<16x16xf16, strided<[16, 1], offset: ?>>
      %vs = memref.alloc() : memref<16x24xf16>
      %vt = memref.subview %vs[0, 0] [16, 16] [1, 1] : memref<16x24xf16> to memref<16x16xf16, strided<[24, 1]>>
      linalg.copy ins(%vg : memref<16x16xf16, strided<[16, 1], offset: ?>>) outs(%vt : memref<16x16xf16, strided<[24, 1]>>)
      %s = memref.alloc() : memref<32x16xf32>
      linalg.fill ins(%zero : f32) outs(%s : memref<32x16xf32>)
      linalg.generic {indexing_maps = [#q, #k, #s], iterator_types = ["parallel", "parallel", "reduction"]}
          ins(%qt, %kt : memref<32x16xf16, strided<[24, 1]>>, memref<16x16xf16, strided<[24, 1]>>) outs(%s : memref<32x16xf32>) {
      ^bb0(%a: f16, %b: f16, %o: f32):
        %ae = arith.extf %a : f16 to f32
        %be = arith.extf %b : f16 to f32
        %p = arith.mulf %ae, %be : f32
        %r = arith.addf %o, %p : f32
        linalg.yield %r : f32
      }
      %m = memref.alloc() : memref<32xf32>
      linalg.copy ins(%max : memref<32xf32>) outs(%m : memref<32xf32>)
      linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
          ins(%s : memref<32x16xf32>) outs(%m : memref<32xf32>) {
      ^bb0(%x: f32, %o: f32):
        %r = arith.maximumf %x, %o : f32
        linalg.yield %r : f32
      }
      %p = memref.alloc() : memref<32x16xf32>
      linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
          ins(%s, %m : memref<32x16xf32>, memref<32xf32>) outs(%p : memref<32x16xf32>) {
      ^bb0(%x: f32, %mx: f32, %o: f32):
        %d = arith.subf %x, %mx : f32
        %e = math.exp %d : f32
        linalg.yield %e : f32
      }
      linalg.generic {indexing_maps = [#vec, #vec, #vec], iterator_types = ["parallel"]}
          ins(%max, %m : memref<32xf32>, memref<32xf32>) outs(%sum : memref<32xf32>) {
      ^bb0(%old: f32, %new: f32, %o: f32):
        %d = arith.subf %old, %new : f32
        %e = math.exp %d : f32
        %r = arith.mulf %o, %e : f32
        linalg.yield %r : f32
      }
      linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
          ins(%p : memref<32x16xf32>) outs(%sum : memref<32xf32>) {
      ^bb0(%x: f32, %o: f32):
        %r = arith.addf %x, %o : f32
        linalg.yield %r : f32
      }
      linalg.generic {indexing_maps = [#row, #row, #id], iterator_types = ["parallel", "parallel"]}
          ins(%max, %m : memref<32xf32>, memref<32xf32>) outs(%acc : memref<32x16xf32>) {
      ^bb0(%old: f32, %new: f32, %o: f32):
        %d = arith.subf %old, %new : f32
        %e = math.exp %d : f32
        %r = arith.mulf %o, %e : f32
        linalg.yield %r : f32
      }
      linalg.generic {indexing_maps = [#pvp, #pvv, #pvo], iterator_types = ["parallel", "parallel", "reduction"]}
          ins(%p, %vt : memref<32x16xf32>, memref<16x16xf16, strided<[24, 1]>>) outs(%acc : memref<32x16xf32>) {
      ^bb0(%a: f32, %b: f16, %o: f32):
        %be = arith.extf %b : f16 to f32
        %x = arith.mulf %a, %be : f32
        %r = arith.addf %o, %x : f32
        linalg.yield %r : f32
      }
      linalg.copy ins(%m : memref<32xf32>) outs(%max : memref<32xf32>)
    }
    %og = memref.subview %out[%r0, 0] [32, 16] [1, 1] : memref<64x16xf16> to memref<32x16xf16, strided<[16, 1], offset: ?>>
    linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
        ins(%acc, %sum : memref<32x16xf32>, memref<32xf32>) outs(%og : memref<32x16xf16, strided<[16, 1], offset: ?>>) {
    ^bb0(%a: f32, %l: f32, %o: f16):
      %d = arith.divf %a, %l : f32
      %t = arith.truncf %d : f32 to f16
      linalg.yield %t : f16
    }
  } {mapping = [#gpu.block<x>], smap.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 96, smem = 0, regs = 0, strategy = row_fragments, stages = 1>}
  return
}


// -----

// A block of one row warp (32 rows in two slabs) on 128 threads runs four
// copies of the warp; only the first writes global memory, so a block that
// reads back a global buffer it writes (%og) cannot be replicated.

#q = affine_map<(m, l, k) -> (m, k)>
#k = affine_map<(m, l, k) -> (l, k)>
#s = affine_map<(m, l, k) -> (m, l)>
#id = affine_map<(m, l) -> (m, l)>
#row = affine_map<(m, l) -> (m)>
#vec = affine_map<(m) -> (m)>
#pvp = affine_map<(m, n, l) -> (m, l)>
#pvv = affine_map<(m, n, l) -> (l, n)>
#pvo = affine_map<(m, n, l) -> (m, n)>
func.func @attention_block_rereads(%q: memref<64x16xf16>, %k: memref<32x16xf16>,
                                   %v: memref<32x16xf16>, %out: memref<64x16xf16>,
                                   %out2: memref<64x16xf16>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  // expected-error @below {{smap-distribute-blocks: the schedule's strategy row_fragments cannot be built: its one row warp cannot be replicated: the block reads a global buffer it writes}}
  scf.forall (%blk) in (2) {
    %r0 = arith.muli %blk, %c32 : index
    %qg = memref.subview %q[%r0, 0] [32, 16] [1, 1] : memref<64x16xf16> to memref<32x16xf16, strided<[16, 1], offset: ?>>
    %qs = memref.alloc() : memref<32x24xf16>
    %qt = memref.subview %qs[0, 0] [32, 16] [1, 1] : memref<32x24xf16> to memref<32x16xf16, strided<[24, 1]>>
    linalg.copy ins(%qg : memref<32x16xf16, strided<[16, 1], offset: ?>>) outs(%qt : memref<32x16xf16, strided<[24, 1]>>)
    %max = memref.alloc() : memref<32xf32>
    %sum = memref.alloc() : memref<32xf32>
    %acc = memref.alloc() : memref<32x16xf32>
    linalg.fill ins(%ninf : f32) outs(%max : memref<32xf32>)
    linalg.fill ins(%zero : f32) outs(%sum : memref<32xf32>)
    linalg.fill ins(%zero : f32) outs(%acc : memref<32x16xf32>)
    scf.for %l0 = %c0 to %c32 step %c16 {
      %kg = memref.subview %k[%l0, 0] [16, 16] [1, 1] : memref<32x16xf16> to memref<16x16xf16, strided<[16, 1], offset: ?>>
      %ks = memref.alloc() : memref<16x24xf16>
      %kt = memref.subview %ks[0, 0] [16, 16] [1, 1] : memref<16x24xf16> to memref<16x16xf16, strided<[24, 1]>>
      linalg.copy ins(%kg : memref<16x16xf16, strided<[16, 1], offset: ?>>) outs(%kt : memref<16x16xf16, strided<[24, 1]>>)
      %vg = memref.subview %v[%l0, 0] [16, 16] [1, 1] : memref<32x16xf16> to memref<16x16xf16, strided<[16, 1], offset: ?>>
      %vs = memref.alloc() : memref<16x24xf16>
      %vt = memref.subview %vs[0, 0] [16, 16] [1, 1] : memref<16x24xf16> to memref<16x16xf16, strided<[24, 1]>>
      linalg.copy ins(%vg : memref<16x16xf16, strided<[16, 1], offset: ?>>) outs(%vt : memref<16x16xf16, strided<[24, 1]>>)
      %s = memref.alloc() : memref<32x16xf32>
      linalg.fill ins(%zero : f32) outs(%s : memref<32x16xf32>)
      linalg.generic {indexing_maps = [#q, #k, #s], iterator_types = ["parallel", "parallel", "reduction"]}
          ins(%qt, %kt : memref<32x16xf16, strided<[24, 1]>>, memref<16x16xf16, strided<[24, 1]>>) outs(%s : memref<32x16xf32>) {
      ^bb0(%a: f16, %b: f16, %o: f32):
        %ae = arith.extf %a : f16 to f32
        %be = arith.extf %b : f16 to f32
        %p = arith.mulf %ae, %be : f32
        %r = arith.addf %o, %p : f32
        linalg.yield %r : f32
      }
      %m = memref.alloc() : memref<32xf32>
      linalg.copy ins(%max : memref<32xf32>) outs(%m : memref<32xf32>)
      linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
          ins(%s : memref<32x16xf32>) outs(%m : memref<32xf32>) {
      ^bb0(%x: f32, %o: f32):
        %r = arith.maximumf %x, %o : f32
        linalg.yield %r : f32
      }
      %p = memref.alloc() : memref<32x16xf32>
      linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
          ins(%s, %m : memref<32x16xf32>, memref<32xf32>) outs(%p : memref<32x16xf32>) {
      ^bb0(%x: f32, %mx: f32, %o: f32):
        %d = arith.subf %x, %mx : f32
        %e = math.exp %d : f32
        linalg.yield %e : f32
      }
      linalg.generic {indexing_maps = [#vec, #vec, #vec], iterator_types = ["parallel"]}
          ins(%max, %m : memref<32xf32>, memref<32xf32>) outs(%sum : memref<32xf32>) {
      ^bb0(%old: f32, %new: f32, %o: f32):
        %d = arith.subf %old, %new : f32
        %e = math.exp %d : f32
        %r = arith.mulf %o, %e : f32
        linalg.yield %r : f32
      }
      linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
          ins(%p : memref<32x16xf32>) outs(%sum : memref<32xf32>) {
      ^bb0(%x: f32, %o: f32):
        %r = arith.addf %x, %o : f32
        linalg.yield %r : f32
      }
      linalg.generic {indexing_maps = [#row, #row, #id], iterator_types = ["parallel", "parallel"]}
          ins(%max, %m : memref<32xf32>, memref<32xf32>) outs(%acc : memref<32x16xf32>) {
      ^bb0(%old: f32, %new: f32, %o: f32):
        %d = arith.subf %old, %new : f32
        %e = math.exp %d : f32
        %r = arith.mulf %o, %e : f32
        linalg.yield %r : f32
      }
      linalg.generic {indexing_maps = [#pvp, #pvv, #pvo], iterator_types = ["parallel", "parallel", "reduction"]}
          ins(%p, %vt : memref<32x16xf32>, memref<16x16xf16, strided<[24, 1]>>) outs(%acc : memref<32x16xf32>) {
      ^bb0(%a: f32, %b: f16, %o: f32):
        %be = arith.extf %b : f16 to f32
        %x = arith.mulf %a, %be : f32
        %r = arith.addf %o, %x : f32
        linalg.yield %r : f32
      }
      linalg.copy ins(%m : memref<32xf32>) outs(%max : memref<32xf32>)
    }
    %og = memref.subview %out[%r0, 0] [32, 16] [1, 1] : memref<64x16xf16> to memref<32x16xf16, strided<[16, 1], offset: ?>>
    linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
        ins(%acc, %sum : memref<32x16xf32>, memref<32xf32>) outs(%og : memref<32x16xf16, strided<[16, 1], offset: ?>>) {
    ^bb0(%a: f32, %l: f32, %o: f16):
      %d = arith.divf %a, %l : f32
      %t = arith.truncf %d : f32 to f16
      linalg.yield %t : f16
    }
    %og2 = memref.subview %out2[%r0, 0] [32, 16] [1, 1] : memref<64x16xf16> to memref<32x16xf16, strided<[16, 1], offset: ?>>
    memref.copy %og, %og2 : memref<32x16xf16, strided<[16, 1], offset: ?>> to memref<32x16xf16, strided<[16, 1], offset: ?>>
  } {mapping = [#gpu.block<x>], smap.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 128, smem = 0, regs = 0, strategy = row_fragments, stages = 1>}
  return
}


// -----

// A lone GEMM has nothing to keep in registers.

#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @gemm_block(%x: memref<32x32xf16>, %y: memref<32x32xf16>, %z: memref<32x32xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-error @below {{smap-distribute-blocks: the schedule's strategy row_fragments cannot be built: nothing to fuse in registers (a single contraction)}}
  scf.forall (%blk) in (1) {
    %xs = memref.alloc() : memref<32x40xf16>
    %xt = memref.subview %xs[0, 0] [32, 32] [1, 1] : memref<32x40xf16> to memref<32x32xf16, strided<[40, 1]>>
    linalg.copy ins(%x : memref<32x32xf16>) outs(%xt : memref<32x32xf16, strided<[40, 1]>>)
    %ys = memref.alloc() : memref<32x40xf16>
    %yt = memref.subview %ys[0, 0] [32, 32] [1, 1] : memref<32x40xf16> to memref<32x32xf16, strided<[40, 1]>>
    linalg.copy ins(%y : memref<32x32xf16>) outs(%yt : memref<32x32xf16, strided<[40, 1]>>)
    %acc = memref.alloc() : memref<32x32xf32>
    linalg.fill ins(%zero : f32) outs(%acc : memref<32x32xf32>)
    linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%xt, %yt : memref<32x32xf16, strided<[40, 1]>>, memref<32x32xf16, strided<[40, 1]>>) outs(%acc : memref<32x32xf32>) {
    ^bb0(%p: f16, %q: f16, %o: f32):
      %pe = arith.extf %p : f16 to f32
      %qe = arith.extf %q : f16 to f32
      %m = arith.mulf %pe, %qe : f32
      %r = arith.addf %o, %m : f32
      linalg.yield %r : f32
    }
    memref.copy %acc, %z : memref<32x32xf32> to memref<32x32xf32>
  } {mapping = [#gpu.block<x>], smap.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 128, smem = 0, regs = 0, strategy = row_fragments, stages = 1>}
  return
}


// -----

// A row sum has no contraction for mma.sync.

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @rowsum(%x: memref<64x128xf32>, %out: memref<64xf32>) {
  %zero = arith.constant 0.0 : f32
  %c16 = arith.constant 16 : index
  // expected-error @below {{smap-distribute-blocks: the schedule's strategy mma_sync cannot be built: no contraction of the block fits mma.sync}}
  scf.forall (%blk) in (4) {
    %off = arith.muli %blk, %c16 : index
    %in = memref.subview %x[%off, 0] [16, 128] [1, 1] : memref<64x128xf32> to memref<16x128xf32, strided<[128, 1], offset: ?>>
    %acc = memref.alloc() : memref<16xf32>
    linalg.fill ins(%zero : f32) outs(%acc : memref<16xf32>)
    linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%in : memref<16x128xf32, strided<[128, 1], offset: ?>>) outs(%acc : memref<16xf32>) {
    ^bb0(%a: f32, %s: f32):
      %r = arith.addf %a, %s : f32
      linalg.yield %r : f32
    }
    %o = memref.subview %out[%off] [16] [1] : memref<64xf32> to memref<16xf32, strided<[1], offset: ?>>
    memref.copy %acc, %o : memref<16xf32> to memref<16xf32, strided<[1], offset: ?>>
  } {mapping = [#gpu.block<x>], smap.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 128, smem = 64, regs = 0, strategy = mma_sync>}
  return
}


// -----

// A schedule without a strategy (not from smap-schedule).

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @rowsum(%x: memref<64x128xf32>, %out: memref<64xf32>) {
  %zero = arith.constant 0.0 : f32
  %c16 = arith.constant 16 : index
  // expected-error @below {{smap-distribute-blocks: the blocks need a GPU target (smap.target) and a schedule with a block strategy (smap.schedule, from smap-schedule), got sm_90a and none}}
  scf.forall (%blk) in (4) {
    %off = arith.muli %blk, %c16 : index
    %in = memref.subview %x[%off, 0] [16, 128] [1, 1] : memref<64x128xf32> to memref<16x128xf32, strided<[128, 1], offset: ?>>
    %acc = memref.alloc() : memref<16xf32>
    linalg.fill ins(%zero : f32) outs(%acc : memref<16xf32>)
    linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%in : memref<16x128xf32, strided<[128, 1], offset: ?>>) outs(%acc : memref<16xf32>) {
    ^bb0(%a: f32, %s: f32):
      %r = arith.addf %a, %s : f32
      linalg.yield %r : f32
    }
    %o = memref.subview %out[%off] [16] [1] : memref<64xf32> to memref<16xf32, strided<[1], offset: ?>>
    memref.copy %acc, %o : memref<16xf32> to memref<16xf32, strided<[1], offset: ?>>
  } {mapping = [#gpu.block<x>], smap.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 128, smem = 0, regs = 0>}
  return
}


// -----

// The CPU strategy is not a GPU one.

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @rowsum(%x: memref<64x128xf32>, %out: memref<64xf32>) {
  %zero = arith.constant 0.0 : f32
  %c16 = arith.constant 16 : index
  // expected-error @below {{smap-distribute-blocks: the blocks need a GPU target (smap.target) and a schedule with a block strategy (smap.schedule, from smap-schedule), got sm_90a and loops}}
  scf.forall (%blk) in (4) {
    %off = arith.muli %blk, %c16 : index
    %in = memref.subview %x[%off, 0] [16, 128] [1, 1] : memref<64x128xf32> to memref<16x128xf32, strided<[128, 1], offset: ?>>
    %acc = memref.alloc() : memref<16xf32>
    linalg.fill ins(%zero : f32) outs(%acc : memref<16xf32>)
    linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%in : memref<16x128xf32, strided<[128, 1], offset: ?>>) outs(%acc : memref<16xf32>) {
    ^bb0(%a: f32, %s: f32):
      %r = arith.addf %a, %s : f32
      linalg.yield %r : f32
    }
    %o = memref.subview %out[%off] [16] [1] : memref<64xf32> to memref<16xf32, strided<[1], offset: ?>>
    memref.copy %acc, %o : memref<16xf32> to memref<16xf32, strided<[1], offset: ?>>
  } {mapping = [#gpu.block<x>], smap.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 128, smem = 0, regs = 0, strategy = loops>}
  return
}

// -----

// The schedule fixes the TMA depth: four stages do not fit a 120000-byte target.

#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(m, n) -> (m, n)>
func.func @gemm_four_stages(%arg0: memref<256x256xf16>, %arg1: memref<256x256xf16>, %arg2: memref<256x256xf16>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %cst = arith.constant 0.000000e+00 : f32
  // expected-error @below {{smap-distribute-blocks: the schedule's strategy wgmma_tma cannot be built: the schedule's 4 TMA stages do not fit beside the block's other buffers (3 do)}}
  scf.forall (%blk) in (4) {
    %n0 = arith.remui %blk, %c2 : index
    %n = arith.muli %n0, %c128 : index
    %m0 = arith.divui %blk, %c2 : index
    %m = arith.muli %m0, %c128 : index
    %a = memref.subview %arg0[%m, 0] [128, 256] [1, 1] : memref<256x256xf16> to memref<128x256xf16, strided<[256, 1], offset: ?>>
    %b = memref.subview %arg1[0, %n] [256, 128] [1, 1] : memref<256x256xf16> to memref<256x128xf16, strided<[256, 1], offset: ?>>
    %acc = memref.alloc() {alignment = 64 : i64} : memref<128x128xf32>
    %c = memref.subview %arg2[%m, %n] [128, 128] [1, 1] : memref<256x256xf16> to memref<128x128xf16, strided<[256, 1], offset: ?>>
    linalg.fill ins(%cst : f32) outs(%acc : memref<128x128xf32>)
    scf.for %k = %c0 to %c256 step %c64 {
      %at = memref.subview %a[0, %k] [128, 64] [1, 1] : memref<128x256xf16, strided<[256, 1], offset: ?>> to memref<128x64xf16, strided<[256, 1], offset: ?>>
      %sa = memref.alloc() {alignment = 64 : i64} : memref<128x72xf16>
      %sav = memref.subview %sa[0, 0] [128, 64] [1, 1] : memref<128x72xf16> to memref<128x64xf16, strided<[72, 1]>>
      linalg.copy ins(%at : memref<128x64xf16, strided<[256, 1], offset: ?>>) outs(%sav : memref<128x64xf16, strided<[72, 1]>>)
      %bt = memref.subview %b[%k, 0] [64, 128] [1, 1] : memref<256x128xf16, strided<[256, 1], offset: ?>> to memref<64x128xf16, strided<[256, 1], offset: ?>>
      %sb = memref.alloc() {alignment = 64 : i64} : memref<64x136xf16>
      %sbv = memref.subview %sb[0, 0] [64, 128] [1, 1] : memref<64x136xf16> to memref<64x128xf16, strided<[136, 1]>>
      linalg.copy ins(%bt : memref<64x128xf16, strided<[256, 1], offset: ?>>) outs(%sbv : memref<64x128xf16, strided<[136, 1]>>)
      linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
          ins(%sav, %sbv : memref<128x64xf16, strided<[72, 1]>>, memref<64x128xf16, strided<[136, 1]>>)
          outs(%acc : memref<128x128xf32>) {
      ^bb0(%x: f16, %y: f16, %o: f32):
        %xf = arith.extf %x : f16 to f32
        %yf = arith.extf %y : f16 to f32
        %p = arith.mulf %xf, %yf : f32
        %s = arith.addf %o, %p : f32
        linalg.yield %s : f32
      }
    }
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%acc : memref<128x128xf32>) outs(%c : memref<128x128xf16, strided<[256, 1], offset: ?>>) {
    ^bb0(%x: f32, %o: f16):
      %t = arith.truncf %x : f32 to f16
      linalg.yield %t : f16
    }
  } {mapping = [#gpu.block<x>], smap.target = #smap.target<name = "sm_90a", smem_per_block = 120000, regs_per_thread = 255, regs_per_sm = 65536, sm_count = 132, max_threads = 1024, bandwidth_gbps = 4800, f16_gflops = 989000, f32_gflops = 67000, arch = 90, features = ["mma_sync", "wgmma", "tma", "setmaxnreg", "cp_async", "clusters", "cache_hints"], smem_per_sm = 233472, l2_bytes = 52428800, mma_sync_gflops = 445000>, smap.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 128, smem = 0, regs = 0, strategy = wgmma_tma, stages = 4>}
  return
}


// -----

// The schedule's shared memory is what the block is built with (exact, or
// for simt an upper bound): a block whose buffers take more than it
// predicted is refused, not launched with another occupancy.

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @smem_over_prediction(%x: memref<64x128xf32>, %out: memref<64xf32>) {
  %zero = arith.constant 0.0 : f32
  %c16 = arith.constant 16 : index
  // expected-error @below {{smap-distribute-blocks: the block's buffers take 64 bytes of shared memory, more than the 48 its schedule predicted}}
  scf.forall (%blk) in (4) {
    %off = arith.muli %blk, %c16 : index
    %in = memref.subview %x[%off, 0] [16, 128] [1, 1] : memref<64x128xf32> to memref<16x128xf32, strided<[128, 1], offset: ?>>
    %acc = memref.alloc() : memref<16xf32>
    linalg.fill ins(%zero : f32) outs(%acc : memref<16xf32>)
    linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%in : memref<16x128xf32, strided<[128, 1], offset: ?>>) outs(%acc : memref<16xf32>) {
    ^bb0(%a: f32, %s: f32):
      %r = arith.addf %a, %s : f32
      linalg.yield %r : f32
    }
    %o = memref.subview %out[%off] [16] [1] : memref<64xf32> to memref<16xf32, strided<[1], offset: ?>>
    memref.copy %acc, %o : memref<16xf32> to memref<16xf32, strided<[1], offset: ?>>
  } {mapping = [#gpu.block<x>], smap.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 128, smem = 48, regs = 0, strategy = simt>}
  return
}

// -----

// The cp.async depth is the schedule's: a block asked for stages but
// without a staged tile that moves with a temporal loop is refused.

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @stages_without_moving_tiles(%x: memref<64x128xf32>, %out: memref<64xf32>) {
  %zero = arith.constant 0.0 : f32
  %c16 = arith.constant 16 : index
  // expected-error @below {{smap-distribute-blocks: the schedule asks for 2 cp.async stages of a block without staged tiles that move}}
  scf.forall (%blk) in (4) {
    %off = arith.muli %blk, %c16 : index
    %in = memref.subview %x[%off, 0] [16, 128] [1, 1] : memref<64x128xf32> to memref<16x128xf32, strided<[128, 1], offset: ?>>
    %acc = memref.alloc() : memref<16xf32>
    linalg.fill ins(%zero : f32) outs(%acc : memref<16xf32>)
    linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%in : memref<16x128xf32, strided<[128, 1], offset: ?>>) outs(%acc : memref<16xf32>) {
    ^bb0(%a: f32, %s: f32):
      %r = arith.addf %a, %s : f32
      linalg.yield %r : f32
    }
    %o = memref.subview %out[%off] [16] [1] : memref<64xf32> to memref<16xf32, strided<[1], offset: ?>>
    memref.copy %acc, %o : memref<16xf32> to memref<16xf32, strided<[1], offset: ?>>
  } {mapping = [#gpu.block<x>], smap.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 128, smem = 64, regs = 0, strategy = simt, stages = 2>}
  return
}
