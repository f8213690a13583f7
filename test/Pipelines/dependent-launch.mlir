// Programmatic dependent launch (smap-overlap-kernel-launches) on a
// function of two kernels (a GEMM split in two parts and its merge): on
// sm_90a the partial kernel lets the merge launch where it returns, and the
// merge, launched after it, waits for it before touching memory and is
// declared to the runtime; the first kernel, which follows the caller's
// work, does not wait. The option turns it off, and sm_80 (no
// dependent_launch feature) and chips before sm_90 never get it.
//
// RUN: spacefusion-opt %S/Inputs/gemm_f16.mlir '--spacefusion-lower-gpu=one-wave=0 format=isa split=k:2' \
// RUN:   | FileCheck %s --check-prefix=HOPPER
// RUN: spacefusion-opt %S/Inputs/gemm_f16.mlir '--spacefusion-lower-gpu=format=isa split=k:2' \
// RUN:   --mlir-print-ir-after=smap-overlap-kernel-launches -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=KERNEL
// RUN: spacefusion-opt %S/Inputs/gemm_f16.mlir '--spacefusion-lower-gpu=format=isa split=k:2 dependent-launch=false' \
// RUN:   | FileCheck %s --check-prefix=OFF
// RUN: spacefusion-opt %S/Inputs/gemm_f16.mlir '--spacefusion-lower-gpu=format=isa split=k:2 chip=sm_80' \
// RUN:   | FileCheck %s --check-prefix=OFF
// RUN: spacefusion-opt %S/Inputs/gemm_f16.mlir '--spacefusion-pipeline=target=sm_80 split=k:2' \
// RUN:   | FileCheck %s --check-prefix=OFF
// An sm_75 chip scheduled as sm_90a has no griddepcontrol either.
// RUN: spacefusion-opt %S/Inputs/gemm_f16.mlir '--spacefusion-lower-gpu=format=isa split=k:2 chip=sm_75 tensor-cores=false' \
// RUN:   | FileCheck %s --check-prefix=OFF

// HOPPER: gpu.binary @gemm_0_mma_sync_16x16_f16
// HOPPER-NOT: spacefusion_dependent_launch
// HOPPER-NOT: griddepcontrol.wait
// HOPPER-SAME: griddepcontrol.launch_dependents;
// HOPPER: gpu.binary @gemm_1_simt_8_f16
// HOPPER-SAME: .visible .global .align 4 .u32 spacefusion_dependent_launch_gemm_1_simt_8_f16 = 1;
// HOPPER-SAME: .entry gemm_1_simt_8_f16(
// HOPPER-SAME: griddepcontrol.wait;
// HOPPER-SAME: griddepcontrol.launch_dependents;

// KERNEL:       func.func @gemm
// KERNEL:         gpu.launch_func @[[FIRST:gemm_0_[a-z_0-9]+]]::@[[FIRST]]
// KERNEL:         gpu.launch_func @[[MERGE:gemm_1_[a-z_0-9]+]]::@[[MERGE]]
// KERNEL:       gpu.module @[[FIRST]]
// KERNEL-NOT:     llvm.mlir.global
// KERNEL:         gpu.func @[[FIRST]]({{.*}}) kernel
// KERNEL-NOT:       nvvm.griddepcontrol wait
// KERNEL:           nvvm.griddepcontrol launch_dependents
// KERNEL-NEXT:      gpu.return
// KERNEL:       gpu.module @[[MERGE]]
// KERNEL-NEXT:    llvm.mlir.global external constant @spacefusion_dependent_launch_[[MERGE]](1 : i32)
// KERNEL:         gpu.func @[[MERGE]]({{.*}}) kernel
// KERNEL-NEXT:      nvvm.griddepcontrol wait
// KERNEL-NOT:       nvvm.griddepcontrol wait
// KERNEL:           nvvm.griddepcontrol launch_dependents
// KERNEL-NEXT:      gpu.return

// OFF: gpu.binary
// OFF-NOT: griddepcontrol
// OFF-NOT: spacefusion_dependent_launch
