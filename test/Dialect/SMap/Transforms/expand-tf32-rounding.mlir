// smap-expand-tf32-rounding computes a TF32 rounding on the value's bits:
// half a TF32 unit (0x1000) added, the 13 dropped bits cleared, NaN kept.
// An f64 value (the checker's widened reference) is rounded through f32.
// RUN: spacefusion-opt %s -split-input-file -verify-diagnostics \
// RUN:   --smap-expand-tf32-rounding | FileCheck %s

// CHECK-LABEL: func.func @round_f32(
// CHECK-SAME: %[[X:.+]]: f32) -> f32
// CHECK-NEXT: %[[BITS:.+]] = arith.bitcast %[[X]] : f32 to i32
// CHECK-NEXT: %[[HALF:.+]] = arith.constant 4096 : i32
// CHECK-NEXT: %[[UP:.+]] = arith.addi %[[BITS]], %[[HALF]] : i32
// CHECK-NEXT: %[[MASK:.+]] = arith.constant -8192 : i32
// CHECK-NEXT: %[[CLEARED:.+]] = arith.andi %[[UP]], %[[MASK]] : i32
// CHECK-NEXT: %[[ROUNDED:.+]] = arith.bitcast %[[CLEARED]] : i32 to f32
// CHECK-NEXT: %[[NAN:.+]] = arith.cmpf uno, %[[X]], %[[X]] : f32
// CHECK-NEXT: %[[R:.+]] = arith.select %[[NAN]], %[[X]], %[[ROUNDED]] : f32
// CHECK-NEXT: return %[[R]] : f32
// CHECK-NOT: tf32
func.func @round_f32(%x: f32) -> f32 {
  %t = arith.truncf %x to_nearest_away : f32 to tf32
  %r = arith.extf %t : tf32 to f32
  return %r : f32
}

// -----

// CHECK-LABEL: func.func @round_f64(
// CHECK-SAME: %[[X:.+]]: f64) -> f64
// CHECK: %[[NARROW:.+]] = arith.truncf %[[X]] : f64 to f32
// CHECK: arith.bitcast %[[NARROW]] : f32 to i32
// CHECK: %[[R:.+]] = arith.select
// CHECK: %[[WIDE:.+]] = arith.extf %[[R]] : f32 to f64
// CHECK: return %[[WIDE]] : f64
// CHECK-NOT: tf32
func.func @round_f64(%x: f64) -> f64 {
  %t = arith.truncf %x to_nearest_away : f64 to tf32
  %r = arith.extf %t : tf32 to f64
  return %r : f64
}

// -----

// A TF32 value kept as such has no lowering.
func.func @stored(%x: f32) -> tf32 {
  // expected-error @+1 {{smap-expand-tf32-rounding: a TF32 value is supported only as a float rounded to nearest (ties away, to_nearest_away) and extended back to its type (arith.truncf then arith.extf); this one is used by 'func.return'}}
  %t = arith.truncf %x to_nearest_away : f32 to tf32
  return %t : tf32
}

// -----

// Another rounding mode is not the one the tensor cores implement here.
func.func @nearest_even(%x: f32) -> f32 {
  // expected-error @+1 {{this one is used by 'arith.extf'}}
  %t = arith.truncf %x : f32 to tf32
  %r = arith.extf %t : tf32 to f32
  return %r : f32
}
