// RUN: spacefusion-opt --split-input-file --smap-distribute-blocks %s | FileCheck %s
// RUN: sed -e 's/threads = 128, smem = 99328, regs = 0, strategy = wgmma_tma, stages = 3>/threads = 256, smem = 232448, regs = 0, strategy = mma_sync>/' %s | spacefusion-opt --split-input-file --smap-distribute-blocks | FileCheck %s --check-prefix=SYNC
// RUN: sed -e 's/threads = 128, smem = 99328, regs = 0, strategy = wgmma_tma, stages = 3>/threads = 384, smem = 232448, regs = 0, strategy = wgmma_tma_ws, stages = 3>/' %s | spacefusion-opt --split-input-file --smap-distribute-blocks | FileCheck %s --check-prefix=WS
// RUN: sed -e 's/threads = 128, smem = 99328, regs = 0, strategy = wgmma_tma, stages = 3>/threads = 288, smem = 232448, regs = 0, strategy = wgmma_tma_ws, stages = 3>/' %s | spacefusion-opt --split-input-file --smap-distribute-blocks | FileCheck %s --check-prefix=WARP
// RUN: sed -e 's/threads = 128, smem = 99328, regs = 0, strategy = wgmma_tma, stages = 3>/threads = 320, smem = 232448, regs = 0, strategy = wgmma_tma_ws, stages = 3>/' %s | not spacefusion-opt --split-input-file --smap-distribute-blocks 2>&1 | FileCheck %s --check-prefix=BADWARPS
// RUN: sed -e 's/strategy = wgmma_tma, stages = 3>/strategy = wgmma_tma, stages = 2>/' %s | spacefusion-opt --split-input-file --smap-distribute-blocks | FileCheck %s --check-prefix=TWO
// RUN: spacefusion-opt --split-input-file --smap-distribute-blocks %s --remarks-filter=smap --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// A GEMM block as the GPU path bufferizes it (C = A . B, 256x256x256, blocks
// of 128x128, k sliced by 64): on sm_90a it runs on wgmma. The host builds
// one TMA descriptor per operand (128-byte swizzle; B in 64-column boxes);
// one warpgroup waits on each stage's mbarrier, issues
// nvgpu.warpgroup.mma with B read N-major and one group in flight, and
// thread 0 refills the freed stage; the accumulators end in the block tile,
// over the stages, where the epilogue (rounding to f16) reads them.

#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(m, n) -> (m, n)>
// CHECK-LABEL: func.func @gemm
// CHECK-SAME:    smap.kernels = [{blocks = 4 : i64, parts = {stages = 3 : i64, tile_k = 64 : i64, tile_m = 128 : i64, tile_n = 128 : i64}, predicted = {{[{][^}]+[}]}}, smem = 99328 : i64, strategy = "wgmma_tma", threads = 128 : i64}]
// CHECK:       %[[UA:.*]] = memref.cast %[[A:.*]] : memref<256x256xf16> to memref<*xf16>
// CHECK:       %[[DA:.*]] = nvgpu.tma.create.descriptor %[[UA]] box[%c128{{.*}}, %c64{{.*}}] : memref<*xf16> -> <tensor = memref<128x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b
// CHECK:       %[[DB:.*]] = nvgpu.tma.create.descriptor %{{.*}} box[%c64{{.*}}, %c64{{.*}}] : memref<*xf16> -> <tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b
// CHECK:       gpu.launch {{.*}} threads({{.*}}) in ({{.*}} = %c128{{.*}}, {{.*}}) dynamic_shared_memory_size %c99328_i32
// CHECK:         %[[BARS:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
// CHECK-COUNT-3: nvgpu.mbarrier.init %[[BARS]]
// Steps 0 and 1 are issued before the loop, each with the stage's 32 KiB.
// CHECK:         scf.if
// CHECK:           nvgpu.mbarrier.arrive.expect_tx %[[BARS]][%{{.*}}], %c32768
// CHECK:           nvgpu.tma.async.load %[[DA]]
// CHECK-COUNT-2:   nvgpu.tma.async.load %[[DB]]
// CHECK:         scf.if
// CHECK:         %[[ZERO:.*]] = nvgpu.warpgroup.mma.init.accumulator -> <fragmented = vector<128x128xf32>>
// CHECK:         %[[ACC:.*]] = scf.for %[[STEP:.*]] = %c0{{.*}} to %c4{{.*}} step %c1{{.*}} iter_args(%[[C:.*]] = %[[ZERO]])
// CHECK:           nvgpu.mbarrier.try_wait.parity %[[BARS]]
// CHECK:           %[[GA:.*]] = nvgpu.warpgroup.generate.descriptor %{{.*}}, %[[DA]]
// CHECK:           %[[GB:.*]] = nvgpu.warpgroup.generate.descriptor %{{.*}}, %[[DB]]
// CHECK:           %[[D:.*]] = nvgpu.warpgroup.mma %[[GA]], %[[GB]], %[[C]] {transposeB} : <tensor = memref<128x64xf16, #gpu.address_space<workgroup>>>, <tensor = memref<64x128xf16, #gpu.address_space<workgroup>>>, <fragmented = vector<128x128xf32>> -> <fragmented = vector<128x128xf32>>
// CHECK:           gpu.barrier
// Step + 2 into the stage step - 1 freed, while in range.
// CHECK:           scf.if
// CHECK:             nvgpu.tma.async.load %[[DA]]
// CHECK:           scf.yield %[[D]]
// CHECK:         nvvm.wgmma.wait.group.sync.aligned 0
// CHECK:         nvgpu.warpgroup.mma.store %[[ACC]], %[[TILE:.*]] : <fragmented = vector<128x128xf32>> to memref<128x128xf32, #gpu.address_space<workgroup>>
// CHECK:         gpu.barrier
// CHECK:         memref.memory_space_cast %[[TILE]] : memref<128x128xf32, #gpu.address_space<workgroup>> to memref<128x128xf32>
// CHECK:         arith.truncf
// CHECK-NOT:     nvgpu.mma.sync

