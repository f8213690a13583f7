// RUN: spacefusion-opt --split-input-file --smap-set-kernel-register-counts %s -verify-diagnostics

// A kernel that reallocates registers without a recorded entry count: an
// error, never a kernel whose setmaxnreg ptxas silently drops.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{smap-set-kernel-register-counts: @unknown reallocates registers (setmaxnreg) but no #smap.kernel record of its launch gives its entry count (regs_entry); ptxas would drop the reallocation}}
    gpu.func @unknown() kernel {
      nvvm.setmaxregister decrease 40
      gpu.return
    }
  }
}

// -----

// Records and launches pair up in order, or the counts could land on the
// wrong kernels.
module attributes {gpu.container_module} {
  // expected-error @below {{smap-set-kernel-register-counts: @host launches 2 kernels but records 1}}
  func.func @host() attributes {smap.kernels = [
      {blocks = 1 : i64, parts = {regs_entry = 128 : i64}, smem = 0 : i64, strategy = "rows", threads = 512 : i64}]} {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @kernels::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
  gpu.module @kernels {
    gpu.func @a() kernel {
      gpu.return
    }
  }
}

// -----

// One kernel, two counts.
module attributes {gpu.container_module} {
  func.func @host() attributes {smap.kernels = [
      {blocks = 1 : i64, parts = {regs_entry = 128 : i64}, smem = 0 : i64, strategy = "rows", threads = 512 : i64},
      {blocks = 1 : i64, parts = {regs_entry = 64 : i64}, smem = 0 : i64, strategy = "rows", threads = 512 : i64}]} {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    // expected-error @below {{smap-set-kernel-register-counts: @a is launched with 64 registers per thread and with 128}}
    gpu.launch_func @kernels::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
  gpu.module @kernels {
    gpu.func @a() kernel {
      gpu.return
    }
  }
}
