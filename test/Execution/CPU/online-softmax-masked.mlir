// Online softmax over rows whose first temporal slices are entirely -inf
// (a left padding or sliding-window mask written with linalg.index, cmpi
// and select, as frontends write it): the running max is -inf until the
// row's first visible key, and the rescale exp(m_old - m_new) used to be
// exp(-inf + inf) = NaN (3072 of 4096 outputs wrong when sliced by 16). The
// slicer replaces an infinite running shift by 0 in the slice's exp and in
// the rescale; fused against unfused on the CPU, with the mask starting
// inside and after the first slice.

// RUN: split-file %s %t
// RUN: spacefusion-run %t/upper.mlir --spatial=m:16 --temporal=n:16 | FileCheck %s
// RUN: spacefusion-run %t/upper.mlir --spatial=m:8 --temporal=n:32 | FileCheck %s
// RUN: spacefusion-run %t/window.mlir --spatial=m:16 --temporal=n:8 | FileCheck %s
// RUN: spacefusion-run %t/window.mlir | FileCheck %s --check-prefix=SEARCHED
// RUN: spacefusion-run %t/last-row-masked.mlir --spatial=m:16 --temporal=n:16 | FileCheck %s --check-prefix=NAN

// CHECK: temporally sliced
// CHECK: PASS
// SEARCHED: PASS
// NAN: output #0: NaN in both 64, only in the reference 0, only in the fused result 0
// NAN: PASS

//--- upper.mlir
// Row i sees keys j >= i (the mask is j < i).
#rc = affine_map<(r, c) -> (r, c)>
#r = affine_map<(r, c) -> (r)>
func.func @masked_softmax(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %masked = linalg.generic {indexing_maps = [#rc, #rc], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %hide = arith.cmpi ult, %j, %i : index
    %y = arith.select %hide, %ninf, %v : f32
    linalg.yield %y : f32
  } -> tensor<64x64xf32>
  %er = tensor.empty() : tensor<64xf32>
  %mf = linalg.fill ins(%ninf : f32) outs(%er : tensor<64xf32>) -> tensor<64xf32>
  %max = linalg.generic {indexing_maps = [#rc, #r], iterator_types = ["parallel", "reduction"]}
      ins(%masked : tensor<64x64xf32>) outs(%mf : tensor<64xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %m = arith.maximumf %v, %acc : f32
    linalg.yield %m : f32
  } -> tensor<64xf32>
  %exp = linalg.generic {indexing_maps = [#rc, #r, #rc], iterator_types = ["parallel", "parallel"]}
      ins(%masked, %max : tensor<64x64xf32>, tensor<64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%v: f32, %m: f32, %o: f32):
    %d = arith.subf %v, %m : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<64x64xf32>
  %sf = linalg.fill ins(%zero : f32) outs(%er : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [#rc, #r], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<64x64xf32>) outs(%sf : tensor<64xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %a = arith.addf %v, %acc : f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  %y = linalg.generic {indexing_maps = [#rc, #r, #rc], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<64x64xf32>, tensor<64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %q = arith.divf %v, %s : f32
    linalg.yield %q : f32
  } -> tensor<64x64xf32>
  return %y : tensor<64x64xf32>
}

//--- window.mlir
// A sliding window: row i sees keys i-7 .. i.
#rc = affine_map<(r, c) -> (r, c)>
#r = affine_map<(r, c) -> (r)>
func.func @window(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %masked = linalg.generic {indexing_maps = [#rc, #rc], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    // A window of 8 keys ending at the diagonal: j in (i - 8, i].
    %c8 = arith.constant 8 : index
    %jw = arith.addi %j, %c8 : index
    %before = arith.cmpi ule, %jw, %i : index
    %after = arith.cmpi ugt, %j, %i : index
    %hide = arith.ori %before, %after : i1
    %y = arith.select %hide, %ninf, %v : f32
    linalg.yield %y : f32
  } -> tensor<64x64xf32>
  %er = tensor.empty() : tensor<64xf32>
  %mf = linalg.fill ins(%ninf : f32) outs(%er : tensor<64xf32>) -> tensor<64xf32>
  %max = linalg.generic {indexing_maps = [#rc, #r], iterator_types = ["parallel", "reduction"]}
      ins(%masked : tensor<64x64xf32>) outs(%mf : tensor<64xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %m = arith.maximumf %v, %acc : f32
    linalg.yield %m : f32
  } -> tensor<64xf32>
  %exp = linalg.generic {indexing_maps = [#rc, #r, #rc], iterator_types = ["parallel", "parallel"]}
      ins(%masked, %max : tensor<64x64xf32>, tensor<64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%v: f32, %m: f32, %o: f32):
    %d = arith.subf %v, %m : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<64x64xf32>
  %sf = linalg.fill ins(%zero : f32) outs(%er : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [#rc, #r], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<64x64xf32>) outs(%sf : tensor<64xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %a = arith.addf %v, %acc : f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  %y = linalg.generic {indexing_maps = [#rc, #r, #rc], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<64x64xf32>, tensor<64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %q = arith.divf %v, %s : f32
    linalg.yield %q : f32
  } -> tensor<64x64xf32>
  return %y : tensor<64x64xf32>
}

//--- last-row-masked.mlir
// Row i sees keys j > i: the last row sees none, and is NaN in the unfused
// program (exp(-inf - -inf)); the fused one must agree, not invent a value.
#rc = affine_map<(r, c) -> (r, c)>
#r = affine_map<(r, c) -> (r)>
func.func @last_row_masked(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %masked = linalg.generic {indexing_maps = [#rc, #rc], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %hide = arith.cmpi ule, %j, %i : index
    %y = arith.select %hide, %ninf, %v : f32
    linalg.yield %y : f32
  } -> tensor<64x64xf32>
  %er = tensor.empty() : tensor<64xf32>
  %mf = linalg.fill ins(%ninf : f32) outs(%er : tensor<64xf32>) -> tensor<64xf32>
  %max = linalg.generic {indexing_maps = [#rc, #r], iterator_types = ["parallel", "reduction"]}
      ins(%masked : tensor<64x64xf32>) outs(%mf : tensor<64xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %m = arith.maximumf %v, %acc : f32
    linalg.yield %m : f32
  } -> tensor<64xf32>
  %exp = linalg.generic {indexing_maps = [#rc, #r, #rc], iterator_types = ["parallel", "parallel"]}
      ins(%masked, %max : tensor<64x64xf32>, tensor<64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%v: f32, %m: f32, %o: f32):
    %d = arith.subf %v, %m : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<64x64xf32>
  %sf = linalg.fill ins(%zero : f32) outs(%er : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [#rc, #r], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<64x64xf32>) outs(%sf : tensor<64xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %a = arith.addf %v, %acc : f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  %y = linalg.generic {indexing_maps = [#rc, #r, #rc], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<64x64xf32>, tensor<64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %q = arith.divf %v, %s : f32
    linalg.yield %q : f32
  } -> tensor<64x64xf32>
  return %y : tensor<64x64xf32>
}

