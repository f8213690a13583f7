//===- SpaceMappingGraphPrinter.cpp - Text and DOT dumps of the SMG -------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Analysis/MaskPredicate.h"
#include "spacefusion/Analysis/SpaceMappingGraph.h"
#include "spacefusion/Analysis/TemporalSlicePlan.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlir::smap;

//===----------------------------------------------------------------------===//
// Shared by both formats
//===----------------------------------------------------------------------===//

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

  /// The global dims of `value`, collapsed groups flattened.
  SmallVector<unsigned> dimIds(Value value) const {
    SmallVector<unsigned> flat;
    for (auto &ids : smg.getValueDims(value))
      llvm::append_range(flat, ids);
    return flat;
  }

  std::string dims(Value value) const {
    return "[" + smg.formatDims(dimIds(value)) + "]";
  }

private:
  const SpaceMappingGraph &smg;
};

/// A dim as the dumps list it, read from an SMG or, for a sliced graph,
/// from what smap-analyze recorded on it.
struct DimInfo {
  std::string name;
  int64_t extent = 0;
  DimClass dimClass = DimClass::Unclassified;
  std::string reason;
  /// Further lines about the dim (a temporal dim's update functions).
  SmallVector<std::string> details;
};
} // namespace

/// One row of the text dump's dim list.
static void printDimLine(llvm::raw_ostream &os, const DimInfo &dim) {
  // A sliced graph records no reason for some classes: no trailing blanks.
  std::string line =
      llvm::formatv("  {0,-4} {1,7}  {2,-18} {3}", dim.name, dim.extent,
                    stringifyDimClass(dim.dimClass), dim.reason);
  os << StringRef(line).rtrim() << "\n";
}

/// Formats a dim name for a dump: as is in text, colored in DOT.
using DimFormatter = llvm::function_ref<std::string(StringRef)>;

/// The schedule in words: "spatial [m = 64], temporal [l = 64], grid [8],
/// threads 128, smem 49152, regs 96", then what is set of the strategy,
/// stages and rows per block, and the target.
static std::string formatSchedule(ScheduleAttr schedule, TargetAttr target,
                                  DimFormatter formatDim) {
  auto formatSizes = [&](ArrayRef<SliceSize> sizes) {
    std::string out;
    for (auto [i, size] : llvm::enumerate(sizes))
      out += (i ? ", " : "") + formatDim(size.dim.getValue()) + " = " +
             std::to_string(size.size);
    return "[" + out + "]";
  };
  std::string grid;
  for (auto [i, blocks] : llvm::enumerate(schedule.getGrid()))
    grid += (i ? ", " : "") + std::to_string(blocks);
  std::string out = llvm::formatv(
      "spatial {0}, temporal {1}, grid [{2}], threads {3}, smem {4}, regs {5}",
      formatSizes(schedule.getSpatial()), formatSizes(schedule.getTemporal()),
      grid, schedule.getThreads(), schedule.getSmemBytes(),
      schedule.getRegsPerThread());
  if (schedule.getStrategy() != KernelStrategy::None)
    out +=
        ", strategy " + stringifyKernelStrategy(schedule.getStrategy()).str();
  if (schedule.getStages())
    out += ", stages " + std::to_string(schedule.getStages());
  if (schedule.getRowsPerBlock())
    out += ", rows_per_block " + std::to_string(schedule.getRowsPerBlock());
  if (target)
    out += ", target " + target.getName().str();
  return out;
}

/// The dims a sliced graph records (its `dims` attribute), each with the
/// reason smap-analyze left for its class.
static SmallVector<DimInfo> getRecordedDims(GraphOp graph) {
  auto lookup = [&](StringRef attrName, StringRef dim) -> Attribute {
    auto dict = graph->getAttrOfType<DictionaryAttr>(attrName);
    return dict ? dict.get(dim) : Attribute();
  };
  SmallVector<DimInfo> infos;
  if (!graph.getDimsAttr())
    return infos;
  for (auto dim : graph.getDimsAttr().getAsRange<DimAttr>()) {
    DimInfo info{
        dim.getName().str(), dim.getExtent(), dim.getDimClass(), "", {}};
    if (auto chain = dyn_cast_or_null<StringAttr>(
            lookup(SMapDialect::ChainsAttrHelper::getNameStr(), info.name)))
      info.reason = chain.str();
    if (auto why = dyn_cast_or_null<StringAttr>(lookup(
            SMapDialect::NotSliceableAttrHelper::getNameStr(), info.name)))
      info.reason = why.str();
    if (auto ops = dyn_cast_or_null<ArrayAttr>(lookup(
            SMapDialect::RecomputeAttrHelper::getNameStr(), info.name))) {
      info.reason = "every block recomputes";
      for (auto [i, op] : llvm::enumerate(ops.getAsRange<StringAttr>()))
        info.reason += (i ? ", " : " ") + op.str();
    }
    infos.push_back(std::move(info));
  }
  return infos;
}

