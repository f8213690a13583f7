// RUN: spacefusion-opt %s -split-input-file --smap-split-contraction-operands | FileCheck %s

// Attention's P.V after upstream elementwise fusion: the normalization
// E / Sum, rounded to f16 as fp16 frontends write it, sits in the
// contraction's body. It becomes a generic of its own over (m, l), kept in
// f16, and the contraction reads it and V, extending both.

// CHECK-LABEL: func.func @pv_with_fused_normalization
// CHECK-SAME: (%[[E:.*]]: tensor<64x256xf32>, %[[S:.*]]: tensor<64xf32>, %[[V:.*]]: tensor<256x32xf16>)
// CHECK: %[[P:.*]] = linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel"]
// CHECK-SAME: ins(%[[E]], %[[S]] : tensor<64x256xf32>, tensor<64xf32>)
// CHECK-SAME: outs(%{{.*}} : tensor<64x256xf16>)
// CHECK: %[[Q:.*]] = arith.divf
// CHECK-NEXT: %[[H:.*]] = arith.truncf %[[Q]] : f32 to f16
// CHECK-NEXT: linalg.yield %[[H]] : f16
// CHECK: %[[O:.*]] = linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME: ins(%[[P]], %[[V]] : tensor<64x256xf16>, tensor<256x32xf16>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: f16, %[[W:.*]]: f16, %[[ACC:.*]]: f32):
// CHECK: %[[XF:.*]] = arith.extf %[[X]] : f16 to f32
// CHECK: %[[WF:.*]] = arith.extf %[[W]] : f16 to f32
// CHECK: %[[M:.*]] = arith.mulf %[[XF]], %[[WF]]
// CHECK: arith.addf %[[ACC]], %[[M]]
// CHECK: return %[[O]]
#ml = affine_map<(m, n, l) -> (m, l)>
#m = affine_map<(m, n, l) -> (m)>
#ln = affine_map<(m, n, l) -> (l, n)>
#mn = affine_map<(m, n, l) -> (m, n)>
func.func @pv_with_fused_normalization(%e: tensor<64x256xf32>, %s: tensor<64xf32>, %v: tensor<256x32xf16>) -> tensor<64x32xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<64x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<64x32xf32>) -> tensor<64x32xf32>
  %o = linalg.generic {indexing_maps = [#ml, #m, #ln, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%e, %s, %v : tensor<64x256xf32>, tensor<64xf32>, tensor<256x32xf16>) outs(%acc : tensor<64x32xf32>) {
  ^bb0(%x: f32, %d: f32, %w: f16, %a: f32):
    %p = arith.divf %x, %d : f32
    %h = arith.truncf %p : f32 to f16
    %pf = arith.extf %h : f16 to f32
    %wf = arith.extf %w : f16 to f32
    %m = arith.mulf %pf, %wf : f32
    %r = arith.addf %a, %m : f32
    linalg.yield %r : f32
  } -> tensor<64x32xf32>
  return %o : tensor<64x32xf32>
}

// -----

// A multiplicand of one input (a scaled operand) is left where it is:
// splitting it would only add a tensor.

// CHECK-LABEL: func.func @one_input_multiplicand
// CHECK: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: return
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
func.func @one_input_multiplicand(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>) -> tensor<64x16xf32> {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 0.125 : f32
  %init = tensor.empty() : tensor<64x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<64x16xf32>) -> tensor<64x16xf32>
  %o = linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<64x32xf32>, tensor<32x16xf32>) outs(%acc : tensor<64x16xf32>) {
  ^bb0(%x: f32, %y: f32, %r0: f32):
    %xs = arith.mulf %x, %c : f32
    %m = arith.mulf %xs, %y : f32
    %r = arith.addf %r0, %m : f32
    linalg.yield %r : f32
  } -> tensor<64x16xf32>
  return %o : tensor<64x16xf32>
}

// -----

// A multiplicand that depends on the loop index (a mask written with
// linalg.index) is not split: its value is a function of the contraction's
// loops, not only of its inputs.

// CHECK-LABEL: func.func @index_dependent_multiplicand
// CHECK: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: return
#ml = affine_map<(m, n, l) -> (m, l)>
#m = affine_map<(m, n, l) -> (m)>
#ln = affine_map<(m, n, l) -> (l, n)>
#mn = affine_map<(m, n, l) -> (m, n)>
func.func @index_dependent_multiplicand(%e: tensor<64x256xf32>, %s: tensor<64xf32>, %v: tensor<256x32xf32>) -> tensor<64x32xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<64x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<64x32xf32>) -> tensor<64x32xf32>
  %o = linalg.generic {indexing_maps = [#ml, #m, #ln, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%e, %s, %v : tensor<64x256xf32>, tensor<64xf32>, tensor<256x32xf32>) outs(%acc : tensor<64x32xf32>) {
  ^bb0(%x: f32, %d: f32, %w: f32, %a: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 2 : index
    %keep = arith.cmpi ule, %j, %i : index
    %p = arith.divf %x, %d : f32
    %pm = arith.select %keep, %p, %zero : f32
    %m = arith.mulf %pm, %w : f32
    %r = arith.addf %a, %m : f32
    linalg.yield %r : f32
  } -> tensor<64x32xf32>
  return %o : tensor<64x32xf32>
}

// -----

// Dynamic loop ranges: the multiplicand's tensor would need dynamic sizes;
// the contraction is left as it is (the GPU path rejects dynamic shapes
// with its own diagnostic).

// CHECK-LABEL: func.func @dynamic_rows
// CHECK: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: return
#ml = affine_map<(m, n, l) -> (m, l)>
#m = affine_map<(m, n, l) -> (m)>
#ln = affine_map<(m, n, l) -> (l, n)>
#mn = affine_map<(m, n, l) -> (m, n)>
func.func @dynamic_rows(%e: tensor<?x256xf32>, %s: tensor<?xf32>, %v: tensor<256x32xf32>, %acc: tensor<?x32xf32>) -> tensor<?x32xf32> {
  %o = linalg.generic {indexing_maps = [#ml, #m, #ln, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%e, %s, %v : tensor<?x256xf32>, tensor<?xf32>, tensor<256x32xf32>) outs(%acc : tensor<?x32xf32>) {
  ^bb0(%x: f32, %d: f32, %w: f32, %a: f32):
    %p = arith.divf %x, %d : f32
    %m = arith.mulf %p, %w : f32
    %r = arith.addf %a, %m : f32
    linalg.yield %r : f32
  } -> tensor<?x32xf32>
  return %o : tensor<?x32xf32>
}
