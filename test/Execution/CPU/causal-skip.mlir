// Causal attention with the slices past each query block skipped (see
// test/Dialect/SMap/Transforms/temporal-slice-causal.mlir), fused against
// unfused on the CPU with the f64 reference: square, 197 tokens with ragged
// blocks and slices, bottom-right aligned with fewer queries than keys
// (chunked prefill: 40 queries, 128 keys), the f16 frontend form, and
// sliding windows (keys at most 64 or 50 before the query; the loop also
// starts at the slice of the block's first window), with ragged tiles too.
//
// RUN: split-file %s %t
// RUN: spacefusion-run %t/square.mlir --spatial=h:1,m:64 --temporal=l:32 | FileCheck %s
// RUN: spacefusion-run %t/square.mlir --spatial=h:1,m:16 --temporal=l:64 | FileCheck %s
// RUN: spacefusion-run %t/vit.mlir --spatial=h:1,m:64 --temporal=l:48 | FileCheck %s
// RUN: spacefusion-run %t/prefill.mlir --spatial=h:1,m:16 --temporal=l:32 | FileCheck %s
// RUN: spacefusion-run %t/frontend.mlir --spatial=h:1,m:32 --temporal=l:32 | FileCheck %s --check-prefix=F16
// RUN: spacefusion-run %t/square.mlir | FileCheck %s --check-prefix=SEARCHED
// RUN: spacefusion-run %t/window.mlir --spatial=h:1,m:64 --temporal=l:32 | FileCheck %s
// RUN: spacefusion-run %t/window.mlir --spatial=h:1,m:32 --temporal=l:16 | FileCheck %s
// RUN: spacefusion-run %t/window-ragged.mlir --spatial=h:1,m:64 --temporal=l:48 | FileCheck %s
//
// The cost model counts the slices each block visits: at 197 tokens, blocks
// of 64 queries (the last at 133, clamped) and slices of 128 keys, the
// blocks visit 1, 1, 2 and 2 of the 2 slices: 75%.
// RUN: spacefusion-opt %t/vit.mlir --smap-form-graphs --smap-set-target=target=cpu --smap-analyze \
// RUN:   '--smap-schedule=spatial=h:1,m:64 temporal=l:128' --remarks-filter=smap --remark-format=emitRemark \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=VISITED
// VISITED: uses the given schedule on cpu: spatial [h=1, m=64] temporal [l=128]
// VISITED-SAME: 75.0% of the temporal slices visited (a mask skips the rest)

// CHECK: temporally sliced
// CHECK: out of tolerance: #0 0 of {{[0-9]+}}: PASS
// F16: temporally sliced
// F16: : PASS
// SEARCHED: : PASS