/// "spatial_slice b = 1, m = 64 (grid 2 x 8)".
static std::string describeSlice(SpatialSliceOp slice, DimFormatter formatDim) {
  std::string sizes, grid;
  for (auto [i, pair] : llvm::enumerate(llvm::zip(
           slice.getDims().getAsRange<DimAttr>(), slice.getTiles()))) {
    auto [dim, tile] = pair;
    sizes += (i ? ", " : "") + formatDim(dim.getName().getValue()) + " = " +
             std::to_string(tile);
    grid += (i ? " x " : "") +
            std::to_string(llvm::divideCeil(dim.getExtent(), tile));
  }
  return "spatial_slice " + sizes + " (grid " + grid + ")";
}

/// "temporal_slice l = 64 (8 slices), 3 running values", and whether a mask
/// bounds the loop.
static std::string describeSlice(TemporalSliceOp slice,
                                 DimFormatter formatDim) {
  DimAttr dim = slice.getDim();
  int64_t step = slice.getSliceSize();
  std::string out = llvm::formatv(
      "temporal_slice {0} = {1} ({2} slices), {3} running values",
      formatDim(dim.getName().getValue()), step,
      llvm::divideCeil(dim.getExtent(), step), slice.getInits().size());
  if (slice.getLower())
    out += ", from the first slice a mask leaves visible";
  if (slice.getUpper())
    out += ", up to the last slice a mask leaves visible";
  return out;
}

//===----------------------------------------------------------------------===//
// Text
//===----------------------------------------------------------------------===//

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
    out += (i ? ", " : "") + llvm::formatv("a2o({0}, {1})",
                                           smg.getDims()[r.first].name,
                                           stringifyCombiner(r.second))
                                 .str();
  return out;
}

void SpaceMappingGraph::printText(llvm::raw_ostream &os) const {
  DataNames names(*this);
  os << "dims:\n";
  for (const GlobalDim &dim : dims) {
    printDimLine(os, {dim.name, dim.extent, dim.dimClass, dim.reason, {}});
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
      os << "    -> " << names.get(result) << " " << names.dims(result) << ": "
         << formatReductions(*this, space) << "\n";
  }
  os << "outputs:";
  for (Value output : graph.getYield().getValues())
    os << " " << names.get(output);
  os << "\nmappings: " << countBroadcasts() << " o2a, " << countReductions()
     << " a2o\n";
}

void SpaceMappingGraph::printSlicedText(
    GraphOp graph, llvm::raw_ostream &os,
    llvm::function_ref<void(GraphOp)> printNested) {
  auto plain = [](StringRef name) { return name.str(); };
  os << "dims:\n";
  for (const DimInfo &dim : getRecordedDims(graph))
    printDimLine(os, dim);
  if (ScheduleAttr schedule = graph.getScheduleAttr())
    os << "schedule: " << formatSchedule(schedule, graph.getTargetAttr(), plain)
       << "\n";
  os << "sliced (the SMG describes the graph before slicing):\n";
  for (Operation &op : graph.getBody().front()) {
    if (auto slice = dyn_cast<TemporalSliceOp>(op))
      os << "  " << describeSlice(slice, plain) << "\n";
    auto slice = dyn_cast<SpatialSliceOp>(op);
    if (!slice)
      continue;
    os << "  " << describeSlice(slice, plain) << "\n";
    slice.getBody().walk<WalkOrder::PreOrder>([&](GraphOp nested) {
      printNested(nested);
      return WalkResult::skip();
    });
  }
}

//===----------------------------------------------------------------------===//
// DOT
//===----------------------------------------------------------------------===//