// Warp-specialized: two consumer warpgroups of 64 rows each and the
// producer warpgroup after them (thread 256 issues every step's loads,
// waiting from the fourth step on for the stage's release on an `empty`
// mbarrier with 8 arrivals, one per consumer warp). The 384 threads leave 168 registers each:
// the producer drops to 40 and the consumers rise to 232, both return to
// 168 before the epilogue; the producer only after the block barrier that
// follows the consumers' release. Consumer c reads A from row 64 c of the
// stage (c = thread / 128) and releases the stage of step i - 1 after
// issuing step i; the consumers meet at named barrier 1 before their
// accumulators overwrite the stages.
// WS:            smap.kernels = [{blocks = 4 : i64, parts = {consumers = 2 : i64, producer_warps = 4 : i64, regs_consumer = 232 : i64, regs_entry = 168 : i64, regs_producer = 40 : i64, stages = 3 : i64, tile_k = 64 : i64, tile_m = 128 : i64, tile_n = 128 : i64}, predicted = {{[{][^}]+[}]}}, smem = 99328 : i64, strategy = "wgmma_tma_ws", threads = 384 : i64}]
// WS:            %[[FULL:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
// WS:            %[[EMPTY:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
// WS-COUNT-3:    nvgpu.mbarrier.init %[[EMPTY]][%{{.*}}], %c8
// WS:            %[[PRODUCERS:.*]] = arith.cmpi uge, %[[TID:.*]], %c256{{.*}} : index
// WS:            scf.if %[[PRODUCERS]] {
// WS-NEXT:         nvvm.setmaxregister decrease 40
// WS:              %[[PRODUCER:.*]] = arith.cmpi eq, %[[TID]], %c256{{.*}} : index
// WS:              scf.if %[[PRODUCER]] {
// WS:                scf.for %[[STEP:.*]] = %c0{{.*}} to %c4{{.*}} step %c1
// WS:                  %[[REUSED:.*]] = arith.cmpi uge, %[[STEP]], %c3{{.*}} : index
// WS:                  scf.if %[[REUSED]] {
// WS:                    nvgpu.mbarrier.try_wait.parity %[[EMPTY]]
// WS:                  nvgpu.mbarrier.arrive.expect_tx %[[FULL]]
// WS:                  nvgpu.tma.async.load
// WS:            %[[CONSUMERS:.*]] = arith.cmpi ult, %[[TID]], %c256{{.*}} : index
// WS:            scf.if %[[CONSUMERS]] {
// WS-NEXT:         nvvm.setmaxregister increase 232
// WS:              %[[WG:.*]] = arith.divui %[[TID]], %c128{{.*}} : index
// WS:              %[[ROW:.*]] = arith.muli %[[WG]], %c64{{.*}} : index
// WS:              %[[LANE:.*]] = arith.remui %[[TID]], %c32{{.*}} : index
// WS:              %[[LEADER:.*]] = arith.cmpi eq, %[[LANE]], %c0{{.*}} : index
// WS:              %[[ACC:.*]] = scf.for
// WS:                nvgpu.mbarrier.try_wait.parity %[[FULL]]
// WS:                %[[AOFF:.*]] = arith.muli %[[ROW]], %c128{{.*}} : index
// WS:                %[[AAT:.*]] = arith.addi %{{.*}}, %[[AOFF]] : index
// WS:                %[[AV:.*]] = memref.view %{{.*}}[%[[AAT]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x64xf16, #gpu.address_space<workgroup>>
// WS:                nvgpu.warpgroup.generate.descriptor %[[AV]]
// WS:                nvgpu.warpgroup.mma {{.*}} -> <fragmented = vector<64x128xf32>>
// WS-NOT:            gpu.barrier
// WS:                %[[AFTER:.*]] = arith.cmpi uge, %{{.*}}, %c1{{.*}} : index
// WS:                %[[RELEASE:.*]] = arith.andi %[[AFTER]], %[[LEADER]] : i1
// WS:                scf.if %[[RELEASE]] {
// WS:                  nvgpu.mbarrier.arrive %[[EMPTY]]
// WS:              nvvm.wgmma.wait.group.sync.aligned 0
// WS:              nvvm.barrier id = %c1_i32 number_of_threads = %c256_i32
// WS:              nvgpu.warpgroup.mma.store %[[ACC]], %{{.*}} : <fragmented = vector<64x128xf32>> to memref<64x128xf32, #gpu.address_space<workgroup>>
// WS-NEXT:         nvvm.setmaxregister decrease 168
// WS:            gpu.barrier
// WS-NEXT:       scf.if %[[PRODUCERS]] {
// WS-NEXT:         nvvm.setmaxregister increase 168

