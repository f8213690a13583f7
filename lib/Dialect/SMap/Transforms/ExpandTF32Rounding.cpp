//===- ExpandTF32Rounding.cpp - TF32 roundings as integer arithmetic ------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// LLVM has no TF32 type, so a TF32 rounding that no tensor core consumed (a
// contraction on CUDA cores, or on the CPU) is computed on its f32 bits.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Analysis/TF32.h"
#include "spacefusion/Dialect/SMap/Transforms/Passes.h"

namespace mlir {
namespace smap {
#define GEN_PASS_DEF_SMAPEXPANDTF32ROUNDINGPASS
#include "spacefusion/Dialect/SMap/Transforms/Passes.h.inc"
} // namespace smap
} // namespace mlir

using namespace mlir;

/// Replaces each use of `trunc` (an extension back) with the rounding in
/// integer arithmetic; fails, naming the user, on any other use.
static LogicalResult expand(arith::TruncFOp trunc) {
  for (Operation *user : llvm::make_early_inc_range(trunc->getUsers())) {
    Value extended = isa<arith::ExtFOp>(user) ? user->getResult(0) : Value();
    if (!extended || !smap::getTF32RoundedSource(extended))
      return trunc.emitError("smap-expand-tf32-rounding: a TF32 value is "
                             "supported only as a float rounded to nearest "
                             "(ties away, to_nearest_away) and extended back "
                             "to its type (arith.truncf then arith.extf); "
                             "this one is used by '")
             << user->getName() << "'";
    OpBuilder b(user);
    extended.replaceAllUsesWith(
        smap::buildTF32Rounding(b, user->getLoc(), trunc.getIn()));
    user->erase();
  }
  trunc->erase();
  return success();
}

namespace {
struct ExpandTF32RoundingPass
    : public smap::impl::SMapExpandTF32RoundingPassBase<
          ExpandTF32RoundingPass> {
  void runOnOperation() override {
    SmallVector<arith::TruncFOp> truncs;
    getOperation()->walk([&](arith::TruncFOp trunc) {
      if (trunc.getType().isTF32())
        truncs.push_back(trunc);
    });
    for (arith::TruncFOp trunc : truncs)
      if (failed(expand(trunc)))
        return signalPassFailure();
  }
};
} // namespace