//--- square.mlir
func.func @attention_causal(%q: tensor<1x2x256x16xf32>, %k: tensor<1x2x256x16xf32>, %v: tensor<1x2x256x16xf32>) -> tensor<1x2x256x16xf32> {
  %c1 = arith.constant 0.000000000e+00 : f32
  %e3 = tensor.empty() : tensor<1x2x256x256xf32>
  %f2 = linalg.fill ins(%c1 : f32) outs(%e3 : tensor<1x2x256x256xf32>) -> tensor<1x2x256x256xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l, k) -> (b, h, m, k)>, affine_map<(b, h, m, l, k) -> (b, h, l, k)>, affine_map<(b, h, m, l, k) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x2x256x16xf32>, tensor<1x2x256x16xf32>) outs(%f2 : tensor<1x2x256x256xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<1x2x256x256xf32>
  %c5 = arith.constant 2.500000000e-01 : f32
  %e6 = tensor.empty() : tensor<1x2x256x256xf32>
  %g7 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g4 : tensor<1x2x256x256xf32>) outs(%e6 : tensor<1x2x256x256xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %x = arith.mulf %in0, %c5 : f32
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %shift = arith.constant 0 : index
    %last = arith.addi %i, %shift : index
    %hide = arith.cmpi ugt, %j, %last : index
    %ninf = arith.constant 0xFF800000 : f32
    %y = arith.select %hide, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<1x2x256x256xf32>
  %c8 = arith.constant 0xFF800000 : f32
  %e10 = tensor.empty() : tensor<1x2x256xf32>
  %f9 = linalg.fill ins(%c8 : f32) outs(%e10 : tensor<1x2x256xf32>) -> tensor<1x2x256xf32>
  %g11 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g7 : tensor<1x2x256x256xf32>) outs(%f9 : tensor<1x2x256xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.maximumf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<1x2x256xf32>
  %e12 = tensor.empty() : tensor<1x2x256x256xf32>
  %g13 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g7, %g11 : tensor<1x2x256x256xf32>, tensor<1x2x256xf32>) outs(%e12 : tensor<1x2x256x256xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %d = arith.subf %in0, %in1 : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<1x2x256x256xf32>
  %c14 = arith.constant 0.000000000e+00 : f32
  %e16 = tensor.empty() : tensor<1x2x256xf32>
  %f15 = linalg.fill ins(%c14 : f32) outs(%e16 : tensor<1x2x256xf32>) -> tensor<1x2x256xf32>
  %g17 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g13 : tensor<1x2x256x256xf32>) outs(%f15 : tensor<1x2x256xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.addf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<1x2x256xf32>
  %e18 = tensor.empty() : tensor<1x2x256x256xf32>
  %g19 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g13, %g17 : tensor<1x2x256x256xf32>, tensor<1x2x256xf32>) outs(%e18 : tensor<1x2x256x256xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %y = arith.divf %in0, %in1 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x256x256xf32>
  %c20 = arith.constant 0.000000000e+00 : f32
  %e22 = tensor.empty() : tensor<1x2x256x16xf32>
  %f21 = linalg.fill ins(%c20 : f32) outs(%e22 : tensor<1x2x256x16xf32>) -> tensor<1x2x256x16xf32>
  %g23 = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, l) -> (b, h, m, l)>, affine_map<(b, h, m, n, l) -> (b, h, l, n)>, affine_map<(b, h, m, n, l) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g19, %v : tensor<1x2x256x256xf32>, tensor<1x2x256x16xf32>) outs(%f21 : tensor<1x2x256x16xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<1x2x256x16xf32>
  return %g23 : tensor<1x2x256x16xf32>
}

