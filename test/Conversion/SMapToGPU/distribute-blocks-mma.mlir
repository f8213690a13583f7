// RUN: spacefusion-opt --smap-distribute-blocks %s | FileCheck %s
// RUN: sed -e 's/strategy = mma_sync\(, stages = 3\)\{0,1\}>/strategy = simt\1>/' %s | spacefusion-opt --smap-distribute-blocks | FileCheck %s --check-prefix=FMA
// RUN: spacefusion-opt --smap-distribute-blocks %s -convert-nvgpu-to-nvvm | FileCheck %s --check-prefix=NVVM

// A block's contraction with f16 operands runs on tensor cores: each warp
// owns 16x32 tiles of the 32x32 output (2 tiles for 2 warps), loads its four
// 16x8 accumulator fragments, and runs one nvgpu.mma.sync m16n8k16 per
// fragment and k step (k = 32: 2 steps) with operands gathered in the
// instruction's per-lane layout; the f32 operand P (computed in the block,
// as attention's probabilities) is rounded to f16.

#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
// CHECK-LABEL: func.func @gemm_nt
// CHECK-SAME:    smap.kernels = [{blocks = 2 : i64, parts = {mma_sync = 1 : i64}, predicted = {{[{][^}]+[}]}}, smem = 0 : i64, strategy = "mma_sync", threads = 64 : i64}]
// CHECK:       gpu.launch
// CHECK:         %[[LANE:.*]] = arith.remui %[[TX:.*]], %c32
// CHECK:         %[[WARP:.*]] = arith.divui %[[TX]], %c32
// CHECK:         scf.for %[[TILE:.*]] = %[[WARP]] to %c2{{.*}} step %c2{{.*}} {
// CHECK-COUNT-4:   memref.load %{{.*}} : memref<32x32xf32, strided<[32, 1], offset: ?>>
// CHECK-NEXT:      %[[C0:.*]] = vector.from_elements {{.*}} : vector<2x2xf32>
// CHECK-COUNT-12:  memref.load %{{.*}} : memref<32x32xf32, strided<[32, 1], offset: ?>>
// Two k-steps of 16, straight-line: the second accumulates onto the first.
// CHECK-NOT:         scf.for
// CHECK:             arith.truncf %{{.*}} : f32 to f16
// CHECK:             %[[A:.*]] = vector.from_elements {{.*}} : vector<4x2xf16>
// CHECK:             %[[B:.*]] = vector.from_elements {{.*}} : vector<2x2xf16>
// CHECK:             %[[D:.*]] = nvgpu.mma.sync(%[[A]], %[[B]], %[[C0]]) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK-COUNT-3:     nvgpu.mma.sync
// CHECK:             nvgpu.mma.sync(%{{.*}}, %{{.*}}, %[[D]])
// CHECK-COUNT-3:     nvgpu.mma.sync
// CHECK-COUNT-16:  memref.store %{{.*}} : memref<32x32xf32, strided<[32, 1], offset: ?>>
// CHECK:         gpu.barrier

