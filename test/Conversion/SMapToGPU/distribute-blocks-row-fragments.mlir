// RUN: spacefusion-opt --split-input-file --smap-distribute-blocks %s | FileCheck %s
// RUN: spacefusion-opt --split-input-file --smap-distribute-blocks %s \
// RUN:   --remarks-filter=smap --remark-format=emitRemark 2>&1 >/dev/null \
// RUN:   | FileCheck %s --check-prefix=REMARK
// RUN: sed -e 's/threads = 32, smem = 6144, regs = 0, strategy = row_fragments, stages = 3>/threads = 64, smem = 232448, regs = 0, strategy = mma_sync>/' %s \
// RUN:   | spacefusion-opt --split-input-file --smap-distribute-blocks \
// RUN:   | FileCheck %s --check-prefix=SMEM
// RUN: sed -e 's/threads = 32, smem = 6144, regs = 0, strategy = row_fragments, stages = 3>/threads = 64, smem = 3072, regs = 0, strategy = row_fragments, stages = 1>/' %s \
// RUN:   | spacefusion-opt --split-input-file --smap-distribute-blocks \
// RUN:   | FileCheck %s --check-prefix=ONESLAB
// RUN: sed -e 's/threads = 32, smem = 6144, regs = 0, strategy = row_fragments, stages = 3>/threads = 64, smem = 6144, regs = 0, strategy = row_fragments, stages = 3>/' %s \
// RUN:   | not spacefusion-opt --split-input-file --smap-distribute-blocks 2>&1 \
// RUN:   | FileCheck %s --check-prefix=UNEVEN

// One block of online-softmax attention as convert-smap-to-scf and
// bufferization leave it: 32 query rows, a temporal loop over two 16-key
// steps, the running max / sum / accumulator in block buffers. Every
// intermediate is indexed by the block's rows, so they live in registers in
// the mma.sync accumulator layout: one warp owns the 32 rows (two 16-row
// slabs), the row max and sum are quad shuffles, and the probabilities are
// the A operand of the second contraction straight from registers.

#q = affine_map<(m, l, k) -> (m, k)>
#k = affine_map<(m, l, k) -> (l, k)>
#s = affine_map<(m, l, k) -> (m, l)>
#id = affine_map<(m, l) -> (m, l)>
#row = affine_map<(m, l) -> (m)>
#vec = affine_map<(m) -> (m)>
#pvp = affine_map<(m, n, l) -> (m, l)>
#pvv = affine_map<(m, n, l) -> (l, n)>
#pvo = affine_map<(m, n, l) -> (m, n)>

// The schedule's threads fix the slabs: on 64 threads each of the two warps
// holds one 16-row slab. Its 16x16 K and V tiles are 32 16-byte chunks,
// which 64 threads do not split evenly: cp.async stages cannot be built
// (the cost model gives such a block none), and the copy ahead through
// registers moves them in 8-byte chunks, one per thread.
// ONESLAB-LABEL: func.func @attention_block
// ONESLAB-SAME: smap.kernels = [{blocks = 2 : i64, parts = {ldmatrix = 3 : i64, mma_sync = 2 : i64, prefetch = 1 : i64, register_tiles = 6 : i64, warp_rows = 16 : i64}, predicted = {{[{][^}]+[}]}}, smem = 3072 : i64, strategy = "row_fragments", threads = 64 : i64}]
// ONESLAB: gpu.launch
// ONESLAB-SAME: threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c64
// ONESLAB: vector.load %{{.*}} {alignment = 8 : i64} : memref<16x16xf16, strided<[16, 1], offset: ?>>, vector<4xf16>
// ONESLAB: scf.for
// ONESLAB: %[[NEXT:.*]] = vector.load %{{.*}} {alignment = 8 : i64} : memref<16x16xf16, strided<[16, 1], offset: ?>>, vector<4xf16>
// ONESLAB: vector.store %[[NEXT]], %{{.*}} {alignment = 8 : i64} : memref<16x16xf16, strided<[24, 1]>>, vector<4xf16>
// UNEVEN: error: smap-distribute-blocks: the schedule's 3 cp.async stages cannot be built: the staged tiles that move with the temporal loop are not copied in 16-byte chunks that its threads split evenly