//--- vit.mlir
func.func @attention_causal(%q: tensor<1x2x197x16xf32>, %k: tensor<1x2x197x16xf32>, %v: tensor<1x2x197x16xf32>) -> tensor<1x2x197x16xf32> {
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
    %x = arith.mulf %in0, %c5 : f32
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %shift = arith.constant 0 : index
    %last = arith.addi %i, %shift : index
    %hide = arith.cmpi ugt, %j, %last : index
    %ninf = arith.constant 0xFF800000 : f32
    %y = arith.select %hide, %ninf, %x : f32
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

//--- prefill.mlir
func.func @attention_causal(%q: tensor<1x2x40x16xf32>, %k: tensor<1x2x128x16xf32>, %v: tensor<1x2x128x16xf32>) -> tensor<1x2x40x16xf32> {
  %c1 = arith.constant 0.000000000e+00 : f32
  %e3 = tensor.empty() : tensor<1x2x40x128xf32>
  %f2 = linalg.fill ins(%c1 : f32) outs(%e3 : tensor<1x2x40x128xf32>) -> tensor<1x2x40x128xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l, k) -> (b, h, m, k)>, affine_map<(b, h, m, l, k) -> (b, h, l, k)>, affine_map<(b, h, m, l, k) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x2x40x16xf32>, tensor<1x2x128x16xf32>) outs(%f2 : tensor<1x2x40x128xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<1x2x40x128xf32>
  %c5 = arith.constant 2.500000000e-01 : f32
  %e6 = tensor.empty() : tensor<1x2x40x128xf32>
  %g7 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g4 : tensor<1x2x40x128xf32>) outs(%e6 : tensor<1x2x40x128xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %x = arith.mulf %in0, %c5 : f32
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %shift = arith.constant 88 : index
    %last = arith.addi %i, %shift : index
    %hide = arith.cmpi ugt, %j, %last : index
    %ninf = arith.constant 0xFF800000 : f32
    %y = arith.select %hide, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<1x2x40x128xf32>
  %c8 = arith.constant 0xFF800000 : f32
  %e10 = tensor.empty() : tensor<1x2x40xf32>
  %f9 = linalg.fill ins(%c8 : f32) outs(%e10 : tensor<1x2x40xf32>) -> tensor<1x2x40xf32>
  %g11 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g7 : tensor<1x2x40x128xf32>) outs(%f9 : tensor<1x2x40xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.maximumf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<1x2x40xf32>
  %e12 = tensor.empty() : tensor<1x2x40x128xf32>
  %g13 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g7, %g11 : tensor<1x2x40x128xf32>, tensor<1x2x40xf32>) outs(%e12 : tensor<1x2x40x128xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %d = arith.subf %in0, %in1 : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<1x2x40x128xf32>
  %c14 = arith.constant 0.000000000e+00 : f32
  %e16 = tensor.empty() : tensor<1x2x40xf32>
  %f15 = linalg.fill ins(%c14 : f32) outs(%e16 : tensor<1x2x40xf32>) -> tensor<1x2x40xf32>
  %g17 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g13 : tensor<1x2x40x128xf32>) outs(%f15 : tensor<1x2x40xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.addf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<1x2x40xf32>
  %e18 = tensor.empty() : tensor<1x2x40x128xf32>
  %g19 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g13, %g17 : tensor<1x2x40x128xf32>, tensor<1x2x40xf32>) outs(%e18 : tensor<1x2x40x128xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %y = arith.divf %in0, %in1 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x40x128xf32>
  %c20 = arith.constant 0.000000000e+00 : f32
  %e22 = tensor.empty() : tensor<1x2x40x16xf32>
  %f21 = linalg.fill ins(%c20 : f32) outs(%e22 : tensor<1x2x40x16xf32>) -> tensor<1x2x40x16xf32>
  %g23 = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, l) -> (b, h, m, l)>, affine_map<(b, h, m, n, l) -> (b, h, l, n)>, affine_map<(b, h, m, n, l) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g19, %v : tensor<1x2x40x128xf32>, tensor<1x2x128x16xf32>) outs(%f21 : tensor<1x2x40x16xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<1x2x40x16xf32>
  return %g23 : tensor<1x2x40x16xf32>
}

