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
#define GEN_PASS_DEF_SMAPANALYZEPASS
#include "spacefusion/Dialect/SMap/Transforms/Passes.h.inc"
} // namespace smap
} // namespace mlir

using namespace mlir;
using namespace mlir::smap;

namespace {
struct AnalyzePass : public smap::impl::SMapAnalyzePassBase<AnalyzePass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

void AnalyzePass::runOnOperation() {
  bool failedAny = false;
  getOperation()->walk([&](GraphOp graph) {
    // The SMG reads smap.no_uta, so the manager's SMG, and every later
    // build, honors the option; one built before it was set is dropped.
    auto noUta =
        graph->getContext()->getOrLoadDialect<SMapDialect>()->getNoUtaAttrHelper();
    if (!allowUpdateThenAggregate && !noUta.isAttrPresent(graph)) {
      noUta.setAttr(graph, UnitAttr::get(graph->getContext()));
      forgetSMG(graph, getAnalysisManager());
    }
    const SpaceMappingGraph *smg = getSMG(graph, getAnalysisManager());
    if (!smg) {
      failedAny = true;
      return;
    }
    annotateGraph(*smg, /*explain=*/true);
  });
  if (failedAny)
    return signalPassFailure();
  // Annotating writes what the SMG says; it changes no member.
  markAnalysesPreserved<SpaceMappingGraphAnalysis>();
}
