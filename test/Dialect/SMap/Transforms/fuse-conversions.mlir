// RUN: spacefusion-opt --smap-fuse-conversions %s | FileCheck %s

// The f16 GEMM a frontend computing in f32 emits: whole-tensor extensions of
// both operands, the f32 contraction, a truncation. The extensions fold into
// the contraction, which then reads f16 and extends each element where it
// multiplies; the truncation stays (its producer is a contraction, not an
// elementwise op), and so does the fill.

// CHECK-LABEL: func.func @gemm
// CHECK-SAME:    (%[[A:.*]]: tensor<64x16xf16>, %[[B:.*]]: tensor<16x32xf16>)
// CHECK:         %[[ZERO:.*]] = linalg.fill
// CHECK-NEXT:    %[[C:.*]] = linalg.generic
// CHECK-SAME:      ins(%[[A]], %[[B]] : tensor<64x16xf16>, tensor<16x32xf16>) outs(%[[ZERO]] : tensor<64x32xf32>)
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f16, %[[Y:.*]]: f16, %[[ACC:.*]]: f32):
// CHECK-DAG:       %[[YF:.*]] = arith.extf %[[Y]] : f16 to f32
// CHECK-DAG:       %[[XF:.*]] = arith.extf %[[X]] : f16 to f32
// CHECK:           %[[P:.*]] = arith.mulf %[[XF]], %[[YF]] : f32
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
// CHECK:         linalg.generic {{.*}} ins(%[[C]] : tensor<64x32xf32>)
// CHECK:           arith.truncf
// CHECK-NOT:     linalg.generic
func.func @gemm(%a: tensor<64x16xf16>, %b: tensor<16x32xf16>) -> tensor<64x32xf16> {
  %e1 = tensor.empty() : tensor<64x16xf32>
  %g2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<64x16xf16>) outs(%e1 : tensor<64x16xf32>) {
  ^bb0(%in0: f16, %acc: f32):
    %y = arith.extf %in0 : f16 to f32
    linalg.yield %y : f32
  } -> tensor<64x16xf32>
  %e3 = tensor.empty() : tensor<16x32xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<16x32xf16>) outs(%e3 : tensor<16x32xf32>) {
  ^bb0(%in0: f16, %acc: f32):
    %y = arith.extf %in0 : f16 to f32
    linalg.yield %y : f32
  } -> tensor<16x32xf32>
  %c5 = arith.constant 0.000000000e+00 : f32
  %e7 = tensor.empty() : tensor<64x32xf32>
  %f6 = linalg.fill ins(%c5 : f32) outs(%e7 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %g8 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%g2, %g4 : tensor<64x16xf32>, tensor<16x32xf32>) outs(%f6 : tensor<64x32xf32>) {
  ^bb0(%in0: f32, %in1: f32, %acc: f32):
    %p = arith.mulf %in0, %in1 : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<64x32xf32>
  %e9 = tensor.empty() : tensor<64x32xf16>
  %g10 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%g8 : tensor<64x32xf32>) outs(%e9 : tensor<64x32xf16>) {
  ^bb0(%in0: f32, %acc: f16):
    %y = arith.truncf %in0 : f32 to f16
    linalg.yield %y : f16
  } -> tensor<64x32xf16>
  return %g10 : tensor<64x32xf16>
}


// An extension with another body op is not a plain conversion: unchanged.
// CHECK-LABEL: func.func @scaled_extension
// CHECK:         arith.extf
// CHECK-NEXT:    arith.mulf
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%{{.*}} : tensor<8xf32>)
func.func @scaled_extension(%a: tensor<8xf16>) -> tensor<8xf32> {
  %two = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<8xf16>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f16, %out: f32):
    %f = arith.extf %in : f16 to f32
    %y = arith.mulf %f, %two : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %z = math.exp %in : f32
    linalg.yield %z : f32
  } -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// Attention's probabilities as a frontend with separate conversions writes
// them: an f32 division, then a truncf generic. The division is the
// truncation's only producer and is used once, so it fuses into the
// truncation: one generic divides and rounds, as the in-body form writes it.
// A second elementwise op reading the same f32 values (used twice) is left
// alone, so nothing is computed twice.
// CHECK-LABEL: func.func @probabilities
// CHECK-SAME:    (%[[E:.*]]: tensor<4x64xf32>, %[[S:.*]]: tensor<4xf32>)
// CHECK:         %[[P:.*]] = linalg.generic
// CHECK-SAME:      ins(%[[E]], %[[S]] : tensor<4x64xf32>, tensor<4xf32>) outs(%{{.*}} : tensor<4x64xf16>)
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32, %[[D:.*]]: f32, %{{.*}}: f16):
// CHECK-NEXT:      %[[Q:.*]] = arith.divf %[[X]], %[[D]] : f32
// CHECK-NEXT:      %[[R:.*]] = arith.truncf %[[Q]] : f32 to f16
// CHECK-NEXT:      linalg.yield %[[R]] : f16
// CHECK:         %[[NEG:.*]] = linalg.generic
// CHECK:           arith.negf
// CHECK:         linalg.generic {{.*}} ins(%[[NEG]] : tensor<4x64xf32>)
// CHECK:           arith.truncf
// CHECK:         return %[[P]], %[[NEG]], %{{.*}} :
func.func @probabilities(%e: tensor<4x64xf32>, %s: tensor<4xf32>) -> (tensor<4x64xf16>, tensor<4x64xf32>, tensor<4x64xf16>) {
  %e0 = tensor.empty() : tensor<4x64xf32>
  %div = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%e, %s : tensor<4x64xf32>, tensor<4xf32>) outs(%e0 : tensor<4x64xf32>) {
  ^bb0(%x: f32, %d: f32, %o: f32):
    %q = arith.divf %x, %d : f32
    linalg.yield %q : f32
  } -> tensor<4x64xf32>
  %e1 = tensor.empty() : tensor<4x64xf16>
  %p = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%div : tensor<4x64xf32>) outs(%e1 : tensor<4x64xf16>) {
  ^bb0(%x: f32, %o: f16):
    %r = arith.truncf %x : f32 to f16
    linalg.yield %r : f16
  } -> tensor<4x64xf16>
  %neg = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%e : tensor<4x64xf32>) outs(%e0 : tensor<4x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<4x64xf32>
  %nt = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%neg : tensor<4x64xf32>) outs(%e1 : tensor<4x64xf16>) {
  ^bb0(%x: f32, %o: f16):
    %r = arith.truncf %x : f32 to f16
    linalg.yield %r : f16
  } -> tensor<4x64xf16>
  return %p, %neg, %nt : tensor<4x64xf16>, tensor<4x64xf32>, tensor<4x64xf16>
}

