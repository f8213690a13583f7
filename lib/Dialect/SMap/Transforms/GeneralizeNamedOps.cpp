//===- GeneralizeNamedOps.cpp - Named linalg ops to linalg.generic --------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// The same computation reaches the compiler as named ops or as generics,
// depending on the frontend. The normalizations before grouping (conversion
// fusion, relayout folding) and the row-kernel recognition match generics,
// so a named form got slower kernels than its generic spelling. Rewriting
// the named ops the SMG can describe into generics first (upstream's
// generalization) makes the fusion decision independent of the spelling.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Analysis/Remarks.h"
#include "spacefusion/Dialect/SMap/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace smap {
#define GEN_PASS_DEF_SMAPGENERALIZENAMEDOPSPASS
#include "spacefusion/Dialect/SMap/Transforms/Passes.h.inc"
} // namespace smap
} // namespace mlir

using namespace mlir;

/// Whether `op` is a named op this pass leaves as written: a fill or copy
/// (the SMG's init and the lowerings' data movement, both matched by
/// name), an op on buffers, or a windowed one (convolution, pooling),
/// which no graph takes and whose remark should name it.
static bool keepsItsName(linalg::LinalgOp op) {
  if (isa<linalg::GenericOp, linalg::FillOp, linalg::CopyOp>(
          op.getOperation()) ||
      !op.hasPureTensorSemantics())
    return true;
  return llvm::any_of(op.getIndexingMapsArray(), [](AffineMap map) {
    return !map.isProjectedPermutation(/*allowZeroInResults=*/true);
  });
}

namespace {
/// Rewrites a named structured op into the generic it stands for, unless
/// the user excluded it from fusion: an excluded op stays as written, so
/// smap-form-graphs still finds it by its name.
struct GeneralizeNamedOp : public OpInterfaceRewritePattern<linalg::LinalgOp> {
  GeneralizeNamedOp(MLIRContext *ctx, ArrayRef<std::string> excludedOps)
      : OpInterfaceRewritePattern(ctx), excludedOps(excludedOps) {}

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (keepsItsName(op))
      return rewriter.notifyMatchFailure(op, "kept as written");
    if (llvm::is_contained(excludedOps, op->getName().getStringRef()))
      return rewriter.notifyMatchFailure(op, "excluded");
    Location origin = smap::getOriginLoc(op);
    FailureOr<linalg::GenericOp> generic =
        linalg::generalizeNamedOp(rewriter, op);
    if (failed(generic))
      return rewriter.notifyMatchFailure(op, "cannot be generalized");
    // The generic names the op in its diagnostics.
    rewriter.modifyOpInPlace(*generic, [&] { (*generic)->setLoc(origin); });
    return success();
  }

private:
  SmallVector<std::string> excludedOps;
};

struct GeneralizeNamedOpsPass
    : public smap::impl::SMapGeneralizeNamedOpsPassBase<
          GeneralizeNamedOpsPass> {
  using Base::Base;
  void runOnOperation() override {
    // Excluding linalg.generic excludes what is written as one; a named op
    // turned into one would fall under an exclusion not written for it.
    if (llvm::is_contained(excludeOps, linalg::GenericOp::getOperationName()))
      return;
    RewritePatternSet patterns(&getContext());
    patterns.add<GeneralizeNamedOp>(&getContext(), excludeOps);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
