// f16 attention end to end on tensor cores, from unfused linalg (generated
// by python/spacefusion/workloads.py): --spacefusion-lower-gpu keeps each
// block's scores, probabilities, running max / sum and accumulator in
// registers (row fragments), stages K and V by a cp.async pipeline, and
// runs both contractions on the tensor cores (mma.sync; wgmma on Hopper
// where 64-row warpgroups fit). The C driver runs head dims 64 and 128 and
// the masked variant on random inputs and compares with a
// double-precision reference (|err| <= 1e-2 max|ref| + 1e-2 |ref|, the
// bench's fp16 tolerance); outputs are poisoned with NaN first.
//
// RUN: spacefusion-opt %s --spacefusion-lower-gpu=format=bin \
// RUN:   | mlir-translate --mlir-to-llvmir -o %t.ll
// RUN: clang -O2 -shared -fPIC %t.ll -o %t.so %spacefusion_runtime_link
// RUN: clang -O2 %S/attention-fragments-main.c -I%spacefusion_include %t.so %spacefusion_runtime_link -lm -o %t.exe
// RUN: %t.exe | FileCheck %s
// RUN: spacefusion-opt %s --spacefusion-lower-gpu=format=isa | FileCheck %s --check-prefix=KERNELS

// The last two shapes fill the GPU with 128-row blocks without slicing the
// head dim: each warpgroup issues both contractions as wgmma on its row
// fragments, K and V staged swizzled by a two- (d64) or three-stage (d128)
// cp.async pipeline.
// KERNELS-DAG: @attention_wgmma_d64({{.*}}smap.kernels = [{blocks = 128 : i64, parts = {cp_async = 2 : i64, prefetch = 1 : i64, register_tiles = 8 : i64, warp_rows = 16 : i64, wgmma = 2 : i64}, predicted = {{[{][^}]+[}]}}, smem = 93184 : i64, strategy = "row_fragments_wgmma", threads = 256 : i64}]
// KERNELS-DAG: @attention_wgmma_d128({{.*}}smap.kernels = [{blocks = 128 : i64, parts = {cp_async = 3 : i64, prefetch = 1 : i64, register_tiles = 8 : i64, warp_rows = 16 : i64, wgmma = 2 : i64}, predicted = {{[{][^}]+[}]}}, smem = 195584 : i64, strategy = "row_fragments_wgmma", threads = 256 : i64}]

// CHECK: device found: yes
// CHECK: attention_d64 1x2x1024x64: max abs error {{[0-9.e-]+}}, within tolerance: yes
// CHECK: attention_d128 2x2x512x128: max abs error {{[0-9.e-]+}}, within tolerance: yes
// CHECK: attention_mask 1x2x512x64: max abs error {{[0-9.e-]+}}, within tolerance: yes
// CHECK: attention_wgmma_d64 2x8x1024x64: max abs error {{[0-9.e-]+}}, within tolerance: yes
// CHECK: attention_wgmma_d128 2x4x1024x128: max abs error {{[0-9.e-]+}}, within tolerance: yes
// CHECK: runtime error code 0

