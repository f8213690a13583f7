// A prefix LM's mask (T5, PaliGemma: causal, and the first 96 keys seen by
// every query) in the form torch-mlir lowers `keep = (cols <= rows) |
// (cols < 96)` and `masked_fill(~keep, -inf)` to: iotas, a compare, a
// compare with the prefix, their `ori`, its `xori` with true and the
// select, each a generic of its own; as written and after upstream
// --linalg-fuse-elementwise-ops and --cse. The hidden keys are those past
// the query and past the prefix (a conjunction): the slices from
// max(block's last query + 1, 96) on are skipped, and the mask is tested
// only on the slices that reach past max(block's first query + 1, 96).
// Every form runs fused and sliced against the f64 reference, at slice
// sizes that do and do not divide the prefix.
//
// A mask that keeps what is causal or at least 96 (hidden: past the query
// and below 96, a band between two bounds) skips nothing and tests every
// slice, and says so; it is still exact.
//
// RUN: split-file %s %t
// RUN: spacefusion-opt %t/prefix.mlir -o %t.as-written.mlir
// RUN: spacefusion-opt %t/prefix.mlir --linalg-fuse-elementwise-ops -o %t.fused.mlir
// RUN: spacefusion-opt %t/prefix.mlir --cse --linalg-fuse-elementwise-ops -o %t.cse.mlir
// RUN: spacefusion-opt %t.as-written.mlir --smap-form-graphs --smap-set-target=target=cpu --smap-analyze \
// RUN:   '--smap-schedule=spatial=h:1,m:64 temporal=l:32' --smap-spatial-slice --smap-temporal-slice \
// RUN:   --remarks-filter=smap --remark-format=emitRemark 2>&1 | FileCheck %s --check-prefix=SKIP
// RUN: spacefusion-opt %t.fused.mlir --smap-form-graphs --smap-set-target=target=cpu --smap-analyze \
// RUN:   '--smap-schedule=spatial=h:1,m:64 temporal=l:32' --smap-spatial-slice --smap-temporal-slice \
// RUN:   --remarks-filter=smap --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: spacefusion-opt %t.cse.mlir --smap-form-graphs --smap-set-target=target=cpu --smap-analyze \
// RUN:   '--smap-schedule=spatial=h:1,m:64 temporal=l:32' --smap-spatial-slice --smap-temporal-slice \
// RUN:   --remarks-filter=smap --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: spacefusion-run %t.as-written.mlir --spatial=h:1,m:64 --temporal=l:32 | FileCheck %s
// RUN: spacefusion-run %t.as-written.mlir --spatial=h:1,m:16 --temporal=l:48 | FileCheck %s
// RUN: spacefusion-run %t.fused.mlir --spatial=h:1,m:64 --temporal=l:32 | FileCheck %s
// RUN: spacefusion-run %t.cse.mlir --spatial=h:1,m:32 --temporal=l:64 | FileCheck %s
// RUN: spacefusion-opt %t/band.mlir --smap-form-graphs --smap-set-target=target=cpu --smap-analyze \
// RUN:   '--smap-schedule=spatial=h:1,m:64 temporal=l:32' --smap-spatial-slice --smap-temporal-slice \
// RUN:   --remarks-filter=smap --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAND
// RUN: spacefusion-run %t/band.mlir --spatial=h:1,m:64 --temporal=l:32 | FileCheck %s

