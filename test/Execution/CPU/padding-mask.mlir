// Padding masks from a per-batch length (`lens`, i64, one per batch): the
// keys from lens[b] on are hidden. The temporal slicer reads the block's
// length once, ends the loop at the slice that holds it and tests the mask
// only there (test/Dialect/SMap/Transforms/temporal-slice-padding.mlir).
// Fused against unfused on the CPU with the f64 reference, lengths
// uniform in [0, 200] over 160 keys: rows of length 0 (NaN, as unfused),
// lengths past the end, ragged slices (48 of 160), the generator's form,
// the form torch-mlir writes for masked_fill(~(arange < lens)) (an i64
// arange, a compare, a bitwise not, a select on the boolean tensor), both
// after `--cse --linalg-fuse-elementwise-ops`, and bf16 in the frontend form.
//
// RUN: split-file %s %t
// RUN: spacefusion-opt %t/torch.mlir --cse --linalg-fuse-elementwise-ops -o %t/torch-fused.mlir
// RUN: spacefusion-opt %t/generator.mlir --cse --linalg-fuse-elementwise-ops -o %t/generator-fused.mlir
// RUN: spacefusion-opt %t/torch.mlir --smap-form-graphs --smap-set-target=target=cpu --smap-analyze \
// RUN:   '--smap-schedule=spatial=b:1,h:1,m:64 temporal=l:32' --smap-spatial-slice --smap-temporal-slice \
// RUN:   --remarks-filter=smap --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=SKIP
// RUN: spacefusion-opt %t/torch-fused.mlir --smap-form-graphs --smap-set-target=target=cpu --smap-analyze \
// RUN:   '--smap-schedule=spatial=b:1,h:1,m:64 temporal=l:32' --smap-spatial-slice --smap-temporal-slice \
// RUN:   --remarks-filter=smap --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=SKIP
// RUN: spacefusion-run %t/generator.mlir --spatial=b:1,h:1,m:64 --temporal=l:32 --int-range=0:200 | FileCheck %s
// RUN: spacefusion-run %t/generator.mlir --spatial=b:1,h:1,m:64 --temporal=l:48 --int-range=0:200 --seed=2 | FileCheck %s
// RUN: spacefusion-run %t/generator.mlir --spatial=b:1,h:1,m:16 --temporal=l:16 --int-range=0:200 --seed=3 | FileCheck %s
// RUN: spacefusion-run %t/generator-fused.mlir --spatial=b:1,h:1,m:32 --temporal=l:32 --int-range=0:200 --seed=4 | FileCheck %s
// RUN: spacefusion-run %t/generator.mlir --int-range=0:200 | FileCheck %s --check-prefix=SEARCHED
// RUN: spacefusion-run %t/torch.mlir --spatial=b:1,h:1,m:64 --temporal=l:32 --int-range=0:200 | FileCheck %s
// RUN: spacefusion-run %t/torch-fused.mlir --spatial=b:1,h:1,m:32 --temporal=l:48 --int-range=0:200 --seed=5 | FileCheck %s
// RUN: spacefusion-run %t/frontend.mlir --spatial=b:1,h:1,m:32 --temporal=l:32 --int-range=0:160 | FileCheck %s --check-prefix=BF16

// SKIP: skips the slices a mask hides: keys from the element of input #[[LEN:[0-9]+]] on are masked in every row (select{{[0-9]+}}); select{{[0-9]+}} tests only the slices that reach beyond the keys visible in every row (below the element of input #[[LEN]])

// CHECK: temporally sliced
// CHECK: out of tolerance: #0 0 of {{[0-9]+}}: PASS
// SEARCHED: : PASS
// BF16: temporally sliced
// BF16: : PASS