func.func @attention_d64(%q: tensor<1x2x1024x64xf16>, %k: tensor<1x2x1024x64xf16>, %v: tensor<1x2x1024x64xf16>) -> tensor<1x2x1024x64xf16> {
  %e1 = tensor.empty() : tensor<1x2x1024x64xf32>
  %g2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%q : tensor<1x2x1024x64xf16>) outs(%e1 : tensor<1x2x1024x64xf32>) {
  ^bb0(%in0: f16, %acc: f32):
    %y = arith.extf %in0 : f16 to f32
    linalg.yield %y : f32
  } -> tensor<1x2x1024x64xf32>
  %e3 = tensor.empty() : tensor<1x2x1024x64xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%k : tensor<1x2x1024x64xf16>) outs(%e3 : tensor<1x2x1024x64xf32>) {
  ^bb0(%in0: f16, %acc: f32):
    %y = arith.extf %in0 : f16 to f32
    linalg.yield %y : f32
  } -> tensor<1x2x1024x64xf32>
  %e5 = tensor.empty() : tensor<1x2x1024x64xf32>
  %g6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%v : tensor<1x2x1024x64xf16>) outs(%e5 : tensor<1x2x1024x64xf32>) {
  ^bb0(%in0: f16, %acc: f32):
    %y = arith.extf %in0 : f16 to f32
    linalg.yield %y : f32
  } -> tensor<1x2x1024x64xf32>
  %c7 = arith.constant 0.000000000e+00 : f32
  %e9 = tensor.empty() : tensor<1x2x1024x1024xf32>
  %f8 = linalg.fill ins(%c7 : f32) outs(%e9 : tensor<1x2x1024x1024xf32>) -> tensor<1x2x1024x1024xf32>
  %g10 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l, k) -> (b, h, m, k)>, affine_map<(b, h, m, l, k) -> (b, h, l, k)>, affine_map<(b, h, m, l, k) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g2, %g4 : tensor<1x2x1024x64xf32>, tensor<1x2x1024x64xf32>) outs(%f8 : tensor<1x2x1024x1024xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<1x2x1024x1024xf32>
  %c11 = arith.constant 1.250000000e-01 : f32
  %e12 = tensor.empty() : tensor<1x2x1024x1024xf32>
  %g13 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g10 : tensor<1x2x1024x1024xf32>) outs(%e12 : tensor<1x2x1024x1024xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.mulf %in0, %c11 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x1024x1024xf32>
  %c14 = arith.constant 0xFF800000 : f32
  %e16 = tensor.empty() : tensor<1x2x1024xf32>
  %f15 = linalg.fill ins(%c14 : f32) outs(%e16 : tensor<1x2x1024xf32>) -> tensor<1x2x1024xf32>
  %g17 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g13 : tensor<1x2x1024x1024xf32>) outs(%f15 : tensor<1x2x1024xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.maximumf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<1x2x1024xf32>
  %e18 = tensor.empty() : tensor<1x2x1024x1024xf32>
  %g19 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g13, %g17 : tensor<1x2x1024x1024xf32>, tensor<1x2x1024xf32>) outs(%e18 : tensor<1x2x1024x1024xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %d = arith.subf %in0, %in1 : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<1x2x1024x1024xf32>
  %c20 = arith.constant 0.000000000e+00 : f32
  %e22 = tensor.empty() : tensor<1x2x1024xf32>
  %f21 = linalg.fill ins(%c20 : f32) outs(%e22 : tensor<1x2x1024xf32>) -> tensor<1x2x1024xf32>
  %g23 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g19 : tensor<1x2x1024x1024xf32>) outs(%f21 : tensor<1x2x1024xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.addf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<1x2x1024xf32>
  %e24 = tensor.empty() : tensor<1x2x1024x1024xf32>
  %g25 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g19, %g23 : tensor<1x2x1024x1024xf32>, tensor<1x2x1024xf32>) outs(%e24 : tensor<1x2x1024x1024xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %y = arith.divf %in0, %in1 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x1024x1024xf32>
  %c26 = arith.constant 0.000000000e+00 : f32
  %e28 = tensor.empty() : tensor<1x2x1024x64xf32>
  %f27 = linalg.fill ins(%c26 : f32) outs(%e28 : tensor<1x2x1024x64xf32>) -> tensor<1x2x1024x64xf32>
  %g29 = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, l) -> (b, h, m, l)>, affine_map<(b, h, m, n, l) -> (b, h, l, n)>, affine_map<(b, h, m, n, l) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g25, %g6 : tensor<1x2x1024x1024xf32>, tensor<1x2x1024x64xf32>) outs(%f27 : tensor<1x2x1024x64xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<1x2x1024x64xf32>
  %e30 = tensor.empty() : tensor<1x2x1024x64xf16>
  %g31 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g29 : tensor<1x2x1024x64xf32>) outs(%e30 : tensor<1x2x1024x64xf16>) {
  ^bb0(%in0: f32, %acc: f16):
    %y = arith.truncf %in0 : f32 to f16
    linalg.yield %y : f16
  } -> tensor<1x2x1024x64xf16>
  return %g31 : tensor<1x2x1024x64xf16>
}