// A half model's GEMM + bias + GELU after smap-widen-accumulators: the f32
// accumulator, its rounding as a generic of its own, the f16 epilogue. The
// rounding is read once, by a parallel generic: it fuses into the epilogue,
// which reads the f32 accumulator and rounds each element first (the same
// values in the same order), so no f16 tile of the rounded accumulator is
// kept. The second rounding feeds a contraction (its operand precision) and
// stays; so does the third, read twice.
// CHECK-LABEL: func.func @rounded_accumulator
// CHECK-SAME:    (%[[ACC:[^:]*]]: tensor<64x32xf32>, %[[BIAS:[^:]*]]: tensor<32xf16>, %[[W:[^:]*]]: tensor<32x8xf16>)
// CHECK:         %[[EPI:.*]] = linalg.generic
// CHECK-SAME:      ins(%[[ACC]], %[[BIAS]] : tensor<64x32xf32>, tensor<32xf16>) outs(%{{.*}} : tensor<64x32xf16>)
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32, %[[B:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT:      %[[R:.*]] = arith.truncf %[[X]] : f32 to f16
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[R]], %[[B]] : f16
// CHECK-NEXT:      %[[G:.*]] = math.tanh %[[S]] : f16
// CHECK-NEXT:      linalg.yield %[[G]] : f16
// CHECK:         %[[ROUNDED:.*]] = linalg.generic
// CHECK-SAME:      ins(%[[ACC]] : tensor<64x32xf32>) outs(%{{.*}} : tensor<64x32xf16>)
// CHECK:           arith.truncf
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%[[ROUNDED]], %[[W]] : tensor<64x32xf16>, tensor<32x8xf16>)
// CHECK:         %[[TWICE:.*]] = linalg.generic
// CHECK-SAME:      ins(%[[ACC]] : tensor<64x32xf32>) outs(%{{.*}} : tensor<64x32xf16>)
// CHECK:           arith.truncf
// CHECK:         linalg.generic {{.*}} ins(%[[TWICE]] : tensor<64x32xf16>)
// CHECK:           math.exp
// CHECK:         return
func.func @rounded_accumulator(%acc: tensor<64x32xf32>, %bias: tensor<32xf16>, %w: tensor<32x8xf16>) -> (tensor<64x32xf16>, tensor<64x8xf32>, tensor<64x32xf16>, tensor<64x32xf16>) {
  %e16 = tensor.empty() : tensor<64x32xf16>
  %r1 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%acc : tensor<64x32xf32>) outs(%e16 : tensor<64x32xf16>) {
  ^bb0(%x: f32, %o: f16):
    %r = arith.truncf %x : f32 to f16
    linalg.yield %r : f16
  } -> tensor<64x32xf16>
  %epi = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%r1, %bias : tensor<64x32xf16>, tensor<32xf16>) outs(%e16 : tensor<64x32xf16>) {
  ^bb0(%x: f16, %b: f16, %o: f16):
    %s = arith.addf %x, %b : f16
    %g = math.tanh %s : f16
    linalg.yield %g : f16
  } -> tensor<64x32xf16>
  %r2 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%acc : tensor<64x32xf32>) outs(%e16 : tensor<64x32xf16>) {
  ^bb0(%x: f32, %o: f16):
    %r = arith.truncf %x : f32 to f16
    linalg.yield %r : f16
  } -> tensor<64x32xf16>
  %zero = arith.constant 0.0 : f32
  %e8 = tensor.empty() : tensor<64x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e8 : tensor<64x8xf32>) -> tensor<64x8xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%r2, %w : tensor<64x32xf16>, tensor<32x8xf16>) outs(%z : tensor<64x8xf32>) {
  ^bb0(%a: f16, %b: f16, %o: f32):
    %af = arith.extf %a : f16 to f32
    %bf = arith.extf %b : f16 to f32
    %p = arith.mulf %af, %bf : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<64x8xf32>
  %r3 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%acc : tensor<64x32xf32>) outs(%e16 : tensor<64x32xf16>) {
  ^bb0(%x: f32, %o: f16):
    %r = arith.truncf %x : f32 to f16
    linalg.yield %r : f16
  } -> tensor<64x32xf16>
  %x3 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%r3 : tensor<64x32xf16>) outs(%e16 : tensor<64x32xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = math.exp %x : f16
    linalg.yield %y : f16
  } -> tensor<64x32xf16>
  return %epi, %c, %x3, %r3 : tensor<64x32xf16>, tensor<64x8xf32>, tensor<64x32xf16>, tensor<64x32xf16>
}