/// The color each dim class is drawn in: the Okabe-Ito palette, whose
/// colors color-blind readers tell apart.
static StringRef getClassColor(DimClass dimClass) {
  switch (dimClass) {
  case DimClass::Parallel:
    return "#009E73";
  case DimClass::ParallelRecompute:
    return "#E69F00";
  case DimClass::Temporal:
    return "#0072B2";
  case DimClass::NotSliceable:
    return "#D55E00";
  case DimClass::Unclassified:
    return "#999999";
  }
  llvm_unreachable("unknown dim class");
}

/// `text` escaped for a Graphviz HTML-like label (reasons hold "->"). A ']'
/// is escaped too: Graphviz (2.43) misplaces or rejects one before a tag.
static std::string escapeHtml(StringRef text) {
  std::string out;
  for (char c : text) {
    switch (c) {
    case ']':
      out += "&#93;";
      break;
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    default:
      out += c;
    }
  }
  return out;
}

/// `text` as a quoted Graphviz ID.
static std::string quote(const llvm::Twine &text) {
  std::string out = "\"";
  for (char c : text.str()) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out + "\"";
}

/// `text` in `color`, for an HTML-like label.
static std::string inColor(StringRef color, StringRef text) {
  return llvm::formatv("<font color=\"{0}\">{1}</font>", color,
                       escapeHtml(text));
}

/// Where `op` was written, "file:line:col", or "" when its location names
/// no file; `fileNameOnly` drops the file's directory.
static std::string formatLocation(Operation *op, bool fileNameOnly) {
  auto loc = op->getLoc()->findInstanceOf<FileLineColRange>();
  if (!loc)
    return "";
  StringRef file = loc.getFilename().getValue();
  if (fileNameOnly)
    file = llvm::sys::path::filename(file);
  return llvm::formatv("{0}:{1}:{2}", file, loc.getStartLine(),
                       loc.getStartColumn());
}

/// The `label` and `tooltip` attributes of a node for `op`: `label` (HTML)
/// then the op's location, short in the label and whole in the tooltip.
static std::string formatOpLabel(Operation *op, StringRef label) {
  std::string shortLoc = formatLocation(op, /*fileNameOnly=*/true);
  std::string tooltip = op->getName().getStringRef().str();
  if (shortLoc.empty())
    return llvm::formatv("label=<{0}>, tooltip={1}", label, quote(tooltip));
  return llvm::formatv(
      "label=<{0}<br/><font point-size=\"10\">{1}</font>>, tooltip={2}", label,
      escapeHtml(shortLoc),
      quote(tooltip + " at " + formatLocation(op, /*fileNameOnly=*/false)));
}

/// The legend node `<prefix>.legend` of a graph: a table of its dims
/// (extent, class in its color, reason), then one row per note (HTML).
static void printLegendNode(llvm::raw_ostream &os, StringRef prefix,
                            ArrayRef<DimInfo> dims,
                            ArrayRef<std::string> notes) {
  os << "  " << quote(prefix + ".legend")
     << " [shape=plain, label=<<table border=\"0\" cellborder=\"1\" "
        "cellspacing=\"0\" cellpadding=\"3\">\n"
        "    <tr><td><b>dim</b></td><td><b>extent</b></td>"
        "<td><b>class</b></td><td><b>reason</b></td></tr>\n";
  for (const DimInfo &dim : dims) {
    StringRef color = getClassColor(dim.dimClass);
    std::string reason = escapeHtml(dim.reason);
    // Each line of a cell is aligned by the break that ends it.
    for (const std::string &detail : dim.details)
      reason += "<br align=\"left\"/>" + escapeHtml(detail);
    if (!dim.details.empty())
      reason += "<br align=\"left\"/>";
    os << llvm::formatv("    <tr><td>{0}</td><td align=\"right\">{1}</td>"
                        "<td>{2}</td><td align=\"left\">{3}</td></tr>\n",
                        inColor(color, dim.name), dim.extent,
                        inColor(color, stringifyDimClass(dim.dimClass)),
                        reason);
  }
  for (const std::string &note : notes)
    os << "    <tr><td colspan=\"4\" align=\"left\">" << note << "</td></tr>\n";
  os << "  </table>>];\n";
}

/// A dim name in the color of its class in `dims` (gray if not there).
static std::string colorByName(ArrayRef<DimInfo> dims, StringRef name) {
  const auto *it =
      llvm::find_if(dims, [&](const DimInfo &dim) { return dim.name == name; });
  return inColor(
      getClassColor(it == dims.end() ? DimClass::Unclassified : it->dimClass),
      name);
}

