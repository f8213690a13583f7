// Upstream elementwise fusion and cse before the pipeline (as IREE and
// torch-mlir flows run them) must not change the kernel: f16 attention in
// the generator's form and in the frontends' mixed-precision form gets the
// same single row-fragment wgmma kernel as without them. (The fusion puts
// the normalization E / Sum into the P.V contraction, which
// smap-split-contraction-operands takes out again; before it, the
// generator's form failed with "strategy row_fragments_wgmma cannot be
// built" and the frontend form fell to mma.sync.)
// RUN: spacefusion-opt %S/Inputs/attention_f16.mlir --spacefusion-lower-gpu=format=isa | FileCheck %s
// RUN: mlir-opt %S/Inputs/attention_f16.mlir --linalg-fuse-elementwise-ops --cse | spacefusion-opt --spacefusion-lower-gpu=format=isa | FileCheck %s
// RUN: spacefusion-opt %S/Inputs/attention_mixed_f16.mlir --spacefusion-lower-gpu=format=isa | FileCheck %s
// RUN: mlir-opt %S/Inputs/attention_mixed_f16.mlir --linalg-fuse-elementwise-ops --cse --canonicalize | spacefusion-opt --spacefusion-lower-gpu=format=isa | FileCheck %s

// CHECK-LABEL: llvm.func @attention(
// CHECK-SAME: smap.kernels = [{blocks = 128 : i64, parts = {cp_async = 2 : i64, {{.*}}wgmma = 2 : i64}, predicted = {{[{][^}]+[}]}}, smem = {{[0-9]+}} : i64, strategy = "row_fragments_wgmma", threads = 128 : i64}]
// CHECK: gpu.binary @attention_row_fragments_wgmma_64x128_f16
// CHECK-NOT: gpu.binary
