// Tiles and slices that do not divide their dims, fused against unfused on
// the CPU (f64 reference): the last block and the last slice overlap their
// neighbours with static shapes. Attention over 197 tokens (ViT's length,
// prime) in blocks of 64 and slices of 64 or 48 (the last slice, read at
// 133 or 149, leaves its first 59 or 43 keys out of the sum and zeroes them
// in P), cross attention of 40 queries against 100 keys, a LayerNorm over
// 200 columns sliced by 64 (Welford: the centered sums and the counts), and
// a GEMM whose k (88) is sliced by 32 (both operands are inputs: one is
// zeroed on the repeated part); then the searched schedule.
//
// RUN: split-file %s %t
// RUN: spacefusion-run %t/attention.mlir --spatial=h:1,m:64 --temporal=l:64 | FileCheck %s
// RUN: spacefusion-run %t/attention.mlir --spatial=h:1,m:48 --temporal=l:48 | FileCheck %s
// RUN: spacefusion-run %t/attention.mlir | FileCheck %s --check-prefix=SEARCHED
// RUN: spacefusion-run %t/cross.mlir --spatial=h:1,m:32 --temporal=l:32 | FileCheck %s
// RUN: spacefusion-run %t/layernorm.mlir --spatial=m:16 --temporal=n:64 | FileCheck %s
// RUN: spacefusion-run %t/gemm.mlir --spatial=m:32,n:32 --temporal=k:32 | FileCheck %s

// CHECK: temporally sliced
// CHECK: out of tolerance: #0 0 of {{[0-9]+}}: PASS
// SEARCHED: out of tolerance: #0 0 of 6304: PASS

//--- attention.mlir
func.func @attention(%q: tensor<1x2x197x16xf32>, %k: tensor<1x2x197x16xf32>, %v: tensor<1x2x197x16xf32>) -> tensor<1x2x197x16xf32> {
  %c1 = arith.constant 0.000000000e+00 : f32
  %e3 = tensor.empty() : tensor<1x2x197x197xf32>
  %f2 = linalg.fill ins(%c1 : f32) outs(%e3 : tensor<1x2x197x197xf32>) -> tensor<1x2x197x197xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l, k) -> (b, h, m, k)>, affine_map<(b, h, m, l, k) -> (b, h, l, k)>, affine_map<(b, h, m, l, k) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x2x197x16xf32>, tensor<1x2x197x16xf32>) outs(%f2 : tensor<1x2x197x197xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<1x2x197x197xf32>
  %c5 = arith.constant 2.500000000e-01 : f32
  %e6 = tensor.empty() : tensor<1x2x197x197xf32>
  %g7 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g4 : tensor<1x2x197x197xf32>) outs(%e6 : tensor<1x2x197x197xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.mulf %in0, %c5 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x197x197xf32>
  %c8 = arith.constant 0xFF800000 : f32
  %e10 = tensor.empty() : tensor<1x2x197xf32>
  %f9 = linalg.fill ins(%c8 : f32) outs(%e10 : tensor<1x2x197xf32>) -> tensor<1x2x197xf32>
  %g11 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g7 : tensor<1x2x197x197xf32>) outs(%f9 : tensor<1x2x197xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.maximumf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<1x2x197xf32>
  %e12 = tensor.empty() : tensor<1x2x197x197xf32>
  %g13 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g7, %g11 : tensor<1x2x197x197xf32>, tensor<1x2x197xf32>) outs(%e12 : tensor<1x2x197x197xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %d = arith.subf %in0, %in1 : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<1x2x197x197xf32>
  %c14 = arith.constant 0.000000000e+00 : f32
  %e16 = tensor.empty() : tensor<1x2x197xf32>
  %f15 = linalg.fill ins(%c14 : f32) outs(%e16 : tensor<1x2x197xf32>) -> tensor<1x2x197xf32>
  %g17 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g13 : tensor<1x2x197x197xf32>) outs(%f15 : tensor<1x2x197xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.addf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<1x2x197xf32>
  %e18 = tensor.empty() : tensor<1x2x197x197xf32>
  %g19 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g13, %g17 : tensor<1x2x197x197xf32>, tensor<1x2x197xf32>) outs(%e18 : tensor<1x2x197x197xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %y = arith.divf %in0, %in1 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x197x197xf32>
  %c20 = arith.constant 0.000000000e+00 : f32
  %e22 = tensor.empty() : tensor<1x2x197x16xf32>
  %f21 = linalg.fill ins(%c20 : f32) outs(%e22 : tensor<1x2x197x16xf32>) -> tensor<1x2x197x16xf32>
  %g23 = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, l) -> (b, h, m, l)>, affine_map<(b, h, m, n, l) -> (b, h, l, n)>, affine_map<(b, h, m, n, l) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g19, %v : tensor<1x2x197x197xf32>, tensor<1x2x197x16xf32>) outs(%f21 : tensor<1x2x197x16xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<1x2x197x16xf32>
  return %g23 : tensor<1x2x197x16xf32>
}