//--- frontend.mlir
func.func @attention_causal(%q: tensor<1x2x128x16xf16>, %k: tensor<1x2x128x16xf16>, %v: tensor<1x2x128x16xf16>) -> tensor<1x2x128x16xf16> {
  %c1 = arith.constant 0.000000000e+00 : f32
  %e3 = tensor.empty() : tensor<1x2x128x128xf32>
  %f2 = linalg.fill ins(%c1 : f32) outs(%e3 : tensor<1x2x128x128xf32>) -> tensor<1x2x128x128xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l, k) -> (b, h, m, k)>, affine_map<(b, h, m, l, k) -> (b, h, l, k)>, affine_map<(b, h, m, l, k) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x2x128x16xf16>, tensor<1x2x128x16xf16>) outs(%f2 : tensor<1x2x128x128xf32>) {
  ^bb0(%in0: f16, %in1: f16, %acc: f32):
    %x = arith.extf %in0 : f16 to f32
    %w = arith.extf %in1 : f16 to f32
    %p = arith.mulf %x, %w : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<1x2x128x128xf32>
  %c5 = arith.constant 2.500000000e-01 : f32
  %e6 = tensor.empty() : tensor<1x2x128x128xf32>
  %g7 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g4 : tensor<1x2x128x128xf32>) outs(%e6 : tensor<1x2x128x128xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %x = arith.mulf %in0, %c5 : f32
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %shift = arith.constant 0 : index
    %last = arith.addi %i, %shift : index
    %hide = arith.cmpi ugt, %j, %last : index
    %ninf = arith.constant 0xFF800000 : f32
    %y = arith.select %hide, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<1x2x128x128xf32>
  %c8 = arith.constant 0xFF800000 : f32
  %e10 = tensor.empty() : tensor<1x2x128xf32>
  %f9 = linalg.fill ins(%c8 : f32) outs(%e10 : tensor<1x2x128xf32>) -> tensor<1x2x128xf32>
  %g11 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g7 : tensor<1x2x128x128xf32>) outs(%f9 : tensor<1x2x128xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.maximumf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<1x2x128xf32>
  %e12 = tensor.empty() : tensor<1x2x128x128xf32>
  %g13 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g7, %g11 : tensor<1x2x128x128xf32>, tensor<1x2x128xf32>) outs(%e12 : tensor<1x2x128x128xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %d = arith.subf %in0, %in1 : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<1x2x128x128xf32>
  %c14 = arith.constant 0.000000000e+00 : f32
  %e16 = tensor.empty() : tensor<1x2x128xf32>
  %f15 = linalg.fill ins(%c14 : f32) outs(%e16 : tensor<1x2x128xf32>) -> tensor<1x2x128xf32>
  %g17 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g13 : tensor<1x2x128x128xf32>) outs(%f15 : tensor<1x2x128xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.addf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<1x2x128xf32>
  %e18 = tensor.empty() : tensor<1x2x128x128xf16>
  %g19 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g13, %g17 : tensor<1x2x128x128xf32>, tensor<1x2x128xf32>) outs(%e18 : tensor<1x2x128x128xf16>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f16):
    %r = arith.divf %in0, %in1 : f32
    %y = arith.truncf %r : f32 to f16
    linalg.yield %y : f16
  } -> tensor<1x2x128x128xf16>
  %c20 = arith.constant 0.000000000e+00 : f32
  %e22 = tensor.empty() : tensor<1x2x128x16xf32>
  %f21 = linalg.fill ins(%c20 : f32) outs(%e22 : tensor<1x2x128x16xf32>) -> tensor<1x2x128x16xf32>
  %g23 = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, l) -> (b, h, m, l)>, affine_map<(b, h, m, n, l) -> (b, h, l, n)>, affine_map<(b, h, m, n, l) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g19, %v : tensor<1x2x128x128xf16>, tensor<1x2x128x16xf16>) outs(%f21 : tensor<1x2x128x16xf32>) {
  ^bb0(%in0: f16, %in1: f16, %acc: f32):
    %x = arith.extf %in0 : f16 to f32
    %w = arith.extf %in1 : f16 to f32
    %p = arith.mulf %x, %w : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<1x2x128x16xf32>
  %e24 = tensor.empty() : tensor<1x2x128x16xf16>
  %g25 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g23 : tensor<1x2x128x16xf32>) outs(%e24 : tensor<1x2x128x16xf16>) {
  ^bb0(%in0: f32, %acc: f16):
    %y = arith.truncf %in0 : f32 to f16
    linalg.yield %y : f16
  } -> tensor<1x2x128x16xf16>
  return %g25 : tensor<1x2x128x16xf16>
}

