//===- TF32.h - f32 values rounded to TF32 ----------------------*- C++ -*-===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// How the IR says that an f32 contraction may read its operands as TF32
// (smap-round-contractions-to-tf32 writes it, the tensor-core legality reads
// it, smap-expand-tf32-rounding lowers what no tensor core consumed): each
// operand's use in the body is `arith.extf(arith.truncf(x : f32 to tf32))`,
// x rounded to TF32's 10-bit mantissa (to nearest, ties away from zero, as
// CUTLASS and cvt.rna.tf32.f32 round) and held as f32, which is what a TF32
// tensor core multiplies.
//
//===----------------------------------------------------------------------===//

#ifndef SPACEFUSION_ANALYSIS_TF32_H
#define SPACEFUSION_ANALYSIS_TF32_H

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace mlir {
namespace smap {

/// The f32 value `v` rounds to TF32, when `v` is
/// `arith.extf(arith.truncf(x : f32 to tf32) : tf32 to f32)` rounding
/// `to_nearest_away` (or the same on f64, as the checker's f64 reference
/// writes it); null otherwise.
Value getTF32RoundedSource(Value v);

/// `x` (f32) wrapped as `arith.extf(arith.truncf(x) to_nearest_away)`
/// through tf32.
Value createTF32RoundingOps(OpBuilder &b, Location loc, Value x);

/// `x` (f32, or f64 through f32) rounded to TF32 (nearest, ties away from
/// zero) in its own type, in
/// integer arithmetic every target lowers: the mantissa's 13 low bits
/// rounded off. NaN stays NaN; infinities stay; a finite value past TF32's
/// largest rounds to infinity, as IEEE rounding does.
Value buildTF32Rounding(OpBuilder &b, Location loc, Value x);

/// The bits (i32) a TF32 tensor core reads as `x` (f32) rounded like
/// buildTF32Rounding: half a TF32 unit added, the 13 low bits left for the
/// tensor core, which ignores them (CUTLASS's round_half_ulp_truncate).
/// The same value for every finite or infinite x; a NaN whose payload lies
/// only in those bits would read as infinity (frontends' NaNs do not).
Value buildTF32OperandBits(OpBuilder &b, Location loc, Value x);

} // namespace smap
} // namespace mlir

#endif // SPACEFUSION_ANALYSIS_TF32_H