//--- cross.mlir
func.func @attention(%q: tensor<1x2x40x16xf32>, %k: tensor<1x2x100x16xf32>, %v: tensor<1x2x100x16xf32>) -> tensor<1x2x40x16xf32> {
  %c1 = arith.constant 0.000000000e+00 : f32
  %e3 = tensor.empty() : tensor<1x2x40x100xf32>
  %f2 = linalg.fill ins(%c1 : f32) outs(%e3 : tensor<1x2x40x100xf32>) -> tensor<1x2x40x100xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l, k) -> (b, h, m, k)>, affine_map<(b, h, m, l, k) -> (b, h, l, k)>, affine_map<(b, h, m, l, k) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x2x40x16xf32>, tensor<1x2x100x16xf32>) outs(%f2 : tensor<1x2x40x100xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<1x2x40x100xf32>
  %c5 = arith.constant 2.500000000e-01 : f32
  %e6 = tensor.empty() : tensor<1x2x40x100xf32>
  %g7 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g4 : tensor<1x2x40x100xf32>) outs(%e6 : tensor<1x2x40x100xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.mulf %in0, %c5 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x40x100xf32>
  %c8 = arith.constant 0xFF800000 : f32
  %e10 = tensor.empty() : tensor<1x2x40xf32>
  %f9 = linalg.fill ins(%c8 : f32) outs(%e10 : tensor<1x2x40xf32>) -> tensor<1x2x40xf32>
  %g11 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g7 : tensor<1x2x40x100xf32>) outs(%f9 : tensor<1x2x40xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.maximumf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<1x2x40xf32>
  %e12 = tensor.empty() : tensor<1x2x40x100xf32>
  %g13 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g7, %g11 : tensor<1x2x40x100xf32>, tensor<1x2x40xf32>) outs(%e12 : tensor<1x2x40x100xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %d = arith.subf %in0, %in1 : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<1x2x40x100xf32>
  %c14 = arith.constant 0.000000000e+00 : f32
  %e16 = tensor.empty() : tensor<1x2x40xf32>
  %f15 = linalg.fill ins(%c14 : f32) outs(%e16 : tensor<1x2x40xf32>) -> tensor<1x2x40xf32>
  %g17 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g13 : tensor<1x2x40x100xf32>) outs(%f15 : tensor<1x2x40xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.addf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<1x2x40xf32>
  %e18 = tensor.empty() : tensor<1x2x40x100xf32>
  %g19 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g13, %g17 : tensor<1x2x40x100xf32>, tensor<1x2x40xf32>) outs(%e18 : tensor<1x2x40x100xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %y = arith.divf %in0, %in1 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x40x100xf32>
  %c20 = arith.constant 0.000000000e+00 : f32
  %e22 = tensor.empty() : tensor<1x2x40x16xf32>
  %f21 = linalg.fill ins(%c20 : f32) outs(%e22 : tensor<1x2x40x16xf32>) -> tensor<1x2x40x16xf32>
  %g23 = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, l) -> (b, h, m, l)>, affine_map<(b, h, m, n, l) -> (b, h, l, n)>, affine_map<(b, h, m, n, l) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g19, %v : tensor<1x2x40x100xf32>, tensor<1x2x100x16xf32>) outs(%f21 : tensor<1x2x40x16xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<1x2x40x16xf32>
  return %g23 : tensor<1x2x40x16xf32>
}

