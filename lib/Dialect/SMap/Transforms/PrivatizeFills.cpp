//===- PrivatizeFills.cpp - A fill of its own for each writer -------------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// `cse` merges the fill that starts a temporal loop's state with the fill
// that starts each slice's partial, inside the loop. One-shot bufferization
// then keeps the filled buffer and copies it on every iteration: one more
// buffer in a block's shared memory, and a copy per slice. A fill is
// cheaper to repeat than to copy, so each writer inside a loop gets a fill
// of its own there.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Dialect/SMap/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir {
namespace smap {
#define GEN_PASS_DEF_SMAPPRIVATIZEFILLSPASS
#include "spacefusion/Dialect/SMap/Transforms/Passes.h.inc"
} // namespace smap
} // namespace mlir

using namespace mlir;

/// Whether `use` writes the value it reads: the init of a destination-style
/// op, or the initial value of a loop's iteration argument.
static bool writesInto(OpOperand &use) {
  Operation *user = use.getOwner();
  if (auto dps = dyn_cast<DestinationStyleOpInterface>(user))
    return dps.isDpsInit(&use);
  if (auto loop = dyn_cast<LoopLikeOpInterface>(user))
    return llvm::is_contained(loop.getInitsMutable(), use);
  return false;
}

namespace {
/// A fill of a tensor.empty that several ops write, or ops inside a loop:
/// each of them but the first in the fill's block gets its own empty tensor
/// and fill, right before it.
struct PrivatizeSharedFill : public OpRewritePattern<linalg::FillOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::FillOp fill,
                                PatternRewriter &rewriter) const override {
    auto empty = fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>();
    if (!empty || !fill.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(fill, "not a fill of an empty tensor");
    // The writers inside a loop (or any region) below the fill's block: on
    // each iteration they would write the buffer other iterations read.
    // Then the loops that start from the fill get one of their own too,
    // where bufferization would have put its copy. Of the other writers in
    // the fill's block, all but the first get one too: empty-tensor
    // elimination puts a shared fill where one writer's result goes (a
    // block's output), and the others' results were then computed in that
    // output and copied out after it was overwritten (GPU fuzz seed 1934).
    SmallVector<OpOperand *> nested, loopInits, others;
    for (OpOperand &use : fill->getResult(0).getUses()) {
      if (!writesInto(use))
        continue;
      if (use.getOwner()->getBlock() != fill->getBlock())
        nested.push_back(&use);
      else if (isa<LoopLikeOpInterface>(use.getOwner()))
        loopInits.push_back(&use);
      else
        others.push_back(&use);
    }
    // The earliest writer keeps the fill (uses are not in program order).
    if (!others.empty())
      others.erase(llvm::min_element(others, [](OpOperand *a, OpOperand *b) {
        return a->getOwner()->isBeforeInBlock(b->getOwner());
      }));
    if (nested.empty() && others.empty())
      return rewriter.notifyMatchFailure(fill, "one writer, in its block");
    for (OpOperand *use :
         llvm::concat<OpOperand *>(nested, loopInits, others)) {
      Operation *user = use->getOwner();
      rewriter.setInsertionPoint(user);
      Operation *ownEmpty = rewriter.clone(*empty);
      IRMapping mapping;
      mapping.map(empty.getResult(), ownEmpty->getResult(0));
      Operation *ownFill = rewriter.clone(*fill, mapping);
      rewriter.modifyOpInPlace(user, [&] { use->set(ownFill->getResult(0)); });
    }
    if (fill->use_empty())
      rewriter.eraseOp(fill);
    return success();
  }
};

struct PrivatizeFillsPass
    : public smap::impl::SMapPrivatizeFillsPassBase<PrivatizeFillsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    smap::populatePrivatizeFillsPatterns(patterns);
    // One walk: a rewritten fill, and each new one, has no writer below it.
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};
} // namespace

void mlir::smap::populatePrivatizeFillsPatterns(RewritePatternSet &patterns) {
  patterns.add<PrivatizeSharedFill>(patterns.getContext());
}
