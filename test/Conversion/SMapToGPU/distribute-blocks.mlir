// RUN: spacefusion-opt --split-input-file --smap-distribute-blocks %s | FileCheck %s

// Each bufferized block of a spatial slice becomes a thread block: its
// buffer in dynamic shared memory, each linalg op and copy strided over the
// threads (reductions run per thread with the accumulator carried in
// registers), a barrier after each.

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
// CHECK-LABEL: func.func @rowsum
// CHECK-SAME:    attributes {llvm.emit_c_interface, smap.kernels = [{blocks = 4 : i64{{.*}}strategy = "simt", threads = 128 : i64
// CHECK-DAG:   %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:   %[[C128:.*]] = arith.constant 128 : index
// CHECK-DAG:   %[[SMEM:.*]] = arith.constant 64 : i32
// CHECK:       gpu.launch blocks(%[[BX:[a-z0-9]+]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C4]], %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) threads(%[[TX:[a-z0-9]+]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C128]], %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) dynamic_shared_memory_size %[[SMEM]]
// CHECK:         %[[BASE:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK:         %[[OFF:.*]] = arith.muli %[[BX]], %{{.*}} : index
// CHECK:         %[[IN:.*]] = memref.subview %arg0[%[[OFF]], 0] [16, 128]
// CHECK:         %[[VIEW:.*]] = memref.view %[[BASE]][%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16xf32, #gpu.address_space<workgroup>>
// CHECK:         %[[ACC:.*]] = memref.memory_space_cast %[[VIEW]] : memref<16xf32, #gpu.address_space<workgroup>> to memref<16xf32>
// Fill: one element per thread.
// CHECK:         scf.for %[[I:.*]] = %[[TX]] to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      memref.store %{{.*}}, %[[ACC]][%[[I]]] : memref<16xf32>
// CHECK:         gpu.barrier
// The row sum: one row per thread, the sum in a loop-carried register.
// CHECK:         scf.for %[[R:.*]] = %[[TX]] to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[INIT:.*]] = memref.load %[[ACC]][%[[R]]] : memref<16xf32>
// CHECK:           %[[SUM:.*]] = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[S:.*]] = %[[INIT]]) -> (f32) {
// CHECK-NEXT:        %[[X:.*]] = memref.load %[[IN]][%[[R]], %[[K]]]
// CHECK-NEXT:        %[[NEXT:.*]] = arith.addf %[[X]], %[[S]] : f32
// CHECK-NEXT:        scf.yield %[[NEXT]] : f32
// CHECK:           memref.store %[[SUM]], %[[ACC]][%[[R]]] : memref<16xf32>
// CHECK:         gpu.barrier
// The block's tile of the output, with 16-byte vectors: the tile starts
// at a multiple of 16 elements of an argument (16-byte aligned by the ABI).
// CHECK:         %[[O:.*]] = memref.subview %arg1[%[[OFF]]] [16] [1]
// CHECK:         scf.for %[[J:.*]] = %[[TX]] to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[C4B:.*]] = arith.constant 4 : index
// CHECK-NEXT:      %[[AT:.*]] = arith.muli %[[J]], %[[C4B]] : index
// CHECK-NEXT:      %[[V:.*]] = vector.load %[[ACC]][%[[AT]]] {alignment = 16 : i64} : memref<16xf32>, vector<4xf32>
// CHECK-NEXT:      vector.store %[[V]], %[[O]][%[[AT]]] {alignment = 16 : i64}
// CHECK:         gpu.barrier
// CHECK:         gpu.terminator
// CHECK-NOT:   scf.forall
func.func @rowsum(%x: memref<64x128xf32>, %out: memref<64xf32>) {
  %zero = arith.constant 0.0 : f32
  %c16 = arith.constant 16 : index
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
  } {mapping = [#gpu.block<x>], smap.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 128, smem = 64, regs = 0, strategy = simt>}
  return
}

// -----

// Buffers beyond the target's shared memory go to a global scratch buffer
// with one region per block, allocated (stream-ordered) around the launch.

// CHECK-LABEL: func.func @scratch
// CHECK-SAME:    smap.kernels = [{blocks = 4 : i64, predicted = {{[{][^}]+[}]}}, scratch = 4096 : i64, smem = 0 : i64, strategy = "simt", threads = 64 : i64}]
// CHECK:       %[[T0:.*]] = gpu.wait async
// CHECK:       %[[SCRATCH:.*]], %[[T1:.*]] = gpu.alloc async [%[[T0]]] () : memref<16384xi8>
// CHECK:       gpu.wait [%[[T1]]]
// CHECK:       gpu.launch blocks(%[[BX:[a-z0-9]+]], %{{.*}}, %{{.*}}) in
// CHECK-NOT:     gpu.dynamic_shared_memory
// CHECK:         %[[REGION:.*]] = arith.muli %[[BX]], %{{.*}} : index
// CHECK:         %[[AT:.*]] = arith.addi %[[REGION]], %{{.*}} : index
// CHECK:         memref.view %[[SCRATCH]][%[[AT]]][] : memref<16384xi8> to memref<32x32xf32>
// CHECK:       %[[T2:.*]] = gpu.wait async
// CHECK:       %[[T3:.*]] = gpu.dealloc async [%[[T2]]] %[[SCRATCH]] : memref<16384xi8>
// CHECK:       gpu.wait [%[[T3]]]
func.func @scratch(%x: memref<128x32xf32>, %out: memref<128x32xf32>) {
  %c32 = arith.constant 32 : index
  scf.forall (%blk) in (4) {
    %off = arith.muli %blk, %c32 : index
    %in = memref.subview %x[%off, 0] [32, 32] [1, 1] : memref<128x32xf32> to memref<32x32xf32, strided<[32, 1], offset: ?>>
    %tmp = memref.alloc() : memref<32x32xf32>
    memref.copy %in, %tmp : memref<32x32xf32, strided<[32, 1], offset: ?>> to memref<32x32xf32>
    %o = memref.subview %out[%off, 0] [32, 32] [1, 1] : memref<128x32xf32> to memref<32x32xf32, strided<[32, 1], offset: ?>>
    memref.copy %tmp, %o : memref<32x32xf32> to memref<32x32xf32, strided<[32, 1], offset: ?>>
  } {mapping = [#gpu.block<x>], smap.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 64, smem = 0, regs = 0, strategy = simt>,
     smap.target = #smap.target<name = "tiny", smem_per_block = 1024, regs_per_thread = 255, regs_per_sm = 65536, sm_count = 132, max_threads = 1024, bandwidth_gbps = 4800, f16_gflops = 989000, f32_gflops = 67000, arch = 90, features = ["mma_sync", "wgmma", "tma", "setmaxnreg", "cp_async", "clusters", "cache_hints"], smem_per_sm = 233472, l2_bytes = 52428800, mma_sync_gflops = 445000>}
  return
}

// -----

// Host buffers (an intermediate between two kernels) live on the device.

// CHECK-LABEL: func.func @two_kernels
// CHECK:       %[[MID:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] () : memref<64xf32>
// CHECK:       gpu.launch
// CHECK:       gpu.launch
// CHECK:       gpu.dealloc async [%{{.*}}] %[[MID]] : memref<64xf32>
// CHECK-NEXT:  gpu.wait
// CHECK-NEXT:  return
func.func @two_kernels(%x: memref<64xf32>, %out: memref<64xf32>) {
  %mid = memref.alloc() : memref<64xf32>
  scf.forall (%blk) in (1) {
    memref.copy %x, %mid : memref<64xf32> to memref<64xf32>
  } {mapping = [#gpu.block<x>], smap.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 64, smem = 0, regs = 0, strategy = simt>}
  scf.forall (%blk) in (1) {
    memref.copy %mid, %out : memref<64xf32> to memref<64xf32>
  } {mapping = [#gpu.block<x>], smap.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 64, smem = 0, regs = 0, strategy = simt>}
  return
}

// -----

// An epilogue (bias, ReLU, rounding into the output) is one pass: each
// thread runs the three payloads on the same elements, four per trip with
// every load first; the intermediate tile never reaches memory (nothing
// reads it after the group), and one barrier follows.

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
// CHECK-LABEL: func.func @epilogue
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %c2048{{.*}} step %c512{{.*}} {
// CHECK-COUNT-4:   memref.load %{{.*}} : memref<16x128xf32, strided<[128, 1], offset: ?>>
// CHECK-COUNT-4:   memref.load %{{.*}} : memref<128xf32>
// CHECK-NOT:       memref.store
// CHECK:           arith.addf
// CHECK:           arith.maximumf
// CHECK:           arith.truncf
// CHECK-NOT:       memref.store %{{.*}} : memref<16x128xf32>
// CHECK-COUNT-4:   memref.store %{{.*}} : memref<16x128xf16, strided<[128, 1], offset: ?>>
// CHECK-NEXT:    }
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    gpu.terminator
func.func @epilogue(%x: memref<64x128xf32>, %bias: memref<128xf32>, %out: memref<64x128xf16>) {
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  scf.forall (%blk) in (4) {
    %off = arith.muli %blk, %c16 : index
    %in = memref.subview %x[%off, 0] [16, 128] [1, 1] : memref<64x128xf32> to memref<16x128xf32, strided<[128, 1], offset: ?>>
    %o = memref.subview %out[%off, 0] [16, 128] [1, 1] : memref<64x128xf16> to memref<16x128xf16, strided<[128, 1], offset: ?>>
    %t = memref.alloc() : memref<16x128xf32>
    linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
        ins(%in, %bias : memref<16x128xf32, strided<[128, 1], offset: ?>>, memref<128xf32>) outs(%t : memref<16x128xf32>) {
    ^bb0(%a: f32, %b: f32, %r: f32):
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    }
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%t : memref<16x128xf32>) outs(%t : memref<16x128xf32>) {
    ^bb0(%a: f32, %r: f32):
      %m = arith.maximumf %a, %zero : f32
      linalg.yield %m : f32
    }
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%t : memref<16x128xf32>) outs(%o : memref<16x128xf16, strided<[128, 1], offset: ?>>) {
    ^bb0(%a: f32, %r: f16):
      %h = arith.truncf %a : f32 to f16
      linalg.yield %h : f16
    }
  } {mapping = [#gpu.block<x>], smap.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 128, smem = 8192, regs = 0, strategy = simt>}
  return
}

// -----

// A transpose reads the tile at elements other threads wrote: it starts a
// new pass after a barrier.

#id = affine_map<(i, j) -> (i, j)>
#tr = affine_map<(i, j) -> (j, i)>
// CHECK-LABEL: func.func @transposed_reader
// CHECK:         scf.for
// CHECK:           memref.store %{{.*}} : memref<32x32xf32>
// CHECK:         gpu.barrier
// CHECK:         scf.for
// CHECK:           memref.load %{{.*}} : memref<32x32xf32>
// CHECK:           memref.store %{{.*}} : memref<32x32xf32, strided<[32, 1], offset: ?>>
// CHECK:         gpu.barrier
func.func @transposed_reader(%x: memref<64x32xf32>, %out: memref<64x32xf32>) {
  %c32 = arith.constant 32 : index
  scf.forall (%blk) in (2) {
    %off = arith.muli %blk, %c32 : index
    %in = memref.subview %x[%off, 0] [32, 32] [1, 1] : memref<64x32xf32> to memref<32x32xf32, strided<[32, 1], offset: ?>>
    %o = memref.subview %out[%off, 0] [32, 32] [1, 1] : memref<64x32xf32> to memref<32x32xf32, strided<[32, 1], offset: ?>>
    %t = memref.alloc() : memref<32x32xf32>
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%in : memref<32x32xf32, strided<[32, 1], offset: ?>>) outs(%t : memref<32x32xf32>) {
    ^bb0(%a: f32, %r: f32):
      %d = arith.addf %a, %a : f32
      linalg.yield %d : f32
    }
    linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
        ins(%t : memref<32x32xf32>) outs(%o : memref<32x32xf32, strided<[32, 1], offset: ?>>) {
    ^bb0(%a: f32, %r: f32):
      linalg.yield %a : f32
    }
  } {mapping = [#gpu.block<x>], smap.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 128, smem = 4096, regs = 0, strategy = simt>}
  return
}
