// RUN: spacefusion-opt --smap-distribute-blocks %s | FileCheck %s
// RUN: sed -e 's/threads = 128, smem = 99328, regs = 0, strategy = wgmma_tma, stages = 3>/threads = 384, smem = 99328, regs = 0, strategy = wgmma_tma_ws, stages = 3>/' %s | spacefusion-opt --smap-distribute-blocks | FileCheck %s --check-prefix=WS

// A GEMM block whose B is read [n, k] (C = A . B^T, a linear layer's
// weight as PyTorch stores it; 256x256x256, blocks of 128x128, k sliced by
// 64). B is staged as A is: one TMA box of 128 rows by one 128-byte
// swizzle row. Upstream's nvgpu.warpgroup.mma steps a B descriptor along k
// for an N-major B only, so each 16-deep slice of a stage is an op of its
// own on 64 rows (one warpgroup owns 128 rows: two accumulators), its
// descriptors generated 32 bytes further along the swizzle rows, with B not
// transposed. Every op commits a group: the step's last one waits until
// only the step's 8 groups are pending (the previous step's are complete),
// the others wait for nothing (9..15 is more than can be pending).

#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(m, n) -> (m, n)>
// CHECK-LABEL: func.func @linear
// CHECK-SAME:    smap.kernels = [{blocks = 4 : i64, parts = {stages = 3 : i64, tile_k = 64 : i64, tile_m = 128 : i64, tile_n = 128 : i64}, predicted = {{[{][^}]+[}]}}, smem = 99328 : i64, strategy = "wgmma_tma", threads = 128 : i64}]
// CHECK:       %[[DA:.*]] = nvgpu.tma.create.descriptor %{{.*}} box[%c128{{.*}}, %c64{{.*}}] : memref<*xf16> -> <tensor = memref<128x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b
// CHECK:       %[[DB:.*]] = nvgpu.tma.create.descriptor %{{.*}} box[%c128{{.*}}, %c64{{.*}}] : memref<*xf16> -> <tensor = memref<128x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b
// CHECK:       gpu.launch
// One box per operand and stage: A at the stage's start, B 16 KiB after it.
// CHECK:         scf.if
// CHECK:           nvgpu.mbarrier.arrive.expect_tx %{{.*}}, %c32768
// CHECK:           nvgpu.tma.async.load %[[DA]]
// CHECK:           %[[BAT:.*]] = arith.addi %{{.*}}, %c16384{{.*}} : index
// CHECK:           %[[BV:.*]] = memref.view %{{.*}}[%[[BAT]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<128x64xf16, #gpu.address_space<workgroup>>
// CHECK:           nvgpu.tma.async.load %[[DB]][%{{.*}}, %{{.*}}], %{{.*}} to %[[BV]]
// CHECK-NOT:       nvgpu.tma.async.load
// CHECK:         scf.if
// CHECK:         %[[Z0:.*]] = nvgpu.warpgroup.mma.init.accumulator -> <fragmented = vector<64x128xf32>>
// CHECK:         %[[Z1:.*]] = nvgpu.warpgroup.mma.init.accumulator -> <fragmented = vector<64x128xf32>>
// CHECK:         %[[ACC:.*]]:2 = scf.for %{{.*}} = %c0{{.*}} to %c4{{.*}} step %c1{{.*}} iter_args(%[[C0:.*]] = %[[Z0]], %[[C1:.*]] = %[[Z1]])
// CHECK:           nvgpu.mbarrier.try_wait.parity
// Slice 0: B at the tile's start, rows 0 and 64 of A (8 KiB apart).
// CHECK:           %[[GB0:.*]] = nvgpu.warpgroup.generate.descriptor %{{.*}}, %[[DB]] : memref<16x128xf16, #gpu.address_space<workgroup>>
// CHECK:           %[[GA0:.*]] = nvgpu.warpgroup.generate.descriptor %{{.*}}, %[[DA]] : memref<64x16xf16, #gpu.address_space<workgroup>>
// CHECK:           %[[D0:.*]] = nvgpu.warpgroup.mma %[[GA0]], %[[GB0]], %[[C0]] {waitGroup = 9 : i64} : <tensor = memref<64x16xf16, #gpu.address_space<workgroup>>>, <tensor = memref<16x128xf16, #gpu.address_space<workgroup>>>, <fragmented = vector<64x128xf32>> -> <fragmented = vector<64x128xf32>>
// CHECK:           arith.addi %{{.*}}, %c8192{{.*}} : index
// CHECK:           %[[D1:.*]] = nvgpu.warpgroup.mma %{{.*}}, %[[GB0]], %[[C1]] {waitGroup = 10 : i64}
// Slice 1, 32 bytes along the rows.
// CHECK:           arith.addi %{{.*}}, %c32{{.*}} : index
// CHECK:           nvgpu.warpgroup.mma %{{.*}}, %{{.*}}, %[[D0]] {waitGroup = 11 : i64}
// CHECK:           arith.addi %{{.*}}, %c8224{{.*}} : index
// CHECK:           nvgpu.warpgroup.mma %{{.*}}, %{{.*}}, %[[D1]] {waitGroup = 12 : i64}
// CHECK:           nvgpu.warpgroup.mma {{.*}} {waitGroup = 13 : i64}
// CHECK:           nvgpu.warpgroup.mma {{.*}} {waitGroup = 14 : i64}
// CHECK:           nvgpu.warpgroup.mma {{.*}} {waitGroup = 15 : i64}
// CHECK:           %[[L1:.*]] = nvgpu.warpgroup.mma %{{.*}}, %{{.*}}, %{{.*}} {waitGroup = 8 : i64}
// CHECK-NOT:       transposeB
// CHECK:           gpu.barrier
// CHECK:           scf.yield %{{.*}}, %[[L1]]
// The two 64-row accumulators go to their rows of the tile over the stages.
// CHECK:         nvvm.wgmma.wait.group.sync.aligned 0
// CHECK:         gpu.barrier
// CHECK:         %[[P0:.*]] = memref.view %{{.*}} : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x128xf32, #gpu.address_space<workgroup>>
// CHECK:         nvgpu.warpgroup.mma.store %[[ACC]]#0, %[[P0]]
// CHECK:         %[[AT1:.*]] = arith.addi %{{.*}}, %c32768{{.*}} : index
// CHECK:         %[[P1:.*]] = memref.view %{{.*}}[%[[AT1]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x128xf32, #gpu.address_space<workgroup>>
// CHECK:         nvgpu.warpgroup.mma.store %[[ACC]]#1, %[[P1]]
// CHECK:         gpu.barrier
// CHECK:         arith.truncf
// CHECK-NOT:     nvgpu.mma.sync