// A one-warp producer (thread 256) cannot give registers away (setmaxnreg
// takes whole warpgroups): 288 threads, no reallocation, and room for a
// second block per SM.
// WARP:          smap.kernels = [{blocks = 4 : i64, parts = {consumers = 2 : i64, producer_warps = 1 : i64, stages = 3 : i64, tile_k = 64 : i64, tile_m = 128 : i64, tile_n = 128 : i64}, predicted = {{[{][^}]+[}]}}, smem = 99328 : i64, strategy = "wgmma_tma_ws", threads = 288 : i64}]
// WARP-NOT:      nvvm.setmaxregister
// WARP:          arith.cmpi eq, %{{.*}}, %c256{{.*}} : index
// WARP-NOT:      nvvm.setmaxregister
// WARP:          nvgpu.warpgroup.mma.store
// BADWARPS:      error: smap-distribute-blocks: the schedule's strategy wgmma_tma_ws cannot be built: the schedule's 320 threads leave no producer warp or warpgroup after 256 consumer threads

// A two-stage pipeline, as the schedule gives it (smap-schedule never gives
// fewer than two: step i + S - 1 is issued once step i is read).
// TWO:           smap.kernels = [{blocks = 4 : i64, parts = {stages = 2 : i64, tile_k = 64 : i64, tile_m = 128 : i64, tile_n = 128 : i64}, predicted = {{[{][^}]+[}]}}, smem = 66560 : i64, strategy = "wgmma_tma", threads = 128 : i64}]
// TWO:           nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>

