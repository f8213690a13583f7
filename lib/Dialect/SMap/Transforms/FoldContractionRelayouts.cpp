//===- FoldContractionRelayouts.cpp - Relayouts into contraction maps -----===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// torch-mlir writes a linear layer on 3-D input as a collapse of the
// activations to 2-D, a transpose of the weight as a copy generic, a 2-D
// matmul and an expand of its result. The dependency structure is that of
// one contraction, but the SMG sees dims merged by reshapes (which the
// slicers cannot cut) and a transpose every block would recompute. These
// patterns fold the relayouts into the contraction's indexing maps, with
// upstream's reshape propagation by expansion and elementwise fusion,
// restricted to contractions: the contraction then iterates the 3-D
// activations directly and reads the weight transposed.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Analysis/TensorCoreLegality.h"
#include "spacefusion/Dialect/SMap/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace smap {
#define GEN_PASS_DEF_SMAPFOLDCONTRACTIONRELAYOUTSPASS
#include "spacefusion/Dialect/SMap/Transforms/Passes.h.inc"
} // namespace smap
} // namespace mlir

using namespace mlir;

/// Whether `op` is a contraction on tensors (TensorCoreLegality.h's rule).
static bool isTensorContraction(Operation *op) {
  auto linalgOp = dyn_cast_or_null<linalg::LinalgOp>(op);
  return linalgOp && linalgOp.hasPureTensorSemantics() &&
         smap::isContraction(linalgOp);
}

/// Whether `op` only transposes its one input: a parallel generic with the
/// identity output map and another permutation as input map, whose body
/// yields the input (possibly extended; an extension alone is
/// smap-fuse-conversions' to fold).
static bool isPermutationCopy(Operation *op) {
  auto generic = dyn_cast_or_null<linalg::GenericOp>(op);
  if (!generic || generic.getNumDpsInputs() != 1 ||
      generic.getNumDpsInits() != 1 ||
      generic.getNumLoops() != generic.getNumParallelLoops() ||
      !generic.getMatchingIndexingMap(generic.getDpsInitOperand(0))
           .isIdentity() ||
      !generic.getMatchingIndexingMap(generic.getDpsInputOperand(0))
           .isPermutation() ||
      generic.getMatchingIndexingMap(generic.getDpsInputOperand(0))
          .isIdentity())
    return false;
  Block *body = generic.getBlock();
  Value yielded = body->getTerminator()->getOperand(0);
  if (auto ext = yielded.getDefiningOp<arith::ExtFOp>())
    yielded = ext.getIn();
  return yielded == body->getArgument(0) &&
         body->getOperations().size() <= 2;
}

static bool isReshape(Operation *op) {
  return isa_and_nonnull<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(op);
}

/// Whether `op` is a generic with projected-permutation maps: an
/// elementwise op, or a reduction along some of its dims (a softmax's row
/// max and sum between attention's two contractions).
static bool isProjectedGeneric(Operation *op) {
  auto generic = dyn_cast_or_null<linalg::GenericOp>(op);
  return generic &&
         llvm::all_of(generic.getIndexingMapsArray(), [](AffineMap map) {
           return map.isProjectedPermutation();
         });
}

/// Whether `v` is a contraction's result, possibly reshaped, mapped
/// elementwise (its epilogue) or reduced (a softmax of its scores): the
/// reshapes on that chain fold with it.
static bool fromContraction(Value v) {
  Operation *def = v.getDefiningOp();
  if (isTensorContraction(def))
    return true;
  if (isReshape(def))
    return fromContraction(def->getOperand(0));
  if (isProjectedGeneric(def))
    return llvm::any_of(cast<linalg::GenericOp>(def).getDpsInputs(),
                        fromContraction);
  return false;
}

/// Whether `op` is a permutation copy read by a contraction (K^T before
/// Q.K^T): a collapse feeding it expands with it, and the copy then folds
/// into the contraction's map.
static bool feedsContraction(Operation *op) {
  return isPermutationCopy(op) &&
         llvm::any_of(op->getUsers(), isTensorContraction);
}

