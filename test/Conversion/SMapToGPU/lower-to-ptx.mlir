// REQUIRES: libdevice
// RUN: spacefusion-opt %s --smap-form-graphs --smap-schedule --convert-smap-to-gpu \
// RUN:   '--gpu-lower-to-nvvm-pipeline=cubin-chip=sm_90a cubin-features=+ptx80 cubin-format=isa opt-level=3' \
// RUN:   > %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: FileCheck %s --check-prefix=NOBARRIER < %t.mlir

// The whole path to PTX for Hopper: a LayerNorm (768 f16 = 24 per lane, one
// warp per row) becomes one kernel with 128-bit global accesses and warp
// shuffles, and a host function with a C interface that launches it.

// CHECK:       llvm.func @layernorm(
// CHECK:         gpu.launch_func @layernorm_rows_f16::@layernorm_rows_f16
// CHECK:       llvm.func @_mlir_ciface_layernorm(
// CHECK:       gpu.binary @layernorm_rows_f16
// CHECK-SAME:    #nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">
// CHECK-SAME:    .target sm_90a
// 768 / (32 lanes * 8) = 3 loads of x per lane, and 3 each of gamma and beta.
// CHECK-SAME:    ld.global.v4.b32
// CHECK-SAME:    shfl.sync.bfly.b32
// CHECK-SAME:    rsqrt.approx
// CHECK-SAME:    st.global.v4.b32
// One warp per row needs no barrier.
// NOBARRIER-NOT: bar.sync

func.func @layernorm(%x: tensor<16x768xf16>, %gamma: tensor<768xf16>, %beta: tensor<768xf16>) -> tensor<16x768xf16> {
  %e1 = tensor.empty() : tensor<16x768xf32>
  %g2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x768xf16>) outs(%e1 : tensor<16x768xf32>) {
  ^bb0(%in0: f16, %acc: f32):
    %y = arith.extf %in0 : f16 to f32
    linalg.yield %y : f32
  } -> tensor<16x768xf32>
  %e3 = tensor.empty() : tensor<768xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%gamma : tensor<768xf16>) outs(%e3 : tensor<768xf32>) {
  ^bb0(%in0: f16, %acc: f32):
    %y = arith.extf %in0 : f16 to f32
    linalg.yield %y : f32
  } -> tensor<768xf32>
  %e5 = tensor.empty() : tensor<768xf32>
  %g6 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%beta : tensor<768xf16>) outs(%e5 : tensor<768xf32>) {
  ^bb0(%in0: f16, %acc: f32):
    %y = arith.extf %in0 : f16 to f32
    linalg.yield %y : f32
  } -> tensor<768xf32>
  %c7 = arith.constant 0.000000000e+00 : f32
  %e9 = tensor.empty() : tensor<16xf32>
  %f8 = linalg.fill ins(%c7 : f32) outs(%e9 : tensor<16xf32>) -> tensor<16xf32>
  %g10 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%g2 : tensor<16x768xf32>) outs(%f8 : tensor<16xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.addf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  %c11 = arith.constant 7.680000000e+02 : f32
  %e12 = tensor.empty() : tensor<16xf32>
  %g13 = linalg.generic {indexing_maps = [affine_map<(m) -> (m)>, affine_map<(m) -> (m)>], iterator_types = ["parallel"]}
      ins(%g10 : tensor<16xf32>) outs(%e12 : tensor<16xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.divf %in0, %c11 : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  %e14 = tensor.empty() : tensor<16x768xf32>
  %g15 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%g2, %g13 : tensor<16x768xf32>, tensor<16xf32>) outs(%e14 : tensor<16x768xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %y = arith.subf %in0, %in1 : f32
    linalg.yield %y : f32
  } -> tensor<16x768xf32>
  %c16 = arith.constant 0.000000000e+00 : f32
  %e18 = tensor.empty() : tensor<16xf32>
  %f17 = linalg.fill ins(%c16 : f32) outs(%e18 : tensor<16xf32>) -> tensor<16xf32>
  %g19 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%g15 : tensor<16x768xf32>) outs(%f17 : tensor<16xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %sq = arith.mulf %in0, %in0 : f32
    %y = arith.addf %sq, %acc : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  %c20 = arith.constant 7.680000000e+02 : f32
  %e21 = tensor.empty() : tensor<16xf32>
  %g22 = linalg.generic {indexing_maps = [affine_map<(m) -> (m)>, affine_map<(m) -> (m)>], iterator_types = ["parallel"]}
      ins(%g19 : tensor<16xf32>) outs(%e21 : tensor<16xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.divf %in0, %c20 : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  %c23 = arith.constant 1.000000000e-05 : f32
  %e24 = tensor.empty() : tensor<16xf32>
  %g25 = linalg.generic {indexing_maps = [affine_map<(m) -> (m)>, affine_map<(m) -> (m)>], iterator_types = ["parallel"]}
      ins(%g22 : tensor<16xf32>) outs(%e24 : tensor<16xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %v = arith.addf %in0, %c23 : f32
    %y = math.rsqrt %v : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  %e26 = tensor.empty() : tensor<16x768xf32>
  %g27 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%g15, %g25, %g4, %g6 : tensor<16x768xf32>, tensor<16xf32>, tensor<768xf32>, tensor<768xf32>) outs(%e26 : tensor<16x768xf32>) {
  ^bb0(%in0: f32, %in1: f32, %in2: f32, %in3: f32, %acc: f32):
    %t = arith.mulf %in0, %in1 : f32
    %u = arith.mulf %t, %in2 : f32
    %y = arith.addf %u, %in3 : f32
    linalg.yield %y : f32
  } -> tensor<16x768xf32>
  %e28 = tensor.empty() : tensor<16x768xf16>
  %g29 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%g27 : tensor<16x768xf32>) outs(%e28 : tensor<16x768xf16>) {
  ^bb0(%in0: f32, %acc: f16):
    %y = arith.truncf %in0 : f32 to f16
    linalg.yield %y : f16
  } -> tensor<16x768xf16>
  return %g29 : tensor<16x768xf16>
}
