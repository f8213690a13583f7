// RUN: spacefusion-opt %s --smap-set-target --remarks-filter=smap --remark-format=emitRemark -verify-diagnostics \
// RUN:   | FileCheck %s --check-prefix=H200
// RUN: spacefusion-opt %s --smap-set-target=target=sm_80 --remarks-filter=smap --remark-format=emitRemark -verify-diagnostics \
// RUN:   | FileCheck %s --check-prefix=A100
// RUN: spacefusion-opt %s --smap-set-target=target=cpu 2>/dev/null | FileCheck %s --check-prefix=CPU
// RUN: not spacefusion-opt %s --smap-set-target=target=sm_70 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// H200-LABEL: func.func @default_target
// H200: target = #smap.target<name = "sm_90a", smem_per_block = 232448, regs_per_thread = 255, regs_per_sm = 65536, sm_count = 132, max_threads = 1024, bandwidth_gbps = 4800, f16_gflops = 989000, f32_gflops = 67000, arch = 90, features = ["mma_sync", "wgmma", "tma", "setmaxnreg", "cp_async", "clusters", "cache_hints", "dependent_launch"], smem_per_sm = 233472, l2_bytes = 52428800, mma_sync_gflops = 445000, l2_gbps = 9400>
// A100-LABEL: func.func @default_target
// A100: target = #smap.target<name = "sm_80", smem_per_block = 166912, regs_per_thread = 255, regs_per_sm = 65536, sm_count = 108, max_threads = 1024, bandwidth_gbps = 2039, f16_gflops = 312000, f32_gflops = 19500, arch = 80, features = ["mma_sync", "cp_async", "cache_hints"], smem_per_sm = 167936, l2_bytes = 41943040>
// CPU-LABEL: func.func @default_target
// CPU: target = #smap.target<name = "cpu"
func.func @default_target(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = smap.graph(%a = %x : tensor<4xf32>) -> (tensor<4xf32>) {
    smap.yield %a : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// A target the user wrote wins over the option.
// H200-LABEL: func.func @user_target
// H200: target = #smap.target<name = "mine", smem_per_block = 1024
// A100-LABEL: func.func @user_target
// A100: target = #smap.target<name = "mine", smem_per_block = 1024
func.func @user_target(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-remark @below {{graph keeps its own target 'mine'}}
  %0 = smap.graph(%a = %x : tensor<4xf32>) -> (tensor<4xf32>) attributes {target = #smap.target<name = "mine", smem_per_block = 1024, regs_per_thread = 64, regs_per_sm = 1024, sm_count = 1, max_threads = 128, bandwidth_gbps = 1, f16_gflops = 1, f32_gflops = 1, arch = 90>} {
    smap.yield %a : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// UNKNOWN: error: smap-set-target: unknown target 'sm_70' (known: sm_90a, sm_80, cpu)
