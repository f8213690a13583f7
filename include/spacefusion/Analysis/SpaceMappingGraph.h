//===- SpaceMappingGraph.h - The Space-Mapping Graph ------------*- C++ -*-===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// The Space-Mapping Graph (SMG) of one fusion group: the group's global dims
// (aligned across member ops by union-find over one-to-one mappings, through
// relayouts), each member's iteration space, each edge's mapping kind per
// dim, and the slicing class of every dim. Every pass that reasons about a
// fusion group builds one of these; nothing re-derives it.
//
//===----------------------------------------------------------------------===//

#ifndef SPACEFUSION_ANALYSIS_SPACEMAPPINGGRAPH_H
#define SPACEFUSION_ANALYSIS_SPACEMAPPINGGRAPH_H

#include "spacefusion/Analysis/TemporalSlicePlan.h"
#include "spacefusion/Dialect/SMap/IR/SMap.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace mlir {
namespace smap {

/// What a member op contributes to the graph.
enum class MemberRole {
  /// A structured computation with its own iteration space (linalg).
  Compute,
  /// Initializes a destination (linalg.fill, tensor.empty, constants).
  Init,
  /// Moves data without computing (transpose, reshapes, static slices).
  Relayout,
};

/// A global dim of the graph.
struct GlobalDim {
  std::string name;
  int64_t extent = 0;
  DimClass dimClass = DimClass::Unclassified;
  /// Why the dim got its class, in words (remarks and dumps print this).
  std::string reason;
  /// The member the class is about, where its remark is reported: the op
  /// that blocks slicing, else the first op that reduces along the dim, or
  /// the op that reads an intermediate broadcast along it. Null for a dim
  /// no member reduces or broadcasts along.
  Operation *subject = nullptr;
  /// For `parallel_recompute`: the member ops every block recomputes.
  SmallVector<Operation *> recompute;
  /// For reduction dims: the member ops that reduce along the dim, in
  /// program order, with their combiners.
  SmallVector<std::pair<Operation *, Combiner>> reductions;
  /// True when a reduction along the dim consumes the result of an earlier
  /// one broadcast back along it (a dependent chain that needs UTA).
  bool dependentChain = false;
  /// True when a graph output is indexed by the dim and depends on a
  /// reduction along it: a temporally sliced schedule writes it in a final
  /// pass, once the reductions are complete.
  bool needsFinalPass = false;
  /// For `temporal` dims: the update function of each reduction the
  /// temporal slicer's plan computes in its loop, in program order (empty
  /// for a dim reduced by an aggregated op, planned once decomposed).
  SmallVector<std::pair<Operation *, ReductionUpdate>, 2> updates;
};

/// One use of a tensor by a member op, with its mappings per global dim.
struct SpaceEdge {
  /// The tensor read; a graph input or another member's result.
  Value source;
  /// The producing member, or null for a graph input.
  Operation *producer = nullptr;
  /// The consuming member and its input operand number.
  Operation *consumer = nullptr;
  unsigned operandNumber = 0;
  /// Global dims of the consumer's space that the source lacks (one-to-all).
  SmallVector<unsigned> broadcastDims;
};

/// The iteration space of one member op.
struct Space {
  Operation *op = nullptr;
  MemberRole role = MemberRole::Compute;
  /// A readable name for the space, e.g. "QK" is not recoverable from
  /// linalg, so spaces are named after the op and its position: "matmul0".
  std::string name;
  /// Global dims of the iteration space, one per loop (flattened through
  /// reshapes), in loop order.
  SmallVector<unsigned> dims;
  /// Global dims the op reduces along, with the combiner.
  SmallVector<std::pair<unsigned, Combiner>> reductions;
  /// Indices into SpaceMappingGraph::edges of this op's inputs.
  SmallVector<unsigned> inputEdges;
};

/// A static tensor.extract_slice window: `slice` indexes part of `source`.
struct DimWindow {
  /// kNoDim when the windowed dimension is no global dim (no member
  /// iterates over all of it, e.g. a graph input read only through windows).
  static constexpr unsigned kNoDim = ~0u;
  unsigned source;
  unsigned slice;
  int64_t offset;
};

/// What the classification may assume.
struct SMGOptions {
  /// Whether dependent-reduction chains may be temporally sliced with
  /// Update-then-Aggregate; when false their dims are not sliceable.
  bool allowUpdateThenAggregate = true;
};

/// The Space-Mapping Graph of one smap.graph.
class SpaceMappingGraph {
public:
  /// Builds and classifies the SMG of `graph`. Fails (with a diagnostic on
  /// the op) only when the body holds an op the SMG cannot describe.
  static FailureOr<SpaceMappingGraph> build(GraphOp graph,
                                            const SMGOptions &options = {});

