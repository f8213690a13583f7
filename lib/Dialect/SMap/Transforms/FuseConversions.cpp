//===- FuseConversions.cpp - Fold float conversions into their neighbours -===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Dialect/SMap/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace smap {
#define GEN_PASS_DEF_SMAPFUSECONVERSIONSPASS
#include "spacefusion/Dialect/SMap/Transforms/Passes.h.inc"
} // namespace smap
} // namespace mlir

using namespace mlir;

/// A parallel generic of one input whose body is only one `ConversionOp` of
/// that input.
template <typename ConversionOp>
static bool isConversion(Operation *op) {
  auto generic = dyn_cast_or_null<linalg::GenericOp>(op);
  if (!generic || generic.getNumDpsInputs() != 1 ||
      generic.getNumDpsInits() != 1 ||
      generic.getNumLoops() != generic.getNumParallelLoops())
    return false;
  Block *body = generic.getBlock();
  if (!llvm::hasSingleElement(body->without_terminator()))
    return false;
  auto conversion = dyn_cast<ConversionOp>(body->front());
  return conversion && conversion.getIn() == body->getArgument(0) &&
         body->getTerminator()->getOperand(0) == conversion.getResult();
}

/// A parallel generic whose only use is `operand`: fusing it into its
/// reader computes nothing twice.
static bool isSoleElementwiseProducer(OpOperand *operand) {
  auto producer = operand->get().getDefiningOp<linalg::GenericOp>();
  return producer && producer->getNumResults() == 1 &&
         producer.getNumLoops() == producer.getNumParallelLoops() &&
         operand->get().hasOneUse();
}

/// A truncation read once, by a parallel generic: the rounding of a widened
/// accumulator before a 16-bit epilogue (a half model's GEMM + bias + GELU).
/// A contraction or reduction reading it keeps it (its operand precision).
static bool isTruncationReadOnceElementwise(OpOperand *operand) {
  auto reader = dyn_cast<linalg::GenericOp>(operand->getOwner());
  return reader &&
         isConversion<arith::TruncFOp>(operand->get().getDefiningOp()) &&
         operand->get().hasOneUse() &&
         reader.getNumLoops() == reader.getNumParallelLoops();
}

/// Fuses an extension into every reader, the elementwise producer of a
/// truncation into the truncation, and a truncation into its one
/// elementwise reader: the division that makes attention's probabilities
/// and the `truncf` generic that rounds them become the one generic the
/// in-body form writes, and an epilogue reads the f32 accumulator and rounds
/// it in its body, instead of an f32 tile and an f16 tile of the same
/// values. The program computes the same numbers in the same order.
static bool fusesConversion(OpOperand *operand) {
  return isConversion<arith::ExtFOp>(operand->get().getDefiningOp()) ||
         (isConversion<arith::TruncFOp>(operand->getOwner()) &&
          isSoleElementwiseProducer(operand)) ||
         isTruncationReadOnceElementwise(operand);
}

void mlir::smap::populateFuseConversionsPatterns(RewritePatternSet &patterns) {
  linalg::populateElementwiseOpsFusionPatterns(patterns, fusesConversion);
}

namespace {
struct FuseConversionsPass
    : public smap::impl::SMapFuseConversionsPassBase<FuseConversionsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    smap::populateFuseConversionsPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