func.func @attention_d128(%q: tensor<2x2x512x128xf16>, %k: tensor<2x2x512x128xf16>, %v: tensor<2x2x512x128xf16>) -> tensor<2x2x512x128xf16> {
  %e1 = tensor.empty() : tensor<2x2x512x128xf32>
  %g2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%q : tensor<2x2x512x128xf16>) outs(%e1 : tensor<2x2x512x128xf32>) {
  ^bb0(%in0: f16, %acc: f32):
    %y = arith.extf %in0 : f16 to f32
    linalg.yield %y : f32
  } -> tensor<2x2x512x128xf32>
  %e3 = tensor.empty() : tensor<2x2x512x128xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%k : tensor<2x2x512x128xf16>) outs(%e3 : tensor<2x2x512x128xf32>) {
  ^bb0(%in0: f16, %acc: f32):
    %y = arith.extf %in0 : f16 to f32
    linalg.yield %y : f32
  } -> tensor<2x2x512x128xf32>
  %e5 = tensor.empty() : tensor<2x2x512x128xf32>
  %g6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%v : tensor<2x2x512x128xf16>) outs(%e5 : tensor<2x2x512x128xf32>) {
  ^bb0(%in0: f16, %acc: f32):
    %y = arith.extf %in0 : f16 to f32
    linalg.yield %y : f32
  } -> tensor<2x2x512x128xf32>
  %c7 = arith.constant 0.000000000e+00 : f32
  %e9 = tensor.empty() : tensor<2x2x512x512xf32>
  %f8 = linalg.fill ins(%c7 : f32) outs(%e9 : tensor<2x2x512x512xf32>) -> tensor<2x2x512x512xf32>
  %g10 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l, k) -> (b, h, m, k)>, affine_map<(b, h, m, l, k) -> (b, h, l, k)>, affine_map<(b, h, m, l, k) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g2, %g4 : tensor<2x2x512x128xf32>, tensor<2x2x512x128xf32>) outs(%f8 : tensor<2x2x512x512xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<2x2x512x512xf32>
  %c11 = arith.constant 8.838834765e-02 : f32
  %e12 = tensor.empty() : tensor<2x2x512x512xf32>
  %g13 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g10 : tensor<2x2x512x512xf32>) outs(%e12 : tensor<2x2x512x512xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.mulf %in0, %c11 : f32
    linalg.yield %y : f32
  } -> tensor<2x2x512x512xf32>
  %c14 = arith.constant 0xFF800000 : f32
  %e16 = tensor.empty() : tensor<2x2x512xf32>
  %f15 = linalg.fill ins(%c14 : f32) outs(%e16 : tensor<2x2x512xf32>) -> tensor<2x2x512xf32>
  %g17 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g13 : tensor<2x2x512x512xf32>) outs(%f15 : tensor<2x2x512xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.maximumf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<2x2x512xf32>
  %e18 = tensor.empty() : tensor<2x2x512x512xf32>
  %g19 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g13, %g17 : tensor<2x2x512x512xf32>, tensor<2x2x512xf32>) outs(%e18 : tensor<2x2x512x512xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %d = arith.subf %in0, %in1 : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<2x2x512x512xf32>
  %c20 = arith.constant 0.000000000e+00 : f32
  %e22 = tensor.empty() : tensor<2x2x512xf32>
  %f21 = linalg.fill ins(%c20 : f32) outs(%e22 : tensor<2x2x512xf32>) -> tensor<2x2x512xf32>
  %g23 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g19 : tensor<2x2x512x512xf32>) outs(%f21 : tensor<2x2x512xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.addf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<2x2x512xf32>
  %e24 = tensor.empty() : tensor<2x2x512x512xf32>
  %g25 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g19, %g23 : tensor<2x2x512x512xf32>, tensor<2x2x512xf32>) outs(%e24 : tensor<2x2x512x512xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %y = arith.divf %in0, %in1 : f32
    linalg.yield %y : f32
  } -> tensor<2x2x512x512xf32>
  %c26 = arith.constant 0.000000000e+00 : f32
  %e28 = tensor.empty() : tensor<2x2x512x128xf32>
  %f27 = linalg.fill ins(%c26 : f32) outs(%e28 : tensor<2x2x512x128xf32>) -> tensor<2x2x512x128xf32>
  %g29 = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, l) -> (b, h, m, l)>, affine_map<(b, h, m, n, l) -> (b, h, l, n)>, affine_map<(b, h, m, n, l) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g25, %g6 : tensor<2x2x512x512xf32>, tensor<2x2x512x128xf32>) outs(%f27 : tensor<2x2x512x128xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<2x2x512x128xf32>
  %e30 = tensor.empty() : tensor<2x2x512x128xf16>
  %g31 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g29 : tensor<2x2x512x128xf32>) outs(%e30 : tensor<2x2x512x128xf16>) {
  ^bb0(%in0: f32, %acc: f16):
    %y = arith.truncf %in0 : f32 to f16
    linalg.yield %y : f16
  } -> tensor<2x2x512x128xf16>
  return %g31 : tensor<2x2x512x128xf16>
}

