//===- TF32.cpp - f32 values rounded to TF32 ------------------------------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Analysis/TF32.h"

using namespace mlir;

Value mlir::smap::getTF32RoundedSource(Value v) {
  auto ext = v.getDefiningOp<arith::ExtFOp>();
  if (!ext || !(ext.getType().isF32() || ext.getType().isF64()))
    return nullptr;
  auto trunc = ext.getIn().getDefiningOp<arith::TruncFOp>();
  if (!trunc || !trunc.getType().isTF32() ||
      trunc.getIn().getType() != ext.getType())
    return nullptr;
  std::optional<arith::RoundingMode> mode = trunc.getRoundingmode();
  if (mode != arith::RoundingMode::to_nearest_away)
    return nullptr;
  return trunc.getIn();
}

Value mlir::smap::createTF32RoundingOps(OpBuilder &b, Location loc, Value x) {
  Value tf32 = arith::TruncFOp::create(
      b, loc, b.getTF32Type(), x,
      arith::RoundingModeAttr::get(b.getContext(),
                                   arith::RoundingMode::to_nearest_away),
      /*fastmath=*/nullptr);
  return arith::ExtFOp::create(b, loc, b.getF32Type(), tf32);
}

static Value i32Constant(OpBuilder &b, Location loc, uint32_t v) {
  return arith::ConstantIntOp::create(b, loc, b.getI32Type(),
                                      static_cast<int32_t>(v));
}

Value mlir::smap::buildTF32OperandBits(OpBuilder &b, Location loc, Value x) {
  Value bits = arith::BitcastOp::create(b, loc, b.getI32Type(), x);
  return arith::AddIOp::create(b, loc, bits, i32Constant(b, loc, 0x1000));
}

Value mlir::smap::buildTF32Rounding(OpBuilder &b, Location loc, Value x) {
  // An f64 (the checker's widened reference) is rounded through f32, which
  // is exact for the f32 values a TF32 contraction reads.
  if (x.getType().isF64()) {
    Value narrow = arith::TruncFOp::create(b, loc, b.getF32Type(), x);
    return arith::ExtFOp::create(b, loc, b.getF64Type(),
                                 buildTF32Rounding(b, loc, narrow));
  }
  // Half a unit of the kept mantissa added to the magnitude's bits, the 13
  // dropped bits cleared: a carry into the exponent is the next binade (or
  // infinity), as the rounding gives.
  Value rounded = arith::AndIOp::create(b, loc, buildTF32OperandBits(b, loc, x),
                                        i32Constant(b, loc, 0xFFFFE000u));
  Value result = arith::BitcastOp::create(b, loc, b.getF32Type(), rounded);
  // A NaN whose payload is only in the dropped bits would become infinity.
  Value isNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
  return arith::SelectOp::create(b, loc, isNaN, x, result);
}
