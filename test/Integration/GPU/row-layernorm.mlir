// The GPU row kernels end to end: linalg on tensors through
// --spacefusion-lower-gpu to a cubin and host code, linked with
// libspacefusion_cuda_runtime.so, run on the GPU from C with device buffers
// (mgpuMemAlloc/mgpuMemcpy), and compared with a double-precision reference
// computed on the host. 1000 columns is a ragged row (masked last chunk);
// 301 rows is not a multiple of the 4 rows a block could hold.
//
// RUN: spacefusion-opt %s --spacefusion-lower-gpu=format=bin \
// RUN:   | mlir-translate --mlir-to-llvmir -o %t.ll
// RUN: clang -O2 -shared -fPIC %t.ll -o %t.so %spacefusion_runtime_link
// RUN: clang -O2 %S/row-layernorm-main.c -I%spacefusion_include %t.so %spacefusion_runtime_link -lm -o %t.exe
// RUN: %t.exe | FileCheck %s

// CHECK: device found: yes
// CHECK: layernorm 301x1000: max abs error {{[0-9.e-]+}}, within 1e-4: yes
// CHECK: wrong shape: error -2: layernorm: argument 0 has size 300 in dim 0, the function was compiled for 301; nothing was launched; output untouched: yes
// CHECK: runtime error code 0

func.func @layernorm(%x: tensor<301x1000xf32>, %gamma: tensor<1000xf32>, %beta: tensor<1000xf32>) -> tensor<301x1000xf32> {
  %c1 = arith.constant 0.000000000e+00 : f32
  %e3 = tensor.empty() : tensor<301xf32>
  %f2 = linalg.fill ins(%c1 : f32) outs(%e3 : tensor<301xf32>) -> tensor<301xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<301x1000xf32>) outs(%f2 : tensor<301xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.addf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<301xf32>
  %c5 = arith.constant 1.000000000e+03 : f32
  %e6 = tensor.empty() : tensor<301xf32>
  %g7 = linalg.generic {indexing_maps = [affine_map<(m) -> (m)>, affine_map<(m) -> (m)>], iterator_types = ["parallel"]}
      ins(%g4 : tensor<301xf32>) outs(%e6 : tensor<301xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.divf %in0, %c5 : f32
    linalg.yield %y : f32
  } -> tensor<301xf32>
  %e8 = tensor.empty() : tensor<301x1000xf32>
  %g9 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %g7 : tensor<301x1000xf32>, tensor<301xf32>) outs(%e8 : tensor<301x1000xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %y = arith.subf %in0, %in1 : f32
    linalg.yield %y : f32
  } -> tensor<301x1000xf32>
  %c10 = arith.constant 0.000000000e+00 : f32
  %e12 = tensor.empty() : tensor<301xf32>
  %f11 = linalg.fill ins(%c10 : f32) outs(%e12 : tensor<301xf32>) -> tensor<301xf32>
  %g13 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%g9 : tensor<301x1000xf32>) outs(%f11 : tensor<301xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %sq = arith.mulf %in0, %in0 : f32
    %y = arith.addf %sq, %acc : f32
    linalg.yield %y : f32
  } -> tensor<301xf32>
  %c14 = arith.constant 1.000000000e+03 : f32
  %e15 = tensor.empty() : tensor<301xf32>
  %g16 = linalg.generic {indexing_maps = [affine_map<(m) -> (m)>, affine_map<(m) -> (m)>], iterator_types = ["parallel"]}
      ins(%g13 : tensor<301xf32>) outs(%e15 : tensor<301xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.divf %in0, %c14 : f32
    linalg.yield %y : f32
  } -> tensor<301xf32>
  %c17 = arith.constant 1.000000000e-05 : f32
  %e18 = tensor.empty() : tensor<301xf32>
  %g19 = linalg.generic {indexing_maps = [affine_map<(m) -> (m)>, affine_map<(m) -> (m)>], iterator_types = ["parallel"]}
      ins(%g16 : tensor<301xf32>) outs(%e18 : tensor<301xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %v = arith.addf %in0, %c17 : f32
    %y = math.rsqrt %v : f32
    linalg.yield %y : f32
  } -> tensor<301xf32>
  %e20 = tensor.empty() : tensor<301x1000xf32>
  %g21 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%g9, %g19, %gamma, %beta : tensor<301x1000xf32>, tensor<301xf32>, tensor<1000xf32>, tensor<1000xf32>) outs(%e20 : tensor<301x1000xf32>) {
  ^bb0(%in0: f32, %in1: f32, %in2: f32, %in3: f32, %acc: f32):
    %t = arith.mulf %in0, %in1 : f32
    %u = arith.mulf %t, %in2 : f32
    %y = arith.addf %u, %in3 : f32
    linalg.yield %y : f32
  } -> tensor<301x1000xf32>
  return %g21 : tensor<301x1000xf32>
}
