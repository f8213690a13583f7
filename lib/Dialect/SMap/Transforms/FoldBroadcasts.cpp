//===- FoldBroadcasts.cpp - Broadcasting copies into their readers --------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// Named-op frontends materialize a row statistic, a bias or a scale at the
// shape of its reader (`linalg.broadcast`, generalized into a copy generic)
// and the reader then takes it elementwise; generic frontends read the
// smaller tensor through a projected map. The SMG sees the first as a
// value over every dim, mixed with the data, so the reductions that follow
// (x - mean in a LayerNorm) lose the algebra the slicer needs, and every
// block re-reads the broadcast tensor. Reading the copy's source through
// the composed map makes both forms one.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Dialect/SMap/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SmallBitVector.h"

namespace mlir {
namespace smap {
#define GEN_PASS_DEF_SMAPFOLDBROADCASTSPASS
#include "spacefusion/Dialect/SMap/Transforms/Passes.h.inc"
} // namespace smap
} // namespace mlir

using namespace mlir;

/// Whether `op` only broadcasts its input into its output: all loops
/// parallel, a body that yields the input's element unchanged, the output
/// written through a permutation and the input read through a projected
/// permutation that leaves some loop out.
static bool isBroadcastCopy(linalg::GenericOp op) {
  if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      op.getNumParallelLoops() != op.getNumLoops() ||
      !op.hasPureTensorSemantics())
    return false;
  Block &body = op.getRegion().front();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  if (body.getOperations().size() != 1 ||
      yield.getValues().front() != body.getArgument(0))
    return false;
  AffineMap in = op.getIndexingMapsArray()[0];
  AffineMap out = op.getIndexingMapsArray()[1];
  return out.isPermutation() && in.isProjectedPermutation() &&
         in.getNumResults() < op.getNumLoops();
}

/// Whether every loop of `op` has an operand that spans it (gives its
/// extent) when the operands are read through `maps`.
static bool loopsStaySpanned(linalg::GenericOp op, ArrayRef<AffineMap> maps) {
  llvm::SmallBitVector spanned(op.getNumLoops());
  for (AffineMap map : maps)
    for (AffineExpr e : map.getResults())
      if (auto d = dyn_cast<AffineDimExpr>(e))
        spanned.set(d.getPosition());
  return spanned.all();
}

namespace {
/// Rewrites each input of a generic that a broadcasting copy produced into
/// the copy's input, read through the composed map. The copy goes once no
/// reader is left.
struct FoldBroadcastIntoReader : public OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp reader,
                                PatternRewriter &rewriter) const override {
    bool changed = false;
    SmallVector<AffineMap> maps = reader.getIndexingMapsArray();
    for (OpOperand *operand : reader.getDpsInputOperands()) {
      auto copy = operand->get().getDefiningOp<linalg::GenericOp>();
      if (!copy || !isBroadcastCopy(copy))
        continue;
      AffineMap in = copy.getIndexingMapsArray()[0];
      AffineMap out = copy.getIndexingMapsArray()[1];
      AffineMap &map = maps[operand->getOperandNumber()];
      AffineMap before = map;
      map = in.compose(inversePermutation(out).compose(map));
      if (!loopsStaySpanned(reader, maps)) {
        map = before;
        continue;
      }
      rewriter.modifyOpInPlace(
          reader, [&] { operand->set(copy.getDpsInputOperand(0)->get()); });
      changed = true;
    }
    if (!changed)
      return rewriter.notifyMatchFailure(reader, "reads no broadcast copy");
    rewriter.modifyOpInPlace(reader, [&] {
      reader.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
    });
    return success();
  }
};

struct FoldBroadcastsPass
    : public smap::impl::SMapFoldBroadcastsPassBase<FoldBroadcastsPass> {
  using Base::Base;
  void runOnOperation() override {
    // The user asked for the generics as written.
    if (llvm::is_contained(excludeOps, linalg::GenericOp::getOperationName()))
      return;
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldBroadcastIntoReader>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
