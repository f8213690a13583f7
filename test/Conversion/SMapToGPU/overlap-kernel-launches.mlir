// RUN: spacefusion-opt --smap-overlap-kernel-launches %s | FileCheck %s
// The pass is idempotent: a second run adds no second wait, trigger or global.
// RUN: spacefusion-opt --smap-overlap-kernel-launches --smap-overlap-kernel-launches %s \
// RUN:   | FileCheck %s

// Every launched kernel lets the grid after it launch where it returns.
// A kernel that every launch of it follows another launch of the same host
// function (@second, @third) waits for the grid before it before its first
// operation, and its module declares so to the runtime with a global named
// after it. A function's first kernel (@partial) follows the caller's work
// and does not wait, nor does a kernel that is first anywhere (@shared,
// second in @host but first in @other). Device functions and kernels no
// one launches are left alone.

// CHECK-LABEL: gpu.module @partial
// CHECK-DAG:     llvm.mlir.global external constant @spacefusion_dependent_launch_second(1 : i32) {addr_space = 1 : i32
// CHECK-DAG:     llvm.mlir.global external constant @spacefusion_dependent_launch_third(1 : i32)
// CHECK-NOT:     @spacefusion_dependent_launch_partial
// CHECK-NOT:     @spacefusion_dependent_launch_shared
// CHECK:         gpu.func @partial(%[[OUT:.*]]: memref<16xf32>) kernel
// CHECK-NEXT:      %[[C:.*]] = arith.constant 1.0
// CHECK-NOT:       nvvm.griddepcontrol
// CHECK:           memref.store %[[C]], %[[OUT]]
// CHECK-NEXT:      nvvm.griddepcontrol launch_dependents
// CHECK-NEXT:      gpu.return
// CHECK:         gpu.func @helper
// CHECK-NOT:       nvvm.griddepcontrol
// CHECK:           gpu.return
// CHECK:         gpu.func @second() kernel
// CHECK-NEXT:      nvvm.griddepcontrol wait
// CHECK-NEXT:      nvvm.griddepcontrol launch_dependents
// CHECK-NEXT:      gpu.return
// CHECK:         gpu.func @shared() kernel
// CHECK-NEXT:      nvvm.griddepcontrol launch_dependents
// CHECK-NEXT:      gpu.return
// CHECK:         gpu.func @third() kernel
// CHECK-NEXT:      nvvm.griddepcontrol wait
// CHECK-NEXT:      nvvm.griddepcontrol launch_dependents
// CHECK-NEXT:      gpu.return
// CHECK:         gpu.func @unused() kernel
// CHECK-NEXT:      gpu.return
// CHECK-LABEL: gpu.module @no_kernels
// CHECK-NOT:     spacefusion_dependent_launch
// CHECK-NOT:     nvvm.griddepcontrol
// CHECK:       func.func @host
module attributes {gpu.container_module} {
  gpu.module @partial {
    gpu.func @partial(%out: memref<16xf32>) kernel {
      %c = arith.constant 1.0 : f32
      %i = gpu.thread_id x
      memref.store %c, %out[%i] : memref<16xf32>
      gpu.return
    }
    gpu.func @helper(%x: f32) -> f32 {
      gpu.return %x : f32
    }
    gpu.func @second() kernel {
      gpu.return
    }
    gpu.func @shared() kernel {
      gpu.return
    }
    gpu.func @third() kernel {
      gpu.return
    }
    gpu.func @unused() kernel {
      gpu.return
    }
  }
  gpu.module @no_kernels {
    gpu.func @helper(%x: f32) -> f32 {
      gpu.return %x : f32
    }
  }
  func.func @host(%out: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @partial::@partial blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%out : memref<16xf32>)
    gpu.launch_func @partial::@second blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @partial::@shared blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
  func.func @other() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @partial::@shared blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @partial::@third blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