  GraphOp getGraph() const { return graph; }
  ArrayRef<GlobalDim> getDims() const { return dims; }
  ArrayRef<Space> getSpaces() const { return spaces; }
  ArrayRef<SpaceEdge> getEdges() const { return edges; }
  ArrayRef<DimWindow> getWindows() const { return windows; }

  /// The global dims of each dimension of `value` (a graph input, a member
  /// result); empty if the value is not a ranked tensor of the graph. A
  /// dimension collapsed from several dims lists all of them.
  SmallVector<SmallVector<unsigned>> getValueDims(Value value) const;

  /// The space of `op`, or null if `op` is not a compute or relayout member.
  const Space *lookupSpace(Operation *op) const;

  /// Whether one dimension of `value` is global dim `dim` (alone or in a
  /// collapsed group).
  bool isIndexedBy(Value value, unsigned dim) const;

  /// The global dim loop `loop` of member `op` iterates over, read from an
  /// operand or result it indexes alone (none for a unit loop, or a loop
  /// only collapsed groups index).
  std::optional<unsigned> getLoopDim(Operation *op, unsigned loop) const;

  /// The name remarks give `op`: its space's, or the op's short name.
  std::string nameOf(Operation *op) const;

  /// Total number of one-to-all and all-to-one mappings over compute spaces.
  unsigned countBroadcasts() const;
  unsigned countReductions() const;

  /// The graph's `dims` attribute value.
  ArrayAttr getDimsAttr(MLIRContext *ctx) const;
  /// The `#smap.space` of a member op.
  SpaceAttr getSpaceAttr(const Space &space) const;

  /// Human-readable SMG: dims and classes, spaces, mappings, totals.
  void printText(llvm::raw_ostream &os) const;
  /// The SMG as a Graphviz cluster, `subgraph "cluster_<prefix>"` labelled
  /// `title`, for a `digraph` that may hold several graphs (smap-dump-graph
  /// writes one holding them all): data spaces (tensors) and iteration
  /// spaces as nodes, each with its dims in the color of their class, a
  /// space with its op's source location, graph outputs with a double
  /// border; mappings as labelled edges in the color of the class of the
  /// dim they map along; a legend node with every dim (extent, class,
  /// reason), the schedule, what the temporal slicer makes of masks, and
  /// the mapping totals. Node names start with `prefix` and a dot. With
  /// `hideOneToOneData`, a tensor produced and read one-to-one only (no
  /// output) is left out, its producer connected to its readers.
  void printDot(llvm::raw_ostream &os, llvm::StringRef prefix,
                llvm::StringRef title, bool hideOneToOneData = false) const;

  /// The dumps of a graph the SMG cannot describe because it is already
  /// sliced (its body holds smap.spatial_slice or smap.temporal_slice): what
  /// the graph records (dims with their classes and reasons, schedule) and
  /// its slices. `printNested` prints each graph a spatial slice holds (a
  /// block's graph) where it belongs: after the slice's line in the text,
  /// inside the slice's cluster in DOT.
  static void printSlicedText(GraphOp graph, llvm::raw_ostream &os,
                              llvm::function_ref<void(GraphOp)> printNested);
  static void printSlicedDot(GraphOp graph, llvm::raw_ostream &os,
                             llvm::StringRef prefix, llvm::StringRef title,
                             llvm::function_ref<void(GraphOp)> printNested);

  /// A short name of `dims` for messages: "b, h, m".
  std::string formatDims(ArrayRef<unsigned> dimIds) const;

private:
  explicit SpaceMappingGraph(GraphOp graph) : graph(graph) {}
  friend class SMGBuilder;

