// Head dims that are no multiple of 64 (80, 96: Phi, some ViTs) run on wgmma
// like 64 and 128: their staged Q, K and V tiles are swizzled in 64-column
// blocks, the last one partly used. The input is the frontends' mixed
// precision attention with the head dim changed (f16 d96, bf16 d80).
// Q.K^T takes head_dim / 16 k-steps of m64n128k16 (the key tile is 128
// wide), P.V eight of m64n<head_dim>k16; before, both fell to mma.sync.
//
// RUN: sed 's/x1024x64x/x1024x96x/g' %S/Inputs/attention_mixed_f16.mlir \
// RUN:   | spacefusion-opt --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=D96
// RUN: sed -e 's/x1024x64x/x1024x80x/g' -e 's/f16/bf16/g' %S/Inputs/attention_mixed_f16.mlir \
// RUN:   | spacefusion-opt --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=D80
//
// D96-LABEL: llvm.func @attention(
// D96-SAME: smap.kernels = [{blocks = 128 : i64, {{.*}}strategy = "row_fragments_wgmma", threads = 128 : i64}]
// D96: gpu.binary @attention_row_fragments_wgmma_64x128_f16
// D96-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// D96-SAME: wgmma.mma_async.sync.aligned.m64n96k16.f32.f16.f16
// D96-NOT: mma.sync.aligned.m16n8k16
//
// D80-LABEL: llvm.func @attention(
// D80-SAME: smap.kernels = [{blocks = 128 : i64, {{.*}}strategy = "row_fragments_wgmma", threads = 128 : i64}]
// D80: gpu.binary @attention_row_fragments_wgmma_64x128_bf16
// D80-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// D80-SAME: wgmma.mma_async.sync.aligned.m64n80k16.f32.bf16.bf16
// D80-NOT: mma.sync.aligned.m16n8k16
