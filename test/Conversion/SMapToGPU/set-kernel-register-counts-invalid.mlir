// RUN: spacefusion-opt "--pass-pipeline=builtin.module(gpu.module(smap-set-kernel-register-counts))" %s -verify-diagnostics

// Without a known block size the count cannot be derived: an error, never
// a kernel whose setmaxnreg ptxas silently drops.
gpu.module @kernels {
  // expected-error @below {{smap-set-kernel-register-counts: a kernel that reallocates registers needs a known block size}}
  gpu.func @unknown() kernel {
    nvvm.setmaxregister decrease 40
    gpu.return
  }
}
