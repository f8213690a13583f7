// smap-round-contractions-to-tf32 rounds both factors of an f32
// contraction's product to TF32 (to nearest, ties away) in its body, and
// leaves every other reduction as written: 16-bit operands (extended in the
// body or by a separate conversion), a row-wise dot, factors already
// rounded (the pass is idempotent).
// RUN: spacefusion-opt %s -split-input-file --smap-generalize-named-ops \
// RUN:   --smap-round-contractions-to-tf32 | FileCheck %s
// RUN: spacefusion-opt %s -split-input-file --smap-generalize-named-ops \
// RUN:   --smap-round-contractions-to-tf32 --smap-round-contractions-to-tf32 \
// RUN:   | FileCheck %s
// RUN: spacefusion-opt %s -split-input-file --smap-generalize-named-ops \
// RUN:   --smap-round-contractions-to-tf32 --remarks-filter=smap \
// RUN:   --remark-format=emitRemark -verify-diagnostics -o /dev/null

// A named linalg.matmul of f32 (torch-mlir's aten.mm).
// CHECK-LABEL: func.func @matmul_f32(
// CHECK: linalg.generic
// CHECK-NEXT: ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %[[ACC:.+]]: f32):
// CHECK-NEXT: %[[XT:.+]] = arith.truncf %[[X]] to_nearest_away : f32 to tf32
// CHECK-NEXT: %[[XR:.+]] = arith.extf %[[XT]] : tf32 to f32
// CHECK-NEXT: %[[YT:.+]] = arith.truncf %[[Y]] to_nearest_away : f32 to tf32
// CHECK-NEXT: %[[YR:.+]] = arith.extf %[[YT]] : tf32 to f32
// CHECK-NEXT: %[[P:.+]] = arith.mulf %[[XR]], %[[YR]] : f32
// CHECK-NEXT: %[[S:.+]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
// CHECK-NOT: arith.truncf
func.func @matmul_f32(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>) -> tensor<64x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x16xf32>) -> tensor<64x16xf32>
  // expected-remark @below {{f32 contraction: its factors are rounded to TF32 (tf32=true; to nearest, ties away), which tensor cores multiply}}
  %c = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x16xf32>) outs(%f : tensor<64x16xf32>) -> tensor<64x16xf32>
  return %c : tensor<64x16xf32>
}

// -----

// A batched product written as a generic with the operands swapped in the
// multiply (y * x): the factors are rounded wherever they are.
// CHECK-LABEL: func.func @batch_swapped(
// CHECK: ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %[[ACC:.+]]: f32):
// CHECK-DAG: %[[XT:.+]] = arith.truncf %[[X]] to_nearest_away : f32 to tf32
// CHECK-DAG: %[[YT:.+]] = arith.truncf %[[Y]] to_nearest_away : f32 to tf32
// CHECK-DAG: %[[XR:.+]] = arith.extf %[[XT]] : tf32 to f32
// CHECK-DAG: %[[YR:.+]] = arith.extf %[[YT]] : tf32 to f32
// CHECK: arith.mulf %[[YR]], %[[XR]] : f32
func.func @batch_swapped(%a: tensor<4x64x32xf32>, %b: tensor<4x32x16xf32>, %init: tensor<4x64x16xf32>) -> tensor<4x64x16xf32> {
  // expected-remark @below {{factors are rounded to TF32}}
  %c = linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<4x64x32xf32>, tensor<4x32x16xf32>) outs(%init : tensor<4x64x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %y, %x : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x64x16xf32>
  return %c : tensor<4x64x16xf32>
}

// -----

// Not rounded: f16 operands extended in the body (the tensor cores read
// them as f16), an operand extended from f16 by a separate generic, and a
// row-wise dot (no contraction).
// CHECK-LABEL: func.func @untouched(
// CHECK-NOT: tf32
func.func @untouched(%a: tensor<64x32xf16>, %b: tensor<32x16xf16>, %x: tensor<64x32xf32>, %init: tensor<64x16xf32>, %row: tensor<64xf32>) -> (tensor<64x16xf32>, tensor<64x16xf32>, tensor<64xf32>) {
  %c = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<64x32xf16>, tensor<32x16xf16>) outs(%init : tensor<64x16xf32>) {
  ^bb0(%p: f16, %q: f16, %acc: f32):
    %pe = arith.extf %p : f16 to f32
    %qe = arith.extf %q : f16 to f32
    %m = arith.mulf %pe, %qe : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x16xf32>
  %e = tensor.empty() : tensor<32x16xf32>
  %bw = linalg.generic {indexing_maps = [affine_map<(k, n) -> (k, n)>, affine_map<(k, n) -> (k, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<32x16xf16>) outs(%e : tensor<32x16xf32>) {
  ^bb0(%q: f16, %o: f32):
    %qe = arith.extf %q : f16 to f32
    linalg.yield %qe : f32
  } -> tensor<32x16xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %bw : tensor<64x32xf32>, tensor<32x16xf32>) outs(%init : tensor<64x16xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x16xf32>
  %dot = linalg.generic {indexing_maps = [affine_map<(m, k) -> (m, k)>, affine_map<(m, k) -> (m, k)>, affine_map<(m, k) -> (m)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%x, %x : tensor<64x32xf32>, tensor<64x32xf32>) outs(%row : tensor<64xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  return %c, %d, %dot : tensor<64x16xf32>, tensor<64x16xf32>, tensor<64xf32>
}