/// The schedule row of a legend; none when the graph is not scheduled.
static std::optional<std::string> getScheduleNote(GraphOp graph,
                                                  ArrayRef<DimInfo> dims) {
  ScheduleAttr schedule = graph.getScheduleAttr();
  if (!schedule)
    return std::nullopt;
  std::string note =
      "schedule: " +
      formatSchedule(schedule, graph.getTargetAttr(),
                     [&](StringRef name) { return colorByName(dims, name); });
  // Its tags hold no ']', which Graphviz misreads (see escapeHtml).
  std::string escaped;
  for (char c : note) {
    if (c == ']')
      escaped += "&#93;";
    else
      escaped += c;
  }
  return escaped;
}

namespace {
/// Draws one SMG as a Graphviz cluster.
class DotPrinter {
public:
  DotPrinter(const SpaceMappingGraph &smg, llvm::raw_ostream &os,
             StringRef prefix, bool hideOneToOneData)
      : smg(smg), names(smg), os(os), prefix(prefix) {
    for (auto [i, output] :
         llvm::enumerate(smg.getGraph().getYield().getValues()))
      outputs.try_emplace(output, i);
    if (hideOneToOneData)
      for (const Space &space : smg.getSpaces())
        for (Value result : space.op->getResults())
          if (isOneToOneIntermediate(space, result))
            hidden.insert(result);
  }

  void print(StringRef title);

private:
  std::string node(StringRef name) const { return quote(prefix + "." + name); }
  std::string formatDim(unsigned d) const {
    const GlobalDim &dim = smg.getDims()[d];
    return inColor(getClassColor(dim.dimClass), dim.name);
  }
  std::string formatDimList(ArrayRef<unsigned> dimIds) const;
  bool isOneToOneIntermediate(const Space &producer, Value value) const;
  SmallVector<DimInfo> getDimInfos() const;
  SmallVector<std::string> getMaskNotes() const;
  void printLegend() const;
  void printData(Value value) const;
  void printSpace(const Space &space) const;
  void printInputEdge(const Space &space, const SpaceEdge &edge) const;
  void printMappingEdge(StringRef source, StringRef target,
                        ArrayRef<unsigned> dimIds,
                        ArrayRef<std::string> labels) const;

  const SpaceMappingGraph &smg;
  DataNames names;
  llvm::raw_ostream &os;
  StringRef prefix;
  /// The graph's outputs and their positions in the yield.
  llvm::DenseMap<Value, unsigned> outputs;
  /// The tensors left out (hide-o2o-data).
  llvm::DenseSet<Value> hidden;
};
} // namespace

std::string DotPrinter::formatDimList(ArrayRef<unsigned> dimIds) const {
  std::string out;
  for (auto [i, d] : llvm::enumerate(dimIds))
    out += (i ? ", " : "") + formatDim(d);
  return "[" + out + "&#93;";
}

/// Whether `value`, a result of `producer`, can be left out and its producer
/// connected to its readers directly: no graph output, produced one-to-one
/// (its space reduces along nothing) and read only by members, one-to-one
/// (a use the edges do not show, such as an init, would be lost).
bool DotPrinter::isOneToOneIntermediate(const Space &producer,
                                        Value value) const {
  if (producer.role == MemberRole::Init || outputs.contains(value) ||
      !producer.reductions.empty())
    return false;
  size_t reads = 0;
  for (const SpaceEdge &edge : smg.getEdges()) {
    if (edge.source != value)
      continue;
    if (!edge.broadcastDims.empty())
      return false;
    ++reads;
  }
  return reads && reads == static_cast<size_t>(std::distance(value.use_begin(),
                                                             value.use_end()));
}

SmallVector<DimInfo> DotPrinter::getDimInfos() const {
  SmallVector<DimInfo> infos;
  for (const GlobalDim &dim : smg.getDims()) {
    DimInfo info{dim.name, dim.extent, dim.dimClass, dim.reason, {}};
    if (!dim.updates.empty()) {
      std::string updates = "updates:";
      for (auto [i, update] : llvm::enumerate(dim.updates))
        updates += (i ? ", " : " ") + smg.nameOf(update.first) + " " +
                   stringifyReductionUpdate(update.second).str();
      info.details.push_back(updates);
    }
    infos.push_back(std::move(info));
  }
  return infos;
}