// FMA:         smap.kernels = [{blocks = 2 : i64, parts = {fma = 1 : i64, fma_lanes = 16 : i64}, predicted = {{[{][^}]+[}]}}, smem = 0 : i64, strategy = "simt", threads = 64 : i64}]
// FMA-NOT:     nvgpu.mma.sync
// On CUDA cores each of the 64 threads accumulates a 4 x 4 micro-tile of
// the 32 x 32 output (rows 8 apart, columns 8 apart) in registers: per k
// step 4 loads of A's rows and 4 of B's columns feed 16 FMAs.
// FMA:         scf.for %[[T:.*]] = %{{.*}} to %c64{{.*}} step %c64
// FMA:           %[[COL:.*]] = arith.remui %[[T]], %c8
// FMA:           %[[ROW:.*]] = arith.divui %[[T]], %c8
// FMA-COUNT-16:  memref.load %{{.*}} : memref<32x32xf32, strided<[32, 1], offset: ?>>
// FMA:           scf.for %[[K:.*]] = %{{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
// FMA-NEXT:        memref.load %{{.*}}[%[[ROW]], %[[K]]] : memref<32x32xf32, strided<[32, 1], offset: ?>>
// FMA-NEXT:        memref.load %{{.*}}[%[[COL]], %[[K]]] : memref<32x32xf16>
// FMA-COUNT-3:     memref.load %{{.*}}[%{{.*}}, %[[K]]] : memref<32x32xf16>
// FMA-COUNT-3:     memref.load %{{.*}}[%{{.*}}, %[[K]]] : memref<32x32xf32, strided<[32, 1], offset: ?>>
// FMA-NOT:         memref.load
// FMA:             scf.yield
// FMA-COUNT-16:  memref.store %{{.*}} : memref<32x32xf32, strided<[32, 1], offset: ?>>
// NVVM:        nvvm.mma.sync {{.*}} {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>}
func.func @gemm_nt(%p: memref<64x32xf32>, %v: memref<32x32xf16>, %out: memref<64x32xf32>) {
  %c32 = arith.constant 32 : index
  scf.forall (%blk) in (2) {
    %off = arith.muli %blk, %c32 : index
    %a = memref.subview %p[%off, 0] [32, 32] [1, 1] : memref<64x32xf32> to memref<32x32xf32, strided<[32, 1], offset: ?>>
    %c = memref.subview %out[%off, 0] [32, 32] [1, 1] : memref<64x32xf32> to memref<32x32xf32, strided<[32, 1], offset: ?>>
    linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%a, %v : memref<32x32xf32, strided<[32, 1], offset: ?>>, memref<32x32xf16>)
        outs(%c : memref<32x32xf32, strided<[32, 1], offset: ?>>) {
    ^bb0(%x: f32, %y: f16, %acc: f32):
      %yf = arith.extf %y : f16 to f32
      %prod = arith.mulf %x, %yf : f32
      %sum = arith.addf %acc, %prod : f32
      linalg.yield %sum : f32
    }
  } {mapping = [#gpu.block<x>], smap.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 64, smem = 0, regs = 0, strategy = mma_sync>}
  return
}

// -----

// A GEMM's k loop as the GPU path bufferizes it: stage the A and B tiles of
// the step, accumulate into the block's running sum. The accumulators stay
// in registers across the loop (loaded before it, stored after it).
//
// By default the staged tiles arrive by a cp.async pipeline: three copies of
// each tile buffer (the view of step i's is at stage i % 3), the first two
// steps' groups issued before the loop; each step waits for its own group,
// synchronizes once, and issues the group two steps ahead into the stage
// the previous step read.

// RUN: spacefusion-opt --smap-distribute-blocks %s -split-input-file | FileCheck %s --check-prefix=ASYNC
// ASYNC-LABEL: func.func @gemm_k_loop
// ASYNC-SAME:    smap.kernels = [{blocks = 2 : i64, parts = {cp_async = 3 : i64, ldmatrix = 2 : i64, mma_sync = 1 : i64, prefetch = 1 : i64, register_acc = 1 : i64}, predicted = {{[{][^}]+[}]}}, smem = 12544 : i64, strategy = "mma_sync", threads = 64 : i64}]
// ASYNC:         gpu.launch
// ASYNC:         arith.remui %{{.*}}, %c3 : index
// ASYNC:         %[[A0:.*]] = nvgpu.device_async_copy %{{.*}}, 8 {bypassL1} : memref<32x16xf16, strided<[64, 1], offset: ?>> to memref<32x16xf16, strided<[24, 1]>, #gpu.address_space<workgroup>>
// ASYNC:         %[[B0:.*]] = nvgpu.device_async_copy %{{.*}}, 8 {bypassL1} : memref<16x32xf16, strided<[32, 1], offset: ?>> to memref<16x32xf16, strided<[40, 1]>, #gpu.address_space<workgroup>>
// ASYNC-NEXT:    nvgpu.device_async_create_group %[[A0]], %[[B0]]
// ASYNC:         nvgpu.device_async_copy
// ASYNC:         nvgpu.device_async_copy
// ASYNC:         %[[G1:.*]] = nvgpu.device_async_create_group
// ASYNC:         scf.for
// ASYNC:           nvgpu.device_async_wait %[[G1]] {numGroups = 1 : i32}
// ASYNC-NEXT:      gpu.barrier
// ASYNC:           nvgpu.device_async_copy
// ASYNC:           nvgpu.device_async_copy
// ASYNC:           nvgpu.device_async_create_group
// ASYNC:           nvgpu.ldmatrix
// ASYNC:           nvgpu.mma.sync
// ASYNC-NOT:       gpu.barrier
// ASYNC:           scf.yield
// ASYNC:         memref.store %{{.*}} : memref<32x32xf32>
// ASYNC:         nvgpu.device_async_wait %[[G1]] {numGroups = 0 : i32}

// With one stage in the schedule, the tiles of step 0 are staged before the loop, and
// each step loads the next step's tiles into registers first and stores
// them after its mma.sync.
// RUN: sed -e 's/smem = 12544, regs = 0, strategy = mma_sync, stages = 3>/smem = 6912, regs = 0, strategy = mma_sync>/' %s \
// RUN:   | spacefusion-opt --smap-distribute-blocks -split-input-file | FileCheck %s --check-prefix=LOOP
// LOOP-LABEL: func.func @gemm_k_loop
// LOOP-SAME:    smap.kernels = [{blocks = 2 : i64, parts = {ldmatrix = 2 : i64, mma_sync = 1 : i64, prefetch = 1 : i64, register_acc = 1 : i64}, predicted = {{[{][^}]+[}]}}, smem = 6912 : i64, strategy = "mma_sync", threads = 64 : i64}]
// LOOP:         gpu.launch
// Step 0's tiles, 16-byte chunks, each thread's loads before its stores.
// LOOP:         vector.load %{{.*}} : memref<32x16xf16, strided<[64, 1], offset: ?>>, vector<8xf16>
// LOOP-NEXT:    vector.store %{{.*}} : memref<32x16xf16, strided<[24, 1]>>, vector<8xf16>
// LOOP-NEXT:    vector.load %{{.*}} : memref<16x32xf16, strided<[32, 1], offset: ?>>, vector<8xf16>
// LOOP-NEXT:    vector.store %{{.*}} : memref<16x32xf16, strided<[40, 1]>>, vector<8xf16>
// LOOP-NEXT:    gpu.barrier
// The running sum: four accumulator fragments per thread, before the loop.
// LOOP-COUNT-4: vector.from_elements {{.*}} : vector<2x2xf32>
// LOOP:         %[[RES:.*]]:4 = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[C0:.*]] = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>)
// The next step's tiles, clamped to the last step.
// LOOP:           %[[NA:.*]] = vector.load %{{.*}} : memref<32x16xf16, strided<[64, 1], offset: ?>>, vector<8xf16>
// LOOP:           %[[NB:.*]] = vector.load %{{.*}} : memref<16x32xf16, strided<[32, 1], offset: ?>>, vector<8xf16>
// LOOP:           nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = false}
// LOOP:           nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = true}
// LOOP:           nvgpu.mma.sync
// LOOP:           gpu.barrier
// LOOP-NEXT:      vector.store %[[NA]]
// LOOP-NEXT:      vector.store %[[NB]]
// LOOP-NEXT:      gpu.barrier
// LOOP:           scf.yield
// After the loop, the fragments go to the running sum once.
// LOOP-COUNT-16: memref.store %{{.*}} : memref<32x32xf32>
// LOOP:         gpu.barrier
#mk2 = affine_map<(m, n, k) -> (m, k)>
#kn2 = affine_map<(m, n, k) -> (k, n)>
#mn2 = affine_map<(m, n, k) -> (m, n)>
#id2 = affine_map<(m, n) -> (m, n)>
func.func @gemm_k_loop(%a: memref<64x64xf16>, %b: memref<64x32xf16>, %out: memref<64x32xf16>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  scf.forall (%blk) in (2) {
    %off = arith.muli %blk, %c32 : index
    %arows = memref.subview %a[%off, 0] [32, 64] [1, 1] : memref<64x64xf16> to memref<32x64xf16, strided<[64, 1], offset: ?>>
    %acc = memref.alloc() : memref<32x32xf32>
    linalg.fill ins(%zero : f32) outs(%acc : memref<32x32xf32>)
    scf.for %k = %c0 to %c64 step %c16 {
      %at = memref.subview %arows[0, %k] [32, 16] [1, 1] : memref<32x64xf16, strided<[64, 1], offset: ?>> to memref<32x16xf16, strided<[64, 1], offset: ?>>
      %abuf = memref.alloc() : memref<32x24xf16>
      %as = memref.subview %abuf[0, 0] [32, 16] [1, 1] : memref<32x24xf16> to memref<32x16xf16, strided<[24, 1]>>
      linalg.copy ins(%at : memref<32x16xf16, strided<[64, 1], offset: ?>>) outs(%as : memref<32x16xf16, strided<[24, 1]>>)
      %bt = memref.subview %b[%k, 0] [16, 32] [1, 1] : memref<64x32xf16> to memref<16x32xf16, strided<[32, 1], offset: ?>>
      %bbuf = memref.alloc() : memref<16x40xf16>
      %bs = memref.subview %bbuf[0, 0] [16, 32] [1, 1] : memref<16x40xf16> to memref<16x32xf16, strided<[40, 1]>>
      linalg.copy ins(%bt : memref<16x32xf16, strided<[32, 1], offset: ?>>) outs(%bs : memref<16x32xf16, strided<[40, 1]>>)
      linalg.generic {indexing_maps = [#mk2, #kn2, #mn2], iterator_types = ["parallel", "parallel", "reduction"]}
          ins(%as, %bs : memref<32x16xf16, strided<[24, 1]>>, memref<16x32xf16, strided<[40, 1]>>)
          outs(%acc : memref<32x32xf32>) {
      ^bb0(%x: f16, %y: f16, %s: f32):
        %xf = arith.extf %x : f16 to f32
        %yf = arith.extf %y : f16 to f32
        %p = arith.mulf %xf, %yf : f32
        %r = arith.addf %s, %p : f32
        linalg.yield %r : f32
      }
    }
    %o = memref.subview %out[%off, 0] [32, 32] [1, 1] : memref<64x32xf16> to memref<32x32xf16, strided<[32, 1], offset: ?>>
    linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%acc : memref<32x32xf32>) outs(%o : memref<32x32xf16, strided<[32, 1], offset: ?>>) {
    ^bb0(%x: f32, %y: f16):
      %t = arith.truncf %x : f32 to f16
      linalg.yield %t : f16
    }
  } {mapping = [#gpu.block<x>], smap.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 64, smem = 12544, regs = 0, strategy = mma_sync, stages = 3>}
  return
}

// -----

// An f32 operand staged rounded to f16 (convert-smap-to-scf does so for the
// operands tensor cores round anyway): the rounding copy is prefetched
// through registers (cp.async cannot convert), 16 bytes of f32 loaded and
// 8 bytes of f16 stored per chunk; no cp.async pipeline for this loop.

// RUN: spacefusion-opt --smap-distribute-blocks %s -split-input-file | FileCheck %s --check-prefix=ROUND
// ROUND-LABEL: func.func @gemm_rounded_operand
// ROUND-SAME:    smap.kernels = [{blocks = 2 : i64, parts = {ldmatrix = 2 : i64, mma_sync = 1 : i64, prefetch = 1 : i64, register_acc = 1 : i64}, predicted = {{[{][^}]+[}]}}, smem = {{[0-9]+}} : i64, strategy = "mma_sync", threads = 64 : i64}]
// The first step's tile, before the loop.
// ROUND:         %[[X0:.*]] = vector.load %{{.*}} {alignment = 16 : i64} : memref<32x16xf32, strided<[64, 1], offset: ?>>, vector<4xf32>
// ROUND-NEXT:    %[[H0:.*]] = arith.truncf %[[X0]] : vector<4xf32> to vector<4xf16>
// ROUND:         vector.store %[[H0]], %{{.*}} {alignment = 8 : i64} : memref<32x16xf16, strided<[24, 1]>>, vector<4xf16>
// ROUND:         gpu.barrier
// ROUND:         scf.for
// ROUND:           %[[X:.*]] = vector.load %{{.*}} {alignment = 16 : i64} : memref<32x16xf32, strided<[64, 1], offset: ?>>, vector<4xf32>
// ROUND-NEXT:      %[[H:.*]] = arith.truncf %[[X]] : vector<4xf32> to vector<4xf16>
// ROUND:           nvgpu.mma.sync
// ROUND:           vector.store %[[H]], %{{.*}} {alignment = 8 : i64} : memref<32x16xf16, strided<[24, 1]>>, vector<4xf16>
// ROUND-NOT:     nvgpu.device_async_copy
#mk3 = affine_map<(m, n, k) -> (m, k)>
#kn3 = affine_map<(m, n, k) -> (k, n)>
#mn3 = affine_map<(m, n, k) -> (m, n)>
#id3 = affine_map<(m, n) -> (m, n)>
func.func @gemm_rounded_operand(%a: memref<64x64xf32>, %b: memref<64x32xf16>, %out: memref<64x32xf32>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  scf.forall (%blk) in (2) {
    %off = arith.muli %blk, %c32 : index
    %arows = memref.subview %a[%off, 0] [32, 64] [1, 1] : memref<64x64xf32> to memref<32x64xf32, strided<[64, 1], offset: ?>>
    %acc = memref.alloc() : memref<32x32xf32>
    linalg.fill ins(%zero : f32) outs(%acc : memref<32x32xf32>)
    scf.for %k = %c0 to %c64 step %c16 {
      %at = memref.subview %arows[0, %k] [32, 16] [1, 1] : memref<32x64xf32, strided<[64, 1], offset: ?>> to memref<32x16xf32, strided<[64, 1], offset: ?>>
      %abuf = memref.alloc() : memref<32x24xf16>
      %as = memref.subview %abuf[0, 0] [32, 16] [1, 1] : memref<32x24xf16> to memref<32x16xf16, strided<[24, 1]>>
      linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel"]}
          ins(%at : memref<32x16xf32, strided<[64, 1], offset: ?>>) outs(%as : memref<32x16xf16, strided<[24, 1]>>) {
      ^bb0(%x: f32, %o: f16):
        %h = arith.truncf %x : f32 to f16
        linalg.yield %h : f16
      }
      %bt = memref.subview %b[%k, 0] [16, 32] [1, 1] : memref<64x32xf16> to memref<16x32xf16, strided<[32, 1], offset: ?>>
      %bbuf = memref.alloc() : memref<16x40xf16>
      %bs = memref.subview %bbuf[0, 0] [16, 32] [1, 1] : memref<16x40xf16> to memref<16x32xf16, strided<[40, 1]>>
      linalg.copy ins(%bt : memref<16x32xf16, strided<[32, 1], offset: ?>>) outs(%bs : memref<16x32xf16, strided<[40, 1]>>)
      linalg.generic {indexing_maps = [#mk3, #kn3, #mn3], iterator_types = ["parallel", "parallel", "reduction"]}
          ins(%as, %bs : memref<32x16xf16, strided<[24, 1]>>, memref<16x32xf16, strided<[40, 1]>>)
          outs(%acc : memref<32x32xf32>) {
      ^bb0(%x: f16, %y: f16, %s: f32):
        %xf = arith.extf %x : f16 to f32
        %yf = arith.extf %y : f16 to f32
        %p = arith.mulf %xf, %yf : f32
        %r = arith.addf %s, %p : f32
        linalg.yield %r : f32
      }
    }
    %o = memref.subview %out[%off, 0] [32, 32] [1, 1] : memref<64x32xf32> to memref<32x32xf32, strided<[32, 1], offset: ?>>
    memref.copy %acc, %o : memref<32x32xf32> to memref<32x32xf32, strided<[32, 1], offset: ?>>
  } {mapping = [#gpu.block<x>], smap.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 64, smem = 6912, regs = 0, strategy = mma_sync>}
  return
}