// The loop ends at the slice holding max(offset + 64, 96); the cut test
// compares the slice's end with max(offset + 1, 96).
// SKIP: Remark="dim 'l' sliced temporally by 32: {{.*}}; skips the slices a mask hides: keys from max(64 + input #[[O:[0-9]+]], 96) on are masked in every row ([[MASK:[a-z_0-9]+]]); [[MASK]] tests only the slices that reach beyond the keys visible in every row (below max(1 + input #[[O]], 96))"
// SKIP-LABEL: func.func @prefix_lm(
// SKIP: smap.graph({{.*}}%[[OFF:[a-z0-9_]+]] = %{{.*}} : index) -> (tensor<1x1x64x16xf32>)
// SKIP: %[[SCALED:.*]] = arith.muli %[[OFF]], %c1 : index
// SKIP: %[[PAST:.*]] = arith.addi %c64, %[[SCALED]] : index
// SKIP: %[[LAST:.*]] = arith.maxsi %[[PAST]], %c96 : index
// SKIP: %[[ONE:.*]] = arith.maxsi %[[LAST]], %c32 : index
// SKIP: %[[UP:.*]] = arith.addi %[[ONE]], %c31 : index
// SKIP: %[[N:.*]] = arith.divui %[[UP]], %{{.*}} : index
// SKIP: %[[WHOLE:.*]] = arith.muli %[[N]], %{{.*}} : index
// SKIP: %[[END:.*]] = arith.minui %[[WHOLE]], %c256 : index
// SKIP: smap.temporal_slice #smap.dim<"l", 256, temporal> step 32 upto %[[END]] inits(
// SKIP: ^bb0(%[[AT:[a-z0-9_]+]]: index,
// SKIP: %[[SLICE_END:.*]] = arith.addi %[[AT]], %c32{{.*}} : index
// SKIP: %[[OFF_SCALED:.*]] = arith.muli %[[OFF]], %c1{{.*}} : index
// SKIP: %[[FIRST:.*]] = arith.addi %c1{{.*}}, %[[OFF_SCALED]] : index
// SKIP: %[[VISIBLE_END:.*]] = arith.maxsi %[[FIRST]], %c96{{.*}} : index
// SKIP: %[[CUT:.*]] = arith.cmpi sgt, %[[SLICE_END]], %[[VISIBLE_END]] : index
// SKIP: linalg.generic
// SKIP: arith.select %[[CUT]]
// REMARK: skips the slices a mask hides: keys from max(64 + input #[[O:[0-9]+]], 96) on are masked in every row
// REMARK-SAME: tests only the slices that reach beyond the keys visible in every row (below max(1 + input #[[O]], 96))
// BAND: Remark="dim 'l' sliced temporally by 32: {{.*}}; the mask {{.*}} skips nothing: its predicate bounds no key range of a block"
// BAND-NOT: tests only the slices
// CHECK: temporally sliced
// CHECK: out of tolerance: #0 0 of 8192: PASS

