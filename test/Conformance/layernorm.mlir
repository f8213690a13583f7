// Conformance: LayerNorm over BERT-base's hidden dim (8192 tokens x 768),
// decomposed as torch-mlir writes aten.native_layer_norm (mean, centered,
// variance, rsqrt, gamma, beta).
//
// Forms (Inputs/layernorm_<form>.mlir, see README.md):
//   mixed_f16    linalg.generic, f16 storage, f32 math, arith.extf / truncf in
//                the bodies (the reference: the other forms are held to its
//                kernels)
//   mixed_bf16   the same in bf16
//   convert_f16  linalg.generic, f32 math, the conversions as generics of
//                their own
//   generic_f16  linalg.generic, f16 storage and compute (a half model;
//                the pipeline widens contraction accumulators)
//   named        StableHLO primitive ops: linalg.map (conversions, scalar
//                math), linalg.reduce, linalg.broadcast, linalg.elementwise
//   generic_f32  linalg.generic in f32 (own prefix LN-F32)
// and mixed_f16 / generic_f16 after mlir-opt --cse and after
// --linalg-fuse-elementwise-ops --cse, the named form(s) after
// --linalg-generalize-named-ops.
//
// Strategy agreement on sm_90a: these forms get the kernels of the
// mixed-precision form (prefix LN).
// RUN: spacefusion-opt %S/Inputs/layernorm_mixed_f16.mlir --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=LN
// RUN: mlir-opt %S/Inputs/layernorm_mixed_f16.mlir --cse | spacefusion-opt --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=LN
// RUN: mlir-opt %S/Inputs/layernorm_mixed_f16.mlir --linalg-fuse-elementwise-ops --cse | spacefusion-opt --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=LN
// RUN: spacefusion-opt %S/Inputs/layernorm_mixed_bf16.mlir --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=LN
// RUN: spacefusion-opt %S/Inputs/layernorm_convert_f16.mlir --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=LN
// RUN: spacefusion-opt %S/Inputs/layernorm_generic_f16.mlir --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=LN
// RUN: mlir-opt %S/Inputs/layernorm_generic_f16.mlir --cse | spacefusion-opt --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=LN
// RUN: mlir-opt %S/Inputs/layernorm_generic_f16.mlir --linalg-fuse-elementwise-ops --cse | spacefusion-opt --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=LN
// RUN: spacefusion-opt %S/Inputs/layernorm_named.mlir --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=LN
// RUN: mlir-opt %S/Inputs/layernorm_named.mlir --linalg-generalize-named-ops | spacefusion-opt --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=LN
//
// LN-LABEL: llvm.func @layernorm(
// LN-SAME: smap.kernels = [{blocks = 4096 : i64, parts = {chunks = 3 : i64, rows = 8192 : i64, rows_per_block = 2 : i64, vector = 8 : i64}, predicted = {{[{][^}]+[}]}}, smem = {{[0-9]+}} : i64, strategy = "rows", threads = 64 : i64}]
// LN: gpu.binary @layernorm_rows_{{b?f16}} [
// LN-NOT: gpu.binary

// f32 form, for reference: the same rows strategy, blocks and threads as the
// 16-bit forms; the vector width (4 x f32 against 8 x 16-bit) and so the chunks
// per row differ by the element size, not by the form.
// RUN: spacefusion-opt %S/Inputs/layernorm_generic_f32.mlir --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=LN-F32
// LN-F32-LABEL: llvm.func @layernorm(
// LN-F32-SAME: smap.kernels = [{blocks = 4096 : i64, parts = {chunks = 6 : i64, rows = 8192 : i64, rows_per_block = 2 : i64, vector = 4 : i64}, predicted = {{[{][^}]+[}]}}, smem = {{[0-9]+}} : i64, strategy = "rows", threads = 64 : i64}]
// LN-F32: gpu.binary @layernorm_rows_f32 [
// LN-F32-NOT: gpu.binary

