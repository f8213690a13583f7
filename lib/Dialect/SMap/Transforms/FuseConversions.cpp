//===- FuseConversions.cpp - Fold float extensions into their users -------===//
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

/// A parallel generic whose body only extends its one input.
static bool isExtension(Operation *op) {
  auto generic = dyn_cast_or_null<linalg::GenericOp>(op);
  if (!generic || generic.getNumDpsInputs() != 1 ||
      generic.getNumDpsInits() != 1 ||
      generic.getNumLoops() != generic.getNumParallelLoops())
    return false;
  Block *body = generic.getBlock();
  if (!llvm::hasSingleElement(body->without_terminator()))
    return false;
  auto ext = dyn_cast<arith::ExtFOp>(body->front());
  return ext && ext.getIn() == body->getArgument(0) &&
         body->getTerminator()->getOperand(0) == ext.getResult();
}

void mlir::smap::populateFuseConversionsPatterns(RewritePatternSet &patterns) {
  linalg::populateElementwiseOpsFusionPatterns(
      patterns, [](OpOperand *operand) {
        return isExtension(operand->get().getDefiningOp());
      });
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
