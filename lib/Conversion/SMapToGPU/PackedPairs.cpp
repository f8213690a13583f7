//===- PackedPairs.cpp - A linalg body on two elements at once ------------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "PackedPairs.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::smap;

/// `first` and `second` (f32) rounded to the nearest `narrow` (f16 or
/// bf16) as one cvt.rn.f16x2.f32: built explicitly, because NVPTX selects
/// a vector fptrunc as two cvt when the rounded values have other uses.
static Value roundPair(OpBuilder &b, Location loc, Value first, Value second,
                       Type narrow) {
  auto type = VectorType::get({2}, narrow);
  auto rn = NVVM::FPRoundingMode::RN;
  if (isa<BFloat16Type>(narrow))
    return NVVM::ConvertF32x2ToBF16x2Op::create(b, loc, type, second, first,
                                                Value(), rn);
  return NVVM::ConvertF32x2ToF16x2Op::create(b, loc, type, second, first,
                                             Value(), rn);
}

/// Whether `op` rounds an f32 to the nearest 16-bit float.
static bool isNearestRounding(Operation *op) {
  auto truncf = dyn_cast_or_null<arith::TruncFOp>(op);
  return truncf && truncf.getIn().getType().isF32() &&
         isa<Float16Type, BFloat16Type>(truncf.getType()) &&
         (!truncf.getRoundingmode() ||
          *truncf.getRoundingmode() == arith::RoundingMode::to_nearest_even);
}

/// Ops NVPTX selects as one f16x2 / bf16x2 instruction on sm_90 (a pair of
/// f32 rounded: cvt.rn.f16x2.f32). A division is not among them (it is
/// computed in f32), nor a conversion to f32 (two cvt either way).
bool mlir::smap::isPackedHalfOp(Operation &op) {
  if (isa<arith::TruncFOp>(op))
    return isNearestRounding(&op);
  if (!isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::NegFOp,
           arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
           arith::MinNumFOp>(op))
    return false;
  return isa<Float16Type, BFloat16Type>(op.getResult(0).getType());
}

void PayloadPair::map(Value v, Value first, Value second) {
  elements[0].map(v, first);
  elements[1].map(v, second);
}

Value mlir::smap::packPair(OpBuilder &b, Location loc, Value first,
                           Value second) {
  auto type = VectorType::get({2}, first.getType());
  auto x0 = first.getDefiningOp<vector::ExtractOp>();
  auto x1 = second.getDefiningOp<vector::ExtractOp>();
  if (x0 && x1 && x0.getSource() == x1.getSource() &&
      x0.getSource().getType() == type &&
      x0.getStaticPosition() == ArrayRef<int64_t>{0} &&
      x1.getStaticPosition() == ArrayRef<int64_t>{1})
    return x0.getSource();
  if (first == second)
    return vector::BroadcastOp::create(b, loc, type, first);
  return vector::FromElementsOp::create(b, loc, type,
                                        ValueRange{first, second});
}

Value PayloadPair::pairOf(OpBuilder &b, Value v) {
  if (Value pair = pairs.lookupOrNull(v))
    return pair;
  Value pair = packPair(b, loc, element(v, 0), element(v, 1));
  pairs.map(v, pair);
  return pair;
}

void PayloadPair::mapPacked(OpBuilder &b, Value v, Value pair) {
  pairs.map(v, pair);
  for (auto [e, mapping] : llvm::enumerate(elements))
    mapping.map(v, vector::ExtractOp::create(b, loc, pair,
                                             ArrayRef<int64_t>{int64_t(e)}));
}

void PayloadPair::packRoundings(OpBuilder &b, Operation &payload) {
  if (payload.getNumResults() != 1)
    return;
  Value result = payload.getResult(0);
  Operation *first = element(result, 0).getDefiningOp();
  Operation *second = element(result, 1).getDefiningOp();
  // Only roundings the clones made for this op (nothing else reads them).
  if (first == second || !isNearestRounding(first) ||
      !isNearestRounding(second) || !first->use_empty() || !second->use_empty())
    return;
  mapPacked(b, result,
            roundPair(b, loc, first->getOperand(0), second->getOperand(0),
                      result.getType()));
  first->erase();
  second->erase();
}

void PayloadPair::clone(OpBuilder &b, Operation &payload) {
  if (!isPackedHalfOp(payload)) {
    for (IRMapping &mapping : elements)
      cloneElement(b, payload, mapping);
    packRoundings(b, payload);
    return;
  }
  Value result = payload.getResult(0);
  if (isa<arith::TruncFOp>(payload)) {
    Value in = payload.getOperand(0);
    mapPacked(
        b, result,
        roundPair(b, loc, element(in, 0), element(in, 1), result.getType()));
    return;
  }
  IRMapping operands;
  for (Value operand : payload.getOperands())
    operands.map(operand, pairOf(b, operand));
  Operation *packed = b.clone(payload, operands);
  packed->getResult(0).setType(VectorType::get({2}, result.getType()));
  mapPacked(b, result, packed->getResult(0));
}