//--- prefix.mlir
#q = affine_map<(b, h, m, l, k) -> (b, h, m, k)>
#k = affine_map<(b, h, m, l, k) -> (b, h, l, k)>
#s = affine_map<(b, h, m, l, k) -> (b, h, m, l)>
#id = affine_map<(b, h, m, l) -> (b, h, m, l)>
#row = affine_map<(b, h, m, l) -> (b, h, m)>
#p = affine_map<(b, h, m, n, l) -> (b, h, m, l)>
#v = affine_map<(b, h, m, n, l) -> (b, h, l, n)>
#o = affine_map<(b, h, m, n, l) -> (b, h, m, n)>
func.func @prefix_lm(%q: tensor<1x2x256x16xf32>, %k: tensor<1x2x256x16xf32>, %v: tensor<1x2x256x16xf32>) -> tensor<1x2x256x16xf32> {
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
  // Row and column iotas (torch-mlir's arange), i64, and the mask as
  // torch builds it: keep = (cols <= rows) | (cols < 96), then
  // masked_fill(~keep, -inf), each op a generic of its own.
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
  %eb = tensor.empty() : tensor<1x2x256x256xi1>
  %causal = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%cols, %rows : tensor<1x2x256x256xi64>, tensor<1x2x256x256xi64>) outs(%eb : tensor<1x2x256x256xi1>) {
  ^bb0(%j: i64, %i: i64, %o: i1):
    %r = arith.cmpi sle, %j, %i : i64
    linalg.yield %r : i1
  } -> tensor<1x2x256x256xi1>
  %inprefix = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%cols : tensor<1x2x256x256xi64>) outs(%eb : tensor<1x2x256x256xi1>) {
  ^bb0(%j: i64, %o: i1):
    %p = arith.constant 96 : i64
    %r = arith.cmpi slt, %j, %p : i64
    linalg.yield %r : i1
  } -> tensor<1x2x256x256xi1>
  %keep = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%causal, %inprefix : tensor<1x2x256x256xi1>, tensor<1x2x256x256xi1>) outs(%eb : tensor<1x2x256x256xi1>) {
  ^bb0(%a: i1, %b: i1, %o: i1):
    %r = arith.ori %a, %b : i1
    linalg.yield %r : i1
  } -> tensor<1x2x256x256xi1>
  %hide = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%keep : tensor<1x2x256x256xi1>) outs(%eb : tensor<1x2x256x256xi1>) {
  ^bb0(%a: i1, %o: i1):
    %true = arith.constant true
    %r = arith.xori %a, %true : i1
    linalg.yield %r : i1
  } -> tensor<1x2x256x256xi1>
  %masked = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%qk, %hide : tensor<1x2x256x256xf32>, tensor<1x2x256x256xi1>) outs(%es : tensor<1x2x256x256xf32>) {
  ^bb0(%x: f32, %h: i1, %o: f32):
    %y = arith.mulf %x, %scale : f32
    %r = arith.select %h, %ninf, %y : f32
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

//--- band.mlir
#q = affine_map<(b, h, m, l, k) -> (b, h, m, k)>
#k = affine_map<(b, h, m, l, k) -> (b, h, l, k)>
#s = affine_map<(b, h, m, l, k) -> (b, h, m, l)>
#id = affine_map<(b, h, m, l) -> (b, h, m, l)>
#row = affine_map<(b, h, m, l) -> (b, h, m)>
#p = affine_map<(b, h, m, n, l) -> (b, h, m, l)>
#v = affine_map<(b, h, m, n, l) -> (b, h, l, n)>
#o = affine_map<(b, h, m, n, l) -> (b, h, m, n)>
func.func @causal_band(%q: tensor<1x2x256x16xf32>, %k: tensor<1x2x256x16xf32>, %v: tensor<1x2x256x16xf32>) -> tensor<1x2x256x16xf32> {
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
  // Row and column iotas (torch-mlir's arange), i64, and the mask as
  // torch builds it: keep = (cols <= rows) | (cols >= 96), then
  // masked_fill(~keep, -inf), each op a generic of its own.
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
  %eb = tensor.empty() : tensor<1x2x256x256xi1>
  %causal = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%cols, %rows : tensor<1x2x256x256xi64>, tensor<1x2x256x256xi64>) outs(%eb : tensor<1x2x256x256xi1>) {
  ^bb0(%j: i64, %i: i64, %o: i1):
    %r = arith.cmpi sle, %j, %i : i64
    linalg.yield %r : i1
  } -> tensor<1x2x256x256xi1>
  %inprefix = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%cols : tensor<1x2x256x256xi64>) outs(%eb : tensor<1x2x256x256xi1>) {
  ^bb0(%j: i64, %o: i1):
    %p = arith.constant 96 : i64
    %r = arith.cmpi sge, %j, %p : i64
    linalg.yield %r : i1
  } -> tensor<1x2x256x256xi1>
  %keep = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%causal, %inprefix : tensor<1x2x256x256xi1>, tensor<1x2x256x256xi1>) outs(%eb : tensor<1x2x256x256xi1>) {
  ^bb0(%a: i1, %b: i1, %o: i1):
    %r = arith.ori %a, %b : i1
    linalg.yield %r : i1
  } -> tensor<1x2x256x256xi1>
  %hide = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%keep : tensor<1x2x256x256xi1>) outs(%eb : tensor<1x2x256x256xi1>) {
  ^bb0(%a: i1, %o: i1):
    %true = arith.constant true
    %r = arith.xori %a, %true : i1
    linalg.yield %r : i1
  } -> tensor<1x2x256x256xi1>
  %masked = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%qk, %hide : tensor<1x2x256x256xf32>, tensor<1x2x256x256xi1>) outs(%es : tensor<1x2x256x256xf32>) {
  ^bb0(%x: f32, %h: i1, %o: f32):
    %y = arith.mulf %x, %scale : f32
    %r = arith.select %h, %ninf, %y : f32
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
