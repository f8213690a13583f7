// Temporal slices the SMG used to admit and the temporal slicer then
// refused ("scheduled but refused"): the slicer's plan is now made when the
// SMG classifies the dim, and it accepts both forms, which are sliced and
// checked against the f64 reference here.
//  - a softmax over f16 data extended inside the bodies (exp(extf(x) - m)),
//    its probabilities rounded to f16 and summed;
//  - a sum along k of a collapsed input (the collapse is a view made once
//    before the loop and sliced by its user).
// With the old planner both printed "not sliced temporally"; a graph left
// unsliced prints "not temporally sliced" instead of the CHECKed line.

// RUN: split-file %s %t
// RUN: spacefusion-run %t/softmax.mlir --reps=1 --temporal=l:16 | FileCheck %s --check-prefix=SOFTMAX
// RUN: spacefusion-run %t/collapse.mlir --reps=1 --temporal=k:4 | FileCheck %s --check-prefix=COLLAPSE

// SOFTMAX: graph 0: #smap.schedule<spatial = [], temporal = [l = 16]{{.*}}>, temporally sliced
// SOFTMAX: out of tolerance: #0 0 of 8: PASS
// COLLAPSE: graph 0: #smap.schedule<spatial = [], temporal = [k = 4]{{.*}}>, temporally sliced
// COLLAPSE: out of tolerance: #0 0 of 64: PASS

//--- softmax.mlir
#rc = affine_map<(r, c) -> (r, c)>
#r = affine_map<(r, c) -> (r)>
func.func @softmax_rounded_then_summed(%x: tensor<8x64xf16>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %er = tensor.empty() : tensor<8xf32>
  %erc = tensor.empty() : tensor<8x64xf32>
  %erch = tensor.empty() : tensor<8x64xf16>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %m = linalg.generic {indexing_maps = [#rc, #r], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x64xf16>) outs(%mi : tensor<8xf32>) {
  ^bb0(%a: f16, %acc: f32):
    %a32 = arith.extf %a : f16 to f32
    %y = arith.maximumf %a32, %acc : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  %e = linalg.generic {indexing_maps = [#rc, #r, #rc], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : tensor<8x64xf16>, tensor<8xf32>) outs(%erc : tensor<8x64xf32>) {
  ^bb0(%a: f16, %b: f32, %o: f32):
    %a32 = arith.extf %a : f16 to f32
    %d = arith.subf %a32, %b : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<8x64xf32>
  %li = linalg.fill ins(%zero : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %l = linalg.generic {indexing_maps = [#rc, #r], iterator_types = ["parallel", "reduction"]}
      ins(%e : tensor<8x64xf32>) outs(%li : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.addf %a, %acc : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  %p = linalg.generic {indexing_maps = [#rc, #r, #rc], iterator_types = ["parallel", "parallel"]}
      ins(%e, %l : tensor<8x64xf32>, tensor<8xf32>) outs(%erch : tensor<8x64xf16>) {
  ^bb0(%a: f32, %b: f32, %o: f16):
    %d = arith.divf %a, %b : f32
    %y = arith.truncf %d : f32 to f16
    linalg.yield %y : f16
  } -> tensor<8x64xf16>
  %ti = linalg.fill ins(%zero : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %t = linalg.generic {indexing_maps = [#rc, #r], iterator_types = ["parallel", "reduction"]}
      ins(%p : tensor<8x64xf16>) outs(%ti : tensor<8xf32>) {
  ^bb0(%a: f16, %acc: f32):
    %a32 = arith.extf %a : f16 to f32
    %y = arith.addf %a32, %acc : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  return %t : tensor<8xf32>
}

//--- collapse.mlir
#in3 = affine_map<(bh, m, k) -> (bh, m, k)>
#out3 = affine_map<(bh, m, k) -> (bh, m)>
func.func @collapsed_sum(%x: tensor<2x4x8x16xf32>) -> tensor<2x4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %c = tensor.collapse_shape %x [[0, 1], [2], [3]] : tensor<2x4x8x16xf32> into tensor<8x8x16xf32>
  %e = tensor.empty() : tensor<8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %s = linalg.generic {indexing_maps = [#in3, #out3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%c : tensor<8x8x16xf32>) outs(%f : tensor<8x8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %in, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  %x2 = tensor.expand_shape %s [[0, 1], [2]] output_shape [2, 4, 8] : tensor<8x8xf32> into tensor<2x4x8xf32>
  return %x2 : tensor<2x4x8xf32>
}
