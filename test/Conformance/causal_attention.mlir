// Conformance: causal attention as Llama-2-7B prefill runs it (b1 h32 s2048
// d128): scores of keys after the query (linalg.index compare, select of
// -inf) masked, scale 1/sqrt(128), P rounded before P.V.
//
// Forms (Inputs/causal_attention_<form>.mlir, see README.md):
//   mixed_f16    linalg.generic, f16 storage, f32 math, arith.extf / truncf in
//                the bodies (the reference: the other forms are held to its
//                kernels)
//   mixed_bf16   the same in bf16
//   convert_f16  linalg.generic, f32 math, the conversions as generics of
//                their own (P rounded by a truncf generic and read back by
//                an extf generic)
//   generic_f16  linalg.generic, f16 storage and compute (a half model;
//                the pipeline widens contraction accumulators)
//   named        collapse_shape of the heads into the batch, linalg.batch_matmul
//                reading K transposed through indexing_maps, the mask in a
//                linalg.generic, linalg.softmax, linalg.map truncf, expand_shape
//   generic_f32  linalg.generic in f32 (own prefix CAUSAL-F32)
// and mixed_f16 / generic_f16 after mlir-opt --cse and after
// --linalg-fuse-elementwise-ops --cse, the named form(s) after
// --linalg-generalize-named-ops.
//
// Strategy agreement on sm_90a: these forms get the kernels of the
// mixed-precision form (prefix CAUSAL).
// RUN: spacefusion-opt %S/Inputs/causal_attention_mixed_f16.mlir --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=CAUSAL
// RUN: mlir-opt %S/Inputs/causal_attention_mixed_f16.mlir --cse | spacefusion-opt --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=CAUSAL
// RUN: mlir-opt %S/Inputs/causal_attention_mixed_f16.mlir --linalg-fuse-elementwise-ops --cse | spacefusion-opt --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=CAUSAL
// RUN: spacefusion-opt %S/Inputs/causal_attention_mixed_bf16.mlir --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=CAUSAL
// RUN: spacefusion-opt %S/Inputs/causal_attention_convert_f16.mlir --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=CAUSAL
// RUN: spacefusion-opt %S/Inputs/causal_attention_named.mlir --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=CAUSAL
// RUN: mlir-opt %S/Inputs/causal_attention_named.mlir --linalg-generalize-named-ops | spacefusion-opt --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=CAUSAL
//
// CAUSAL-LABEL: llvm.func @causal_attention(
// CAUSAL-SAME: smap.kernels = [{blocks = 512 : i64, parts = {cp_async = 2 : i64, prefetch = 1 : i64, register_tiles = 9 : i64, warp_rows = 16 : i64, wgmma = 2 : i64}, predicted = {{[{][^}]+[}]}}, smem = {{[0-9]+}} : i64, strategy = "row_fragments_wgmma", threads = 256 : i64}]
// CAUSAL: gpu.binary @causal_attention_row_fragments_wgmma_128x128_{{b?f16}} [
// CAUSAL-NOT: gpu.binary

// f32 form, for reference: f32 has no tensor-core path, so it
// gets CUDA-core kernels of its own.
// RUN: spacefusion-opt %S/Inputs/causal_attention_generic_f32.mlir --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=CAUSAL-F32
// CAUSAL-F32-LABEL: llvm.func @causal_attention(
// CAUSAL-F32-SAME: smap.kernels = [{blocks = 512 : i64, parts = {cp_async = 2 : i64, fma = 2 : i64, fma_lanes = 64 : i64, prefetch = 1 : i64}, predicted = {{[{][^}]+[}]}}, smem = {{[0-9]+}} : i64, strategy = "simt", threads = 256 : i64}]
// CAUSAL-F32: gpu.binary @causal_attention_simt_128x32_f32 [
// CAUSAL-F32-NOT: gpu.binary

// GAP: f16 storage and compute (what a half model lowers to) gets the mixed
// form's kernel, strategy, blocks and threads, but keeps one more tile in
// registers (10 against 9), with the same predicted registers and shared
// memory: the f32 accumulator of the widened Q.K^T and the f16 tile of the
// scores the form rounds before its f16 scale, where the mixed form scales
// the f32 accumulator in place (README.md, gap 2). The same after --cse,
// and after --linalg-fuse-elementwise-ops (which agreed only while the P.V
// it fused the probabilities into accumulated in f16: the contraction was
// split from its prologue after the accumulators were widened).
// RUN: spacefusion-opt %S/Inputs/causal_attention_generic_f16.mlir --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=GAP-F16
// RUN: mlir-opt %S/Inputs/causal_attention_generic_f16.mlir --cse | spacefusion-opt --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=GAP-F16
// RUN: mlir-opt %S/Inputs/causal_attention_generic_f16.mlir --linalg-fuse-elementwise-ops --cse | spacefusion-opt --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=GAP-F16
// GAP-F16-LABEL: llvm.func @causal_attention(
// GAP-F16-SAME: smap.kernels = [{blocks = 512 : i64, parts = {cp_async = 2 : i64, prefetch = 1 : i64, register_tiles = 10 : i64, warp_rows = 16 : i64, wgmma = 2 : i64}, predicted = {{[{][^}]+[}]}}, smem = {{[0-9]+}} : i64, strategy = "row_fragments_wgmma", threads = 256 : i64}]
// GAP-F16: gpu.binary @causal_attention_row_fragments_wgmma_128x128_f16 [
// GAP-F16-NOT: gpu.binary

