// --spacefusion-pipeline for a GPU target goes from linalg on tensors to host
// code plus a gpu.binary. With no ptxas in reach (no PATH entry, no CUDA_HOME)
// the binary is PTX text, which the driver compiles at load; the same pipeline
// with lower-to-gpu=false stops at the sliced graphs.
// RUN: env -u CUDA_HOME -u CUDA_ROOT -u CUDA_PATH PATH=%t.nowhere \
// RUN:   spacefusion-opt --spacefusion-pipeline=target=sm_90a %examples/softmax_last.mlir \
// RUN:   | FileCheck %s
// RUN: spacefusion-opt --spacefusion-pipeline="target=sm_90a lower-to-gpu=false" %examples/softmax_last.mlir \
// RUN:   | FileCheck %s --check-prefix=SLICED
// RUN: not spacefusion-opt --spacefusion-pipeline="target=sm_90a lower-to-loops lower-to-gpu" %examples/softmax_last.mlir \
// RUN:   2>&1 | FileCheck %s --check-prefix=BOTH

// CHECK-LABEL: llvm.func @softmax_last(
// CHECK:         llvm.call @spacefusionRuntimeArgumentMismatch
// CHECK:         gpu.launch_func @[[K:[a-z0-9_]+]]::@[[K]] blocks in
// CHECK:       llvm.func @_mlir_ciface_softmax_last(
// CHECK:       gpu.binary @[[K]]
// CHECK-SAME:    #nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">
// CHECK-SAME:    assembly = "
// CHECK-SAME:    .target sm_90a
// CHECK-SAME:    ld.global.v4
// CHECK-SAME:    shfl.sync
// CHECK-SAME:    st.global.v4
// CHECK-NOT:   smap.graph

// SLICED-LABEL: func.func @softmax_last
// SLICED: smap.graph
// SLICED-NOT: gpu.binary

// BOTH: error: --spacefusion-pipeline: lower-to-loops and lower-to-gpu both end the pipeline; choose one
