// RUN: spacefusion-opt --smap-distribute-blocks %s | FileCheck %s
// RUN: spacefusion-opt --smap-distribute-blocks=tensor-cores=false %s | FileCheck %s --check-prefix=FMA
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
// CHECK-SAME:    smap.gpu_kernel = "blocks=2 threads=64 smem=0 mma.sync=1"
// CHECK:       gpu.launch
// CHECK:         %[[LANE:.*]] = arith.remui %[[TX:.*]], %c32
// CHECK:         %[[WARP:.*]] = arith.divui %[[TX]], %c32
// CHECK:         scf.for %[[TILE:.*]] = %[[WARP]] to %c2{{.*}} step %c2{{.*}} {
// CHECK-COUNT-4:   memref.load %{{.*}} : memref<32x32xf32, strided<[32, 1], offset: ?>>
// CHECK-NEXT:      %[[C0:.*]] = vector.from_elements {{.*}} : vector<2x2xf32>
// CHECK-COUNT-12:  memref.load %{{.*}} : memref<32x32xf32, strided<[32, 1], offset: ?>>
// CHECK:           scf.for %[[K:.*]] = %c0{{.*}} to %c32{{.*}} step %c16{{.*}} iter_args(%[[ACC0:.*]] = %[[C0]], %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>)
// CHECK:             arith.truncf %{{.*}} : f32 to f16
// CHECK:             %[[A:.*]] = vector.from_elements {{.*}} : vector<4x2xf16>
// CHECK:             %[[B:.*]] = vector.from_elements {{.*}} : vector<2x2xf16>
// CHECK:             %[[D:.*]] = nvgpu.mma.sync(%[[A]], %[[B]], %[[ACC0]]) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK-COUNT-3:     nvgpu.mma.sync
// CHECK:             scf.yield %[[D]]
// CHECK-COUNT-16:  memref.store %{{.*}} : memref<32x32xf32, strided<[32, 1], offset: ?>>
// CHECK:         gpu.barrier

// FMA:         smap.gpu_kernel = "blocks=2 threads=64 smem=0 fma=1"
// FMA-NOT:     nvgpu.mma.sync
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
  } {mapping = [#gpu.block<x>], smap.threads = 64 : i64}
  return
}
