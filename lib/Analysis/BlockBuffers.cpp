//===- BlockBuffers.cpp - The buffers of a shared-memory block ------------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Analysis/BlockBuffers.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

bool mlir::smap::isElementwise(Operation *op) {
  auto linalgOp = dyn_cast_or_null<linalg::LinalgOp>(op);
  return linalgOp && linalgOp.getNumReductionLoops() == 0 &&
         linalgOp.getNumDpsInits() == 1 &&
         llvm::all_of(linalgOp.getIndexingMapsArray(), [](AffineMap map) {
           return map.isProjectedPermutation();
         });
}

bool mlir::smap::isBufferView(Operation *op) {
  return isa<tensor::ExtractSliceOp, tensor::ExpandShapeOp>(op);
}

/// Whether nothing reads `value` after `op`: every other user, or the op of
/// `op`'s block that holds it, comes before `op`, and so does every user of
/// a view a user made of it (a reshape or slice aliases its buffer).
static bool isLastReader(Operation *op, Value value) {
  return llvm::all_of(value.getUsers(), [&](Operation *user) {
    if (user == op)
      return true;
    Operation *inBlock = op->getBlock()->findAncestorOpInBlock(*user);
    if (!inBlock || inBlock == op || !inBlock->isBeforeInBlock(op))
      return false;
    if (isa<linalg::LinalgOp>(user))
      return true;
    return llvm::all_of(user->getResults(),
                        [&](Value view) { return isLastReader(op, view); });
  });
}

/// Whether `value` is a buffer its block computed: the result of a linalg
/// op other than a fill, or of a loop (the state a temporal loop carried,
/// in its own buffer).
static bool isComputedBuffer(Value value) {
  Operation *producer = value.getDefiningOp();
  return isa_and_nonnull<scf::ForOp>(producer) ||
         (isa_and_nonnull<linalg::LinalgOp>(producer) &&
          !isa<linalg::FillOp>(producer));
}

OpOperand *mlir::smap::getInPlaceInput(linalg::LinalgOp op) {
  if (!isElementwise(op) || op->getNumResults() != 1)
    return nullptr;
  OpOperand *init = op.getDpsInitOperand(0);
  if (!init->get().getDefiningOp<tensor::EmptyOp>() ||
      op.payloadUsesValueFromOperand(init))
    return nullptr;
  for (OpOperand *input : op.getDpsInputOperands()) {
    Value v = input->get();
    if (isComputedBuffer(v) && isLastReader(op, v) &&
        v.getType() == op->getResult(0).getType() &&
        op.getMatchingIndexingMap(input).isIdentity())
      return input;
  }
  return nullptr;
}

OpOperand *mlir::smap::getInPlaceInit(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1 || op->getNumResults() != 1)
    return nullptr;
  OpOperand *init = op.getDpsInitOperand(0);
  if (!isComputedBuffer(init->get()) || !isLastReader(op, init->get()))
    return nullptr;
  return init;
}
