// RUN: spacefusion-opt --smap-distribute-blocks %s | FileCheck %s
// RUN: spacefusion-opt --smap-distribute-blocks=approx-math=false %s | FileCheck %s --check-prefix=EXACT

// approx-math (the default) evaluates f32 exp and tanh in blocks on the
// hardware: exp(x - c) as exp2(fma(x, log2 e, -c log2 e)) (ex2.approx),
// tanh as tanh.approx.f32; approx-math=false keeps math.exp and math.tanh
// (libdevice).

#id = affine_map<(i) -> (i)>
// CHECK-LABEL: func.func @exp_and_tanh
// CHECK:         %[[SHIFT:.*]] = arith.negf %{{.*}} : f32
// CHECK:         %[[ARG:.*]] = math.fma %{{.*}}, %{{.*}}, %[[SHIFT]] : f32
// CHECK:         %[[E:.*]] = math.exp2 %[[ARG]] fastmath<afn> : f32
// CHECK:         %[[T:.*]] = llvm.inline_asm "tanh.approx.f32 $0, $1;", "=f,f" %[[E]] : (f32) -> f32
// CHECK:         memref.store %[[T]]
// CHECK-NOT:     math.tanh
// EXACT-LABEL: func.func @exp_and_tanh
// EXACT:         math.exp %{{.*}} : f32
// EXACT:         math.tanh %{{.*}} : f32
func.func @exp_and_tanh(%x: memref<256xf32>, %c: f32, %out: memref<256xf32>) {
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
