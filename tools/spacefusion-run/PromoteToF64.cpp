//===- PromoteToF64.cpp - The f64 reference of spacefusion-run ------------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// The reference run of spacefusion-run computes in f64 so that the fused
// program's error is measured against (nearly) exact math rather than
// against another program's f32 rounding. The rewrite changes types in
// place: linalg, tensor and math ops derive nothing from their element type
// beyond what their operands and results say, so a consistent retyping is
// a valid program that computes the same function in f64.
//
//===----------------------------------------------------------------------===//

#include "PromoteToF64.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Verifier.h"

using namespace mlir;

/// `type` with every float narrower than f64 made f64, except tf32: a
/// rounding to TF32 is part of the program (smap-round-contractions-to-tf32,
/// `--tf32`), which the reference computes too, on f64 values.
static Type promote(Type type) {
  if (auto floatType = dyn_cast<FloatType>(type))
    return floatType.getWidth() < 64 && !floatType.isTF32()
               ? Float64Type::get(type.getContext())
               : type;
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.clone(promote(shaped.getElementType()));
  if (auto function = dyn_cast<FunctionType>(type)) {
    auto promoteAll = [](TypeRange types) {
      return llvm::map_to_vector(types, promote);
    };
    return FunctionType::get(type.getContext(),
                             promoteAll(function.getInputs()),
                             promoteAll(function.getResults()));
  }
  return type;
}

/// A float constant's value in f64; the narrower formats are all exactly
/// representable, so nothing is rounded.
static FailureOr<TypedAttr> promoteValue(TypedAttr value) {
  Type type = promote(value.getType());
  if (type == value.getType())
    return value;
  if (auto scalar = dyn_cast<FloatAttr>(value))
    return TypedAttr(FloatAttr::get(type, scalar.getValueAsDouble()));
  if (auto dense = dyn_cast<DenseFPElementsAttr>(value))
    return TypedAttr(dense.mapValues(
        Float64Type::get(type.getContext()), [](const APFloat &element) {
          return APFloat(element.convertToDouble()).bitcastToAPInt();
        }));
  return failure();
}

static LogicalResult promoteTypes(Operation *op) {
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (BlockArgument argument : block.getArguments())
        argument.setType(promote(argument.getType()));
  for (OpResult result : op->getResults())
    result.setType(promote(result.getType()));
  if (auto function = dyn_cast<func::FuncOp>(op))
    function.setType(cast<FunctionType>(promote(function.getFunctionType())));
  auto constant = dyn_cast<arith::ConstantOp>(op);
  if (!constant)
    return success();
  FailureOr<TypedAttr> value = promoteValue(constant.getValue());
  if (failed(value))
    return op->emitError("spacefusion-run: cannot widen this constant to f64 "
                         "for the reference");
  constant.setValueAttr(*value);
  return success();
}

/// Drops the casts between floats that promotion made f64 to f64 (and so
/// invalid): the frontend's f16/bf16 <-> f32 casts of mixed precision.
static void dropIdentityCasts(ModuleOp module) {
  SmallVector<Operation *> casts;
  module.walk([&](Operation *op) {
    if (isa<arith::ExtFOp, arith::TruncFOp>(op) &&
        op->getOperand(0).getType() == op->getResult(0).getType())
      casts.push_back(op);
  });
  for (Operation *cast : casts) {
    cast->getResult(0).replaceAllUsesWith(cast->getOperand(0));
    cast->erase();
  }
}

LogicalResult spacefusion::run::promoteToF64(ModuleOp module) {
  WalkResult walk = module.walk([](Operation *op) {
    return failed(promoteTypes(op)) ? WalkResult::interrupt()
                                    : WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  dropIdentityCasts(module);
  // What the retyping cannot make consistent (a bitcast from f32 to i32,
  // say) shows up here, on the op.
  return verify(module);
}