// Warp-specialized: each consumer warpgroup has 64 rows, one accumulator,
// four ops a step (the last waiting until 4 groups are pending).
// WS:            smap.kernels = [{blocks = 4 : i64, parts = {consumers = 2 : i64, {{.*}}strategy = "wgmma_tma_ws", threads = 384 : i64}]
// WS:            %[[ACC:.*]] = scf.for
// WS:              nvgpu.warpgroup.mma {{.*}} {waitGroup = 5 : i64} : <tensor = memref<64x16xf16, #gpu.address_space<workgroup>>>, <tensor = memref<16x128xf16, #gpu.address_space<workgroup>>>
// WS:              nvgpu.warpgroup.mma {{.*}} {waitGroup = 6 : i64}
// WS:              nvgpu.warpgroup.mma {{.*}} {waitGroup = 7 : i64}
// WS:              nvgpu.warpgroup.mma {{.*}} {waitGroup = 4 : i64}
// WS-NOT:          nvgpu.warpgroup.mma
// WS:              nvgpu.mbarrier.arrive
// WS:            nvgpu.warpgroup.mma.store %[[ACC]], %{{.*}} : <fragmented = vector<64x128xf32>> to memref<64x128xf32, #gpu.address_space<workgroup>>
func.func @linear(%arg0: memref<256x256xf16>, %arg1: memref<256x256xf16>, %arg2: memref<256x256xf16>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %cst = arith.constant 0.000000e+00 : f32
  scf.forall (%blk) in (4) {
    %n0 = arith.remui %blk, %c2 : index
    %n = arith.muli %n0, %c128 : index
    %m0 = arith.divui %blk, %c2 : index
    %m = arith.muli %m0, %c128 : index
    %a = memref.subview %arg0[%m, 0] [128, 256] [1, 1] : memref<256x256xf16> to memref<128x256xf16, strided<[256, 1], offset: ?>>
    %b = memref.subview %arg1[%n, 0] [128, 256] [1, 1] : memref<256x256xf16> to memref<128x256xf16, strided<[256, 1], offset: ?>>
    %acc = memref.alloc() {alignment = 64 : i64} : memref<128x128xf32>
    %c = memref.subview %arg2[%m, %n] [128, 128] [1, 1] : memref<256x256xf16> to memref<128x128xf16, strided<[256, 1], offset: ?>>
    linalg.fill ins(%cst : f32) outs(%acc : memref<128x128xf32>)
    scf.for %k = %c0 to %c256 step %c64 {
      %at = memref.subview %a[0, %k] [128, 64] [1, 1] : memref<128x256xf16, strided<[256, 1], offset: ?>> to memref<128x64xf16, strided<[256, 1], offset: ?>>
      %sa = memref.alloc() {alignment = 64 : i64} : memref<128x72xf16>
      %sav = memref.subview %sa[0, 0] [128, 64] [1, 1] : memref<128x72xf16> to memref<128x64xf16, strided<[72, 1]>>
      linalg.copy ins(%at : memref<128x64xf16, strided<[256, 1], offset: ?>>) outs(%sav : memref<128x64xf16, strided<[72, 1]>>)
      %bt = memref.subview %b[0, %k] [128, 64] [1, 1] : memref<128x256xf16, strided<[256, 1], offset: ?>> to memref<128x64xf16, strided<[256, 1], offset: ?>>
      %sb = memref.alloc() {alignment = 64 : i64} : memref<128x72xf16>
      %sbv = memref.subview %sb[0, 0] [128, 64] [1, 1] : memref<128x72xf16> to memref<128x64xf16, strided<[72, 1]>>
      linalg.copy ins(%bt : memref<128x64xf16, strided<[256, 1], offset: ?>>) outs(%sbv : memref<128x64xf16, strided<[72, 1]>>)
      linalg.generic {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
          ins(%sav, %sbv : memref<128x64xf16, strided<[72, 1]>>, memref<128x64xf16, strided<[72, 1]>>)
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
  } {mapping = [#gpu.block<x>], smap.target = #smap.target<name = "sm_90a", smem_per_block = 232448, regs_per_thread = 255, regs_per_sm = 65536, sm_count = 132, max_threads = 1024, bandwidth_gbps = 4800, f16_gflops = 989000, f32_gflops = 67000, arch = 90, features = ["mma_sync", "wgmma", "tma", "setmaxnreg", "cp_async", "clusters", "cache_hints"], smem_per_sm = 233472, l2_bytes = 52428800, mma_sync_gflops = 445000>, smap.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 128, smem = 99328, regs = 0, strategy = wgmma_tma, stages = 3>}
  return
}
