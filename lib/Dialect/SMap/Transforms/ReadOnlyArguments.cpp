//===- ReadOnlyArguments.cpp - Inputs bufferization may not overwrite -----===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// One-shot bufferization takes a public function's tensor arguments as
// writable, so an op whose init is an argument is computed in the caller's
// buffer. The caller's tensors are values: marking them read-only makes
// bufferization copy such an init first.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Dialect/SMap/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir {
namespace smap {
#define GEN_PASS_DEF_SMAPREADONLYARGUMENTSPASS
#include "spacefusion/Dialect/SMap/Transforms/Passes.h.inc"
} // namespace smap
} // namespace mlir

using namespace mlir;

namespace {
struct ReadOnlyArgumentsPass
    : public smap::impl::SMapReadOnlyArgumentsPassBase<ReadOnlyArgumentsPass> {
  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    if (!fn.isPublic() || fn.isExternal())
      return;
    StringRef writable = bufferization::BufferizationDialect::kWritableAttrName;
    auto readOnly = BoolAttr::get(&getContext(), false);
    for (BlockArgument arg : fn.getArguments())
      if (isa<TensorType>(arg.getType()) &&
          !fn.getArgAttr(arg.getArgNumber(), writable))
        fn.setArgAttr(arg.getArgNumber(), writable, readOnly);
  }
};
} // namespace