func.func @attention_mask(%q: tensor<1x2x512x64xf16>, %k: tensor<1x2x512x64xf16>, %v: tensor<1x2x512x64xf16>, %mask: tensor<1x2x512x512xf16>) -> tensor<1x2x512x64xf16> {
  %e1 = tensor.empty() : tensor<1x2x512x64xf32>
  %g2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%q : tensor<1x2x512x64xf16>) outs(%e1 : tensor<1x2x512x64xf32>) {
  ^bb0(%in0: f16, %acc: f32):
    %y = arith.extf %in0 : f16 to f32
    linalg.yield %y : f32
  } -> tensor<1x2x512x64xf32>
  %e3 = tensor.empty() : tensor<1x2x512x64xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%k : tensor<1x2x512x64xf16>) outs(%e3 : tensor<1x2x512x64xf32>) {
  ^bb0(%in0: f16, %acc: f32):
    %y = arith.extf %in0 : f16 to f32
    linalg.yield %y : f32
  } -> tensor<1x2x512x64xf32>
  %e5 = tensor.empty() : tensor<1x2x512x64xf32>
  %g6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%v : tensor<1x2x512x64xf16>) outs(%e5 : tensor<1x2x512x64xf32>) {
  ^bb0(%in0: f16, %acc: f32):
    %y = arith.extf %in0 : f16 to f32
    linalg.yield %y : f32
  } -> tensor<1x2x512x64xf32>
  %e7 = tensor.empty() : tensor<1x2x512x512xf32>
  %g8 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%mask : tensor<1x2x512x512xf16>) outs(%e7 : tensor<1x2x512x512xf32>) {
  ^bb0(%in0: f16, %acc: f32):
    %y = arith.extf %in0 : f16 to f32
    linalg.yield %y : f32
  } -> tensor<1x2x512x512xf32>
  %c9 = arith.constant 0.000000000e+00 : f32
  %e11 = tensor.empty() : tensor<1x2x512x512xf32>
  %f10 = linalg.fill ins(%c9 : f32) outs(%e11 : tensor<1x2x512x512xf32>) -> tensor<1x2x512x512xf32>
  %g12 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l, k) -> (b, h, m, k)>, affine_map<(b, h, m, l, k) -> (b, h, l, k)>, affine_map<(b, h, m, l, k) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g2, %g4 : tensor<1x2x512x64xf32>, tensor<1x2x512x64xf32>) outs(%f10 : tensor<1x2x512x512xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<1x2x512x512xf32>
  %c13 = arith.constant 1.250000000e-01 : f32
  %e14 = tensor.empty() : tensor<1x2x512x512xf32>
  %g15 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g12 : tensor<1x2x512x512xf32>) outs(%e14 : tensor<1x2x512x512xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.mulf %in0, %c13 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x512x512xf32>
  %e16 = tensor.empty() : tensor<1x2x512x512xf32>
  %g17 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g15, %g8 : tensor<1x2x512x512xf32>, tensor<1x2x512x512xf32>) outs(%e16 : tensor<1x2x512x512xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %y = arith.addf %in0, %in1 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x512x512xf32>
  %c18 = arith.constant 0xFF800000 : f32
  %e20 = tensor.empty() : tensor<1x2x512xf32>
  %f19 = linalg.fill ins(%c18 : f32) outs(%e20 : tensor<1x2x512xf32>) -> tensor<1x2x512xf32>
  %g21 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g17 : tensor<1x2x512x512xf32>) outs(%f19 : tensor<1x2x512xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.maximumf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<1x2x512xf32>
  %e22 = tensor.empty() : tensor<1x2x512x512xf32>
  %g23 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g17, %g21 : tensor<1x2x512x512xf32>, tensor<1x2x512xf32>) outs(%e22 : tensor<1x2x512x512xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %d = arith.subf %in0, %in1 : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<1x2x512x512xf32>
  %c24 = arith.constant 0.000000000e+00 : f32
  %e26 = tensor.empty() : tensor<1x2x512xf32>
  %f25 = linalg.fill ins(%c24 : f32) outs(%e26 : tensor<1x2x512xf32>) -> tensor<1x2x512xf32>
  %g27 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g23 : tensor<1x2x512x512xf32>) outs(%f25 : tensor<1x2x512xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.addf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<1x2x512xf32>
  %e28 = tensor.empty() : tensor<1x2x512x512xf32>
  %g29 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g23, %g27 : tensor<1x2x512x512xf32>, tensor<1x2x512xf32>) outs(%e28 : tensor<1x2x512x512xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %y = arith.divf %in0, %in1 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x512x512xf32>
  %c30 = arith.constant 0.000000000e+00 : f32
  %e32 = tensor.empty() : tensor<1x2x512x64xf32>
  %f31 = linalg.fill ins(%c30 : f32) outs(%e32 : tensor<1x2x512x64xf32>) -> tensor<1x2x512x64xf32>
  %g33 = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, l) -> (b, h, m, l)>, affine_map<(b, h, m, n, l) -> (b, h, l, n)>, affine_map<(b, h, m, n, l) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g29, %g6 : tensor<1x2x512x512xf32>, tensor<1x2x512x64xf32>) outs(%f31 : tensor<1x2x512x64xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<1x2x512x64xf32>
  %e34 = tensor.empty() : tensor<1x2x512x64xf16>
  %g35 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g33 : tensor<1x2x512x64xf32>) outs(%e34 : tensor<1x2x512x64xf16>) {
  ^bb0(%in0: f32, %acc: f16):
    %y = arith.truncf %in0 : f32 to f16
    linalg.yield %y : f16
  } -> tensor<1x2x512x64xf16>
  return %g35 : tensor<1x2x512x64xf16>
}

