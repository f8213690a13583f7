// RUN: spacefusion-opt --split-input-file --smap-distribute-blocks %s | FileCheck %s

// A copy of more than 16 chunks per thread is a loop whose iterations load
// 16 chunks per thread into registers before storing them, so that 16
// loads per thread are in flight (one per iteration made a large staged
// tile latency-bound): 32 x 256 f32 in 16-byte chunks is 2048 chunks, 64
// per thread of 32, so 4 iterations of 512.

// CHECK-LABEL: func.func @copy_out_grouped
// CHECK:         gpu.launch
// CHECK:         %[[C2048:.*]] = arith.constant 2048 : index
// CHECK:         %[[C512:.*]] = arith.constant 512 : index
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[C2048]] step %[[C512]] {
// CHECK-COUNT-16:  vector.load %{{.*}} : memref<32x256xf32>, vector<4xf32>
// CHECK-NOT:       vector.load
// CHECK-COUNT-16:  vector.store %{{.*}} : memref<32x256xf32, strided<[256, 1], offset: ?>>, vector<4xf32>
// CHECK-NEXT:    }
// CHECK:         gpu.barrier
func.func @copy_out_grouped(%out: memref<64x256xf32>) {
  %one = arith.constant 1.0 : f32
  %c32 = arith.constant 32 : index
  scf.forall (%blk) in (2) {
    %off = arith.muli %blk, %c32 : index
    %acc = memref.alloc() : memref<32x256xf32>
    linalg.fill ins(%one : f32) outs(%acc : memref<32x256xf32>)
    %o = memref.subview %out[%off, 0] [32, 256] [1, 1] : memref<64x256xf32> to memref<32x256xf32, strided<[256, 1], offset: ?>>
    memref.copy %acc, %o : memref<32x256xf32> to memref<32x256xf32, strided<[256, 1], offset: ?>>
  } {mapping = [#gpu.block<x>], smap.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 32, smem = 32768, regs = 0, strategy = simt>}
  return
}

// -----

// Threads whose shares differ (2048 chunks over 96 threads) copy one chunk
// per iteration.

// CHECK-LABEL: func.func @copy_out_uneven
// CHECK:         gpu.launch
// CHECK:         %[[C2048:.*]] = arith.constant 2048 : index
// CHECK:         %[[C96:.*]] = arith.constant 96 : index
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[C2048]] step %[[C96]] {
// CHECK:           vector.load %{{.*}} : memref<32x256xf32>, vector<4xf32>
// CHECK-NEXT:      vector.store %{{.*}} : memref<32x256xf32, strided<[256, 1], offset: ?>>, vector<4xf32>
// CHECK-NEXT:    }
func.func @copy_out_uneven(%out: memref<64x256xf32>) {
  %one = arith.constant 1.0 : f32
  %c32 = arith.constant 32 : index
  scf.forall (%blk) in (2) {
    %off = arith.muli %blk, %c32 : index
    %acc = memref.alloc() : memref<32x256xf32>
    linalg.fill ins(%one : f32) outs(%acc : memref<32x256xf32>)
    %o = memref.subview %out[%off, 0] [32, 256] [1, 1] : memref<64x256xf32> to memref<32x256xf32, strided<[256, 1], offset: ?>>
    memref.copy %acc, %o : memref<32x256xf32> to memref<32x256xf32, strided<[256, 1], offset: ?>>
  } {mapping = [#gpu.block<x>], smap.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 96, smem = 32768, regs = 0, strategy = simt>}
  return
}
