//===- SetTarget.cpp - Attach a built-in target to smap.graph ops ---------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Analysis/Remarks.h"
#include "spacefusion/Analysis/Targets.h"
#include "spacefusion/Dialect/SMap/Transforms/Passes.h"

#include "llvm/ADT/StringExtras.h"

namespace mlir {
namespace smap {
#define GEN_PASS_DEF_SMAPSETTARGETPASS
#include "spacefusion/Dialect/SMap/Transforms/Passes.h.inc"
} // namespace smap
} // namespace mlir

using namespace mlir;
using namespace mlir::smap;

namespace {
struct SetTargetPass : public smap::impl::SMapSetTargetPassBase<SetTargetPass> {
  using Base::Base;

  void runOnOperation() override {
    TargetAttr builtin = getBuiltinTarget(&getContext(), target);
    if (!builtin) {
      getOperation()->emitError("smap-set-target: unknown target '")
          << target << "' (known: "
          << llvm::join(getBuiltinTargetNames(), ", ") << ")";
      return signalPassFailure();
    }
    getOperation()->walk([&](GraphOp graph) {
      if (TargetAttr given = graph.getTargetAttr()) {
        if (given != builtin)
          remark::analysis(graph.getLoc(),
                           remarkOpts("set-target", "kept", graph))
              << ("graph keeps its own target '" + given.getName().str() +
                  "' instead of '" + target + "'");
        return;
      }
      graph.setTargetAttr(builtin);
    });
  }
};
} // namespace