//--- generator.mlir
func.func @attention_padded(%q: tensor<4x2x160x16xf32>, %k: tensor<4x2x160x16xf32>, %v: tensor<4x2x160x16xf32>, %lens: tensor<4xi64>) -> tensor<4x2x160x16xf32> {
  %c1 = arith.constant 0.000000000e+00 : f32
  %e3 = tensor.empty() : tensor<4x2x160x160xf32>
  %f2 = linalg.fill ins(%c1 : f32) outs(%e3 : tensor<4x2x160x160xf32>) -> tensor<4x2x160x160xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l, k) -> (b, h, m, k)>, affine_map<(b, h, m, l, k) -> (b, h, l, k)>, affine_map<(b, h, m, l, k) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<4x2x160x16xf32>, tensor<4x2x160x16xf32>) outs(%f2 : tensor<4x2x160x160xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<4x2x160x160xf32>
  %c5 = arith.constant 2.500000000e-01 : f32
  %e6 = tensor.empty() : tensor<4x2x160x160xf32>
  %g7 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g4, %lens : tensor<4x2x160x160xf32>, tensor<4xi64>) outs(%e6 : tensor<4x2x160x160xf32>) {
  ^bb0(%in0: f32, %in1: i64, %acc: f32):
    %x = arith.mulf %in0, %c5 : f32
    %j = linalg.index 3 : index
    %jl = arith.index_cast %j : index to i64
    %hide = arith.cmpi sge, %jl, %in1 : i64
    %ninf = arith.constant 0xFF800000 : f32
    %y = arith.select %hide, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<4x2x160x160xf32>
  %c8 = arith.constant 0xFF800000 : f32
  %e10 = tensor.empty() : tensor<4x2x160xf32>
  %f9 = linalg.fill ins(%c8 : f32) outs(%e10 : tensor<4x2x160xf32>) -> tensor<4x2x160xf32>
  %g11 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g7 : tensor<4x2x160x160xf32>) outs(%f9 : tensor<4x2x160xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.maximumf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<4x2x160xf32>
  %e12 = tensor.empty() : tensor<4x2x160x160xf32>
  %g13 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g7, %g11 : tensor<4x2x160x160xf32>, tensor<4x2x160xf32>) outs(%e12 : tensor<4x2x160x160xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %d = arith.subf %in0, %in1 : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<4x2x160x160xf32>
  %c14 = arith.constant 0.000000000e+00 : f32
  %e16 = tensor.empty() : tensor<4x2x160xf32>
  %f15 = linalg.fill ins(%c14 : f32) outs(%e16 : tensor<4x2x160xf32>) -> tensor<4x2x160xf32>
  %g17 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g13 : tensor<4x2x160x160xf32>) outs(%f15 : tensor<4x2x160xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.addf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<4x2x160xf32>
  %e18 = tensor.empty() : tensor<4x2x160x160xf32>
  %g19 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g13, %g17 : tensor<4x2x160x160xf32>, tensor<4x2x160xf32>) outs(%e18 : tensor<4x2x160x160xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %y = arith.divf %in0, %in1 : f32
    linalg.yield %y : f32
  } -> tensor<4x2x160x160xf32>
  %c20 = arith.constant 0.000000000e+00 : f32
  %e22 = tensor.empty() : tensor<4x2x160x16xf32>
  %f21 = linalg.fill ins(%c20 : f32) outs(%e22 : tensor<4x2x160x16xf32>) -> tensor<4x2x160x16xf32>
  %g23 = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, l) -> (b, h, m, l)>, affine_map<(b, h, m, n, l) -> (b, h, l, n)>, affine_map<(b, h, m, n, l) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g19, %v : tensor<4x2x160x160xf32>, tensor<4x2x160x16xf32>) outs(%f21 : tensor<4x2x160x16xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<4x2x160x16xf32>
  return %g23 : tensor<4x2x160x16xf32>
}

