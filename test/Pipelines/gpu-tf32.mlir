// `tf32=true` lets f32 contractions read their operands as TF32 on tensor
// cores (mma.sync m16n8k8 .tf32, A by ldmatrix, operands rounded as they
// are loaded); without it they stay f32 products on CUDA cores. Checked on
// the named form, on upstream's generalized and elementwise-fused form of
// a linear layer with bias and ReLU, and on an f16 attention whose V is
// converted by a separate generic (a 16-bit contraction the option leaves
// as it was).
// RUN: spacefusion-opt %s -split-input-file \
// RUN:   --spacefusion-lower-gpu="tf32=true format=isa" | FileCheck %s
// RUN: spacefusion-opt %s -split-input-file --spacefusion-lower-gpu=format=isa \
// RUN:   | FileCheck %s --check-prefix=F32
// RUN: mlir-opt %s -split-input-file --linalg-generalize-named-ops \
// RUN:   --linalg-fuse-elementwise-ops --cse \
// RUN: | spacefusion-opt -split-input-file \
// RUN:   --spacefusion-lower-gpu="tf32=true format=isa" | FileCheck %s
// RUN: spacefusion-opt %s -split-input-file \
// RUN:   --spacefusion-lower-gpu="tf32=true format=isa" \
// RUN:   --mlir-print-ir-before=smap-distribute-blocks -o /dev/null 2>&1 \
// RUN: | FileCheck %s --check-prefix=PAD
// RUN: spacefusion-opt %S/Inputs/attention_f16.mlir \
// RUN:   --spacefusion-pipeline="tf32=true lower-to-gpu=false" \
// RUN: | FileCheck %s --check-prefix=HALF

// CHECK-LABEL: llvm.func @linear_f32(
// CHECK-SAME: strategy = "mma_sync"
// CHECK: gpu.binary @linear_f32_mma_sync_
// CHECK-SAME: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK-SAME: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// CHECK-NOT: fma.rn.f32
// F32-LABEL: llvm.func @linear_f32(
// F32-SAME: strategy = "simt"
// F32-NOT: tf32
func.func @linear_f32(%x: tensor<1024x512xf32>, %w: tensor<512x768xf32>, %bias: tensor<768xf32>) -> tensor<1024x768xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x768xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1024x768xf32>) -> tensor<1024x768xf32>
  %y = linalg.matmul ins(%x, %w : tensor<1024x512xf32>, tensor<512x768xf32>) outs(%f : tensor<1024x768xf32>) -> tensor<1024x768xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%y, %bias : tensor<1024x768xf32>, tensor<768xf32>) outs(%e : tensor<1024x768xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1024x768xf32>
  return %r : tensor<1024x768xf32>
}

// The staged tiles: A [m, k] rows padded by 16 bytes, for ldmatrix; B
// [k, n], read element by element (4 k rows x 8 columns a load), by 8
// elements, so that its rows start 8 banks apart.
// PAD-LABEL: func.func @linear_f32(
// PAD-DAG: memref.alloc() {{.*}} : memref<128x132xf32>
// PAD-DAG: memref.alloc() {{.*}} : memref<128x72xf32>

// HALF: strategy = row_fragments_wgmma
// HALF-NOT: strategy = simt
// HALF-NOT: tf32
