// Inputs that crashed or failed the whole pipeline (issue 17, item 10).
//
// An unregistered op (with --allow-unregistered-dialect), in a linalg body
// and on its own: SIGSEGV in smap-form-graphs (an op without a dialect).
// It stays outside every graph; on the GPU path that is an error naming it.
// RUN: spacefusion-opt --allow-unregistered-dialect %S/Inputs/unregistered-op.mlir --smap-form-graphs \
// RUN:   --remarks-filter=smap --remark-format=emitRemark 2>&1 >/dev/null | FileCheck %s --check-prefix=UNREG
// RUN: not spacefusion-opt --allow-unregistered-dialect %S/Inputs/unregistered-op.mlir \
// RUN:   --spacefusion-pipeline="target=sm_90a" -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNREG-GPU
// UNREG: remark: [Missed] unsupported | Category:smap:form-graphs | Function={{[a-z_0-9]+}} | Remark="'linalg.generic' left outside any smap.graph: body op 'foo.bar' has side effects"
// UNREG-GPU: error: 'linalg.generic' cannot be compiled for the GPU: it is outside every fusion graph and cannot run as a loop kernel: body op 'foo.bar' has side effects
//
// A function returning one value twice: SIGSEGV in upstream's
// buffer-results-to-out-params on sm_90a. The repeated result gets its own
// copy, which joins the graph.
// RUN: spacefusion-opt %S/Inputs/returned-twice.mlir --smap-form-graphs | FileCheck %s --check-prefix=TWICE
// RUN: spacefusion-opt %S/Inputs/returned-twice.mlir --spacefusion-pipeline="target=sm_90a" | FileCheck %s --check-prefix=TWICE-GPU
// RUN: spacefusion-run %S/Inputs/returned-twice.mlir --reps=1 | FileCheck %s --check-prefix=PASS
// TWICE: %[[G:.+]]:2 = smap.graph
// TWICE: return %[[G]]#0, %[[G]]#1
// TWICE-GPU: gpu.binary @twice_rows_f32
//
// A view chain of another factorization (32x16 -> 512 -> 16x32, as torch's
// view writes it): the SMG cannot align the dims, which failed the whole
// pipeline. The reshape stays outside the graphs, with a remark, and the
// rest fuses around it.
// RUN: spacefusion-opt %S/Inputs/view-refactorized.mlir --smap-form-graphs \
// RUN:   --remarks-filter=smap --remark-format=emitRemark 2>&1 >/dev/null | FileCheck %s --check-prefix=VIEW
// RUN: spacefusion-opt %S/Inputs/view-refactorized.mlir --spacefusion-pipeline="target=sm_90a" | FileCheck %s --check-prefix=VIEW-GPU
// RUN: spacefusion-run %S/Inputs/view-refactorized.mlir --reps=1 | FileCheck %s --check-prefix=PASS
// VIEW: remark: [Missed] undescribable | Category:smap:form-graphs | Function={{[a-z_0-9]+}} | Remark="'tensor.expand_shape' left outside any smap.graph: 'tensor.expand_shape' op cannot align the dims of source dimension 0 with the expanded dims"
// VIEW: remark: [Passed] formed | Category:smap:form-graphs | Function={{[a-z_0-9]+}} | Remark="formed smap.graph of 2 ops (generic, collapse_shape)
// VIEW: remark: [Passed] formed | Category:smap:form-graphs | Function={{[a-z_0-9]+}} | Remark="formed smap.graph of 1 ops (generic)
// VIEW-GPU: gpu.binary @view_0_simt_f32
// VIEW-GPU: gpu.binary @view_1_rows_f32
// PASS: PASS
//
// A reduction to a rank-0 tensor: the row kernel stored to the scalar with
// one index (invalid IR). The scalar is a vector of one.
// RUN: spacefusion-opt %S/Inputs/rank0-reduction.mlir --spacefusion-pipeline="target=sm_90a" | FileCheck %s --check-prefix=RANK0
// RUN: spacefusion-run %S/Inputs/rank0-reduction.mlir --reps=1 | FileCheck %s --check-prefix=PASS
// RANK0: gpu.binary @rank0_rows_f32
//
// 8-bit floats: an unrealized_conversion_cast was left on the GPU path. They
// stay outside every graph; on the GPU path that is an error naming them.
// RUN: not spacefusion-opt %S/Inputs/f8-tensor.mlir --spacefusion-pipeline="target=sm_90a" -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=F8
// F8: error: 'linalg.generic' cannot be compiled for the GPU: it is outside every fusion graph and cannot run as a loop kernel: element type f8E4M3FN (only integers, and floats of 16 bits or more)
//
// More blocks than CUDA's grid allows (2^31 - 1 along x) are refused.
// RUN: not spacefusion-opt %S/Inputs/grid-limit.mlir --spacefusion-pipeline="target=sm_90a" -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=GRID
// GRID: error: smap-distribute-blocks: {{[0-9]+}} blocks exceed CUDA's grid limit of 2^31 - 1
