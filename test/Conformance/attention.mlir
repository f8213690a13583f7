// Conformance: attention as BERT-base runs it (b16 h12 s512 d64), no mask,
// O = softmax(Q K^T / 8) V, P rounded to the storage type before P.V.
//
// Forms (Inputs/attention_<form>.mlir, see README.md):
//   mixed_f16    linalg.generic, f16 storage, f32 math, arith.extf / truncf in
//                the bodies (the reference: the other forms are held to its
//                kernels)
//   mixed_bf16   the same in bf16
//   convert_f16  linalg.generic, f32 math, the conversions as generics of
//                their own (P rounded by a truncf generic and read back by
//                an extf generic)
//   generic_f16  linalg.generic, f16 storage and compute (a half model;
//                the pipeline widens contraction accumulators)
//   named        collapse_shape of the heads into the batch, linalg.transpose
//                of K, linalg.batch_matmul, linalg.map, linalg.softmax,
//                linalg.map truncf, expand_shape
//   named_3d     the named ops with the heads folded in the signature
//                (192 x 512 x 64, no reshapes)
//   generic_f32  linalg.generic in f32 (own prefix ATTN-F32)
// and mixed_f16 / generic_f16 after mlir-opt --cse and after
// --linalg-fuse-elementwise-ops --cse, the named form(s) after
// --linalg-generalize-named-ops.
//
// Strategy agreement on sm_90a: these forms get the kernels of the
// mixed-precision form (prefix ATTN).
// RUN: spacefusion-opt %S/Inputs/attention_mixed_f16.mlir --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=ATTN
// RUN: mlir-opt %S/Inputs/attention_mixed_f16.mlir --cse | spacefusion-opt --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=ATTN
// RUN: mlir-opt %S/Inputs/attention_mixed_f16.mlir --linalg-fuse-elementwise-ops --cse | spacefusion-opt --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=ATTN
// RUN: spacefusion-opt %S/Inputs/attention_mixed_bf16.mlir --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=ATTN
// RUN: spacefusion-opt %S/Inputs/attention_convert_f16.mlir --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=ATTN
// RUN: spacefusion-opt %S/Inputs/attention_named.mlir --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=ATTN
// RUN: mlir-opt %S/Inputs/attention_named.mlir --linalg-generalize-named-ops | spacefusion-opt --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=ATTN
// RUN: spacefusion-opt %S/Inputs/attention_named_3d.mlir --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=ATTN
//
// ATTN-LABEL: llvm.func @attention(
// ATTN-SAME: smap.kernels = [{blocks = 768 : i64, parts = {cp_async = 2 : i64, prefetch = 1 : i64, register_tiles = 9 : i64, warp_rows = 16 : i64, wgmma = 2 : i64}, predicted = {{[{][^}]+[}]}}, smem = {{[0-9]+}} : i64, strategy = "row_fragments_wgmma", threads = 256 : i64}]
// ATTN: gpu.binary @attention_row_fragments_wgmma_128x128_{{b?f16}} [
// ATTN-NOT: gpu.binary

// f32 form, for reference: f32 has no tensor-core path, so it
// gets CUDA-core kernels of its own.
// RUN: spacefusion-opt %S/Inputs/attention_generic_f32.mlir --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=ATTN-F32
// ATTN-F32-LABEL: llvm.func @attention(
// ATTN-F32-SAME: smap.kernels = [{blocks = 768 : i64, parts = {cp_async = 3 : i64, fma = 2 : i64, fma_lanes = 32 : i64, prefetch = 1 : i64}, predicted = {{[{][^}]+[}]}}, smem = {{[0-9]+}} : i64, strategy = "simt", threads = 256 : i64}]
// ATTN-F32: gpu.binary @attention_simt_128x64_f32 [
// ATTN-F32-NOT: gpu.binary

