//===- SpecializeFills.cpp - Fill-like generics back to linalg.fill -------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// Upstream `--linalg-generalize-named-ops` (and frontends that only emit
// generics) write a fill as a generic that yields a scalar from outside its
// body. The SMG calls a linalg.fill an init, and the lowerings zero an
// accumulator by one; the generic form of the same fill made the wgmma GEMM
// lowering refuse its schedule ("the accumulator is used inside or before
// the temporal loop"). This pattern turns such a generic back into the
// linalg.fill it is.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Dialect/SMap/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace smap {
#define GEN_PASS_DEF_SMAPSPECIALIZEFILLSPASS
#include "spacefusion/Dialect/SMap/Transforms/Passes.h.inc"
} // namespace smap
} // namespace mlir

using namespace mlir;

/// The scalar `op` fills its init with: a parallel generic whose body only
/// yields a value defined outside it (a constant, a function argument), or
/// its one input when that is a scalar (--linalg-generalize-named-ops'
/// form of linalg.fill).
static std::optional<Value> filledValue(linalg::GenericOp op) {
  if (op.getNumDpsInputs() > 1 || op.getNumDpsInits() != 1 ||
      op.getNumLoops() != op.getNumParallelLoops() ||
      !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity() ||
      !op.hasPureTensorSemantics())
    return std::nullopt;
  Block *body = op.getBlock();
  if (!llvm::hasSingleElement(*body))
    return std::nullopt;
  Value yielded = body->getTerminator()->getOperand(0);
  if (op.getNumDpsInputs() == 1) {
    OpOperand *input = op.getDpsInputOperand(0);
    if (isa<ShapedType>(input->get().getType()) ||
        yielded != op.getMatchingBlockArgument(input))
      return std::nullopt;
    return input->get();
  }
  if (op->getRegion(0).isAncestor(yielded.getParentRegion()))
    return std::nullopt;
  return yielded;
}

namespace {
struct FillFromGeneric : public OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<Value> value = filledValue(op);
    if (!value)
      return rewriter.notifyMatchFailure(op, "not a fill");
    rewriter.replaceOpWithNewOp<linalg::FillOp>(op, *value,
                                                op.getDpsInits()[0]);
    return success();
  }
};

/// A float conversion (extf, truncf) of a filled tensor is the fill of the
/// converted scalar: how widening a 16-bit accumulator leaves a fill it
/// cannot reach directly (one behind a reshape, which folding then
/// removes).
struct FillThroughConversion : public OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
        op.getNumLoops() != op.getNumParallelLoops() ||
        !op.hasPureTensorSemantics() ||
        !llvm::all_of(op.getIndexingMapsArray(),
                      [](AffineMap map) { return map.isIdentity(); }))
      return rewriter.notifyMatchFailure(op, "not an identity map");
    OpOperand *input = op.getDpsInputOperand(0);
    auto fill = input->get().getDefiningOp<linalg::FillOp>();
    Block *body = op.getBlock();
    if (!fill || body->getOperations().size() != 2)
      return rewriter.notifyMatchFailure(op, "not a conversion of a fill");
    Operation *conversion = &body->front();
    if (!isa<arith::ExtFOp, arith::TruncFOp>(conversion) ||
        conversion->getOperand(0) != op.getMatchingBlockArgument(input) ||
        body->getTerminator()->getOperand(0) != conversion->getResult(0))
      return rewriter.notifyMatchFailure(op, "not a conversion of a fill");
    IRMapping mapping;
    mapping.map(conversion->getOperand(0), fill.getInputs()[0]);
    Value scalar = rewriter.clone(*conversion, mapping)->getResult(0);
    rewriter.replaceOpWithNewOp<linalg::FillOp>(op, scalar,
                                                op.getDpsInits()[0]);
    return success();
  }
};
} // namespace

void mlir::smap::populateSpecializeFillsPatterns(RewritePatternSet &patterns) {
  patterns.add<FillFromGeneric, FillThroughConversion>(patterns.getContext());
}

namespace {
struct SpecializeFillsPass
    : public smap::impl::SMapSpecializeFillsPassBase<SpecializeFillsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    smap::populateSpecializeFillsPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
