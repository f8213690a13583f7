// RUN: spacefusion-opt %s -split-input-file --smap-form-graphs '--smap-schedule=row-threads=128' --convert-smap-to-gpu | FileCheck %s

// LayerNorm with a block of 4 warps per row: its two cross-warp reductions
// (the mean, then the variance) publish into different slots of the shared
// buffer (0-3, then 4-7), so each needs one barrier and none waits for the
// previous one's readers.

// CHECK-LABEL: func.func @layernorm(
// CHECK-SAME:      smap.kernels = [{blocks = 16 : i64, parts = {chunks = 2 : i64, rows = 16 : i64, rows_per_block = 1 : i64, vector = 4 : i64}, predicted = {{[{][^}]+[}]}}, smem = 128 : i64, strategy = "rows", threads = 128 : i64}]
// CHECK:         gpu.launch
// CHECK-SAME:        workgroup(%[[SMEM:.*]] : memref<32xf32, #gpu.address_space<workgroup>>)
// CHECK:           %[[WARP:.*]] = arith.divui %{{.*}}, %{{.*}} : index
// CHECK:           scf.if
// CHECK:             %[[FIRST:.*]] = arith.constant 0 : index
// CHECK:             %[[S0:.*]] = arith.addi %[[WARP]], %[[FIRST]] : index
// CHECK:             memref.store %{{.*}}, %[[SMEM]][%[[S0]]]
// CHECK:           gpu.barrier
// CHECK-COUNT-4:   memref.load %[[SMEM]]
// CHECK-NOT:       gpu.barrier
// CHECK:           scf.if
// CHECK:             %[[SECOND:.*]] = arith.constant 4 : index
// CHECK:             %[[S1:.*]] = arith.addi %[[WARP]], %[[SECOND]] : index
// CHECK:             memref.store %{{.*}}, %[[SMEM]][%[[S1]]]
// CHECK:           gpu.barrier
// CHECK:           memref.load %[[SMEM]][%c4
// CHECK-NOT:       gpu.barrier
// CHECK:           gpu.terminator

func.func @layernorm(%x: tensor<16x1024xf32>, %gamma: tensor<1024xf32>, %beta: tensor<1024xf32>) -> tensor<16x1024xf32> {
  %c1 = arith.constant 0.000000000e+00 : f32
  %e3 = tensor.empty() : tensor<16xf32>
  %f2 = linalg.fill ins(%c1 : f32) outs(%e3 : tensor<16xf32>) -> tensor<16xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x1024xf32>) outs(%f2 : tensor<16xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.addf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  %c5 = arith.constant 1.024000000e+03 : f32
  %e6 = tensor.empty() : tensor<16xf32>
  %g7 = linalg.generic {indexing_maps = [affine_map<(m) -> (m)>, affine_map<(m) -> (m)>], iterator_types = ["parallel"]}
      ins(%g4 : tensor<16xf32>) outs(%e6 : tensor<16xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.divf %in0, %c5 : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  %e8 = tensor.empty() : tensor<16x1024xf32>
  %g9 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %g7 : tensor<16x1024xf32>, tensor<16xf32>) outs(%e8 : tensor<16x1024xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %y = arith.subf %in0, %in1 : f32
    linalg.yield %y : f32
  } -> tensor<16x1024xf32>
  %c10 = arith.constant 0.000000000e+00 : f32
  %e12 = tensor.empty() : tensor<16xf32>
  %f11 = linalg.fill ins(%c10 : f32) outs(%e12 : tensor<16xf32>) -> tensor<16xf32>
  %g13 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%g9 : tensor<16x1024xf32>) outs(%f11 : tensor<16xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %sq = arith.mulf %in0, %in0 : f32
    %y = arith.addf %sq, %acc : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  %c14 = arith.constant 1.024000000e+03 : f32
  %e15 = tensor.empty() : tensor<16xf32>
  %g16 = linalg.generic {indexing_maps = [affine_map<(m) -> (m)>, affine_map<(m) -> (m)>], iterator_types = ["parallel"]}
      ins(%g13 : tensor<16xf32>) outs(%e15 : tensor<16xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.divf %in0, %c14 : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  %c17 = arith.constant 1.000000000e-05 : f32
  %e18 = tensor.empty() : tensor<16xf32>
  %g19 = linalg.generic {indexing_maps = [affine_map<(m) -> (m)>, affine_map<(m) -> (m)>], iterator_types = ["parallel"]}
      ins(%g16 : tensor<16xf32>) outs(%e18 : tensor<16xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %v = arith.addf %in0, %c17 : f32
    %y = math.rsqrt %v : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  %e20 = tensor.empty() : tensor<16x1024xf32>
  %g21 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%g9, %g19, %gamma, %beta : tensor<16x1024xf32>, tensor<16xf32>, tensor<1024xf32>, tensor<1024xf32>) outs(%e20 : tensor<16x1024xf32>) {
  ^bb0(%in0: f32, %in1: f32, %in2: f32, %in3: f32, %acc: f32):
    %t = arith.mulf %in0, %in1 : f32
    %u = arith.mulf %t, %in2 : f32
    %y = arith.addf %u, %in3 : f32
    linalg.yield %y : f32
  } -> tensor<16x1024xf32>
  return %g21 : tensor<16x1024xf32>
}


// -----

// An f16 row max across 4 warps: the shared slots are f32, so each warp's
// partial is extended (exactly) before it is published and the combined
// partials are rounded back once.

// CHECK-LABEL: func.func @row_max_f16(
// CHECK:         gpu.launch
// CHECK-SAME:        workgroup(%[[SMEM:.*]] : memref<32xf32, #gpu.address_space<workgroup>>)
// CHECK:           scf.if
// CHECK:             %[[WIDE:.*]] = arith.extf %[[PARTIAL:.*]] : f16 to f32
// CHECK:             memref.store %[[WIDE]], %[[SMEM]]
// CHECK:           gpu.barrier
// CHECK:           %[[L0:.*]] = memref.load %[[SMEM]]
// CHECK:           %[[L1:.*]] = memref.load %[[SMEM]]
// CHECK:           %[[M01:.*]] = arith.maximumf %[[L0]], %[[L1]] : f32
// CHECK:           %[[L2:.*]] = memref.load %[[SMEM]]
// CHECK:           %[[M012:.*]] = arith.maximumf %[[M01]], %[[L2]] : f32
// CHECK:           %[[L3:.*]] = memref.load %[[SMEM]]
// CHECK:           %[[M:.*]] = arith.maximumf %[[M012]], %[[L3]] : f32
// CHECK:           arith.truncf %[[M]] : f32 to f16
func.func @row_max_f16(%x: tensor<16x1024xf16>) -> tensor<16x1024xf16> {
  %ninf = arith.constant 0xFC00 : f16
  %e0 = tensor.empty() : tensor<16xf16>
  %f0 = linalg.fill ins(%ninf : f16) outs(%e0 : tensor<16xf16>) -> tensor<16xf16>
  %max = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x1024xf16>) outs(%f0 : tensor<16xf16>) {
  ^bb0(%in: f16, %acc: f16):
    %y = arith.maximumf %in, %acc : f16
    linalg.yield %y : f16
  } -> tensor<16xf16>
  %e1 = tensor.empty() : tensor<16x1024xf16>
  %shifted = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<16x1024xf16>, tensor<16xf16>) outs(%e1 : tensor<16x1024xf16>) {
  ^bb0(%in: f16, %m: f16, %out: f16):
    %y = arith.subf %in, %m : f16
    linalg.yield %y : f16
  } -> tensor<16x1024xf16>
  return %shifted : tensor<16x1024xf16>
}
