//===- FoldEmptyDomains.cpp - Ops that iterate over nothing ----*- C++ -*-===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// A linalg op with a loop of extent 0 never runs its body, so its results
// are its inits. Replacing it keeps zero-size tensors (empty batches) out of
// the fusion graphs and the kernels: the SMG refuses them, and the GPU path
// has no kernel for an op outside every graph.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Dialect/SMap/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace smap {
#define GEN_PASS_DEF_SMAPFOLDEMPTYDOMAINSPASS
#include "spacefusion/Dialect/SMap/Transforms/Passes.h.inc"
} // namespace smap
} // namespace mlir

using namespace mlir;

/// Whether one of `op`'s loops has extent 0: an operand's static dim of
/// size 0 that its indexing map reads as a plain loop dim.
static bool hasEmptyDomain(linalg::LinalgOp op) {
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<RankedTensorType>(operand.get().getType());
    if (!type)
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    for (auto [size, expr] : llvm::zip(type.getShape(), map.getResults()))
      if (size == 0 && isa<AffineDimExpr>(expr))
        return true;
  }
  return false;
}

namespace {
struct FoldEmptyDomain : public OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || !hasEmptyDomain(op))
      return rewriter.notifyMatchFailure(op, "iterates over something");
    rewriter.replaceOp(op, op.getDpsInits());
    return success();
  }
};
} // namespace

void mlir::smap::populateFoldEmptyDomainsPatterns(RewritePatternSet &patterns) {
  patterns.add<FoldEmptyDomain>(patterns.getContext());
}

namespace {
struct FoldEmptyDomainsPass
    : public smap::impl::SMapFoldEmptyDomainsPassBase<FoldEmptyDomainsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    smap::populateFoldEmptyDomainsPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
