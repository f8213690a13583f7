// RUN: spacefusion-opt --smap-distribute-blocks %s | FileCheck %s
// RUN: sed -e 's/regs = 255, strategy = row_fragments, stages = 1, blocks_per_sm = 1>/regs = 0, strategy = row_fragments, stages = 1>/' %s \
// RUN:   | spacefusion-opt --smap-distribute-blocks | FileCheck %s --check-prefix=UNDECLARED

// A half model's softmax in row fragments (f16 storage and compute, as
// torch-mlir lowers one): the scores accumulate in f32 (widened), are
// rounded to f16 and scaled in f16, their row max and exp are f16. A
// lane's slots come in pairs of neighbouring columns of one row, so the
// 16-bit math runs on both as one packed instruction, with the same
// roundings per element: the rounding of an f32 pair is one
// cvt.rn.f16x2.f32 (nvvm.convert.f32x2.to.f16x2, the first column in the
// low half), the scale and subtraction are f16x2, the row max folds pairs
// (exact in any order) and combines the halves before the quad shuffles,
// and the exp, computed per element in f32 on ex2, is rounded as a pair
// and stored as one.
//
// In row fragments the 16-bit exp is on ex2 whether or not the residency
// is declared (here 2304 B of shared memory would let many blocks share an
// SM): with the math on pairs the shorter code fits BERT's block in 126
// registers (bench/results/packed-pairs-h100).
// UNDECLARED-LABEL: func.func @half_softmax_block
// UNDECLARED-NOT: blocks_per_sm
// UNDECLARED: %[[E0:.*]] = math.exp2 %{{.*}} fastmath<afn> : f32
// UNDECLARED: %[[E1:.*]] = math.exp2 %{{.*}} fastmath<afn> : f32
// UNDECLARED: nvvm.convert.f32x2.to.f16x2 %[[E1]], %[[E0]]
// UNDECLARED-NOT: math.exp %