func.func @attention_wgmma_d64(%q: tensor<2x8x1024x64xf16>, %k: tensor<2x8x1024x64xf16>, %v: tensor<2x8x1024x64xf16>) -> tensor<2x8x1024x64xf16> {
  %e1 = tensor.empty() : tensor<2x8x1024x64xf32>
  %g2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%q : tensor<2x8x1024x64xf16>) outs(%e1 : tensor<2x8x1024x64xf32>) {
  ^bb0(%in0: f16, %acc: f32):
    %y = arith.extf %in0 : f16 to f32
    linalg.yield %y : f32
  } -> tensor<2x8x1024x64xf32>
  %e3 = tensor.empty() : tensor<2x8x1024x64xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%k : tensor<2x8x1024x64xf16>) outs(%e3 : tensor<2x8x1024x64xf32>) {
  ^bb0(%in0: f16, %acc: f32):
    %y = arith.extf %in0 : f16 to f32
    linalg.yield %y : f32
  } -> tensor<2x8x1024x64xf32>
  %e5 = tensor.empty() : tensor<2x8x1024x64xf32>
  %g6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%v : tensor<2x8x1024x64xf16>) outs(%e5 : tensor<2x8x1024x64xf32>) {
  ^bb0(%in0: f16, %acc: f32):
    %y = arith.extf %in0 : f16 to f32
    linalg.yield %y : f32
  } -> tensor<2x8x1024x64xf32>
  %c7 = arith.constant 0.000000000e+00 : f32
  %e9 = tensor.empty() : tensor<2x8x1024x1024xf32>
  %f8 = linalg.fill ins(%c7 : f32) outs(%e9 : tensor<2x8x1024x1024xf32>) -> tensor<2x8x1024x1024xf32>
  %g10 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l, k) -> (b, h, m, k)>, affine_map<(b, h, m, l, k) -> (b, h, l, k)>, affine_map<(b, h, m, l, k) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g2, %g4 : tensor<2x8x1024x64xf32>, tensor<2x8x1024x64xf32>) outs(%f8 : tensor<2x8x1024x1024xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<2x8x1024x1024xf32>
  %c11 = arith.constant 1.250000000e-01 : f32
  %e12 = tensor.empty() : tensor<2x8x1024x1024xf32>
  %g13 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g10 : tensor<2x8x1024x1024xf32>) outs(%e12 : tensor<2x8x1024x1024xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.mulf %in0, %c11 : f32
    linalg.yield %y : f32
  } -> tensor<2x8x1024x1024xf32>
  %c14 = arith.constant 0xFF800000 : f32
  %e16 = tensor.empty() : tensor<2x8x1024xf32>
  %f15 = linalg.fill ins(%c14 : f32) outs(%e16 : tensor<2x8x1024xf32>) -> tensor<2x8x1024xf32>
  %g17 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g13 : tensor<2x8x1024x1024xf32>) outs(%f15 : tensor<2x8x1024xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.maximumf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<2x8x1024xf32>
  %e18 = tensor.empty() : tensor<2x8x1024x1024xf32>
  %g19 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g13, %g17 : tensor<2x8x1024x1024xf32>, tensor<2x8x1024xf32>) outs(%e18 : tensor<2x8x1024x1024xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %d = arith.subf %in0, %in1 : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<2x8x1024x1024xf32>
  %c20 = arith.constant 0.000000000e+00 : f32
  %e22 = tensor.empty() : tensor<2x8x1024xf32>
  %f21 = linalg.fill ins(%c20 : f32) outs(%e22 : tensor<2x8x1024xf32>) -> tensor<2x8x1024xf32>
  %g23 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g19 : tensor<2x8x1024x1024xf32>) outs(%f21 : tensor<2x8x1024xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.addf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<2x8x1024xf32>
  %e24 = tensor.empty() : tensor<2x8x1024x1024xf32>
  %g25 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g19, %g23 : tensor<2x8x1024x1024xf32>, tensor<2x8x1024xf32>) outs(%e24 : tensor<2x8x1024x1024xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %y = arith.divf %in0, %in1 : f32
    linalg.yield %y : f32
  } -> tensor<2x8x1024x1024xf32>
  %c26 = arith.constant 0.000000000e+00 : f32
  %e28 = tensor.empty() : tensor<2x8x1024x64xf32>
  %f27 = linalg.fill ins(%c26 : f32) outs(%e28 : tensor<2x8x1024x64xf32>) -> tensor<2x8x1024x64xf32>
  %g29 = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, l) -> (b, h, m, l)>, affine_map<(b, h, m, n, l) -> (b, h, l, n)>, affine_map<(b, h, m, n, l) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g25, %g6 : tensor<2x8x1024x1024xf32>, tensor<2x8x1024x64xf32>) outs(%f27 : tensor<2x8x1024x64xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<2x8x1024x64xf32>
  %e30 = tensor.empty() : tensor<2x8x1024x64xf16>
  %g31 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g29 : tensor<2x8x1024x64xf32>) outs(%e30 : tensor<2x8x1024x64xf16>) {
  ^bb0(%in0: f32, %acc: f16):
    %y = arith.truncf %in0 : f32 to f16
    linalg.yield %y : f16
  } -> tensor<2x8x1024x64xf16>
  return %g31 : tensor<2x8x1024x64xf16>
}

