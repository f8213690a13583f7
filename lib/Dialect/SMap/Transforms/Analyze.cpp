//===- Analyze.cpp - Annotate smap.graph ops with their SMG ---------------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Analysis/SpaceMappingGraph.h"
#include "spacefusion/Dialect/SMap/Transforms/GraphUtils.h"
#include "spacefusion/Dialect/SMap/Transforms/Passes.h"


namespace mlir {
namespace smap {
#define GEN_PASS_DEF_SMAPANALYZE
#include "spacefusion/Dialect/SMap/Transforms/Passes.h.inc"
} // namespace smap
} // namespace mlir

using namespace mlir;
using namespace mlir::smap;

namespace {
struct AnalyzePass : public smap::impl::SMapAnalyzeBase<AnalyzePass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

void AnalyzePass::runOnOperation() {
  bool failedAny = false;
  getOperation()->walk([&](GraphOp graph) {
    SMGOptions options;
    options.allowUpdateThenAggregate = allowUpdateThenAggregate;
    if (!allowUpdateThenAggregate)
      graph->getContext()
          ->getOrLoadDialect<SMapDialect>()
          ->getNoUtaAttrHelper()
          .setAttr(graph, UnitAttr::get(graph->getContext()));
    FailureOr<SpaceMappingGraph> smg = buildSMG(graph, options);
    if (failed(smg)) {
      failedAny = true;
      return;
    }
    annotateGraph(*smg, /*explain=*/true);
  });
  if (failedAny)
    signalPassFailure();
}
