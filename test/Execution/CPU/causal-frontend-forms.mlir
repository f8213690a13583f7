// Causal attention in the form StableHLO and torch-mlir lower it to: row
// and column iotas as i64 tensors (generics that read nothing but
// linalg.index), compared with `arith.cmpi sle` in the masking generic, and
// the same after upstream --linalg-fuse-elementwise-ops (the iotas inlined
// as index casts) and --cse. Every form skips the slices past each query
// block (the mask's compare read through the iota operands and the index
// casts), and runs fused and sliced against the f64 reference.
//
// RUN: spacefusion-opt %s -o %t.as-written.mlir
// RUN: spacefusion-opt %s --linalg-fuse-elementwise-ops -o %t.fused.mlir
// RUN: spacefusion-opt %s --cse --linalg-fuse-elementwise-ops -o %t.cse.mlir
// RUN: spacefusion-opt %t.as-written.mlir --smap-form-graphs --smap-set-target=target=cpu --smap-analyze \
// RUN:   '--smap-schedule=spatial=h:1,m:64 temporal=l:32' --smap-spatial-slice --smap-temporal-slice \
// RUN:   --remarks-filter=smap --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=SKIP
// RUN: spacefusion-opt %t.fused.mlir --smap-form-graphs --smap-set-target=target=cpu --smap-analyze \
// RUN:   '--smap-schedule=spatial=h:1,m:64 temporal=l:32' --smap-spatial-slice --smap-temporal-slice \
// RUN:   --remarks-filter=smap --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=SKIP
// RUN: spacefusion-opt %t.cse.mlir --smap-form-graphs --smap-set-target=target=cpu --smap-analyze \
// RUN:   '--smap-schedule=spatial=h:1,m:64 temporal=l:32' --smap-spatial-slice --smap-temporal-slice \
// RUN:   --remarks-filter=smap --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=SKIP
// RUN: spacefusion-run %t.as-written.mlir --spatial=h:1,m:64 --temporal=l:32 | FileCheck %s
// RUN: spacefusion-run %t.fused.mlir --spatial=h:1,m:64 --temporal=l:32 | FileCheck %s
// RUN: spacefusion-run %t.cse.mlir --spatial=h:1,m:16 --temporal=l:64 | FileCheck %s

// SKIP: skips the slices a mask hides: keys from 64 + input #{{[0-9]+}} on are masked in every row
// CHECK: temporally sliced
// CHECK: out of tolerance: #0 0 of 8192: PASS
#q = affine_map<(b, h, m, l, k) -> (b, h, m, k)>
#k = affine_map<(b, h, m, l, k) -> (b, h, l, k)>
#s = affine_map<(b, h, m, l, k) -> (b, h, m, l)>
#id = affine_map<(b, h, m, l) -> (b, h, m, l)>
#row = affine_map<(b, h, m, l) -> (b, h, m)>
#p = affine_map<(b, h, m, n, l) -> (b, h, m, l)>
#v = affine_map<(b, h, m, n, l) -> (b, h, l, n)>
#o = affine_map<(b, h, m, n, l) -> (b, h, m, n)>
func.func @causal_iota(%q: tensor<1x2x256x16xf32>, %k: tensor<1x2x256x16xf32>, %v: tensor<1x2x256x16xf32>) -> tensor<1x2x256x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.25 : f32
  %es = tensor.empty() : tensor<1x2x256x256xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%es : tensor<1x2x256x256xf32>) -> tensor<1x2x256x256xf32>
  %qk = linalg.generic {indexing_maps = [#q, #k, #s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x2x256x16xf32>, tensor<1x2x256x16xf32>) outs(%fs : tensor<1x2x256x256xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %t = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %t : f32
    linalg.yield %r : f32
  } -> tensor<1x2x256x256xf32>
  // Row and column iotas (StableHLO's iota, torch-mlir's arange), i64.
  %ei = tensor.empty() : tensor<1x2x256x256xi64>
  %rows = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%ei : tensor<1x2x256x256xi64>) {
  ^bb0(%o: i64):
    %i = linalg.index 2 : index
    %c = arith.index_cast %i : index to i64
    linalg.yield %c : i64
  } -> tensor<1x2x256x256xi64>
  %cols = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%ei : tensor<1x2x256x256xi64>) {
  ^bb0(%o: i64):
    %j = linalg.index 3 : index
    %c = arith.index_cast %j : index to i64
    linalg.yield %c : i64
  } -> tensor<1x2x256x256xi64>
  %masked = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%qk, %rows, %cols : tensor<1x2x256x256xf32>, tensor<1x2x256x256xi64>, tensor<1x2x256x256xi64>) outs(%es : tensor<1x2x256x256xf32>) {
  ^bb0(%x: f32, %i: i64, %j: i64, %o: f32):
    %keep = arith.cmpi sle, %j, %i : i64
    %y = arith.mulf %x, %scale : f32
    %r = arith.select %keep, %y, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<1x2x256x256xf32>
  %er = tensor.empty() : tensor<1x2x256xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<1x2x256xf32>) -> tensor<1x2x256xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%masked : tensor<1x2x256x256xf32>) outs(%fm : tensor<1x2x256xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<1x2x256xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%masked, %max : tensor<1x2x256x256xf32>, tensor<1x2x256xf32>) outs(%es : tensor<1x2x256x256xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %d = arith.subf %x, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<1x2x256x256xf32>
  %fz = linalg.fill ins(%zero : f32) outs(%er : tensor<1x2x256xf32>) -> tensor<1x2x256xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%ex : tensor<1x2x256x256xf32>) outs(%fz : tensor<1x2x256xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<1x2x256xf32>
  %pr = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ex, %sum : tensor<1x2x256x256xf32>, tensor<1x2x256xf32>) outs(%es : tensor<1x2x256x256xf32>) {
  ^bb0(%x: f32, %s: f32, %o: f32):
    %r = arith.divf %x, %s : f32
    linalg.yield %r : f32
  } -> tensor<1x2x256x256xf32>
  %eo = tensor.empty() : tensor<1x2x256x16xf32>
  %fo = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x2x256x16xf32>) -> tensor<1x2x256x16xf32>
  %out = linalg.generic {indexing_maps = [#p, #v, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%pr, %v : tensor<1x2x256x256xf32>, tensor<1x2x256x16xf32>) outs(%fo : tensor<1x2x256x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %t = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %t : f32
    linalg.yield %r : f32
  } -> tensor<1x2x256x16xf32>
  return %out : tensor<1x2x256x16xf32>
}