namespace {
/// Generalizes a named contraction next to a relayout this pass folds, so
/// that the upstream patterns (which rewrite generics) apply.
struct GeneralizeContractionNextToRelayout
    : public OpInterfaceRewritePattern<linalg::LinalgOp> {
  GeneralizeContractionNextToRelayout(MLIRContext *ctx,
                                      ArrayRef<std::string> excludedOps)
      : OpInterfaceRewritePattern(ctx), excludedOps(excludedOps) {}

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (isa<linalg::GenericOp>(op.getOperation()) || !isTensorContraction(op) ||
        llvm::is_contained(excludedOps, op->getName().getStringRef()))
      return failure();
    bool nextToRelayout =
        llvm::any_of(op.getDpsInputs(),
                     [](Value input) {
                       Operation *def = input.getDefiningOp();
                       return isReshape(def) || isPermutationCopy(def);
                     }) ||
        llvm::any_of(op->getUsers(), isReshape);
    if (!nextToRelayout)
      return failure();
    return linalg::generalizeNamedOp(rewriter, op);
  }

  SmallVector<std::string> excludedOps;
};

/// Fuses a permutation copy into the contraction that reads it (upstream's
/// elementwise fusion of that one operand: the copy's map composes into the
/// contraction's).
struct FusePermutationCopyIntoContraction
    : public OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!isTensorContraction(op))
      return failure();
    for (OpOperand *input : op.getDpsInputOperands()) {
      if (!isPermutationCopy(input->get().getDefiningOp()) ||
          !linalg::areElementwiseOpsFusable(input))
        continue;
      FailureOr<linalg::ElementwiseOpFusionResult> fused =
          linalg::fuseElementwiseOps(rewriter, input);
      if (failed(fused))
        continue;
      Operation *producer = input->get().getDefiningOp();
      for (auto [old, replacement] : fused->replacements)
        rewriter.replaceUsesWithIf(old, replacement, [&](OpOperand &use) {
          return use.getOwner() != producer;
        });
      rewriter.eraseOp(op);
      return success();
    }
    return failure();
  }
};
} // namespace

void mlir::smap::populateFoldContractionRelayoutsPatterns(
    RewritePatternSet &patterns, ArrayRef<std::string> excludedOps) {
  patterns.add<GeneralizeContractionNextToRelayout>(patterns.getContext(),
                                                    excludedOps);
  // A collapse feeding a contraction, or an expand of its result, becomes
  // part of the contraction's iteration space.
  // So does an elementwise epilogue or a reduction between them (a
  // softmax between two contractions); the reshapes left
  // around inits and between inverse reshapes then fold away.
  linalg::populateFoldReshapeOpsByExpansionPatterns(
      patterns, [](OpOperand *fused) {
        Operation *user = fused->getOwner();
        Operation *producer = fused->get().getDefiningOp();
        if (isReshape(user))
          return isTensorContraction(producer) ||
                 (isPermutationCopy(producer) &&
                  llvm::any_of(user->getUsers(), isTensorContraction)) ||
                 (isProjectedGeneric(producer) &&
                  fromContraction(fused->get()));
        if (!isReshape(producer))
          return false;
        return isTensorContraction(user) || feedsContraction(user) ||
               (isProjectedGeneric(user) && fromContraction(fused->get()));
      });
  MLIRContext *ctx = patterns.getContext();
  linalg::FillOp::getCanonicalizationPatterns(patterns, ctx);
  tensor::populateFoldTensorEmptyPatterns(patterns);
  tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, ctx);
  tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, ctx);
  // A transposed copy feeding a contraction becomes its indexing map. A
  // copy fused while its expanded twin still had a use leaves its result
  // as a dead extra output of the contraction, erased here.
  patterns.add<FusePermutationCopyIntoContraction>(patterns.getContext());
  linalg::populateEraseUnusedOperandsAndResultsPatterns(patterns);
}

namespace {
struct FoldContractionRelayoutsPass
    : public smap::impl::SMapFoldContractionRelayoutsPassBase<
          FoldContractionRelayoutsPass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    smap::populateFoldContractionRelayoutsPatterns(patterns, excludeOps);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