// GAP: f16 storage and compute (what a half model lowers to) gets the mixed
// form's kernel, strategy, blocks and threads, but keeps one more tile in
// registers (10 against 9), with the same predicted registers and shared
// memory: the f32 accumulator of the widened Q.K^T and the f16 tile of the
// scores the form rounds before its f16 scale, where the mixed form scales
// the f32 accumulator in place (README.md, gap 2). The same after --cse,
// and after --linalg-fuse-elementwise-ops (which agreed only while the P.V
// it fused the probabilities into accumulated in f16: the contraction was
// split from its prologue after the accumulators were widened).
// RUN: spacefusion-opt %S/Inputs/attention_generic_f16.mlir --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=GAP-F16
// RUN: mlir-opt %S/Inputs/attention_generic_f16.mlir --cse | spacefusion-opt --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=GAP-F16
// RUN: mlir-opt %S/Inputs/attention_generic_f16.mlir --linalg-fuse-elementwise-ops --cse | spacefusion-opt --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=GAP-F16
// GAP-F16-LABEL: llvm.func @attention(
// GAP-F16-SAME: smap.kernels = [{blocks = 768 : i64, parts = {cp_async = 2 : i64, prefetch = 1 : i64, register_tiles = 10 : i64, warp_rows = 16 : i64, wgmma = 2 : i64}, predicted = {{[{][^}]+[}]}}, smem = {{[0-9]+}} : i64, strategy = "row_fragments_wgmma", threads = 256 : i64}]
// GAP-F16: gpu.binary @attention_row_fragments_wgmma_128x128_f16 [
// GAP-F16-NOT: gpu.binary

// CPU differential, fused against the f64 reference, at b1 h2 s256 d64
// (scripts/scale-shapes.py 16=1 12=2 512=256 192=2): the schedule the CPU target picks
// (prefix ATTN-CPU), and one forced to slice the keys (l) temporally (ATTN-SLICED).
// RUN: python3 %scripts/scale-shapes.py %S/Inputs/attention_mixed_f16.mlir 16=1 12=2 512=256 192=2 > %t.mixed_f16.mlir
// RUN: python3 %scripts/scale-shapes.py %S/Inputs/attention_mixed_bf16.mlir 16=1 12=2 512=256 192=2 > %t.mixed_bf16.mlir
// RUN: python3 %scripts/scale-shapes.py %S/Inputs/attention_convert_f16.mlir 16=1 12=2 512=256 192=2 > %t.convert_f16.mlir
// RUN: python3 %scripts/scale-shapes.py %S/Inputs/attention_generic_f16.mlir 16=1 12=2 512=256 192=2 > %t.generic_f16.mlir
// RUN: python3 %scripts/scale-shapes.py %S/Inputs/attention_named.mlir 16=1 12=2 512=256 192=2 > %t.named.mlir
// RUN: python3 %scripts/scale-shapes.py %S/Inputs/attention_generic_f32.mlir 16=1 12=2 512=256 192=2 > %t.generic_f32.mlir
// RUN: python3 %scripts/scale-shapes.py %S/Inputs/attention_named_3d.mlir 16=1 12=2 512=256 192=2 > %t.named_3d.mlir
// RUN: mlir-opt %t.mixed_f16.mlir --cse -o %t.mixed_f16.cse.mlir
// RUN: mlir-opt %t.mixed_f16.mlir --linalg-fuse-elementwise-ops --cse -o %t.mixed_f16.fuse.mlir
// RUN: mlir-opt %t.generic_f16.mlir --cse -o %t.generic_f16.cse.mlir
// RUN: mlir-opt %t.generic_f16.mlir --linalg-fuse-elementwise-ops --cse -o %t.generic_f16.fuse.mlir
// RUN: spacefusion-run %t.mixed_f16.mlir --reps=1 | FileCheck %s --check-prefix=ATTN-CPU
// RUN: spacefusion-run %t.mixed_f16.mlir --reps=1 --spatial=h:1,m:64 --temporal=l:64 | FileCheck %s --check-prefix=ATTN-SLICED
// RUN: spacefusion-run %t.mixed_bf16.mlir --reps=1 | FileCheck %s --check-prefix=ATTN-CPU
// RUN: spacefusion-run %t.mixed_bf16.mlir --reps=1 --spatial=h:1,m:64 --temporal=l:64 | FileCheck %s --check-prefix=ATTN-SLICED
// RUN: spacefusion-run %t.convert_f16.mlir --reps=1 | FileCheck %s --check-prefix=ATTN-CPU
// RUN: spacefusion-run %t.convert_f16.mlir --reps=1 --spatial=h:1,m:64 --temporal=l:64 | FileCheck %s --check-prefix=ATTN-SLICED
// RUN: spacefusion-run %t.named.mlir --reps=1 | FileCheck %s --check-prefix=ATTN-CPU
// RUN: spacefusion-run %t.generic_f32.mlir --reps=1 | FileCheck %s --check-prefix=ATTN-CPU
// RUN: spacefusion-run %t.generic_f32.mlir --reps=1 --spatial=h:1,m:64 --temporal=l:64 | FileCheck %s --check-prefix=ATTN-SLICED
// RUN: spacefusion-run %t.named_3d.mlir --reps=1 | FileCheck %s --check-prefix=ATTN-CPU
// RUN: spacefusion-run %t.named_3d.mlir --reps=1 --spatial=b:1,m:64 --temporal=l:64 | FileCheck %s --check-prefix=ATTN-SLICED
// RUN: spacefusion-run %t.mixed_f16.cse.mlir --reps=1 | FileCheck %s --check-prefix=ATTN-CPU
// RUN: spacefusion-run %t.mixed_f16.fuse.mlir --reps=1 | FileCheck %s --check-prefix=ATTN-CPU
//
// ATTN-CPU: @attention on cpu, 1 fusion graph(s):
// ATTN-CPU: out of tolerance: #0 0 of 32768: PASS
// ATTN-SLICED: @attention on cpu, 1 fusion graph(s):
// ATTN-SLICED-NEXT: graph 0: #smap.schedule<{{.*}}temporal = [l = 64]{{.*}}>, temporally sliced
// ATTN-SLICED: out of tolerance: #0 0 of 32768: PASS

