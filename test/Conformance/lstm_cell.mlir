// Conformance: an LSTM cell, batch 64, input and hidden 1024, torch gate order
// i f g o, weights as torch stores them ([4H, in], read transposed): two GEMMs,
// bias, four gate slices (tensor.extract_slice), sigmoid / tanh, returns
// (h', c').
//
// Forms (Inputs/lstm_cell_<form>.mlir, see README.md):
//   mixed_f16    linalg.generic, f16 storage, f32 math, arith.extf / truncf in
//                the bodies (the reference: the other forms are held to its
//                kernels)
//   mixed_bf16   the same in bf16
//   convert_f16  linalg.generic, f32 math, the conversions as generics of
//                their own
//   generic_f16  linalg.generic, f16 storage and compute (a half model;
//                the pipeline widens contraction accumulators)
//   named        two linalg.matmul reading the weights transposed through
//                indexing_maps, linalg.elementwise / linalg.map / linalg.broadcast
//   generic_f32  linalg.generic in f32 (own prefix LSTM-F32)
// and mixed_f16 / generic_f16 after mlir-opt --cse and after
// --linalg-fuse-elementwise-ops --cse, the named form(s) after
// --linalg-generalize-named-ops.
//
// Strategy agreement on sm_90a: these forms get the kernels of the
// mixed-precision form (prefix LSTM).
// RUN: spacefusion-opt %S/Inputs/lstm_cell_mixed_f16.mlir --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=LSTM
// RUN: mlir-opt %S/Inputs/lstm_cell_mixed_f16.mlir --cse | spacefusion-opt --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=LSTM
// RUN: mlir-opt %S/Inputs/lstm_cell_mixed_f16.mlir --linalg-fuse-elementwise-ops --cse | spacefusion-opt --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=LSTM
// RUN: spacefusion-opt %S/Inputs/lstm_cell_mixed_bf16.mlir --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=LSTM
// RUN: spacefusion-opt %S/Inputs/lstm_cell_convert_f16.mlir --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=LSTM
// RUN: spacefusion-opt %S/Inputs/lstm_cell_generic_f16.mlir --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=LSTM
// RUN: mlir-opt %S/Inputs/lstm_cell_generic_f16.mlir --cse | spacefusion-opt --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=LSTM
// RUN: mlir-opt %S/Inputs/lstm_cell_generic_f16.mlir --linalg-fuse-elementwise-ops --cse | spacefusion-opt --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=LSTM
//
// LSTM-LABEL: llvm.func @lstm_cell(
// LSTM-SAME: smap.kernels = [{blocks = 256 : i64, parts = {ldmatrix = 4 : i64, mma_sync = 2 : i64, prefetch = 1 : i64}, predicted = {{[{][^}]+[}]}}, smem = {{[0-9]+}} : i64, strategy = "mma_sync", threads = 256 : i64}, {blocks = 64 : i64, predicted = {{[{][^}]+[}]}}, smem = {{[0-9]+}} : i64, strategy = "simt", threads = 256 : i64}]
// LSTM: gpu.binary @lstm_cell_0_mma_sync_32x32x512_{{b?f16}} [
// LSTM: gpu.binary @lstm_cell_1_simt_{{b?f16}} [
// LSTM-NOT: gpu.binary

