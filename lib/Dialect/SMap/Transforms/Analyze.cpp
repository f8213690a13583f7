//===- Analyze.cpp - Annotate smap.graph ops with their SMG ---------------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Analysis/Remarks.h"
#include "spacefusion/Analysis/SpaceMappingGraph.h"
#include "spacefusion/Dialect/SMap/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

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

/// Writes the SMG onto the graph and its members, and explains each dim.
static void annotate(const SpaceMappingGraph &smg) {
  GraphOp graph = smg.getGraph();
  MLIRContext *ctx = graph.getContext();
  Builder b(ctx);
  graph.setDimsAttr(smg.getDimsAttr(ctx));
  for (const Space &space : smg.getSpaces())
    if (space.role != MemberRole::Init)
      space.op->setAttr("smap.space", smg.getSpaceAttr(space));

  SmallVector<NamedAttribute> chains, recompute, reasons;
  for (const GlobalDim &dim : smg.getDims()) {
    StringAttr name = b.getStringAttr(dim.name);
    switch (dim.dimClass) {
    case DimClass::Temporal:
      chains.push_back(b.getNamedAttr(name, b.getStringAttr(dim.reason)));
      break;
    case DimClass::ParallelRecompute: {
      SmallVector<Attribute> names;
      for (Operation *op : dim.recompute)
        names.push_back(b.getStringAttr(smg.lookupSpace(op)->name));
      recompute.push_back(b.getNamedAttr(name, b.getArrayAttr(names)));
      break;
    }
    case DimClass::NotSliceable:
      reasons.push_back(b.getNamedAttr(name, b.getStringAttr(dim.reason)));
      break;
    default:
      break;
    }
    remark::analysis(graph.getLoc(), remarkOpts("analyze", "dim-class"))
        << ("dim '" + dim.name + "' (" + std::to_string(dim.extent) + ") is " +
            stringifyDimClass(dim.dimClass).str() + ": " + dim.reason);
  }
  auto setOrRemove = [&](StringRef attrName, ArrayRef<NamedAttribute> attrs) {
    if (attrs.empty())
      graph->removeAttr(attrName);
    else
      graph->setAttr(attrName, b.getDictionaryAttr(attrs));
  };
  setOrRemove("smap.chains", chains);
  setOrRemove("smap.recompute", recompute);
  setOrRemove("smap.not_sliceable", reasons);
}

void AnalyzePass::runOnOperation() {
  bool failedAny = false;
  getOperation()->walk([&](GraphOp graph) {
    SMGOptions options;
    options.allowUpdateThenAggregate = allowUpdateThenAggregate;
    FailureOr<SpaceMappingGraph> smg = SpaceMappingGraph::build(graph, options);
    if (failed(smg)) {
      failedAny = true;
      return;
    }
    annotate(*smg);
  });
  if (failedAny)
    signalPassFailure();
}