func.func @attention_wgmma_d128(%q: tensor<2x4x1024x128xf16>, %k: tensor<2x4x1024x128xf16>, %v: tensor<2x4x1024x128xf16>) -> tensor<2x4x1024x128xf16> {
  %e1 = tensor.empty() : tensor<2x4x1024x128xf32>
  %g2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%q : tensor<2x4x1024x128xf16>) outs(%e1 : tensor<2x4x1024x128xf32>) {
  ^bb0(%in0: f16, %acc: f32):
    %y = arith.extf %in0 : f16 to f32
    linalg.yield %y : f32
  } -> tensor<2x4x1024x128xf32>
  %e3 = tensor.empty() : tensor<2x4x1024x128xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%k : tensor<2x4x1024x128xf16>) outs(%e3 : tensor<2x4x1024x128xf32>) {
  ^bb0(%in0: f16, %acc: f32):
    %y = arith.extf %in0 : f16 to f32
    linalg.yield %y : f32
  } -> tensor<2x4x1024x128xf32>
  %e5 = tensor.empty() : tensor<2x4x1024x128xf32>
  %g6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%v : tensor<2x4x1024x128xf16>) outs(%e5 : tensor<2x4x1024x128xf32>) {
  ^bb0(%in0: f16, %acc: f32):
    %y = arith.extf %in0 : f16 to f32
    linalg.yield %y : f32
  } -> tensor<2x4x1024x128xf32>
  %c7 = arith.constant 0.000000000e+00 : f32
  %e9 = tensor.empty() : tensor<2x4x1024x1024xf32>
  %f8 = linalg.fill ins(%c7 : f32) outs(%e9 : tensor<2x4x1024x1024xf32>) -> tensor<2x4x1024x1024xf32>
  %g10 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l, k) -> (b, h, m, k)>, affine_map<(b, h, m, l, k) -> (b, h, l, k)>, affine_map<(b, h, m, l, k) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g2, %g4 : tensor<2x4x1024x128xf32>, tensor<2x4x1024x128xf32>) outs(%f8 : tensor<2x4x1024x1024xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<2x4x1024x1024xf32>
  %c11 = arith.constant 8.838834765e-02 : f32
  %e12 = tensor.empty() : tensor<2x4x1024x1024xf32>
  %g13 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g10 : tensor<2x4x1024x1024xf32>) outs(%e12 : tensor<2x4x1024x1024xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.mulf %in0, %c11 : f32
    linalg.yield %y : f32
  } -> tensor<2x4x1024x1024xf32>
  %c14 = arith.constant 0xFF800000 : f32
  %e16 = tensor.empty() : tensor<2x4x1024xf32>
  %f15 = linalg.fill ins(%c14 : f32) outs(%e16 : tensor<2x4x1024xf32>) -> tensor<2x4x1024xf32>
  %g17 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g13 : tensor<2x4x1024x1024xf32>) outs(%f15 : tensor<2x4x1024xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.maximumf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<2x4x1024xf32>
  %e18 = tensor.empty() : tensor<2x4x1024x1024xf32>
  %g19 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g13, %g17 : tensor<2x4x1024x1024xf32>, tensor<2x4x1024xf32>) outs(%e18 : tensor<2x4x1024x1024xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %d = arith.subf %in0, %in1 : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<2x4x1024x1024xf32>
  %c20 = arith.constant 0.000000000e+00 : f32
  %e22 = tensor.empty() : tensor<2x4x1024xf32>
  %f21 = linalg.fill ins(%c20 : f32) outs(%e22 : tensor<2x4x1024xf32>) -> tensor<2x4x1024xf32>
  %g23 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g19 : tensor<2x4x1024x1024xf32>) outs(%f21 : tensor<2x4x1024xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.addf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<2x4x1024xf32>
  %e24 = tensor.empty() : tensor<2x4x1024x1024xf32>
  %g25 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g19, %g23 : tensor<2x4x1024x1024xf32>, tensor<2x4x1024xf32>) outs(%e24 : tensor<2x4x1024x1024xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %y = arith.divf %in0, %in1 : f32
    linalg.yield %y : f32
  } -> tensor<2x4x1024x1024xf32>
  %c26 = arith.constant 0.000000000e+00 : f32
  %e28 = tensor.empty() : tensor<2x4x1024x128xf32>
  %f27 = linalg.fill ins(%c26 : f32) outs(%e28 : tensor<2x4x1024x128xf32>) -> tensor<2x4x1024x128xf32>
  %g29 = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, l) -> (b, h, m, l)>, affine_map<(b, h, m, n, l) -> (b, h, l, n)>, affine_map<(b, h, m, n, l) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g25, %g6 : tensor<2x4x1024x1024xf32>, tensor<2x4x1024x128xf32>) outs(%f27 : tensor<2x4x1024x128xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<2x4x1024x128xf32>
  %e30 = tensor.empty() : tensor<2x4x1024x128xf16>
  %g31 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g29 : tensor<2x4x1024x128xf32>) outs(%e30 : tensor<2x4x1024x128xf16>) {
  ^bb0(%in0: f32, %acc: f16):
    %y = arith.truncf %in0 : f32 to f16
    linalg.yield %y : f16
  } -> tensor<2x4x1024x128xf16>
  return %g31 : tensor<2x4x1024x128xf16>
}