// f32 form, for reference: f32 has no tensor-core path, so it
// gets CUDA-core kernels of its own: its GEMMs with k sliced by 256, the
// tiles in two cp.async stages. Without pricing the steps that wait for
// their tiles (`waited-loads=false`) the search took slices of 512 that
// no stage holds twice, loaded at the start of each step.
// RUN: spacefusion-opt %S/Inputs/lstm_cell_generic_f32.mlir --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=LSTM-F32
// RUN: spacefusion-opt %S/Inputs/lstm_cell_generic_f32.mlir '--spacefusion-lower-gpu=format=isa waited-loads=false' \
// RUN:   | FileCheck %s --check-prefix=LSTM-F32-WAITS
// LSTM-F32-LABEL: llvm.func @lstm_cell(
// LSTM-F32-SAME: smap.kernels = [{blocks = 128 : i64, parts = {cp_async = 2 : i64, fma = 1 : i64, fma_lanes = 8 : i64, prefetch = 1 : i64}, predicted = {{[{][^}]+[}]}}, smem = {{[0-9]+}} : i64, strategy = "simt", threads = 256 : i64}, {blocks = 128 : i64, parts = {cp_async = 2 : i64, fma = 1 : i64, fma_lanes = 8 : i64, prefetch = 1 : i64}, predicted = {{[{][^}]+[}]}}, smem = {{[0-9]+}} : i64, strategy = "simt", threads = 256 : i64}, {blocks = 64 : i64, predicted = {{[{][^}]+[}]}}, smem = {{[0-9]+}} : i64, strategy = "simt", threads = 256 : i64}]
// LSTM-F32: gpu.binary @lstm_cell_0_simt_32x256_f32 [
// LSTM-F32: gpu.binary @lstm_cell_1_simt_32x256_f32 [
// LSTM-F32: gpu.binary @lstm_cell_2_simt_f32 [
// LSTM-F32-WAITS-LABEL: llvm.func @lstm_cell(
// LSTM-F32-WAITS-SAME: smap.kernels = [{blocks = 128 : i64, parts = {fma = 1 : i64, fma_lanes = 8 : i64}, predicted = {{[{][^}]+[}]}}, smem = {{[0-9]+}} : i64, strategy = "simt", threads = 256 : i64}, {blocks = 128 : i64, parts = {fma = 1 : i64, fma_lanes = 8 : i64}, predicted = {{[{][^}]+[}]}}, smem = {{[0-9]+}} : i64, strategy = "simt", threads = 256 : i64}, {blocks = 64 : i64, predicted = {{[{][^}]+[}]}}, smem = {{[0-9]+}} : i64, strategy = "simt", threads = 256 : i64}]
// LSTM-F32-WAITS: gpu.binary @lstm_cell_0_simt_32x512_f32 [
// LSTM-F32-NOT: gpu.binary

// The named form, as written and after --linalg-generalize-named-ops (the
// pipeline generalizes named ops itself), gets the reference's kernels too.
// It adds the bias in an op of its own after the sum of the two GEMMs; the
// partition cut before that add while a one-wave grid was priced by its
// block slots (64 blocks of 64 KB filled 64 of 264 slots, as few as 32
// blocks of 128 KB), and its elementwise kernel ran 0.91x of the mixed
// form's (bench/results/one-wave-h100).
// RUN: spacefusion-opt %S/Inputs/lstm_cell_named.mlir --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=LSTM
// RUN: mlir-opt %S/Inputs/lstm_cell_named.mlir --linalg-generalize-named-ops | spacefusion-opt --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=LSTM

