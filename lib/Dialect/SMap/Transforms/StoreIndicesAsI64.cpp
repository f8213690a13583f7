//===- StoreIndicesAsI64.cpp - Index intermediates as i64 tensors ---------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// A tensor of `index` has no storage size of its own (the target decides
// it), so the SMG describes no such tensor and the GPU has no loop kernel
// for it: a function computing one (an iota of linalg.index read by a float
// op) failed on the GPU. Between generics, the same values stored as i64
// (index's width on every target here) are plain integers.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Dialect/SMap/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir {
namespace smap {
#define GEN_PASS_DEF_SMAPSTOREINDICESASI64PASS
#include "spacefusion/Dialect/SMap/Transforms/Passes.h.inc"
} // namespace smap
} // namespace mlir

using namespace mlir;

/// Whether result `r` of `op` is an index tensor the pass rewrites: static,
/// its init's values unread, read only as inputs of linalg.generic ops.
static bool isRewritableIndexTensor(linalg::GenericOp op, OpResult r) {
  auto type = dyn_cast<RankedTensorType>(r.getType());
  if (!type || !type.getElementType().isIndex() || !type.hasStaticShape())
    return false;
  if (op.payloadUsesValueFromOperand(op.getDpsInitOperand(r.getResultNumber())))
    return false;
  return llvm::all_of(r.getUses(), [](OpOperand &use) {
    auto reader = dyn_cast<linalg::GenericOp>(use.getOwner());
    return reader && reader.isDpsInput(&use);
  });
}

/// Block argument `arg` (index) becomes i64, cast back to index for its
/// uses.
static void castArgumentToIndex(BlockArgument arg, Type i64) {
  arg.setType(i64);
  OpBuilder b = OpBuilder::atBlockBegin(arg.getOwner());
  auto cast =
      arith::IndexCastOp::create(b, arg.getLoc(), b.getIndexType(), arg);
  arg.replaceAllUsesExcept(cast.getResult(), cast);
}

/// `op`'s result `r` as an i64 tensor, and its readers' arguments cast.
static void storeAsI64(linalg::GenericOp op, OpResult r) {
  auto type = cast<RankedTensorType>(r.getType());
  Type i64 = IntegerType::get(op.getContext(), 64);
  OpBuilder b(op);
  OpOperand *init = op.getDpsInitOperand(r.getResultNumber());
  init->set(tensor::EmptyOp::create(b, op.getLoc(), type.getShape(), i64));
  op.getMatchingBlockArgument(init).setType(i64);
  Operation *yield = op.getBlock()->getTerminator();
  OpOperand &yielded = yield->getOpOperand(r.getResultNumber());
  b.setInsertionPoint(yield);
  yielded.set(arith::IndexCastOp::create(b, op.getLoc(), i64, yielded.get()));
  r.setType(type.clone(i64));
  for (OpOperand &use : r.getUses()) {
    auto reader = cast<linalg::GenericOp>(use.getOwner());
    castArgumentToIndex(reader.getMatchingBlockArgument(&use), i64);
  }
}

namespace {
struct StoreIndicesAsI64Pass
    : public smap::impl::SMapStoreIndicesAsI64PassBase<StoreIndicesAsI64Pass> {
  void runOnOperation() override {
    getOperation()->walk([](linalg::GenericOp op) {
      if (!op.hasPureTensorSemantics())
        return;
      for (OpResult r : op->getResults())
        if (isRewritableIndexTensor(op, r))
          storeAsI64(op, r);
    });
  }
};
} // namespace
