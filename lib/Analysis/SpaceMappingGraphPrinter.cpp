//===- SpaceMappingGraphPrinter.cpp - Text and DOT dumps of the SMG -------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Analysis/SpaceMappingGraph.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::smap;

namespace {
/// Names the data spaces (tensors) of a graph: inputs are in0, in1, ...;
/// a member's result is named after its space.
class DataNames {
public:
  explicit DataNames(const SpaceMappingGraph &smg) : smg(smg) {}

  /// Returns the name, or an empty string for values the dumps skip
  /// (constants, fills).
  std::string get(Value value) const {
    if (auto arg = dyn_cast<BlockArgument>(value))
      return "in" + std::to_string(arg.getArgNumber());
    Operation *def = value.getDefiningOp();
    const Space *space = smg.lookupSpace(def);
    if (!space || space->role == MemberRole::Init)
      return "";
    if (def->getNumResults() == 1)
      return space->name + ".out";
    return space->name + ".out" +
           std::to_string(cast<OpResult>(value).getResultNumber());
  }

  std::string dims(Value value) const {
    SmallVector<unsigned> flat;
    for (auto &ids : smg.getValueDims(value))
      llvm::append_range(flat, ids);
    return "[" + smg.formatDims(flat) + "]";
  }

private:
  const SpaceMappingGraph &smg;
};
} // namespace

static std::string formatMappings(const SpaceMappingGraph &smg,
                                  ArrayRef<unsigned> broadcastDims) {
  if (broadcastDims.empty())
    return "o2o";
  std::string out;
  for (auto [i, d] : llvm::enumerate(broadcastDims))
    out += (i ? ", " : "") + ("o2a(" + smg.getDims()[d].name + ")");
  return out;
}

static std::string formatReductions(const SpaceMappingGraph &smg,
                                    const Space &space) {
  if (space.reductions.empty())
    return "o2o";
  std::string out;
  for (auto [i, r] : llvm::enumerate(space.reductions))
    out += (i ? ", " : "") +
           llvm::formatv("a2o({0}, {1})", smg.getDims()[r.first].name,
                         stringifyCombiner(r.second))
               .str();
  return out;
}

void SpaceMappingGraph::printText(llvm::raw_ostream &os) const {
  DataNames names(*this);
  os << "dims:\n";
  for (const GlobalDim &dim : dims) {
    os << llvm::formatv("  {0,-4} {1,7}  {2,-18} {3}\n", dim.name, dim.extent,
                        stringifyDimClass(dim.dimClass), dim.reason);
    if (dim.updates.empty())
      continue;
    os << "       updates:";
    for (auto [i, update] : llvm::enumerate(dim.updates))
      os << (i ? ", " : " ") << lookupSpace(update.first)->name << " "
         << stringifyReductionUpdate(update.second);
    os << "\n";
  }
  for (const DimWindow &window : windows)
    os << "  window: " << dims[window.slice].name << " indexes "
       << (window.source == DimWindow::kNoDim ? std::string("an input")
                                              : dims[window.source].name)
       << " from offset " << window.offset << "\n";
  os << "spaces:\n";
  for (const Space &space : spaces) {
    if (space.role == MemberRole::Init)
      continue;
    os << "  " << space.name << " [" << formatDims(space.dims) << "] "
       << space.op->getName()
       << (space.role == MemberRole::Relayout ? " (relayout)" : "") << "\n";
    for (unsigned e : space.inputEdges) {
      std::string source = names.get(edges[e].source);
      if (source.empty())
        continue;
      os << "    <- " << source << " " << names.dims(edges[e].source) << ": "
         << formatMappings(*this, edges[e].broadcastDims) << "\n";
    }
    for (Value result : space.op->getResults())
      os << "    -> " << names.get(result) << " " << names.dims(result)
         << ": " << formatReductions(*this, space) << "\n";
  }
  os << "outputs:";
  for (Value output : graph.getYield().getValues())
    os << " " << names.get(output);
  os << "\nmappings: " << countBroadcasts() << " o2a, " << countReductions()
     << " a2o\n";
}

void SpaceMappingGraph::printDot(llvm::raw_ostream &os) const {
  DataNames names(*this);
  os << "digraph smg {\n  rankdir=TB;\n  node [fontname=\"monospace\"];\n";
  for (BlockArgument arg : graph.getBody().getArguments())
    os << llvm::formatv("  \"{0}\" [shape=ellipse, label=\"{0}\\n{1}\"];\n",
                        names.get(arg), names.dims(arg));
  for (const Space &space : spaces) {
    if (space.role == MemberRole::Init)
      continue;
    os << llvm::formatv(
        "  \"{0}\" [shape=box, style={1}, label=\"{0}\\n[{2}]\\n{3}\"];\n",
        space.name,
        space.role == MemberRole::Relayout ? "dashed" : "solid",
        formatDims(space.dims), space.op->getName().getStringRef());
    for (unsigned e : space.inputEdges) {
      std::string source = names.get(edges[e].source);
      if (!source.empty())
        os << llvm::formatv("  \"{0}\" -> \"{1}\" [label=\"{2}\"];\n", source,
                            space.name,
                            formatMappings(*this, edges[e].broadcastDims));
    }
    for (Value result : space.op->getResults()) {
      os << llvm::formatv("  \"{0}\" [shape=ellipse, label=\"{0}\\n{1}\"];\n",
                          names.get(result), names.dims(result));
      os << llvm::formatv("  \"{0}\" -> \"{1}\" [label=\"{2}\"];\n",
                          space.name, names.get(result),
                          formatReductions(*this, space));
    }
  }
  os << llvm::formatv("  label=\"{0} o2a, {1} a2o\";\n}\n", countBroadcasts(),
                      countReductions());
}
