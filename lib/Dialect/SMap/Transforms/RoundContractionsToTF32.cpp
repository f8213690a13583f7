//===- RoundContractionsToTF32.cpp - f32 contractions read as TF32 --------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// An f32 contraction runs on CUDA cores: tensor cores multiply f32 only as
// TF32, which changes the result, so only the user may ask for it (as
// PyTorch's allow_tf32 does). Asked, this pass writes the rounding into the
// contraction's body, where every later stage sees it: the tensor-core
// legality reads the operands as TF32, and any other path computes the same
// rounded products (smap-expand-tf32-rounding).
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Analysis/Remarks.h"
#include "spacefusion/Analysis/TF32.h"
#include "spacefusion/Analysis/TensorCoreLegality.h"
#include "spacefusion/Dialect/SMap/Transforms/Passes.h"

namespace mlir {
namespace smap {
#define GEN_PASS_DEF_SMAPROUNDCONTRACTIONSTOTF32PASS
#include "spacefusion/Dialect/SMap/Transforms/Passes.h.inc"
} // namespace smap
} // namespace mlir

using namespace mlir;

/// Whether `v` is a 16-bit float tensor extended to f32 by a generic of
/// its own (a frontend's separate conversion): a contraction reading it is
/// a 16-bit one, which the tensor cores take as such.
static bool isExtendedHalf(Value v) {
  auto producer = v.getDefiningOp<linalg::GenericOp>();
  if (!producer || producer.getNumDpsInputs() != 1 ||
      producer.getNumResults() != 1)
    return false;
  Type source = getElementTypeOrSelf(producer.getDpsInputs()[0].getType());
  auto ext = producer.getBlock()
                 ->getTerminator()
                 ->getOperand(0)
                 .getDefiningOp<arith::ExtFOp>();
  return (source.isF16() || source.isBF16()) && ext &&
         ext.getIn() == producer.getBlock()->getArgument(0);
}

/// Whether `op` is an f32 contraction of two f32 inputs whose body is
/// `acc + x * y` on the inputs themselves, neither of them a 16-bit tensor
/// extended (isExtendedHalf).
static bool isF32Contraction(linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() || !smap::isContraction(op) ||
      !smap::isMultiplyAccumulate(op))
    return false;
  auto isF32 = [](Value v) {
    return getElementTypeOrSelf(v.getType()).isF32() && !isExtendedHalf(v);
  };
  return llvm::all_of(op.getDpsInputs(), isF32) &&
         getElementTypeOrSelf(op.getDpsInits()[0].getType()).isF32() &&
         llvm::all_of(smap::getAccumulatedProduct(op)->getOperands(),
                      [&](Value v) {
                        return llvm::is_contained(
                            op.getBlock()->getArguments().take_front(2), v);
                      });
}

/// Rounds both factors of `op`'s product to TF32 in its body, and says so
/// at the op.
static void roundFactors(linalg::GenericOp op) {
  arith::MulFOp mul = smap::getAccumulatedProduct(op);
  OpBuilder b(mul);
  for (OpOperand &factor : mul->getOpOperands())
    factor.set(smap::createTF32RoundingOps(b, mul.getLoc(), factor.get()));
  remark::passed(op.getLoc(), smap::remarkOpts("round-contractions-to-tf32",
                                               "tf32", op.getOperation()))
      << "f32 contraction: its factors are rounded to TF32 (tf32=true; to "
         "nearest, ties away), which tensor cores multiply";
}

namespace {
struct RoundContractionsToTF32Pass
    : public smap::impl::SMapRoundContractionsToTF32PassBase<
          RoundContractionsToTF32Pass> {
  void runOnOperation() override {
    getOperation()->walk([](linalg::GenericOp op) {
      if (isF32Contraction(op))
        roundFactors(op);
    });
  }
};
} // namespace