#q = affine_map<(m, l, k) -> (m, k)>
#k = affine_map<(m, l, k) -> (l, k)>
#s = affine_map<(m, l, k) -> (m, l)>
#id = affine_map<(m, l) -> (m, l)>
#row = affine_map<(m, l) -> (m)>
// CHECK-LABEL: func.func @half_softmax_block
// CHECK-SAME: strategy = "row_fragments"
// CHECK: %[[ACC:.*]] = nvgpu.mma.sync
// CHECK: %[[S0:.*]] = vector.extract %[[ACC]][0, 0] : f32
// CHECK: %[[S1:.*]] = vector.extract %[[ACC]][0, 1] : f32
// CHECK: %[[T:.*]] = nvvm.convert.f32x2.to.f16x2 %[[S1]], %[[S0]] {rnd = #nvvm.fp_rnd_mode<rn>} : vector<2xf16>
// CHECK: %[[SCALE:.*]] = vector.broadcast %{{.*}} : f16 to vector<2xf16>
// CHECK: %[[H:.*]] = arith.mulf %[[T]], %[[SCALE]] : vector<2xf16>
// The row max of slots 0, 1 (this pair) and 4, 5; the halves; the quad.
// CHECK: %[[M01:.*]] = arith.maximumf %[[H]], %{{.*}} : vector<2xf16>
// CHECK: %[[M:.*]] = arith.maximumf %{{.*}}, %[[M01]] : vector<2xf16>
// CHECK: %[[LO:.*]] = vector.extract %[[M]][0] : f16
// CHECK: %[[HI:.*]] = vector.extract %[[M]][1] : f16
// CHECK: %[[ROW:.*]] = arith.maximumf %[[LO]], %[[HI]] : f16
// CHECK: gpu.shuffle  xor %{{.*}}, %c1_i32
// CHECK: gpu.shuffle  xor %{{.*}}, %c2_i32
// CHECK: %[[D:.*]] = arith.subf %[[H]], %{{.*}} : vector<2xf16>
// CHECK: %[[D0:.*]] = vector.extract %[[D]][0] : f16
// CHECK: %[[D1:.*]] = vector.extract %[[D]][1] : f16
// CHECK: %[[X0:.*]] = arith.extf %[[D0]] : f16 to f32
// CHECK: %[[E0:.*]] = math.exp2 %{{.*}} fastmath<afn> : f32
// CHECK: %[[X1:.*]] = arith.extf %[[D1]] : f16 to f32
// CHECK: %[[E1:.*]] = math.exp2 %{{.*}} fastmath<afn> : f32
// CHECK: %[[P:.*]] = nvvm.convert.f32x2.to.f16x2 %[[E1]], %[[E0]] {rnd = #nvvm.fp_rnd_mode<rn>} : vector<2xf16>
// CHECK: vector.store %[[P]], %{{.*}} {alignment = 4 : i64} : memref<32x16xf16, strided<[16, 1], offset: ?>>, vector<2xf16>
// No 16-bit op left per element but the halves' combine and the shuffles'.
// CHECK-NOT: arith.mulf %{{.*}} : f16
// CHECK-NOT: arith.subf %{{.*}} : f16
// CHECK: gpu.terminator
func.func @half_softmax_block(%q: memref<64x16xf16>, %k: memref<16x16xf16>, %out: memref<64x16xf16>) {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.125 : f16
  %ninf = arith.constant 0xFC00 : f16
  %c32 = arith.constant 32 : index
  scf.forall (%blk) in (2) {
    %r0 = arith.muli %blk, %c32 : index
    %qg = memref.subview %q[%r0, 0] [32, 16] [1, 1] : memref<64x16xf16> to memref<32x16xf16, strided<[16, 1], offset: ?>>
    %qs = memref.alloc() : memref<32x24xf16>
    %qt = memref.subview %qs[0, 0] [32, 16] [1, 1] : memref<32x24xf16> to memref<32x16xf16, strided<[24, 1]>>
    linalg.copy ins(%qg : memref<32x16xf16, strided<[16, 1], offset: ?>>) outs(%qt : memref<32x16xf16, strided<[24, 1]>>)
    %ks = memref.alloc() : memref<16x24xf16>
    %kt = memref.subview %ks[0, 0] [16, 16] [1, 1] : memref<16x24xf16> to memref<16x16xf16, strided<[24, 1]>>
    linalg.copy ins(%k : memref<16x16xf16>) outs(%kt : memref<16x16xf16, strided<[24, 1]>>)
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
    %h = memref.alloc() : memref<32x16xf16>
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%s : memref<32x16xf32>) outs(%h : memref<32x16xf16>) {
    ^bb0(%x: f32, %o: f16):
      %t = arith.truncf %x : f32 to f16
      %y = arith.mulf %t, %scale : f16
      linalg.yield %y : f16
    }
    %m = memref.alloc() : memref<32xf16>
    linalg.fill ins(%ninf : f16) outs(%m : memref<32xf16>)
    linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%h : memref<32x16xf16>) outs(%m : memref<32xf16>) {
    ^bb0(%x: f16, %o: f16):
      %r = arith.maximumf %x, %o : f16
      linalg.yield %r : f16
    }
    %og = memref.subview %out[%r0, 0] [32, 16] [1, 1] : memref<64x16xf16> to memref<32x16xf16, strided<[16, 1], offset: ?>>
    linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
        ins(%h, %m : memref<32x16xf16>, memref<32xf16>) outs(%og : memref<32x16xf16, strided<[16, 1], offset: ?>>) {
    ^bb0(%x: f16, %mx: f16, %o: f16):
      %d = arith.subf %x, %mx : f16
      %e = math.exp %d : f16
      linalg.yield %e : f16
    }
  } {mapping = [#gpu.block<x>], smap.schedule = #smap.schedule<spatial = [], temporal = [], grid = [], threads = 32, smem = 6144, regs = 255, strategy = row_fragments, stages = 1, blocks_per_sm = 1>}
  return
}
