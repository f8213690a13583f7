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
#define GEN_PASS_DEF_SMAPDUMPGRAPHPASS
#include "spacefusion/Dialect/SMap/Transforms/Passes.h.inc"
} // namespace smap
} // namespace mlir

using namespace mlir;
using namespace mlir::smap;

namespace {
/// Writes the graphs of one dump, numbered in the order written: a sliced
/// graph before the per-block graphs its spatial slices hold.
class GraphWriter {
public:
  GraphWriter(llvm::raw_ostream &os, AnalysisManager am, bool dot,
              bool hideOneToOneData)
      : os(os), am(am), dot(dot), hideOneToOneData(hideOneToOneData) {}

  /// Writes `graph`, a per-block graph of graph `parent` if given.
  void write(GraphOp graph, std::optional<unsigned> parent = std::nullopt);
  bool hasFailed() const { return failed; }

private:
  llvm::raw_ostream &os;
  AnalysisManager am;
  bool dot;
  bool hideOneToOneData;
  unsigned nextIndex = 0;
  bool failed = false;
};
} // namespace

void GraphWriter::write(GraphOp graph, std::optional<unsigned> parent) {
  unsigned index = nextIndex++;
  std::string title = "graph " + std::to_string(index);
  if (auto fn = graph->getParentOfType<FunctionOpInterface>())
    title += " in @" + fn.getName().str();
  if (parent)
    title += ", a block of graph " + std::to_string(*parent);
  std::string prefix = "g" + std::to_string(index);
  auto writeNested = [&](GraphOp nested) { write(nested, index); };

  if (!dot)
    os << "=== SMG " << title << " ===\n";
  if (isSliced(graph)) {
    if (dot)
      SpaceMappingGraph::printSlicedDot(graph, os, prefix, title, writeNested);
    else
      SpaceMappingGraph::printSlicedText(graph, os, writeNested);
    return;
  }
  const SpaceMappingGraph *smg = getSMG(graph, am);
  if (!smg) {
    failed = true;
    return;
  }
  if (dot)
    smg->printDot(os, prefix, title, hideOneToOneData);
  else
    smg->printText(os);
}

namespace {
struct DumpGraphPass : public smap::impl::SMapDumpGraphPassBase<DumpGraphPass> {
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
  std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(output, &error);
  if (!file) {
    getOperation()->emitError("smap-dump-graph: ") << error;
    return signalPassFailure();
  }
  llvm::raw_ostream &os = file->os();

  // One document for all graphs: `dot` reads only the first of several.
  bool dot = format == "dot";
  if (dot)
    os << "digraph smg {\n  compound=true;\n  rankdir=TB;\n"
          "  graph [fontname=\"monospace\"];\n"
          "  node [fontname=\"monospace\"];\n"
          "  edge [fontname=\"monospace\"];\n";
  GraphWriter writer(os, getAnalysisManager(), dot, hideOneToOneData);
  // Nested graphs are written by the sliced graph that holds them.
  getOperation()->walk<WalkOrder::PreOrder>([&](GraphOp graph) {
    writer.write(graph);
    return WalkResult::skip();
  });
  if (dot)
    os << "}\n";
  file->keep();
  if (writer.hasFailed())
    return signalPassFailure();
  // Privatized inits aside (which drop the SMGs they change), nothing is
  // rewritten.
  markAnalysesPreserved<SpaceMappingGraphAnalysis>();
}
