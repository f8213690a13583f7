// Conformance: RMSNorm over Llama-2-7B's hidden dim (2048 tokens x 4096).
//
// Forms (Inputs/rmsnorm_<form>.mlir, see README.md):
//   mixed_f16    linalg.generic, f16 storage, f32 math, arith.extf / truncf in
//                the bodies (the reference: the other forms are held to its
//                kernels)
//   mixed_bf16   the same in bf16
//   convert_f16  linalg.generic, f32 math, the conversions as generics of
//                their own
//   generic_f16  linalg.generic, f16 storage and compute (a half model;
//                the pipeline widens contraction accumulators)
//   named        linalg.map (conversions, scalar math), linalg.elementwise
//                square / mul, linalg.reduce, linalg.broadcast
//   generic_f32  linalg.generic in f32 (own prefix RMS-F32)
// and mixed_f16 / generic_f16 after mlir-opt --cse and after
// --linalg-fuse-elementwise-ops --cse, the named form(s) after
// --linalg-generalize-named-ops.
//
// Strategy agreement on sm_90a: these forms get the kernels of the
// mixed-precision form (prefix RMS).
// RUN: spacefusion-opt %S/Inputs/rmsnorm_mixed_f16.mlir --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=RMS
// RUN: mlir-opt %S/Inputs/rmsnorm_mixed_f16.mlir --cse | spacefusion-opt --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=RMS
// RUN: mlir-opt %S/Inputs/rmsnorm_mixed_f16.mlir --linalg-fuse-elementwise-ops --cse | spacefusion-opt --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=RMS
// RUN: spacefusion-opt %S/Inputs/rmsnorm_mixed_bf16.mlir --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=RMS
// RUN: spacefusion-opt %S/Inputs/rmsnorm_convert_f16.mlir --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=RMS
// RUN: spacefusion-opt %S/Inputs/rmsnorm_generic_f16.mlir --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=RMS
// RUN: mlir-opt %S/Inputs/rmsnorm_generic_f16.mlir --cse | spacefusion-opt --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=RMS
// RUN: mlir-opt %S/Inputs/rmsnorm_generic_f16.mlir --linalg-fuse-elementwise-ops --cse | spacefusion-opt --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=RMS
// RUN: spacefusion-opt %S/Inputs/rmsnorm_named.mlir --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=RMS
// RUN: mlir-opt %S/Inputs/rmsnorm_named.mlir --linalg-generalize-named-ops | spacefusion-opt --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=RMS
//
// RMS-LABEL: llvm.func @rmsnorm(
// RMS-SAME: smap.kernels = [{blocks = 2048 : i64, parts = {chunks = 4 : i64, rows = 2048 : i64, rows_per_block = 1 : i64, vector = 8 : i64}, predicted = {{[{][^}]+[}]}}, smem = {{[0-9]+}} : i64, strategy = "rows", threads = 128 : i64}]
// RMS: gpu.binary @rmsnorm_rows_{{b?f16}} [
// RMS-NOT: gpu.binary

// f32 form, for reference: the same rows strategy, blocks and threads as the
// 16-bit forms; the vector width (4 x f32 against 8 x 16-bit) and so the chunks
// per row differ by the element size, not by the form.
// RUN: spacefusion-opt %S/Inputs/rmsnorm_generic_f32.mlir --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=RMS-F32
// RMS-F32-LABEL: llvm.func @rmsnorm(
// RMS-F32-SAME: smap.kernels = [{blocks = 2048 : i64, parts = {chunks = 8 : i64, rows = 2048 : i64, rows_per_block = 1 : i64, vector = 4 : i64}, predicted = {{[{][^}]+[}]}}, smem = {{[0-9]+}} : i64, strategy = "rows", threads = 128 : i64}]
// RMS-F32: gpu.binary @rmsnorm_rows_f32 [
// RMS-F32-NOT: gpu.binary

