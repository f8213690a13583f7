// RUN: spacefusion-opt --smap-distribute-blocks %s | FileCheck %s
// RUN: spacefusion-opt --smap-distribute-blocks=approx-math=false %s | FileCheck %s --check-prefix=EXACT

// approx-math (the default) evaluates exp in blocks on the hardware: f32
// exp(x - c) as exp2(fma(x, log2 e, -c log2 e)) (ex2.approx, relative error
// about 2^-21), a 16-bit exp on its extended operand where the registers
// that costs cannot cost residency. tanh.approx.f32 errs by about 2^-11 relative, a 16-bit
// rounding: a block of a 16-bit program (one that reads f16 or bf16 from
// global memory, a half model's GELU) runs tanh on it, a block of an f32
// program keeps math.tanh (libdevice), as GPU fuzz seeds 1063 and 2069
// erred by up to 3e-4 of their largest result with it. approx-math=false
// keeps math.exp and math.tanh everywhere.

#id = affine_map<(i) -> (i)>
// CHECK-LABEL: func.func @exp_and_tanh_f32
// CHECK:         %[[SHIFT:.*]] = arith.negf %{{.*}} : f32
// CHECK:         %[[ARG:.*]] = math.fma %{{.*}}, %{{.*}}, %[[SHIFT]] : f32
// CHECK:         %[[E:.*]] = math.exp2 %[[ARG]] fastmath<afn> : f32
// CHECK:         %[[T:.*]] = math.tanh %[[E]] : f32
// CHECK:         memref.store %[[T]]
// CHECK-NOT:     tanh.approx
// EXACT-LABEL: func.func @exp_and_tanh_f32
// EXACT:         math.exp %{{.*}} : f32
// EXACT:         math.tanh %{{.*}} : f32
func.func @exp_and_tanh_f32(%x: memref<256xf32>, %c: f32, %out: memref<256xf32>) {
  scf.forall (%blk) in (1) {
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%x : memref<256xf32>) outs(%out : memref<256xf32>) {
    ^bb0(%a: f32, %o: f32):
      %d = arith.subf %a, %c : f32
      %e = math.exp %d : f32
      %t = math.tanh %e : f32
      linalg.yield %t : f32
    }
  } {mapping = [#gpu.block<x>], smap.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 128, smem = 0, regs = 0, strategy = simt>}
  return
}

// A half model's exp (f16 in, f16 out) in a block whose residency is
// declared: ex2.approx of the extended operand, rounded back, instead of
// libdevice's expf of it; the operand is the program's rounded x - c (no
// fma folds the subtraction in).
// CHECK-LABEL: func.func @exp_f16
// CHECK:         %[[D:.*]] = arith.subf %{{.*}}, %{{.*}} : f16
// CHECK:         %[[X:.*]] = arith.extf %[[D]] : f16 to f32
// CHECK:         %[[ARG:.*]] = arith.mulf %[[X]], %{{.*}} : f32
// CHECK:         %[[E:.*]] = math.exp2 %[[ARG]] fastmath<afn> : f32
// CHECK:         %[[R:.*]] = arith.truncf %[[E]] : f32 to f16
// CHECK:         memref.store %[[R]]
// CHECK-NOT:     math.exp
// EXACT-LABEL: func.func @exp_f16
// EXACT:         math.exp %{{.*}} : f16
func.func @exp_f16(%x: memref<256xf16>, %c: f16, %out: memref<256xf16>) {
  scf.forall (%blk) in (1) {
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%x : memref<256xf16>) outs(%out : memref<256xf16>) {
    ^bb0(%a: f16, %o: f16):
      %d = arith.subf %a, %c : f16
      %e = math.exp %d : f16
      linalg.yield %e : f16
    }
  } {mapping = [#gpu.block<x>], smap.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 128, smem = 0, regs = 64, strategy = simt, blocks_per_sm = 2>}
  return
}

// Where more registers could cost a block per SM (nothing declared, room
// for many blocks in shared memory), the 16-bit exp stays libdevice's.
// CHECK-LABEL: func.func @exp_f16_undeclared
// CHECK:         math.exp %{{.*}} : f16
// CHECK-NOT:     math.exp2
// CHECK:         return
func.func @exp_f16_undeclared(%x: memref<256xf16>, %c: f16, %out: memref<256xf16>) {
  scf.forall (%blk) in (1) {
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%x : memref<256xf16>) outs(%out : memref<256xf16>) {
    ^bb0(%a: f16, %o: f16):
      %d = arith.subf %a, %c : f16
      %e = math.exp %d : f16
      linalg.yield %e : f16
    }
  } {mapping = [#gpu.block<x>], smap.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 128, smem = 0, regs = 0, strategy = simt>}
  return
}

// Nor can it where the block's shared memory lets one run per SM (120000
// bytes placed): the 16-bit exp is on ex2.approx again.
// CHECK-LABEL: func.func @exp_f16_one_block_per_sm
// CHECK:         %[[X:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK:         %[[E:.*]] = math.exp2 %{{.*}} fastmath<afn> : f32
// CHECK:         arith.truncf %[[E]] : f32 to f16
// CHECK-NOT:     math.exp %
// CHECK:         smap.kernel = #smap.kernel<strategy = simt, blocks = 1, threads = 128, smem = 120000
// EXACT-LABEL: func.func @exp_f16_one_block_per_sm
// EXACT:         math.exp %{{.*}} : f16
func.func @exp_f16_one_block_per_sm(%x: memref<60000xf16>, %c: f16, %out: memref<60000xf16>) {
  scf.forall (%blk) in (1) {
    %tmp = memref.alloc() : memref<60000xf16>
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%x : memref<60000xf16>) outs(%tmp : memref<60000xf16>) {
    ^bb0(%a: f16, %o: f16):
      %d = arith.subf %a, %c : f16
      %e = math.exp %d : f16
      linalg.yield %e : f16
    }
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%tmp : memref<60000xf16>) outs(%out : memref<60000xf16>) {
    ^bb0(%a: f16, %o: f16):
      %m = arith.mulf %a, %a : f16
      linalg.yield %m : f16
    }
  } {mapping = [#gpu.block<x>], smap.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 128, smem = 130000, regs = 0, strategy = simt>}
  return
}

// CHECK-LABEL: func.func @gelu_tanh_f16
// CHECK:         %[[X:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK:         %[[T:.*]] = llvm.inline_asm "tanh.approx.f32 $0, $1;", "=f,f" %[[X]] : (f32) -> f32
// CHECK:         %[[R:.*]] = arith.truncf %[[T]] : f32 to f16
// CHECK:         memref.store %[[R]]
// CHECK-NOT:     math.tanh
// EXACT-LABEL: func.func @gelu_tanh_f16
// EXACT:         math.tanh %{{.*}} : f32
func.func @gelu_tanh_f16(%x: memref<256xf16>, %out: memref<256xf16>) {
  scf.forall (%blk) in (1) {
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%x : memref<256xf16>) outs(%out : memref<256xf16>) {
    ^bb0(%a: f16, %o: f16):
      %e = arith.extf %a : f16 to f32
      %t = math.tanh %e : f32
      %r = arith.truncf %t : f32 to f16
      linalg.yield %r : f16
    }
  } {mapping = [#gpu.block<x>], smap.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 128, smem = 0, regs = 0, strategy = simt>}
  return
}
