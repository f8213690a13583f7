//===- PackedPairs.h - A linalg body on two elements at once ----*- C++ -*-===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// A lane's row-fragment slots come in pairs of neighbouring columns of one
// row. A half model's elementwise math (f16 or bf16 scale, subtraction,
// rounding) then runs on both as one packed instruction (add / sub / mul /
// max .f16x2 and .bf16x2, cvt.rn.f16x2.f32): the same roundings per element,
// half the instructions, two values per 32-bit register. Other ops are
// cloned once per element.
//
//===----------------------------------------------------------------------===//

#ifndef SPACEFUSION_LIB_CONVERSION_SMAPTOGPU_PACKEDPAIRS_H
#define SPACEFUSION_LIB_CONVERSION_SMAPTOGPU_PACKEDPAIRS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

#include <array>
#include <functional>

namespace mlir {
namespace smap {

/// Whether `op` computes a 16-bit float with one packed instruction per
/// pair of elements.
bool isPackedHalfOp(Operation &op);

/// `first` and `second` as a vector<2xT>: the vector both were extracted
/// from (elements 0 and 1), a splat of a shared value, or built.
Value packPair(OpBuilder &b, Location loc, Value first, Value second);

/// A linalg body's payload evaluated on two elements: every value has its
/// two elements (as scalars), and the values of packed ops their pair too.
class PayloadPair {
public:
  /// Clones one payload op for a single element under that element's
  /// mapping (the block distributor's clonePayload).
  using CloneElement =
      std::function<void(OpBuilder &, Operation &, IRMapping &)>;

  PayloadPair(Location loc, CloneElement cloneElement)
      : loc(loc), cloneElement(std::move(cloneElement)) {}

  /// Maps `v` (a block argument) to its two elements.
  void map(Value v, Value first, Value second);
  /// Clones `payload`: one packed op when isPackedHalfOp, else one op per
  /// element.
  void clone(OpBuilder &b, Operation &payload);
  /// `v`'s element `e` (0 or 1) after the payload was cloned.
  Value element(Value v, unsigned e) const {
    return elements[e].lookupOrDefault(v);
  }

private:
  /// `v`'s pair as a vector<2xT> (packPair of its elements, kept).
  Value pairOf(OpBuilder &b, Value v);
  /// Maps `v` to `pair` and its two elements.
  void mapPacked(OpBuilder &b, Value v, Value pair);
  /// When `payload`'s two element clones each end in a rounding of f32 to
  /// 16 bits (a 16-bit exp or tanh computed in f32), one packed rounding
  /// instead (cvt.rn.f16x2.f32).
  void packRoundings(OpBuilder &b, Operation &payload);

  Location loc;
  CloneElement cloneElement;
  std::array<IRMapping, 2> elements;
  IRMapping pairs;
};

} // namespace smap
} // namespace mlir

#endif // SPACEFUSION_LIB_CONVERSION_SMAPTOGPU_PACKEDPAIRS_H