// f16 storage and compute: the fused program accumulates Q.K^T, P.V and the
// softmax's row sum in f32 (smap-widen-accumulators, what the pipelines do),
// the unfused one in f16; both schedules pass, and so does the program left
// in f16 (--widen-accumulators=false).
// RUN: spacefusion-run %t.generic_f16.mlir --reps=1 | FileCheck %s --check-prefix=ATTN-CPU
// RUN: spacefusion-run %t.generic_f16.cse.mlir --reps=1 | FileCheck %s --check-prefix=ATTN-CPU
// RUN: spacefusion-run %t.generic_f16.fuse.mlir --reps=1 | FileCheck %s --check-prefix=ATTN-CPU
// RUN: spacefusion-run %t.generic_f16.mlir --reps=1 --widen-accumulators=false | FileCheck %s --check-prefix=ATTN-CPU
// RUN: spacefusion-run %t.generic_f16.mlir --reps=1 --spatial=h:1,m:64 --temporal=l:64 | FileCheck %s --check-prefix=ATTN-SLICED
// RUN: spacefusion-run %t.generic_f16.cse.mlir --reps=1 --spatial=h:1,m:64 --temporal=l:64 | FileCheck %s --check-prefix=ATTN-SLICED
// RUN: spacefusion-run %t.generic_f16.fuse.mlir --reps=1 --spatial=h:1,m:64 --temporal=l:64 | FileCheck %s --check-prefix=ATTN-SLICED

// RUN: spacefusion-run %t.named.mlir --reps=1 --spatial=h:1,m:64 --temporal=l:64 | FileCheck %s --check-prefix=ATTN-SLICED