/// What the temporal slicer would make of the graph's masks (members that
/// make scores -inf by an index predicate, as causal attention does), per
/// temporal dim: the slices it skips and those it leaves the test out of.
/// Nothing records these on the graph; they are found again here as the
/// slicer finds them.
SmallVector<std::string> DotPrinter::getMaskNotes() const {
  SmallVector<std::string> notes;
  for (auto [d, dim] : llvm::enumerate(smg.getDims())) {
    // A dim without updates has no plan (it is reduced by an aggregated op).
    if (dim.dimClass != DimClass::Temporal || dim.updates.empty())
      continue;
    std::string whyNot;
    FailureOr<TemporalSlicePlan> plan = planTemporalSlice(smg, d, whyNot);
    if (failed(plan))
      continue;
    std::string along = "mask along " + formatDim(d) + ": ";
    if (std::optional<SkippedSlices> skipped =
            findSkippedSlices(smg, *plan, whyNot))
      notes.push_back(along + "skips the slices it hides: " +
                      escapeHtml(skipped->describe));
    else if (!whyNot.empty())
      notes.push_back(along + "skips nothing: " + escapeHtml(whyNot));
    for (const UnmaskedSlices &unmasked : findUnmaskedSlices(smg, *plan))
      notes.push_back(along + escapeHtml(unmasked.describe));
  }
  return notes;
}

void DotPrinter::printLegend() const {
  SmallVector<DimInfo> dims = getDimInfos();
  SmallVector<std::string> notes;
  for (const DimWindow &window : smg.getWindows())
    notes.push_back("window: " + formatDim(window.slice) + " indexes " +
                    (window.source == DimWindow::kNoDim
                         ? std::string("an input")
                         : formatDim(window.source)) +
                    " from offset " + std::to_string(window.offset));
  if (std::optional<std::string> schedule =
          getScheduleNote(smg.getGraph(), dims))
    notes.push_back(*schedule);
  llvm::append_range(notes, getMaskNotes());
  notes.push_back(llvm::formatv("mappings: {0} o2a, {1} a2o",
                                smg.countBroadcasts(), smg.countReductions()));
  printLegendNode(os, prefix, dims, notes);
}

/// A tensor: a graph input or a member's result; outputs get a double
/// border.
void DotPrinter::printData(Value value) const {
  std::string name = names.get(value);
  os << "  " << node(name) << " [shape=ellipse, label=<" << escapeHtml(name)
     << "<br/>" << formatDimList(names.dimIds(value)) << ">";
  auto output = outputs.find(value);
  if (output != outputs.end())
    os << ", peripheries=2, tooltip="
       << quote("graph output #" + std::to_string(output->second));
  os << "];\n";
}

void DotPrinter::printSpace(const Space &space) const {
  std::string label =
      llvm::formatv("<b>{0}</b><br/>{1}<br/>{2}", escapeHtml(space.name),
                    formatDimList(space.dims),
                    escapeHtml(space.op->getName().getStringRef()));
  os << llvm::formatv("  {0} [shape=box, style={1}, {2}];\n", node(space.name),
                      space.role == MemberRole::Relayout ? "dashed" : "solid",
                      formatOpLabel(space.op, label));
}

/// An edge labelled with mappings along `dimIds` (`labels`, one per dim),
/// drawn as one line per mapping in its dim's class color; without any, a
/// gray one-to-one edge.
void DotPrinter::printMappingEdge(StringRef source, StringRef target,
                                  ArrayRef<unsigned> dimIds,
                                  ArrayRef<std::string> labels) const {
  os << "  " << node(source) << " -> " << node(target);
  if (dimIds.empty()) {
    os << " [label=\"o2o\", color=\"gray40\", fontcolor=\"gray40\"];\n";
    return;
  }
  std::string colors;
  for (auto [i, d] : llvm::enumerate(dimIds))
    colors += (i ? ":" : "") + getClassColor(smg.getDims()[d].dimClass).str();
  os << " [label=<" << llvm::join(labels, ", ") << ">, color=\"" << colors
     << "\"];\n";
}

