//===- GraphUtils.h - Creating and rewriting smap.graph ops -----*- C++ -*-===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// Shared by the passes that form, partition and annotate fusion graphs (and
// the tensor-level op builders the lowerings reuse).
//
//===----------------------------------------------------------------------===//

#ifndef SPACEFUSION_DIALECT_SMAP_TRANSFORMS_GRAPHUTILS_H
#define SPACEFUSION_DIALECT_SMAP_TRANSFORMS_GRAPHUTILS_H

#include "spacefusion/Analysis/SpaceMappingGraph.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Pass/AnalysisManager.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace smap {

/// Values `op` reads, including those its regions capture from above.
SmallVector<Value> getReadValues(Operation *op);

/// Ops of the group's block after its first member that the group depends
/// on without containing them, in block order: outlining moves them above
/// the graph.
SmallVector<Operation *>
getDependenciesToHoist(const llvm::SmallSetVector<Operation *, 16> &group);

/// Outlines `members` (ops of one block, in block order, that form a group
/// without cycles) into an smap.graph placed at the first member. Values read
/// from outside become inputs, except zero-operand inits (tensor.empty,
/// constants), which are cloned in; results used outside become outputs.
GraphOp outlineIntoGraph(ArrayRef<Operation *> members);

/// Gives every use of a destination op in `graph`'s body (tensor.empty,
/// linalg.fill, tensor constants: what `cse` merges) its own copy. A shared
/// init is not a data dependence, but the SMG aligns the dims of all users
/// of one value, so a shared init would merge unrelated dims. Returns the
/// number of copies made.
unsigned privatizeInits(GraphOp graph);

/// The SMG of `graph` as the passes build it: every member first gets its
/// own destination (privatizeInits), so that graphs written by hand or
/// after `cse` are described by their data dependences alone.
FailureOr<SpaceMappingGraph> buildSMG(GraphOp graph,
                                      const SMGOptions &options = {});

/// The SMG of `graph` from `am`, the analysis manager of a pass running on
/// one of its ancestors: inits privatized first (a change drops a cached
/// SMG), then the SMG the manager holds, built on first request
/// (SpaceMappingGraphAnalysis). `reused` tells whether the manager already
/// held it. Null when the graph holds an op the SMG cannot describe. A pass
/// that erases a graph it asked about calls forgetSMG first, so that a graph
/// created later at the same address is not given the old SMG.
const SpaceMappingGraph *getSMG(GraphOp graph, AnalysisManager am,
                                bool *reused = nullptr);

/// Drops the SMG `am` holds for `graph` (before `graph` is erased).
void forgetSMG(GraphOp graph, AnalysisManager am);

/// Whether `graph` was sliced already: its body holds slice ops, which the
/// SMG does not describe (it is built before slicing).
bool isSliced(GraphOp graph);

/// The slicers' remark for a graph they leave alone because smap-schedule
/// has not given it a schedule; `pass` names the slicer.
void remarkUnscheduled(GraphOp graph, llvm::StringLiteral pass);

/// An elementwise linalg.generic that writes `from` into `into` (a tensor of
/// the same shape) converted to `into`'s float element type (truncf to a
/// narrower one, extf to a wider one).
linalg::GenericOp createFloatConversion(OpBuilder &b, Location loc, Value from,
                                        Value into);

/// Replaces `graph` by its body; returns the inlined ops in order.
SmallVector<Operation *> inlineGraph(GraphOp graph);

/// Writes the SMG onto its graph (dims, smap.chains, smap.recompute,
/// smap.not_sliceable) and its members (smap.space); when `explain`, emits
/// one analysis remark per dim.
void annotateGraph(const SpaceMappingGraph &smg, bool explain);

} // namespace smap
} // namespace mlir

#endif // SPACEFUSION_DIALECT_SMAP_TRANSFORMS_GRAPHUTILS_H