// CPU differential, fused against the f64 reference, at b1 h2 s256 d128
// (scripts/scale-shapes.py 32=2 2048=256): the schedule the CPU target picks
// (prefix CAUSAL-CPU), and one forced to slice the keys (l) temporally (CAUSAL-SLICED).
// RUN: python3 %scripts/scale-shapes.py %S/Inputs/causal_attention_mixed_f16.mlir 32=2 2048=256 > %t.mixed_f16.mlir
// RUN: python3 %scripts/scale-shapes.py %S/Inputs/causal_attention_mixed_bf16.mlir 32=2 2048=256 > %t.mixed_bf16.mlir
// RUN: python3 %scripts/scale-shapes.py %S/Inputs/causal_attention_convert_f16.mlir 32=2 2048=256 > %t.convert_f16.mlir
// RUN: python3 %scripts/scale-shapes.py %S/Inputs/causal_attention_generic_f16.mlir 32=2 2048=256 > %t.generic_f16.mlir
// RUN: python3 %scripts/scale-shapes.py %S/Inputs/causal_attention_named.mlir 32=2 2048=256 > %t.named.mlir
// RUN: python3 %scripts/scale-shapes.py %S/Inputs/causal_attention_generic_f32.mlir 32=2 2048=256 > %t.generic_f32.mlir
// RUN: mlir-opt %t.mixed_f16.mlir --cse -o %t.mixed_f16.cse.mlir
// RUN: mlir-opt %t.mixed_f16.mlir --linalg-fuse-elementwise-ops --cse -o %t.mixed_f16.fuse.mlir
// RUN: mlir-opt %t.generic_f16.mlir --cse -o %t.generic_f16.cse.mlir
// RUN: mlir-opt %t.generic_f16.mlir --linalg-fuse-elementwise-ops --cse -o %t.generic_f16.fuse.mlir
// RUN: spacefusion-run %t.mixed_f16.mlir --reps=1 | FileCheck %s --check-prefix=CAUSAL-CPU
// RUN: spacefusion-run %t.mixed_f16.mlir --reps=1 --spatial=h:1,m:64 --temporal=l:64 | FileCheck %s --check-prefix=CAUSAL-SLICED
// RUN: spacefusion-run %t.mixed_bf16.mlir --reps=1 | FileCheck %s --check-prefix=CAUSAL-CPU
// RUN: spacefusion-run %t.mixed_bf16.mlir --reps=1 --spatial=h:1,m:64 --temporal=l:64 | FileCheck %s --check-prefix=CAUSAL-SLICED
// RUN: spacefusion-run %t.convert_f16.mlir --reps=1 | FileCheck %s --check-prefix=CAUSAL-CPU
// RUN: spacefusion-run %t.convert_f16.mlir --reps=1 --spatial=h:1,m:64 --temporal=l:64 | FileCheck %s --check-prefix=CAUSAL-SLICED
// RUN: spacefusion-run %t.generic_f16.mlir --reps=1 | FileCheck %s --check-prefix=CAUSAL-CPU
// RUN: spacefusion-run %t.named.mlir --reps=1 | FileCheck %s --check-prefix=CAUSAL-CPU
// RUN: spacefusion-run %t.generic_f32.mlir --reps=1 | FileCheck %s --check-prefix=CAUSAL-CPU
// RUN: spacefusion-run %t.generic_f32.mlir --reps=1 --spatial=h:1,m:64 --temporal=l:64 | FileCheck %s --check-prefix=CAUSAL-SLICED
// RUN: spacefusion-run %t.mixed_f16.cse.mlir --reps=1 | FileCheck %s --check-prefix=CAUSAL-CPU
// RUN: spacefusion-run %t.mixed_f16.fuse.mlir --reps=1 | FileCheck %s --check-prefix=CAUSAL-CPU
// RUN: spacefusion-run %t.generic_f16.cse.mlir --reps=1 | FileCheck %s --check-prefix=CAUSAL-CPU
// RUN: spacefusion-run %t.generic_f16.fuse.mlir --reps=1 | FileCheck %s --check-prefix=CAUSAL-CPU
// RUN: spacefusion-run %t.generic_f16.mlir --reps=1 --spatial=h:1,m:64 --temporal=l:64 | FileCheck %s --check-prefix=CAUSAL-SLICED
// RUN: spacefusion-run %t.generic_f16.cse.mlir --reps=1 --spatial=h:1,m:64 --temporal=l:64 | FileCheck %s --check-prefix=CAUSAL-SLICED
// RUN: spacefusion-run %t.generic_f16.fuse.mlir --reps=1 --spatial=h:1,m:64 --temporal=l:64 | FileCheck %s --check-prefix=CAUSAL-SLICED
//
// CAUSAL-CPU: @causal_attention on cpu, 1 fusion graph(s):
// CAUSAL-CPU: out of tolerance: #0 0 of 65536: PASS
// CAUSAL-SLICED: @causal_attention on cpu, 1 fusion graph(s):
// CAUSAL-SLICED-NEXT: graph 0: #smap.schedule<{{.*}}temporal = [l = 64]{{.*}}>, temporally sliced
// CAUSAL-SLICED: out of tolerance: #0 0 of 65536: PASS

// RUN: spacefusion-run %t.named.mlir --reps=1 --spatial=h:1,m:64 --temporal=l:64 | FileCheck %s --check-prefix=CAUSAL-SLICED