void DotPrinter::printInputEdge(const Space &space,
                                const SpaceEdge &edge) const {
  std::string source = names.get(edge.source);
  if (source.empty())
    return;
  // A hidden tensor's producer feeds the reader directly; the edge keeps the
  // tensor's name.
  if (hidden.contains(edge.source)) {
    os << llvm::formatv(
        "  {0} -> {1} [label={2}, color=\"gray40\", fontcolor=\"gray40\", "
        "tooltip={3}];\n",
        node(smg.nameOf(edge.producer)), node(space.name), quote(source),
        quote(source + " " + names.dims(edge.source) + ": o2o"));
    return;
  }
  SmallVector<std::string> labels;
  for (unsigned d : edge.broadcastDims)
    labels.push_back("o2a(" + formatDim(d) + ")");
  printMappingEdge(source, space.name, edge.broadcastDims, labels);
}

void DotPrinter::print(StringRef title) {
  os << "  subgraph " << quote("cluster_" + prefix) << " {\n"
     << "  label=" << quote(title) << ";\n";
  printLegend();
  for (BlockArgument arg : smg.getGraph().getBody().getArguments())
    printData(arg);
  for (const Space &space : smg.getSpaces()) {
    if (space.role == MemberRole::Init)
      continue;
    printSpace(space);
    for (unsigned e : space.inputEdges)
      printInputEdge(space, smg.getEdges()[e]);
    SmallVector<unsigned> reduced;
    SmallVector<std::string> labels;
    for (auto [d, combiner] : space.reductions) {
      reduced.push_back(d);
      labels.push_back("a2o(" + formatDim(d) + ", " +
                       stringifyCombiner(combiner).str() + ")");
    }
    for (Value result : space.op->getResults()) {
      if (hidden.contains(result))
        continue;
      printData(result);
      printMappingEdge(space.name, names.get(result), reduced, labels);
    }
  }
  os << "  }\n";
}

void SpaceMappingGraph::printDot(llvm::raw_ostream &os, StringRef prefix,
                                 StringRef title, bool hideOneToOneData) const {
  DotPrinter(*this, os, prefix, hideOneToOneData).print(title);
}

/// A temporal slice of a sliced graph, as one node.
static void printSliceNode(llvm::raw_ostream &os, StringRef name,
                           TemporalSliceOp slice, DimFormatter formatDim) {
  os << "  " << quote(name) << " [shape=box, style=\"rounded,bold\", color=\""
     << getClassColor(slice.getDim().getDimClass()) << "\", "
     << formatOpLabel(slice, describeSlice(slice, formatDim)) << "];\n";
}

/// A spatial slice of a sliced graph, as a cluster holding the graphs of its
/// block.
static void printSliceCluster(llvm::raw_ostream &os, StringRef name,
                              SpatialSliceOp slice, DimFormatter formatDim,
                              llvm::function_ref<void(GraphOp)> printNested) {
  os << "  subgraph " << quote("cluster_" + name) << " {\n"
     << "  style=dashed;\n"
     << "  label=<" << describeSlice(slice, formatDim) << ">;\n";
  slice.getBody().walk<WalkOrder::PreOrder>([&](GraphOp nested) {
    printNested(nested);
    return WalkResult::skip();
  });
  os << "  }\n";
}

void SpaceMappingGraph::printSlicedDot(
    GraphOp graph, llvm::raw_ostream &os, StringRef prefix, StringRef title,
    llvm::function_ref<void(GraphOp)> printNested) {
  SmallVector<DimInfo> dims = getRecordedDims(graph);
  auto formatDim = [&](StringRef name) { return colorByName(dims, name); };
  os << "  subgraph " << quote("cluster_" + prefix) << " {\n"
     << "  label=" << quote(title) << ";\n";
  SmallVector<std::string> notes;
  if (std::optional<std::string> schedule = getScheduleNote(graph, dims))
    notes.push_back(*schedule);
  notes.push_back("sliced: the SMG describes the graph before slicing");
  printLegendNode(os, prefix, dims, notes);

  unsigned index = 0;
  for (Operation &op : graph.getBody().front()) {
    if (!isa<SpatialSliceOp, TemporalSliceOp>(op))
      continue;
    std::string name =
        (prefix + "." + getShortOpName(&op) + llvm::Twine(index++)).str();
    if (auto slice = dyn_cast<TemporalSliceOp>(op))
      printSliceNode(os, name, slice, formatDim);
    else
      printSliceCluster(os, name, cast<SpatialSliceOp>(op), formatDim,
                        printNested);
  }
  os << "  }\n";
}