// CPU differential, fused against the f64 reference, at batch 64, input and hidden 128
// (scripts/scale-shapes.py 1024=128 2048=256 3072=384 4096=512): the schedule the CPU target picks
// (prefix LSTM-CPU), and one forced to slice the input dim (k) temporally (LSTM-SLICED).
// RUN: python3 %scripts/scale-shapes.py %S/Inputs/lstm_cell_mixed_f16.mlir 1024=128 2048=256 3072=384 4096=512 > %t.mixed_f16.mlir
// RUN: python3 %scripts/scale-shapes.py %S/Inputs/lstm_cell_mixed_bf16.mlir 1024=128 2048=256 3072=384 4096=512 > %t.mixed_bf16.mlir
// RUN: python3 %scripts/scale-shapes.py %S/Inputs/lstm_cell_convert_f16.mlir 1024=128 2048=256 3072=384 4096=512 > %t.convert_f16.mlir
// RUN: python3 %scripts/scale-shapes.py %S/Inputs/lstm_cell_generic_f16.mlir 1024=128 2048=256 3072=384 4096=512 > %t.generic_f16.mlir
// RUN: python3 %scripts/scale-shapes.py %S/Inputs/lstm_cell_named.mlir 1024=128 2048=256 3072=384 4096=512 > %t.named.mlir
// RUN: python3 %scripts/scale-shapes.py %S/Inputs/lstm_cell_generic_f32.mlir 1024=128 2048=256 3072=384 4096=512 > %t.generic_f32.mlir
// RUN: mlir-opt %t.mixed_f16.mlir --cse -o %t.mixed_f16.cse.mlir
// RUN: mlir-opt %t.mixed_f16.mlir --linalg-fuse-elementwise-ops --cse -o %t.mixed_f16.fuse.mlir
// RUN: mlir-opt %t.generic_f16.mlir --cse -o %t.generic_f16.cse.mlir
// RUN: mlir-opt %t.generic_f16.mlir --linalg-fuse-elementwise-ops --cse -o %t.generic_f16.fuse.mlir
// RUN: spacefusion-run %t.mixed_f16.mlir --reps=1 | FileCheck %s --check-prefix=LSTM-CPU
// RUN: spacefusion-run %t.mixed_f16.mlir --reps=1 --spatial=m:16 --temporal=k:64 | FileCheck %s --check-prefix=LSTM-SLICED
// RUN: spacefusion-run %t.mixed_bf16.mlir --reps=1 | FileCheck %s --check-prefix=LSTM-CPU
// RUN: spacefusion-run %t.mixed_bf16.mlir --reps=1 --spatial=m:16 --temporal=k:64 | FileCheck %s --check-prefix=LSTM-SLICED
// RUN: spacefusion-run %t.convert_f16.mlir --reps=1 | FileCheck %s --check-prefix=LSTM-CPU
// RUN: spacefusion-run %t.convert_f16.mlir --reps=1 --spatial=m:16 --temporal=k:64 | FileCheck %s --check-prefix=LSTM-SLICED
// RUN: spacefusion-run %t.generic_f16.mlir --reps=1 | FileCheck %s --check-prefix=LSTM-CPU
// RUN: spacefusion-run %t.generic_f16.mlir --reps=1 --spatial=m:16 --temporal=k:64 | FileCheck %s --check-prefix=LSTM-SLICED
// RUN: spacefusion-run %t.named.mlir --reps=1 | FileCheck %s --check-prefix=LSTM-CPU
// RUN: spacefusion-run %t.named.mlir --reps=1 --spatial=m:16 --temporal=k:64 | FileCheck %s --check-prefix=LSTM-SLICED
// RUN: spacefusion-run %t.generic_f32.mlir --reps=1 | FileCheck %s --check-prefix=LSTM-CPU
// RUN: spacefusion-run %t.generic_f32.mlir --reps=1 --spatial=m:16 --temporal=k:64 | FileCheck %s --check-prefix=LSTM-SLICED
// RUN: spacefusion-run %t.mixed_f16.cse.mlir --reps=1 | FileCheck %s --check-prefix=LSTM-CPU
// RUN: spacefusion-run %t.mixed_f16.fuse.mlir --reps=1 | FileCheck %s --check-prefix=LSTM-CPU
// RUN: spacefusion-run %t.generic_f16.cse.mlir --reps=1 | FileCheck %s --check-prefix=LSTM-CPU
// RUN: spacefusion-run %t.generic_f16.fuse.mlir --reps=1 | FileCheck %s --check-prefix=LSTM-CPU
//
// LSTM-CPU: @lstm_cell on cpu, 1 fusion graph(s):
// LSTM-CPU: out of tolerance: #0 0 of 8192, #1 0 of 8192: PASS
// LSTM-SLICED: @lstm_cell on cpu, 1 fusion graph(s):
// LSTM-SLICED-NEXT: graph 0: #smap.schedule<{{.*}}temporal = [k = 64]{{.*}}>, temporally sliced
// LSTM-SLICED: out of tolerance: #0 0 of 8192, #1 0 of 8192: PASS
