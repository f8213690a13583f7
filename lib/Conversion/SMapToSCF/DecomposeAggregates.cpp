//===- DecomposeAggregates.cpp - Decompose aggregated linalg ops ----------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "../PassDetail.h"

#include "spacefusion/Analysis/Remarks.h"

#include "mlir/IR/Builders.h"

namespace mlir {
namespace smap {
#define GEN_PASS_DEF_SMAPDECOMPOSEAGGREGATESPASS
#include "spacefusion/Conversion/Passes.h.inc"
} // namespace smap
} // namespace mlir

using namespace mlir;

namespace {
struct DecomposeAggregatesPass
    : public smap::impl::SMapDecomposeAggregatesPassBase<
          DecomposeAggregatesPass> {
  void runOnOperation() override {
    SmallVector<linalg::AggregatedOpInterface> ops;
    getOperation()->walk(
        [&](linalg::AggregatedOpInterface op) { ops.push_back(op); });
    for (linalg::AggregatedOpInterface op : ops) {
      OpBuilder builder(op);
      // The ops it becomes name it in their diagnostics.
      op->setLoc(smap::getOriginLoc(op));
      FailureOr<SmallVector<Value>> results = op.decomposeOperation(builder);
      if (failed(results)) {
        op->emitOpError("could not be decomposed");
        return signalPassFailure();
      }
      op->replaceAllUsesWith(*results);
      op->erase();
    }
  }
};
} // namespace