// SYNC:          smap.kernels = [{blocks = 4 : i64{{.*}}strategy = "{{[a-z_]+}}", threads = 256 : i64
// SYNC-NOT:      nvgpu.warpgroup.mma
// SYNC:          nvgpu.mma.sync
// REMARK:        remark: [Passed] block-kernel | Category:smap:distribute-blocks | Function=gemm | Remark="lowered to one kernel: strategy=wgmma_tma blocks=4 threads=128 smem=99328 tile_m=128 tile_n=128 tile_k=64 stages=3"
func.func @gemm(%arg0: memref<256x256xf16>, %arg1: memref<256x256xf16>, %arg2: memref<256x256xf16>) {
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
  } {mapping = [#gpu.block<x>], smap.target = #smap.target<name = "sm_90a", smem_per_block = 232448, regs_per_thread = 255, regs_per_sm = 65536, sm_count = 132, max_threads = 1024, bandwidth_gbps = 4800, f16_gflops = 989000, f32_gflops = 67000, arch = 90, features = ["mma_sync", "wgmma", "tma", "setmaxnreg", "cp_async", "clusters", "cache_hints"], smem_per_sm = 233472, l2_bytes = 52428800, mma_sync_gflops = 445000>, smap.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 128, smem = 99328, regs = 0, strategy = wgmma_tma, stages = 3>}
  return
}

// -----

// The same blocks, 396 of them: two TMA stages (66 KB) let three blocks
// share an SM and the grid fit one wave, where three stages (99 KB, two
// per SM) would need two waves with the second half empty; the lowering
// takes the depth whose waves its blocks fill best.

#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(m, n) -> (m, n)>
// CHECK-LABEL: func.func @gemm_waves
// CHECK-SAME:    smap.kernels = [{blocks = 396 : i64, parts = {stages = 2 : i64, tile_k = 64 : i64, tile_m = 128 : i64, tile_n = 128 : i64}, predicted = {{[{][^}]+[}]}}, smem = 66560 : i64, strategy = "wgmma_tma", threads = 128 : i64}]
func.func @gemm_waves(%arg0: memref<25344x256xf16>, %arg1: memref<256x256xf16>, %arg2: memref<25344x256xf16>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %cst = arith.constant 0.000000e+00 : f32
  scf.forall (%blk) in (396) {
    %n0 = arith.remui %blk, %c2 : index
    %n = arith.muli %n0, %c128 : index
    %m0 = arith.divui %blk, %c2 : index
    %m = arith.muli %m0, %c128 : index
    %a = memref.subview %arg0[%m, 0] [128, 256] [1, 1] : memref<25344x256xf16> to memref<128x256xf16, strided<[256, 1], offset: ?>>
    %b = memref.subview %arg1[0, %n] [256, 128] [1, 1] : memref<256x256xf16> to memref<256x128xf16, strided<[256, 1], offset: ?>>
    %acc = memref.alloc() {alignment = 64 : i64} : memref<128x128xf32>
    %c = memref.subview %arg2[%m, %n] [128, 128] [1, 1] : memref<25344x256xf16> to memref<128x128xf16, strided<[256, 1], offset: ?>>
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
  } {mapping = [#gpu.block<x>], smap.target = #smap.target<name = "sm_90a", smem_per_block = 232448, regs_per_thread = 255, regs_per_sm = 65536, sm_count = 132, max_threads = 1024, bandwidth_gbps = 4800, f16_gflops = 989000, f32_gflops = 67000, arch = 90, features = ["mma_sync", "wgmma", "tma", "setmaxnreg", "cp_async", "clusters", "cache_hints"], smem_per_sm = 233472, l2_bytes = 52428800, mma_sync_gflops = 445000>, smap.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 128, smem = 66560, regs = 0, strategy = wgmma_tma, stages = 2>}
  return
}

// -----

// 3072 such blocks fill their waves equally well on two stages (three
// blocks per SM, 7.8 waves) and on three (two per SM, 11.6 waves): on such
// a tie the shallower depth wins, as the third resident block overlaps the
// others' prologues and epilogues (5% on 16384x3072x768 on the H200).

#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(m, n) -> (m, n)>
// CHECK-LABEL: func.func @gemm_tie
// CHECK-SAME:    smap.kernels = [{blocks = 3072 : i64, parts = {stages = 2 : i64, tile_k = 64 : i64, tile_m = 128 : i64, tile_n = 128 : i64}, predicted = {{[{][^}]+[}]}}, smem = 66560 : i64, strategy = "wgmma_tma", threads = 128 : i64}]
func.func @gemm_tie(%arg0: memref<196608x256xf16>, %arg1: memref<256x256xf16>, %arg2: memref<196608x256xf16>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %cst = arith.constant 0.000000e+00 : f32
  scf.forall (%blk) in (3072) {
    %n0 = arith.remui %blk, %c2 : index
    %n = arith.muli %n0, %c128 : index
    %m0 = arith.divui %blk, %c2 : index
    %m = arith.muli %m0, %c128 : index
    %a = memref.subview %arg0[%m, 0] [128, 256] [1, 1] : memref<196608x256xf16> to memref<128x256xf16, strided<[256, 1], offset: ?>>
    %b = memref.subview %arg1[0, %n] [256, 128] [1, 1] : memref<256x256xf16> to memref<256x128xf16, strided<[256, 1], offset: ?>>
    %acc = memref.alloc() {alignment = 64 : i64} : memref<128x128xf32>
    %c = memref.subview %arg2[%m, %n] [128, 128] [1, 1] : memref<196608x256xf16> to memref<128x128xf16, strided<[256, 1], offset: ?>>
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
  } {mapping = [#gpu.block<x>], smap.target = #smap.target<name = "sm_90a", smem_per_block = 232448, regs_per_thread = 255, regs_per_sm = 65536, sm_count = 132, max_threads = 1024, bandwidth_gbps = 4800, f16_gflops = 989000, f32_gflops = 67000, arch = 90, features = ["mma_sync", "wgmma", "tma", "setmaxnreg", "cp_async", "clusters", "cache_hints"], smem_per_sm = 233472, l2_bytes = 52428800, mma_sync_gflops = 445000>, smap.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 128, smem = 66560, regs = 0, strategy = wgmma_tma, stages = 2>}
  return
}

// -----

// k sliced by 32: half a swizzle row, which the TMA lowering does not
// take (a remark says why when the row lowering is off). The row lowering
// keeps the 64 x 32 A tile in registers and issues one wgmma per k-step
// from them, with B (k x n, n contiguous) through a transposed descriptor.
// The same block for sm_80 never tries wgmma.

#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
// CHECK-LABEL: func.func @gemm_k32
// CHECK-SAME:    smap.kernels = [{blocks = 1 : i64, parts = {register_tiles = 2 : i64, warp_rows = 16 : i64, wgmma = 1 : i64}, predicted = {{[{][^}]+[}]}}, smem = 5120 : i64, strategy = "row_fragments_wgmma", threads = 128 : i64}]
// CHECK-NOT:     nvgpu.warpgroup.mma
// CHECK:         %[[TILE:.*]] = memref.view {{.*}} {smap.swizzled_tile} : {{.*}} to memref<32x64xf16, #gpu.address_space<workgroup>>
// CHECK:         %[[FLAT:.*]] = memref.view {{.*}} : memref<?xi8, #gpu.address_space<workgroup>> to memref<2048xf16, #gpu.address_space<workgroup>>
// CHECK:         arith.xori
// CHECK:         vector.store %{{.*}}, %[[FLAT]][%{{.*}}] {alignment = 16 : i64} : memref<2048xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK:         nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT:    gpu.barrier
// CHECK:         nvvm.wgmma.fence.aligned
// CHECK:         llvm.inline_asm has_side_effects "{{.*}}wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, {$32, $33, $34, $35}, $36, p, 1, 1, 1;
// CHECK:         llvm.inline_asm has_side_effects "{{.*}}wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, {$32, $33, $34, $35}, $36, p, 1, 1, 1;
// CHECK-NOT:     wgmma.mma_async
// CHECK:         nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:    nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT:    llvm.inline_asm has_side_effects "", "=f,
// CHECK-NOT:     nvgpu.mma.sync
// CHECK-LABEL: func.func @gemm_sm80
// CHECK-NOT:     nvgpu.warpgroup.mma
// CHECK:         nvgpu.mma.sync
// REMARK:        remark: [Passed] block-kernel | Category:smap:distribute-blocks | Function=gemm_k32 | Remark="lowered to one kernel: strategy=row_fragments_wgmma blocks=1 threads=128 smem=5120 wgmma=1 warp_rows=16 register_tiles=2"
func.func @gemm_k32(%arg0: memref<64x64xf16>, %arg1: memref<64x64xf16>, %arg2: memref<64x64xf32>) {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %cst = arith.constant 0.000000e+00 : f32
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
  } {mapping = [#gpu.block<x>], smap.target = #smap.target<name = "sm_90a", smem_per_block = 232448, regs_per_thread = 255, regs_per_sm = 65536, sm_count = 132, max_threads = 1024, bandwidth_gbps = 4800, f16_gflops = 989000, f32_gflops = 67000, arch = 90, features = ["mma_sync", "wgmma", "tma", "setmaxnreg", "cp_async", "clusters", "cache_hints"], smem_per_sm = 233472, l2_bytes = 52428800, mma_sync_gflops = 445000>, smap.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 128, smem = 5120, regs = 0, strategy = row_fragments_wgmma, stages = 1>}
  return
}

func.func @gemm_sm80(%arg0: memref<64x64xf16>, %arg1: memref<64x64xf16>, %arg2: memref<64x64xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %cst = arith.constant 0.000000e+00 : f32
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
  } {mapping = [#gpu.block<x>], smap.target = #smap.target<name = "sm_80", smem_per_block = 166912, regs_per_thread = 255, regs_per_sm = 65536, sm_count = 108, max_threads = 1024, bandwidth_gbps = 2039, f16_gflops = 312000, f32_gflops = 19500, arch = 80, features = ["mma_sync", "cp_async", "cache_hints"], smem_per_sm = 167936, l2_bytes = 41943040>, smap.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 128, smem = 32768, regs = 0, strategy = mma_sync>}
  return
}

// -----

// A target whose shared memory cannot hold two TMA stages: the schedule
// runs the block as row fragments on wgmma (asking for wgmma_tma is an
// error, distribute-blocks-strategy-invalid.mlir).

#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
// CHECK-LABEL: func.func @gemm_small_smem
// CHECK-NOT:     nvgpu.warpgroup.mma
// CHECK:         wgmma.mma_async.sync.aligned.m64n64k16
func.func @gemm_small_smem(%arg0: memref<64x128xf16>, %arg1: memref<128x64xf16>, %arg2: memref<64x64xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %cst = arith.constant 0.000000e+00 : f32
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
  } {mapping = [#gpu.block<x>], smap.target = #smap.target<name = "sm_90a", smem_per_block = 30000, regs_per_thread = 255, regs_per_sm = 65536, sm_count = 132, max_threads = 1024, bandwidth_gbps = 4800, f16_gflops = 989000, f32_gflops = 67000, arch = 90, features = ["mma_sync", "wgmma", "tma", "setmaxnreg", "cp_async", "clusters", "cache_hints"], smem_per_sm = 233472, l2_bytes = 52428800, mma_sync_gflops = 445000>, smap.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 128, smem = 9216, regs = 0, strategy = row_fragments_wgmma, stages = 1>}
  return
}

// -----

// A 128 x 256 tile is more than one warpgroup's wgmma holds: it runs
// warp-specialized without being asked, on two consumer warpgroups of
// 64 x 256 accumulators, with the registers reallocated.
// CHECK-LABEL: func.func @gemm_128x256
// CHECK-SAME:    smap.kernels = [{blocks = 4 : i64, parts = {consumers = 2 : i64, producer_warps = 4 : i64, regs_consumer = 232 : i64, regs_entry = 168 : i64, regs_producer = 40 : i64, stages = 3 : i64, tile_k = 64 : i64, tile_m = 128 : i64, tile_n = 256 : i64}, predicted = {{[{][^}]+[}]}}, smem = 148480 : i64, strategy = "wgmma_tma_ws", threads = 384 : i64}]
// CHECK:         %[[DB:.*]] = nvgpu.tma.create.descriptor %{{.*}} box[%c64{{.*}}, %c64{{.*}}]
// CHECK:         nvvm.setmaxregister decrease 40
// CHECK-COUNT-4:   nvgpu.tma.async.load %[[DB]]
// CHECK:         nvvm.setmaxregister increase 232
// CHECK:           nvgpu.warpgroup.mma {{.*}} : <tensor = memref<64x64xf16, #gpu.address_space<workgroup>>>, <tensor = memref<64x256xf16, #gpu.address_space<workgroup>>>, <fragmented = vector<64x256xf32>> -> <fragmented = vector<64x256xf32>>
// CHECK:         nvgpu.warpgroup.mma.store %{{.*}} : <fragmented = vector<64x256xf32>> to memref<64x256xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:    nvvm.setmaxregister decrease 168
// CHECK:         nvvm.setmaxregister increase 168
// CHECK:         memref.memory_space_cast %{{.*}} : memref<128x256xf32, #gpu.address_space<workgroup>> to memref<128x256xf32>
// CHECK-NOT:     nvgpu.mma.sync
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(m, n) -> (m, n)>
func.func @gemm_128x256(%arg0: memref<256x256xf16>, %arg1: memref<256x512xf16>, %arg2: memref<256x512xf16>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %cst = arith.constant 0.000000e+00 : f32
  scf.forall (%blk) in (4) {
    %n0 = arith.remui %blk, %c2 : index
    %n = arith.muli %n0, %c256 : index
    %m0 = arith.divui %blk, %c2 : index
    %m = arith.muli %m0, %c128 : index
    %a = memref.subview %arg0[%m, 0] [128, 256] [1, 1] : memref<256x256xf16> to memref<128x256xf16, strided<[256, 1], offset: ?>>
    %b = memref.subview %arg1[0, %n] [256, 256] [1, 1] : memref<256x512xf16> to memref<256x256xf16, strided<[512, 1], offset: ?>>
    %acc = memref.alloc() {alignment = 64 : i64} : memref<128x256xf32>
    %c = memref.subview %arg2[%m, %n] [128, 256] [1, 1] : memref<256x512xf16> to memref<128x256xf16, strided<[512, 1], offset: ?>>
    linalg.fill ins(%cst : f32) outs(%acc : memref<128x256xf32>)
    scf.for %k = %c0 to %c256 step %c64 {
      %at = memref.subview %a[0, %k] [128, 64] [1, 1] : memref<128x256xf16, strided<[256, 1], offset: ?>> to memref<128x64xf16, strided<[256, 1], offset: ?>>
      %sa = memref.alloc() {alignment = 64 : i64} : memref<128x72xf16>
      %sav = memref.subview %sa[0, 0] [128, 64] [1, 1] : memref<128x72xf16> to memref<128x64xf16, strided<[72, 1]>>
      linalg.copy ins(%at : memref<128x64xf16, strided<[256, 1], offset: ?>>) outs(%sav : memref<128x64xf16, strided<[72, 1]>>)
      %bt = memref.subview %b[%k, 0] [64, 256] [1, 1] : memref<256x256xf16, strided<[512, 1], offset: ?>> to memref<64x256xf16, strided<[512, 1], offset: ?>>
      %sb = memref.alloc() {alignment = 64 : i64} : memref<64x264xf16>
      %sbv = memref.subview %sb[0, 0] [64, 256] [1, 1] : memref<64x264xf16> to memref<64x256xf16, strided<[264, 1]>>
      linalg.copy ins(%bt : memref<64x256xf16, strided<[512, 1], offset: ?>>) outs(%sbv : memref<64x256xf16, strided<[264, 1]>>)
      linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
          ins(%sav, %sbv : memref<128x64xf16, strided<[72, 1]>>, memref<64x256xf16, strided<[264, 1]>>)
          outs(%acc : memref<128x256xf32>) {
      ^bb0(%x: f16, %y: f16, %o: f32):
        %xf = arith.extf %x : f16 to f32
        %yf = arith.extf %y : f16 to f32
        %p = arith.mulf %xf, %yf : f32
        %s = arith.addf %o, %p : f32
        linalg.yield %s : f32
      }
    }
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%acc : memref<128x256xf32>) outs(%c : memref<128x256xf16, strided<[512, 1], offset: ?>>) {
    ^bb0(%x: f32, %o: f16):
      %t = arith.truncf %x : f32 to f16
      linalg.yield %t : f16
    }
  } {mapping = [#gpu.block<x>], smap.target = #smap.target<name = "sm_90a", smem_per_block = 232448, regs_per_thread = 255, regs_per_sm = 65536, sm_count = 132, max_threads = 1024, bandwidth_gbps = 4800, f16_gflops = 989000, f32_gflops = 67000, arch = 90, features = ["mma_sync", "wgmma", "tma", "setmaxnreg", "cp_async", "clusters", "cache_hints"], smem_per_sm = 233472, l2_bytes = 52428800, mma_sync_gflops = 445000>, smap.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 384, smem = 148480, regs = 0, strategy = wgmma_tma_ws, stages = 3>}
  return
}
