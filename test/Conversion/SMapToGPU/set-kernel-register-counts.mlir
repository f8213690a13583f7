// RUN: spacefusion-opt --split-input-file --smap-set-kernel-register-counts %s | FileCheck %s

// The host function's records follow its launches: the warp-specialized
// GEMM's record gives its kernel the count its setmaxnreg starts from
// (168 of each thread's registers, one 384-thread block per SM); the row
// kernel's record gives it the SM's whole register file (128 at 512
// threads); the plain kernel's record has no count, and ptxas chooses.

// CHECK-LABEL: gpu.module @kernels
// CHECK:       gpu.func @specialized
// CHECK-SAME:    nvvm.maxnreg = 168 : i32
// CHECK:       gpu.func @plain
// CHECK-NOT:     nvvm.maxnreg
// CHECK-SAME:    {
// CHECK:       gpu.func @rows
// CHECK-SAME:    nvvm.maxnreg = 128 : i32
module attributes {gpu.container_module} {
  func.func @host() attributes {smap.kernels = [
      {blocks = 6 : i64, parts = {regs_entry = 168 : i64, regs_producer = 40 : i64, regs_consumer = 232 : i64}, smem = 66560 : i64, strategy = "wgmma_tma_ws", threads = 384 : i64},
      {blocks = 8 : i64, smem = 0 : i64, strategy = "simt", threads = 128 : i64},
      {blocks = 2048 : i64, parts = {chunks = 8 : i64, regs_entry = 128 : i64, rows = 2048 : i64, rows_per_block = 1 : i64, vector = 8 : i64}, smem = 128 : i64, strategy = "rows", threads = 512 : i64}]} {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %c384 = arith.constant 384 : index
    %c512 = arith.constant 512 : index
    gpu.launch_func @kernels::@specialized blocks in (%c1, %c1, %c1) threads in (%c384, %c1, %c1)
    gpu.launch_func @kernels::@plain blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1)
    gpu.launch_func @kernels::@rows blocks in (%c1, %c1, %c1) threads in (%c512, %c1, %c1)
    return
  }
  gpu.module @kernels {
    gpu.func @specialized() kernel attributes {known_block_size = array<i32: 384, 1, 1>} {
      nvvm.setmaxregister decrease 40
      gpu.return
    }
    gpu.func @plain() kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      gpu.return
    }
    gpu.func @rows() kernel attributes {known_block_size = array<i32: 512, 1, 1>} {
      gpu.return
    }
  }
}

// -----

// Functions without records (the user's own launches) are left alone.
// CHECK-LABEL: gpu.module @theirs
// CHECK-NOT:     nvvm.maxnreg
module attributes {gpu.container_module} {
  func.func @host() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @theirs::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
  gpu.module @theirs {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}
