// RUN: spacefusion-opt --split-input-file "--pass-pipeline=builtin.module(gpu.module(smap-set-kernel-register-counts))" %s | FileCheck %s
// RUN: spacefusion-opt --split-input-file "--pass-pipeline=builtin.module(gpu.module(smap-set-kernel-register-counts{target=sm_80}))" %s | FileCheck %s --check-prefix=SM80
// RUN: not spacefusion-opt --split-input-file "--pass-pipeline=builtin.module(gpu.module(smap-set-kernel-register-counts{target=cpu}))" %s 2>&1 | FileCheck %s --check-prefix=BADTARGET

// A warp-specialized block of 384 threads reallocates registers: ptxas
// honours setmaxnreg only with the count at entry known, the registers
// each thread holds when one block takes the SM's 65536 (168, a multiple
// of 8). A kernel that does not reallocate keeps ptxas's own choice.

// CHECK-LABEL: gpu.func @specialized
// CHECK-SAME:    nvvm.maxnreg = 168 : i32
// CHECK-LABEL: gpu.func @plain
// CHECK-NOT:     nvvm.maxnreg
// SM80:          nvvm.maxnreg = 168 : i32
// BADTARGET:     error: smap-set-kernel-register-counts: 'cpu' is not a built-in GPU target
gpu.module @kernels {
  gpu.func @specialized() kernel attributes {known_block_size = array<i32: 384, 1, 1>} {
    nvvm.setmaxregister decrease 40
    gpu.return
  }
  gpu.func @plain() kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    gpu.return
  }
}

// -----

// 288 threads (a one-warp producer does not reallocate, but were it to):
// 65536 / 288 = 227, rounded down to 224.
// CHECK-LABEL: gpu.func @odd
// CHECK-SAME:    nvvm.maxnreg = 224 : i32
gpu.module @kernels {
  gpu.func @odd() kernel attributes {known_block_size = array<i32: 288, 1, 1>} {
    nvvm.setmaxregister increase 232
    gpu.return
  }
}

