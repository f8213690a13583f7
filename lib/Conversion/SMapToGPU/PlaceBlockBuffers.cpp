//===- PlaceBlockBuffers.cpp - The buffers of shared-memory blocks --------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// Decides, before bufferization, which intermediates of a shared-memory
// block (strategies simt and mma_sync) share a buffer, by the rule the cost
// model priced (BlockBuffers.h): an elementwise op takes over the buffer of
// an input that nothing else reads, every other intermediate has a buffer of
// its own. Bufferization then places exactly the predicted bytes, instead
// of sharing the empty tensors cse merged in an order of its own.
//
//===----------------------------------------------------------------------===//

#include "../PassDetail.h"
#include "spacefusion/Analysis/BlockBuffers.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/Builders.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace smap {
#define GEN_PASS_DEF_SMAPPLACEBLOCKBUFFERSPASS
#include "spacefusion/Conversion/Passes.h.inc"
} // namespace smap
} // namespace mlir

using namespace mlir;
using namespace mlir::smap;

/// Drops the operands of `forall`'s linalg ops that their payload does not
/// read (a factor the temporal slicer applies after the loop leaves an
/// input behind that would be a buffer of its own).
static void eraseUnusedOperands(scf::ForallOp forall) {
  RewritePatternSet patterns(forall.getContext());
  linalg::populateEraseUnusedOperandsAndResultsPatterns(patterns);
  // Only these patterns: folding would move constants out of the kernel.
  GreedyRewriteConfig config;
  config.enableFolding(false)
      .enableConstantCSE(false)
      .setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
  (void)applyPatternsGreedily(forall.getRegion(), std::move(patterns), config);
}

/// Gives every user of an empty tensor of `forall`'s body but the first one
/// of its own, right before it.
static void privatizeEmpties(scf::ForallOp forall) {
  SmallVector<tensor::EmptyOp> shared;
  forall.getBody()->walk([&](tensor::EmptyOp empty) {
    if (!empty->hasOneUse() && !empty->use_empty())
      shared.push_back(empty);
  });
  for (tensor::EmptyOp empty : shared) {
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : empty->getUses())
      uses.push_back(&use);
    for (OpOperand *use : ArrayRef(uses).drop_front()) {
      OpBuilder b(use->getOwner());
      use->set(b.clone(*empty)->getResult(0));
    }
  }
}

/// Makes each elementwise op of `forall`'s body that takes over an input's
/// buffer made in its own block (getInPlaceInput) write into that input.
static void writeInPlace(scf::ForallOp forall) {
  SmallVector<Operation *> unused;
  forall.getBody()->walk([&](linalg::LinalgOp op) {
    OpOperand *input = getInPlaceInput(op);
    if (!input || input->get().getParentBlock() != op->getBlock())
      return;
    OpOperand *init = op.getDpsInitOperand(0);
    Operation *empty = init->get().getDefiningOp();
    init->set(input->get());
    if (empty->use_empty())
      unused.push_back(empty);
  });
  for (Operation *empty : unused)
    empty->erase();
}

namespace {
struct PlaceBlockBuffersPass
    : public smap::impl::SMapPlaceBlockBuffersPassBase<PlaceBlockBuffersPass> {
  void runOnOperation() override {
    auto helper =
        getContext().getOrLoadDialect<SMapDialect>()->getScheduleAttrHelper();
    getOperation()->walk([&](scf::ForallOp forall) {
      ScheduleAttr schedule = helper.getAttr(forall);
      if (!schedule || (schedule.getStrategy() != KernelStrategy::Simt &&
                        schedule.getStrategy() != KernelStrategy::MmaSync))
        return;
      eraseUnusedOperands(forall);
      privatizeEmpties(forall);
      writeInPlace(forall);
    });
  }
};
} // namespace