// CHECK-LABEL: func.func @attention_block
// CHECK-SAME: smap.kernels = [{blocks = 2 : i64, parts = {cp_async = 3 : i64, ldmatrix = 3 : i64, mma_sync = 2 : i64, prefetch = 1 : i64, register_tiles = 6 : i64, warp_rows = 32 : i64}, predicted = {{[{][^}]+[}]}}, smem = 6144 : i64, strategy = "row_fragments", threads = 32 : i64}]
// CHECK: gpu.launch
// CHECK-SAME: threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c32
// CHECK-NOT: memref.alloc
// The loop carries the running sum, max and accumulator in registers.
// CHECK: %[[STATE:.*]]:24 = scf.for %{{.*}} = %c0 to %c32 step %c16 iter_args(
// CHECK-SAME: -> (f32, f32, f32, f32,
// The step's K and V tiles are there (cp.async, one barrier); the next but
// one step's are requested.
// CHECK: nvgpu.device_async_wait %{{.*}} {numGroups = 1 : i32}
// CHECK-NEXT: gpu.barrier
// CHECK: nvgpu.device_async_create_group
// Scores: Q from shared memory, K from shared memory.
// CHECK: nvgpu.ldmatrix
// CHECK: nvgpu.mma.sync
// Row max: the lane's values, then the four lanes of each row.
// CHECK: arith.maximumf
// CHECK: gpu.shuffle  xor %{{.*}}, %c1_i32, %c32_i32
// CHECK: gpu.shuffle  xor %{{.*}}, %c2_i32, %c32_i32
// exp(s - m) is exp2(fma(s, log2 e, -m log2 e)) on the hardware ex2.
// CHECK: %[[SHIFT:.*]] = arith.negf
// CHECK: %[[ARG:.*]] = math.fma %{{.*}}, %{{.*}}, %[[SHIFT]] : f32
// CHECK: math.exp2 %[[ARG]] fastmath<afn> : f32
// CHECK: gpu.shuffle  xor
// Probabilities rounded to f16 become the A fragment of P V.
// CHECK: %[[H:.*]] = arith.truncf %{{.*}} : f32 to f16
// CHECK: %[[A:.*]] = vector.from_elements %[[H]], {{.*}} : vector<4x2xf16>
// CHECK: nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = true}
// CHECK: nvgpu.mma.sync(%[[A]], %{{.*}}, %{{.*}}) {mmaShape = [16, 8, 16]}
// No block barrier between the ops of a step.
// CHECK-NOT: gpu.barrier
// CHECK: scf.yield
// After the loop: out = acc / sum, from registers to global memory, the
// two neighbouring columns a lane holds as one 4-byte store.
// CHECK: %[[D0:.*]] = arith.divf %[[STATE]]#{{[0-9]+}}
// CHECK: %[[H0:.*]] = arith.truncf %[[D0]] : f32 to f16
// CHECK: %[[D1:.*]] = arith.divf %[[STATE]]#{{[0-9]+}}
// CHECK: %[[H1:.*]] = arith.truncf %[[D1]] : f32 to f16
// CHECK: %[[PAIR:.*]] = vector.from_elements %[[H0]], %[[H1]] : vector<2xf16>
// CHECK: vector.store %[[PAIR]], %{{.*}} {alignment = 4 : i64} : memref<32x16xf16, strided<[16, 1], offset: ?>>, vector<2xf16>
// CHECK: gpu.terminator

// REMARK: remark: [Passed] block-kernel | Category:smap:distribute-blocks | Function=attention_block | Remark="lowered to one kernel: strategy=row_fragments blocks=2 threads=32 smem=6144 {{.*}} warp_rows=32

// As mma_sync, the row tiles are shared-memory buffers.
// SMEM-LABEL: func.func @attention_block
// SMEM-SAME: smap.kernels = [{blocks = 2 : i64{{.*}}strategy = "mma_sync", threads = 64 : i64
// SMEM-NOT: gpu.shuffle
// SMEM-NOT: warp_rows
func.func @attention_block(%q: memref<64x16xf16>, %k: memref<32x16xf16>,
                           %v: memref<32x16xf16>, %out: memref<64x16xf16>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
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
  } {mapping = [#gpu.block<x>], smap.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 32, smem = 6144, regs = 0, strategy = row_fragments, stages = 3>}
  return
}

// -----

// A single contraction has nothing to fuse: it keeps the warp-tiled
// lowering (register accumulators across its loop).

#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>

// CHECK-LABEL: func.func @gemm_block
// CHECK-NOT: warp_rows
func.func @gemm_block(%x: memref<32x32xf16>, %y: memref<32x32xf16>, %z: memref<32x32xf32>) {
  %zero = arith.constant 0.0 : f32
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
  } {mapping = [#gpu.block<x>], smap.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 128, smem = 9216, regs = 0, strategy = mma_sync>}
  return
}