//--- window.mlir
func.func @attention_window(%q: tensor<1x2x256x16xf32>, %k: tensor<1x2x256x16xf32>, %v: tensor<1x2x256x16xf32>) -> tensor<1x2x256x16xf32> {
  %c1 = arith.constant 0.000000000e+00 : f32
  %e3 = tensor.empty() : tensor<1x2x256x256xf32>
  %f2 = linalg.fill ins(%c1 : f32) outs(%e3 : tensor<1x2x256x256xf32>) -> tensor<1x2x256x256xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l, k) -> (b, h, m, k)>, affine_map<(b, h, m, l, k) -> (b, h, l, k)>, affine_map<(b, h, m, l, k) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x2x256x16xf32>, tensor<1x2x256x16xf32>) outs(%f2 : tensor<1x2x256x256xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<1x2x256x256xf32>
  %c5 = arith.constant 2.500000000e-01 : f32
  %e6 = tensor.empty() : tensor<1x2x256x256xf32>
  %g7 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g4 : tensor<1x2x256x256xf32>) outs(%e6 : tensor<1x2x256x256xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %x = arith.mulf %in0, %c5 : f32
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %shift = arith.constant 0 : index
    %last = arith.addi %i, %shift : index
    %hide = arith.cmpi ugt, %j, %last : index
    %w = arith.constant 64 : index
    %jw = arith.addi %j, %w : index
    %old = arith.cmpi ule, %jw, %last : index
    %out = arith.ori %hide, %old : i1
    %ninf = arith.constant 0xFF800000 : f32
    %y = arith.select %out, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<1x2x256x256xf32>
  %c8 = arith.constant 0xFF800000 : f32
  %e10 = tensor.empty() : tensor<1x2x256xf32>
  %f9 = linalg.fill ins(%c8 : f32) outs(%e10 : tensor<1x2x256xf32>) -> tensor<1x2x256xf32>
  %g11 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g7 : tensor<1x2x256x256xf32>) outs(%f9 : tensor<1x2x256xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.maximumf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<1x2x256xf32>
  %e12 = tensor.empty() : tensor<1x2x256x256xf32>
  %g13 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g7, %g11 : tensor<1x2x256x256xf32>, tensor<1x2x256xf32>) outs(%e12 : tensor<1x2x256x256xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %d = arith.subf %in0, %in1 : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<1x2x256x256xf32>
  %c14 = arith.constant 0.000000000e+00 : f32
  %e16 = tensor.empty() : tensor<1x2x256xf32>
  %f15 = linalg.fill ins(%c14 : f32) outs(%e16 : tensor<1x2x256xf32>) -> tensor<1x2x256xf32>
  %g17 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g13 : tensor<1x2x256x256xf32>) outs(%f15 : tensor<1x2x256xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.addf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<1x2x256xf32>
  %e18 = tensor.empty() : tensor<1x2x256x256xf32>
  %g19 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g13, %g17 : tensor<1x2x256x256xf32>, tensor<1x2x256xf32>) outs(%e18 : tensor<1x2x256x256xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %y = arith.divf %in0, %in1 : f32
    linalg.yield %y : f32
  } -> tensor<1x2x256x256xf32>
  %c20 = arith.constant 0.000000000e+00 : f32
  %e22 = tensor.empty() : tensor<1x2x256x16xf32>
  %f21 = linalg.fill ins(%c20 : f32) outs(%e22 : tensor<1x2x256x16xf32>) -> tensor<1x2x256x16xf32>
  %g23 = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, l) -> (b, h, m, l)>, affine_map<(b, h, m, n, l) -> (b, h, l, n)>, affine_map<(b, h, m, n, l) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g19, %v : tensor<1x2x256x256xf32>, tensor<1x2x256x16xf32>) outs(%f21 : tensor<1x2x256x16xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<1x2x256x16xf32>
  return %g23 : tensor<1x2x256x16xf32>
}

//--- window-ragged.mlir
func.func @attention_window(%q: tensor<1x2x197x16xf32>, %k: tensor<1x2x197x16xf32>, %v: tensor<1x2x197x16xf32>) -> tensor<1x2x197x16xf32> {
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
    %x = arith.mulf %in0, %c5 : f32
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %shift = arith.constant 0 : index
    %last = arith.addi %i, %shift : index
    %hide = arith.cmpi ugt, %j, %last : index
    %w = arith.constant 50 : index
    %jw = arith.addi %j, %w : index
    %old = arith.cmpi ule, %jw, %last : index
    %out = arith.ori %hide, %old : i1
    %ninf = arith.constant 0xFF800000 : f32
    %y = arith.select %out, %ninf, %x : f32
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