// CPU differential, fused against the f64 reference, at 128 x 4096
// (scripts/scale-shapes.py 2048=128): the schedule the CPU target picks
// (prefix RMS-CPU), and one forced to slice the hidden dim (n) temporally (RMS-SLICED).
// RUN: python3 %scripts/scale-shapes.py %S/Inputs/rmsnorm_mixed_f16.mlir 2048=128 > %t.mixed_f16.mlir
// RUN: python3 %scripts/scale-shapes.py %S/Inputs/rmsnorm_mixed_bf16.mlir 2048=128 > %t.mixed_bf16.mlir
// RUN: python3 %scripts/scale-shapes.py %S/Inputs/rmsnorm_convert_f16.mlir 2048=128 > %t.convert_f16.mlir
// RUN: python3 %scripts/scale-shapes.py %S/Inputs/rmsnorm_generic_f16.mlir 2048=128 > %t.generic_f16.mlir
// RUN: python3 %scripts/scale-shapes.py %S/Inputs/rmsnorm_named.mlir 2048=128 > %t.named.mlir
// RUN: python3 %scripts/scale-shapes.py %S/Inputs/rmsnorm_generic_f32.mlir 2048=128 > %t.generic_f32.mlir
// RUN: mlir-opt %t.mixed_f16.mlir --cse -o %t.mixed_f16.cse.mlir
// RUN: mlir-opt %t.mixed_f16.mlir --linalg-fuse-elementwise-ops --cse -o %t.mixed_f16.fuse.mlir
// RUN: mlir-opt %t.generic_f16.mlir --cse -o %t.generic_f16.cse.mlir
// RUN: mlir-opt %t.generic_f16.mlir --linalg-fuse-elementwise-ops --cse -o %t.generic_f16.fuse.mlir
// RUN: spacefusion-run %t.mixed_f16.mlir --reps=1 | FileCheck %s --check-prefix=RMS-CPU
// RUN: spacefusion-run %t.mixed_f16.mlir --reps=1 --spatial=m:8 --temporal=n:512 | FileCheck %s --check-prefix=RMS-SLICED
// RUN: spacefusion-run %t.mixed_bf16.mlir --reps=1 | FileCheck %s --check-prefix=RMS-CPU
// RUN: spacefusion-run %t.mixed_bf16.mlir --reps=1 --spatial=m:8 --temporal=n:512 | FileCheck %s --check-prefix=RMS-SLICED
// RUN: spacefusion-run %t.convert_f16.mlir --reps=1 | FileCheck %s --check-prefix=RMS-CPU
// RUN: spacefusion-run %t.convert_f16.mlir --reps=1 --spatial=m:8 --temporal=n:512 | FileCheck %s --check-prefix=RMS-SLICED
// RUN: spacefusion-run %t.generic_f16.mlir --reps=1 | FileCheck %s --check-prefix=RMS-CPU
// RUN: spacefusion-run %t.generic_f16.mlir --reps=1 --spatial=m:8 --temporal=n:512 | FileCheck %s --check-prefix=RMS-SLICED
// RUN: spacefusion-run %t.named.mlir --reps=1 | FileCheck %s --check-prefix=RMS-CPU
// RUN: spacefusion-run %t.named.mlir --reps=1 --spatial=m:8 --temporal=n:512 | FileCheck %s --check-prefix=RMS-SLICED
// RUN: spacefusion-run %t.generic_f32.mlir --reps=1 | FileCheck %s --check-prefix=RMS-CPU
// RUN: spacefusion-run %t.generic_f32.mlir --reps=1 --spatial=m:8 --temporal=n:512 | FileCheck %s --check-prefix=RMS-SLICED
// RUN: spacefusion-run %t.mixed_f16.cse.mlir --reps=1 | FileCheck %s --check-prefix=RMS-CPU
// RUN: spacefusion-run %t.mixed_f16.fuse.mlir --reps=1 | FileCheck %s --check-prefix=RMS-CPU
// RUN: spacefusion-run %t.generic_f16.cse.mlir --reps=1 | FileCheck %s --check-prefix=RMS-CPU
// RUN: spacefusion-run %t.generic_f16.fuse.mlir --reps=1 | FileCheck %s --check-prefix=RMS-CPU
//
// RMS-CPU: @rmsnorm on cpu, 1 fusion graph(s):
// RMS-CPU: out of tolerance: #0 0 of 524288: PASS
// RMS-SLICED: @rmsnorm on cpu, 1 fusion graph(s):
// RMS-SLICED-NEXT: graph 0: #smap.schedule<{{.*}}temporal = [n = 512]{{.*}}>, temporally sliced
// RMS-SLICED: out of tolerance: #0 0 of 524288: PASS