  // Op handles are value types whose accessors are not const.
  mutable GraphOp graph;
  SmallVector<GlobalDim, 4> dims;
  SmallVector<Space> spaces;
  SmallVector<SpaceEdge> edges;
  SmallVector<DimWindow> windows;
  llvm::DenseMap<Operation *, unsigned> spaceIndex;
  /// Each ranked-tensor value's dims, as lists of global dim ids.
  llvm::DenseMap<Value, SmallVector<SmallVector<unsigned>>> valueDims;
};

/// The SMG of one smap.graph as an MLIR analysis, so that passes share one
/// SMG per graph through the analysis manager
/// (`getChildAnalysis<SpaceMappingGraphAnalysis>(graph)`) instead of
/// rebuilding it: built on first request, kept while the passes in between
/// preserve it. The graph's inits must be private (privatizeInits) before it
/// is requested; GraphUtils' getSMG does both.
class SpaceMappingGraphAnalysis {
public:
  explicit SpaceMappingGraphAnalysis(Operation *op);
  /// The SMG, or null when the graph holds an op the SMG cannot describe
  /// (a diagnostic on the op said so when it was built).
  const SpaceMappingGraph *get() const { return smg ? &*smg : nullptr; }
  /// Whether `graph`'s body is still the one the SMG was built from (the
  /// same ops reading the same values): a pass that preserved the analysis
  /// by mistake is caught here instead of using a stale SMG.
  bool describes(GraphOp graph) const;

private:
  std::optional<SpaceMappingGraph> smg;
  llvm::hash_code bodyHash;
};

/// Whether `op` can be a member of a Space-Mapping Graph and in which role.
/// On failure, `whyNot` says why in words a remark can carry ("windowed
/// indexing map (convolution or pooling)", "dynamic shape", ...). Ops of
/// other dialects (func, scf, ...) fail with an empty reason.
FailureOr<MemberRole> getMemberRole(Operation *op, std::string &whyNot);

/// The op's name without its dialect prefix ("matmul", "expand_shape").
std::string getShortOpName(Operation *op);

/// Why tensors (or buffers) of `type` are not computed on, by the SMG or by
/// a loop kernel: a dynamic shape, or an element type other than integers
/// and floats of 16 bits or more (index has no fixed width on the device,
/// 8-bit floats no arithmetic of their own); empty when they are.
std::string getShapedTypeRefusal(ShapedType type);

/// The combiner of a reduction body yielding `yielded` into the accumulator
/// `acc`, if it is one the SMG knows (add, max, min, mul).
std::optional<Combiner> matchCombiner(Value yielded, Value acc);

/// The float combiner op of `c` on `x` and `y` (addf, mulf, maximumf,
/// minimumf).
Value buildCombine(OpBuilder &b, Location loc, Combiner c, Value x, Value y);

/// `combineOp` (a reduction body's own combining op: addf, maxnumf, ...)
/// applied to `x` and `y`, with its attributes. Where the NaN semantics
/// matter it is the one to use: a max started from a NaN fill (upstream's
/// softmax decomposition) combines with maxnumf, for which NaN is the
/// identity; the maximumf of buildCombine would make the result NaN.
Value buildCombineLike(OpBuilder &b, Location loc, Operation *combineOp,
                       Value x, Value y);

/// The value that leaves a reduction by `c` unchanged: 0, 1, -inf or +inf.
FloatAttr getCombinerIdentity(Builder &b, Combiner c, FloatType type);

/// The value that leaves `combineOp` (a reduction body's own combining op,
/// of combiner `c`) unchanged: NaN for maxnumf and minnumf, which skip it,
/// so that a row of NaN stays NaN; getCombinerIdentity otherwise.
FloatAttr getCombineOpIdentity(Builder &b, Operation *combineOp, Combiner c,
                               FloatType type);

/// Whether `result` is written exactly once per element into a fresh
/// destination and never read back: a linalg op without reduction dims
/// whose init for `result` is a tensor.empty its body does not read, or a
/// loop over the slices of a fresh tensor inserting one such result per
/// iteration (the temporal slicer's final pass). Only
/// such a result may be written straight into a buffer that another block
/// writes too (the overlap of a ragged last spatial block): any other
/// producer (a fill then a reduction, a computed init, a loop's state)
/// reads what it wrote, and reads the other block's writes instead.
bool isWrittenOnceIntoEmpty(Value result);

} // namespace smap
} // namespace mlir

#endif // SPACEFUSION_ANALYSIS_SPACEMAPPINGGRAPH_H
