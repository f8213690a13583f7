//===- DumpGraph.cpp - Print the SMG of every smap.graph ------------------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Analysis/SpaceMappingGraph.h"
#include "spacefusion/Dialect/SMap/Transforms/GraphUtils.h"
#include "spacefusion/Dialect/SMap/Transforms/Passes.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir {
namespace smap {
#define GEN_PASS_DEF_SMAPDUMPGRAPH
#include "spacefusion/Dialect/SMap/Transforms/Passes.h.inc"
} // namespace smap
} // namespace mlir

using namespace mlir;
using namespace mlir::smap;

namespace {
struct DumpGraphPass : public smap::impl::SMapDumpGraphBase<DumpGraphPass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

void DumpGraphPass::runOnOperation() {
  if (format != "text" && format != "dot") {
    getOperation()->emitError("smap-dump-graph: unknown format '")
        << format << "' (expected 'text' or 'dot')";
    return signalPassFailure();
  }
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> file =
      openOutputFile(output, &error);
  if (!file) {
    getOperation()->emitError("smap-dump-graph: ") << error;
    return signalPassFailure();
  }
  llvm::raw_ostream &os = file->os();

  bool failedAny = false;
  unsigned index = 0;
  getOperation()->walk([&](GraphOp graph) {
    const SpaceMappingGraph *smg = getSMG(graph, getAnalysisManager());
    if (!smg) {
      failedAny = true;
      return;
    }
    std::string where = "graph " + std::to_string(index++);
    if (auto fn = graph->getParentOfType<FunctionOpInterface>())
      where += " in @" + fn.getName().str();
    if (format == "dot") {
      os << "// " << where << "\n";
      smg->printDot(os);
    } else {
      os << "=== SMG " << where << " ===\n";
      smg->printText(os);
    }
  });
  file->keep();
  if (failedAny)
    return signalPassFailure();
  // Privatized inits aside (which drop the SMGs they change), nothing is
  // rewritten.
  markAnalysesPreserved<SpaceMappingGraphAnalysis>();
}