// CPU differential, fused against the f64 reference, at 256 x 768
// (scripts/scale-shapes.py 8192=256): the schedule the CPU target picks
// (prefix LN-CPU), and one forced to slice the hidden dim (n) temporally (LN-SLICED).
// RUN: python3 %scripts/scale-shapes.py %S/Inputs/layernorm_mixed_f16.mlir 8192=256 > %t.mixed_f16.mlir
// RUN: python3 %scripts/scale-shapes.py %S/Inputs/layernorm_mixed_bf16.mlir 8192=256 > %t.mixed_bf16.mlir
// RUN: python3 %scripts/scale-shapes.py %S/Inputs/layernorm_convert_f16.mlir 8192=256 > %t.convert_f16.mlir
// RUN: python3 %scripts/scale-shapes.py %S/Inputs/layernorm_generic_f16.mlir 8192=256 > %t.generic_f16.mlir
// RUN: python3 %scripts/scale-shapes.py %S/Inputs/layernorm_named.mlir 8192=256 > %t.named.mlir
// RUN: python3 %scripts/scale-shapes.py %S/Inputs/layernorm_generic_f32.mlir 8192=256 > %t.generic_f32.mlir
// RUN: mlir-opt %t.mixed_f16.mlir --cse -o %t.mixed_f16.cse.mlir
// RUN: mlir-opt %t.mixed_f16.mlir --linalg-fuse-elementwise-ops --cse -o %t.mixed_f16.fuse.mlir
// RUN: mlir-opt %t.generic_f16.mlir --cse -o %t.generic_f16.cse.mlir
// RUN: mlir-opt %t.generic_f16.mlir --linalg-fuse-elementwise-ops --cse -o %t.generic_f16.fuse.mlir
// RUN: spacefusion-run %t.mixed_f16.mlir --reps=1 | FileCheck %s --check-prefix=LN-CPU
// RUN: spacefusion-run %t.mixed_f16.mlir --reps=1 --spatial=m:8 --temporal=n:128 | FileCheck %s --check-prefix=LN-SLICED
// RUN: spacefusion-run %t.mixed_bf16.mlir --reps=1 | FileCheck %s --check-prefix=LN-CPU
// RUN: spacefusion-run %t.mixed_bf16.mlir --reps=1 --spatial=m:8 --temporal=n:128 | FileCheck %s --check-prefix=LN-SLICED
// RUN: spacefusion-run %t.convert_f16.mlir --reps=1 | FileCheck %s --check-prefix=LN-CPU
// RUN: spacefusion-run %t.convert_f16.mlir --reps=1 --spatial=m:8 --temporal=n:128 | FileCheck %s --check-prefix=LN-SLICED
// RUN: spacefusion-run %t.generic_f16.mlir --reps=1 | FileCheck %s --check-prefix=LN-CPU
// RUN: spacefusion-run %t.generic_f16.mlir --reps=1 --spatial=m:8 --temporal=n:128 | FileCheck %s --check-prefix=LN-SLICED
// RUN: spacefusion-run %t.named.mlir --reps=1 | FileCheck %s --check-prefix=LN-CPU
// RUN: spacefusion-run %t.named.mlir --reps=1 --spatial=m:8 --temporal=n:128 | FileCheck %s --check-prefix=LN-SLICED
// RUN: spacefusion-run %t.generic_f32.mlir --reps=1 | FileCheck %s --check-prefix=LN-CPU
// RUN: spacefusion-run %t.generic_f32.mlir --reps=1 --spatial=m:8 --temporal=n:128 | FileCheck %s --check-prefix=LN-SLICED
// RUN: spacefusion-run %t.mixed_f16.cse.mlir --reps=1 | FileCheck %s --check-prefix=LN-CPU
// RUN: spacefusion-run %t.mixed_f16.fuse.mlir --reps=1 | FileCheck %s --check-prefix=LN-CPU
// RUN: spacefusion-run %t.generic_f16.cse.mlir --reps=1 | FileCheck %s --check-prefix=LN-CPU
// RUN: spacefusion-run %t.generic_f16.fuse.mlir --reps=1 | FileCheck %s --check-prefix=LN-CPU
//
// LN-CPU: @layernorm on cpu, 1 fusion graph(s):
// LN-CPU: out of tolerance: #0 0 of 196608: PASS
// LN-SLICED: @layernorm on cpu, 1 fusion graph(s):
// LN-SLICED-NEXT: graph 0: #smap.schedule<{{.*}}temporal = [n = 128]{{.*}}>, temporally sliced
// LN-SLICED: out of tolerance: #0 0 of 196608: PASS