//--- torch.mlir
// Padding written as torch-mlir lowers
//   scores.masked_fill(~(arange(S)[None, :] < lens[:, None])[:, None, None, :], -inf)
// after its reshapes fold into the maps: an i64 arange, a compare with the
// broadcast lengths, a bitwise not, and a select on the boolean tensor.
func.func @attention_padded_torch(%q: tensor<4x2x160x16xf32>, %k: tensor<4x2x160x16xf32>, %v: tensor<4x2x160x16xf32>, %lens: tensor<4xi64>) -> tensor<4x2x160x16xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 2.500000e-01 : f32
  %e0 = tensor.empty() : tensor<4x2x160x160xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x2x160x160xf32>) -> tensor<4x2x160x160xf32>
  %qk = linalg.generic {indexing_maps = [affine_map<(b, h, m, l, k) -> (b, h, m, k)>, affine_map<(b, h, m, l, k) -> (b, h, l, k)>, affine_map<(b, h, m, l, k) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<4x2x160x16xf32>, tensor<4x2x160x16xf32>) outs(%z0 : tensor<4x2x160x160xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x2x160x160xf32>
  %e1 = tensor.empty() : tensor<160xi64>
  %arange = linalg.generic {indexing_maps = [affine_map<(j) -> (j)>], iterator_types = ["parallel"]}
      outs(%e1 : tensor<160xi64>) {
  ^bb0(%out: i64):
    %j = linalg.index 0 : index
    %ji = arith.index_cast %j : index to i64
    linalg.yield %ji : i64
  } -> tensor<160xi64>
  %e2 = tensor.empty() : tensor<4x160xi1>
  %valid = linalg.generic {indexing_maps = [affine_map<(b, j) -> (j)>, affine_map<(b, j) -> (b)>, affine_map<(b, j) -> (b, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%arange, %lens : tensor<160xi64>, tensor<4xi64>) outs(%e2 : tensor<4x160xi1>) {
  ^bb0(%j: i64, %n: i64, %out: i1):
    %lt = arith.cmpi slt, %j, %n : i64
    linalg.yield %lt : i1
  } -> tensor<4x160xi1>
  %e3 = tensor.empty() : tensor<4x160xi1>
  %pad = linalg.generic {indexing_maps = [affine_map<(b, j) -> (b, j)>, affine_map<(b, j) -> (b, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%valid : tensor<4x160xi1>) outs(%e3 : tensor<4x160xi1>) {
  ^bb0(%x: i1, %out: i1):
    %true = arith.constant true
    %not = arith.xori %x, %true : i1
    linalg.yield %not : i1
  } -> tensor<4x160xi1>
  %e4 = tensor.empty() : tensor<4x2x160x160xf32>
  %scaled = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%qk : tensor<4x2x160x160xf32>) outs(%e4 : tensor<4x2x160x160xf32>) {
  ^bb0(%x: f32, %out: f32):
    %y = arith.mulf %x, %scale : f32
    linalg.yield %y : f32
  } -> tensor<4x2x160x160xf32>
  %e5 = tensor.empty() : tensor<4x2x160x160xf32>
  %filled = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, l)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%scaled, %pad : tensor<4x2x160x160xf32>, tensor<4x160xi1>) outs(%e5 : tensor<4x2x160x160xf32>) {
  ^bb0(%x: f32, %m: i1, %out: f32):
    %y = arith.select %m, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<4x2x160x160xf32>
  %e6 = tensor.empty() : tensor<4x2x160xf32>
  %i6 = linalg.fill ins(%ninf : f32) outs(%e6 : tensor<4x2x160xf32>) -> tensor<4x2x160xf32>
  %max = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%filled : tensor<4x2x160x160xf32>) outs(%i6 : tensor<4x2x160xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %y = arith.maximumf %x, %acc : f32
    linalg.yield %y : f32
  } -> tensor<4x2x160xf32>
  %e7 = tensor.empty() : tensor<4x2x160x160xf32>
  %exp = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%filled, %max : tensor<4x2x160x160xf32>, tensor<4x2x160xf32>) outs(%e7 : tensor<4x2x160x160xf32>) {
  ^bb0(%x: f32, %mx: f32, %out: f32):
    %d = arith.subf %x, %mx : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<4x2x160x160xf32>
  %e8 = tensor.empty() : tensor<4x2x160xf32>
  %i8 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<4x2x160xf32>) -> tensor<4x2x160xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%exp : tensor<4x2x160x160xf32>) outs(%i8 : tensor<4x2x160xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %y = arith.addf %x, %acc : f32
    linalg.yield %y : f32
  } -> tensor<4x2x160xf32>
  %e9 = tensor.empty() : tensor<4x2x160x160xf32>
  %prob = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%exp, %sum : tensor<4x2x160x160xf32>, tensor<4x2x160xf32>) outs(%e9 : tensor<4x2x160x160xf32>) {
  ^bb0(%x: f32, %s: f32, %out: f32):
    %y = arith.divf %x, %s : f32
    linalg.yield %y : f32
  } -> tensor<4x2x160x160xf32>
  %e10 = tensor.empty() : tensor<4x2x160x16xf32>
  %z10 = linalg.fill ins(%zero : f32) outs(%e10 : tensor<4x2x160x16xf32>) -> tensor<4x2x160x16xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, l) -> (b, h, m, l)>, affine_map<(b, h, m, n, l) -> (b, h, l, n)>, affine_map<(b, h, m, n, l) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%prob, %v : tensor<4x2x160x160xf32>, tensor<4x2x160x16xf32>) outs(%z10 : tensor<4x2x160x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x2x160x16xf32>
  return %out : tensor<4x2x160x16xf32>
}
//--- frontend.mlir
func.func @attention_padded(%q: tensor<2x2x128x64xbf16>, %k: tensor<2x2x128x64xbf16>, %v: tensor<2x2x128x64xbf16>, %lens: tensor<2xi64>) -> tensor<2x2x128x64xbf16> {
  %c1 = arith.constant 0.000000000e+00 : f32
  %e3 = tensor.empty() : tensor<2x2x128x128xf32>
  %f2 = linalg.fill ins(%c1 : f32) outs(%e3 : tensor<2x2x128x128xf32>) -> tensor<2x2x128x128xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l, k) -> (b, h, m, k)>, affine_map<(b, h, m, l, k) -> (b, h, l, k)>, affine_map<(b, h, m, l, k) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x2x128x64xbf16>, tensor<2x2x128x64xbf16>) outs(%f2 : tensor<2x2x128x128xf32>) {
  ^bb0(%in0: bf16, %in1: bf16, %acc: f32):
    %x = arith.extf %in0 : bf16 to f32
    %w = arith.extf %in1 : bf16 to f32
    %p = arith.mulf %x, %w : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<2x2x128x128xf32>
  %c5 = arith.constant 1.250000000e-01 : f32
  %e6 = tensor.empty() : tensor<2x2x128x128xf32>
  %g7 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g4, %lens : tensor<2x2x128x128xf32>, tensor<2xi64>) outs(%e6 : tensor<2x2x128x128xf32>) {
  ^bb0(%in0: f32, %in1: i64, %acc: f32):
    %x = arith.mulf %in0, %c5 : f32
    %j = linalg.index 3 : index
    %jl = arith.index_cast %j : index to i64
    %hide = arith.cmpi sge, %jl, %in1 : i64
    %ninf = arith.constant 0xFF800000 : f32
    %y = arith.select %hide, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<2x2x128x128xf32>
  %c8 = arith.constant 0xFF800000 : f32
  %e10 = tensor.empty() : tensor<2x2x128xf32>
  %f9 = linalg.fill ins(%c8 : f32) outs(%e10 : tensor<2x2x128xf32>) -> tensor<2x2x128xf32>
  %g11 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g7 : tensor<2x2x128x128xf32>) outs(%f9 : tensor<2x2x128xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.maximumf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<2x2x128xf32>
  %e12 = tensor.empty() : tensor<2x2x128x128xf32>
  %g13 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g7, %g11 : tensor<2x2x128x128xf32>, tensor<2x2x128xf32>) outs(%e12 : tensor<2x2x128x128xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %d = arith.subf %in0, %in1 : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<2x2x128x128xf32>
  %c14 = arith.constant 0.000000000e+00 : f32
  %e16 = tensor.empty() : tensor<2x2x128xf32>
  %f15 = linalg.fill ins(%c14 : f32) outs(%e16 : tensor<2x2x128xf32>) -> tensor<2x2x128xf32>
  %g17 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g13 : tensor<2x2x128x128xf32>) outs(%f15 : tensor<2x2x128xf32>) {
  ^bb0(%in0: f32, %acc: f32):
    %y = arith.addf %in0, %acc : f32
    linalg.yield %y : f32
  } -> tensor<2x2x128xf32>
  %e18 = tensor.empty() : tensor<2x2x128x128xbf16>
  %g19 = linalg.generic {indexing_maps = [affine_map<(b, h, m, l) -> (b, h, m, l)>, affine_map<(b, h, m, l) -> (b, h, m)>, affine_map<(b, h, m, l) -> (b, h, m, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g13, %g17 : tensor<2x2x128x128xf32>, tensor<2x2x128xf32>) outs(%e18 : tensor<2x2x128x128xbf16>) {
  ^bb0(%in0: f32, %in1: f32, %acc: bf16):
    %r = arith.divf %in0, %in1 : f32
    %y = arith.truncf %r : f32 to bf16
    linalg.yield %y : bf16
  } -> tensor<2x2x128x128xbf16>
  %c20 = arith.constant 0.000000000e+00 : f32
  %e22 = tensor.empty() : tensor<2x2x128x64xf32>
  %f21 = linalg.fill ins(%c20 : f32) outs(%e22 : tensor<2x2x128x64xf32>) -> tensor<2x2x128x64xf32>
  %g23 = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, l) -> (b, h, m, l)>, affine_map<(b, h, m, n, l) -> (b, h, l, n)>, affine_map<(b, h, m, n, l) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g19, %v : tensor<2x2x128x128xbf16>, tensor<2x2x128x64xbf16>) outs(%f21 : tensor<2x2x128x64xf32>) {
  ^bb0(%in0: bf16, %in1: bf16, %acc: f32):
    %x = arith.extf %in0 : bf16 to f32
    %w = arith.extf %in1 : bf16 to f32
    %p = arith.mulf %x, %w : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<2x2x128x64xf32>
  %e24 = tensor.empty() : tensor<2x2x128x64xbf16>
  %g25 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g23 : tensor<2x2x128x64xf32>) outs(%e24 : tensor<2x2x128x64xbf16>) {
  ^bb0(%in0: f32, %acc: bf16):
    %y = arith.truncf %in0 : f32 to bf16
    linalg.yield %y : bf16
  } -> tensor<2x2x128x64xbf16>
  return %g25 : tensor<2x2x128x64xbf16>
}

