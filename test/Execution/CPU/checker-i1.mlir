// i1 tensors in and out of the checker: a softmax under a boolean mask
// input (keep where 1; what torch's boolean attn_mask lowers to), searched
// and forced schedules (temporal slices of the masked row), and a
// comparison returned as i1. Masks are 0 or 1 with equal odds, compared
// exactly on the way out.

// RUN: split-file %s %t
// RUN: spacefusion-run %t/softmax.mlir | FileCheck %s --check-prefix=SOFTMAX
// RUN: spacefusion-run %t/softmax.mlir --spatial=m:8 --temporal=n:64 | FileCheck %s --check-prefix=SOFTMAX
// RUN: spacefusion-run %t/softmax.mlir --spatial=m:4 --temporal=n:96 --seed=3 | FileCheck %s --check-prefix=SOFTMAX
// RUN: spacefusion-run %t/compare.mlir | FileCheck %s --check-prefix=COMPARE
// RUN: spacefusion-run --print-signature %t/compare.mlir | FileCheck %s --check-prefix=SIGNATURE

// SOFTMAX: @masked_softmax on cpu
// SOFTMAX: over 16384 outputs against the f64 reference
// SOFTMAX-SAME: out of tolerance: #0 0 of 16384: PASS

// COMPARE: over 512 outputs against the f64 reference (i1: atol 0.0E+00 x max|ref|, rtol 0.0E+00)
// COMPARE-SAME: out of tolerance: #0 0 of 512: PASS

// SIGNATURE: "inputs":[{"dtype":"f32","shape":[16,32]},{"dtype":"i1","shape":[16,32]}]
// SIGNATURE-SAME: "outputs":[{"dtype":"i1","shape":[16,32]}]

//--- softmax.mlir
#x2 = affine_map<(d0, d1) -> (d0, d1)>
#r2 = affine_map<(d0, d1) -> (d0)>
func.func @masked_softmax(%x: tensor<64x256xf32>, %mask: tensor<64x256xi1>) -> tensor<64x256xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<64x256xf32>
  %masked = linalg.generic {indexing_maps = [#x2, #x2, #x2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mask : tensor<64x256xf32>, tensor<64x256xi1>) outs(%e0 : tensor<64x256xf32>) {
  ^bb0(%a: f32, %keep: i1, %o: f32):
    %s = arith.select %keep, %a, %ninf : f32
    linalg.yield %s : f32
  } -> tensor<64x256xf32>
  %r0 = tensor.empty() : tensor<64xf32>
  %mfill = linalg.fill ins(%ninf : f32) outs(%r0 : tensor<64xf32>) -> tensor<64xf32>
  %max = linalg.generic {indexing_maps = [#x2, #r2], iterator_types = ["parallel", "reduction"]}
      ins(%masked : tensor<64x256xf32>) outs(%mfill : tensor<64xf32>) {
  ^bb0(%a: f32, %m: f32):
    %r = arith.maximumf %a, %m : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %ex = linalg.generic {indexing_maps = [#x2, #r2, #x2], iterator_types = ["parallel", "parallel"]}
      ins(%masked, %max : tensor<64x256xf32>, tensor<64xf32>) outs(%e0 : tensor<64x256xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<64x256xf32>
  %sfill = linalg.fill ins(%zero : f32) outs(%r0 : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [#x2, #r2], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<64x256xf32>) outs(%sfill : tensor<64xf32>) {
  ^bb0(%a: f32, %s: f32):
    %r = arith.addf %a, %s : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %p = linalg.generic {indexing_maps = [#x2, #r2, #x2], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sum : tensor<64x256xf32>, tensor<64xf32>) outs(%e0 : tensor<64x256xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %d = arith.divf %a, %s : f32
    linalg.yield %d : f32
  } -> tensor<64x256xf32>
  return %p : tensor<64x256xf32>
}

//--- compare.mlir
#x2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @keep_positive(%x: tensor<16x32xf32>, %mask: tensor<16x32xi1>) -> tensor<16x32xi1> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x32xi1>
  %r = linalg.generic {indexing_maps = [#x2, #x2, #x2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mask : tensor<16x32xf32>, tensor<16x32xi1>) outs(%e : tensor<16x32xi1>) {
  ^bb0(%a: f32, %m: i1, %o: i1):
    %pos = arith.cmpf ogt, %a, %zero : f32
    %both = arith.andi %pos, %m : i1
    linalg.yield %both : i1
  } -> tensor<16x32xi1>
  return %r : tensor<16x32xi1>
}