//--- layernorm.mlir
func.func @layernorm(%x: tensor<40x200xf32>, %gamma: tensor<200xf32>, %beta: tensor<200xf32>) -> tensor<40x200xf32> {
  %c1 = arith.constant 0.000000000e+00 : f32
  %e3 = tensor.empty() : tensor<40xf32>
  %f2 = linalg.fill ins(%c1 : f32) outs(%e3 : tensor<40xf32>) -> tensor<40xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<40x200xf32>) outs(%f2 : tensor<40xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.addf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<40xf32>
  %c5 = arith.constant 2.000000000e+02 : f32
  %e6 = tensor.empty() : tensor<40xf32>
  %g7 = linalg.generic {indexing_maps = [affine_map<(m) -> (m)>, affine_map<(m) -> (m)>], iterator_types = ["parallel"]}
      ins(%g4 : tensor<40xf32>) outs(%e6 : tensor<40xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.divf %in0, %c5 : f32
    linalg.yield %y : f32
  } -> tensor<40xf32>
  %e8 = tensor.empty() : tensor<40x200xf32>
  %g9 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %g7 : tensor<40x200xf32>, tensor<40xf32>) outs(%e8 : tensor<40x200xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %y = arith.subf %in0, %in1 : f32
    linalg.yield %y : f32
  } -> tensor<40x200xf32>
  %c10 = arith.constant 0.000000000e+00 : f32
  %e12 = tensor.empty() : tensor<40xf32>
  %f11 = linalg.fill ins(%c10 : f32) outs(%e12 : tensor<40xf32>) -> tensor<40xf32>
  %g13 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%g9 : tensor<40x200xf32>) outs(%f11 : tensor<40xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %sq = arith.mulf %in0, %in0 : f32
    %y = arith.addf %sq, %acc : f32
    linalg.yield %y : f32
  } -> tensor<40xf32>
  %c14 = arith.constant 2.000000000e+02 : f32
  %e15 = tensor.empty() : tensor<40xf32>
  %g16 = linalg.generic {indexing_maps = [affine_map<(m) -> (m)>, affine_map<(m) -> (m)>], iterator_types = ["parallel"]}
      ins(%g13 : tensor<40xf32>) outs(%e15 : tensor<40xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.divf %in0, %c14 : f32
    linalg.yield %y : f32
  } -> tensor<40xf32>
  %c17 = arith.constant 1.000000000e-05 : f32
  %e18 = tensor.empty() : tensor<40xf32>
  %g19 = linalg.generic {indexing_maps = [affine_map<(m) -> (m)>, affine_map<(m) -> (m)>], iterator_types = ["parallel"]}
      ins(%g16 : tensor<40xf32>) outs(%e18 : tensor<40xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %v = arith.addf %in0, %c17 : f32
    %y = math.rsqrt %v : f32
    linalg.yield %y : f32
  } -> tensor<40xf32>
  %e20 = tensor.empty() : tensor<40x200xf32>
  %g21 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%g9, %g19, %gamma, %beta : tensor<40x200xf32>, tensor<40xf32>, tensor<200xf32>, tensor<200xf32>) outs(%e20 : tensor<40x200xf32>) {
  ^bb0(%in0: f32, %in1: f32, %in2: f32, %in3: f32, %acc: f32):
    %t = arith.mulf %in0, %in1 : f32
    %u = arith.mulf %t, %in2 : f32
    %y = arith.addf %u, %in3 : f32
    linalg.yield %y : f32
  } -> tensor<40x200xf32>
  return %g21 : tensor<40x200xf32>
}

//--- gemm.mlir
func.func @gemm(%a: tensor<100x88xf32>, %b: tensor<88x72xf32>) -> tensor<100x72xf32> {
  %c1 = arith.constant 0.000000000e+00 : f32
  %e3 = tensor.empty() : tensor<100x72xf32>
  %f2 = linalg.fill ins(%c1 : f32) outs(%e3 : tensor<100x72xf32>) -> tensor<100x72xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<100x88xf32>, tensor<88x72xf32>) outs(%f2 : tensor<100x72xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<100x72xf32>
  return %g4 : tensor<100x72xf32>
}
