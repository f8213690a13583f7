//===- TemporalSlicePlan.h - How a dim is sliced temporally -----*- C++ -*-===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// The plan of slicing one temporal dim t of a Space-Mapping Graph: the role
// of every member (computed once, per slice, as a reduction along t, or
// from finished reductions) and, from the scalar bodies, how each
// reduction's partial results depend on earlier reductions, which fixes
// its update function (accumulated, rescaled by exp factors with postponed
// g(c) factors, or combined by the shift formula).
//
// It is made once per dim, when the SMG classifies the dim: a dim the plan
// refuses is not temporal, so smap-schedule never chooses a temporal slice
// that smap-temporal-slice then cannot build; the slicer rewrites what the
// plan says.
//
//===----------------------------------------------------------------------===//

#ifndef SPACEFUSION_ANALYSIS_TEMPORALSLICEPLAN_H
#define SPACEFUSION_ANALYSIS_TEMPORALSLICEPLAN_H

#include "spacefusion/Dialect/SMap/IR/SMap.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace mlir {
namespace smap {

class SpaceMappingGraph;

/// Where a member of a temporally sliced graph is computed: before the loop
/// (it does not iterate t), in each slice (it iterates t), as a reduction
/// along t, or after the loop from finished reductions.
enum class SliceRole { Pre, Streamed, Reducing, Post };

/// A factor exp(sign * c) that a value indexed by t carries, where c is a
/// value computed from reductions along t.
struct ExpTerm {
  Value shift;
  int sign;
  bool operator==(const ExpTerm &o) const {
    return shift == o.shift && sign == o.sign;
  }
};

/// A factor g(c) removed from a member inside the loop: the scalar `leaf`
/// of `op`'s body (computed from its reduced operands), dividing when
/// `inverted`.
struct StrippedFactor {
  Operation *op;
  Value leaf;
  bool inverted;
};

/// How a value indexed by t depends on reductions along t.
struct StreamInfo {
  SmallVector<ExpTerm> expTerms;
  SmallVector<StrippedFactor> stripped;
  /// x - c: the shift c.
  Value shift;
  /// (x - c)^2: the shifted tensor x - c.
  Value squareOf;
  bool empty() const {
    return expTerms.empty() && stripped.empty() && !shift && !squareOf;
  }
};

/// The update function of a reduction along a temporally sliced dim.
enum class ReductionUpdate {
  /// Partial results combine with the reduction's combiner.
  Independent,
  /// Partial sums of values carrying exp(+-c) factors are rescaled to the
  /// running c; g(c) factors are applied after the loop.
  Rescaled,
  /// A sum of squares around a running shift, combined by the shift
  /// formula (Chan / Welford).
  CenteredSquare,
};

/// The update kind in words, as remarks print it.
StringRef stringifyReductionUpdate(ReductionUpdate update);

/// One reduction along t and its update.
struct ReductionPlan {
  Operation *op;
  Combiner combiner;
  ReductionUpdate update;
  StreamInfo info;
};

/// The plan of slicing dim `t` temporally.
struct TemporalSlicePlan {
  unsigned t = 0;
  /// The graph's body ops in program order, with their roles.
  SmallVector<Operation *> members;
  DenseMap<Operation *, SliceRole> roles;
  /// For streamed members in the main loop: what their result carries.
  DenseMap<Value, StreamInfo> infos;
  /// The reductions the main loop computes, in program order.
  SmallVector<ReductionPlan> reductions;
  DenseMap<Operation *, unsigned> reductionIndex;
  /// Reduced values that in-loop members read (need running values).
  llvm::SetVector<Value> runningNeeded;
  /// Members computed in the main loop.
  llvm::SmallPtrSet<Operation *, 16> inMainLoop;

  /// Whether `v` is computed from reductions along t (lacking t itself).
  bool isReduced(Value v) const;
  /// "name update; name update", for remarks.
  std::string describe(const SpaceMappingGraph &smg) const;
};

/// The float constant `value` is a linalg.fill of, if it is one.
std::optional<APFloat> getFillConstant(Value value);

/// Whether `r` starts from a computed value its rescaling must not touch
/// (a contraction accumulating into a bias, c + S * (x . y)): the slicer
/// starts the state from 0 and adds the init after the corrections, so a
/// corrected value is a buffer of its own before the sum.
bool addsInitAfterLoop(const ReductionPlan &r);

/// The operand of contraction `op` that a ragged last slice along t zeroes
/// where it repeats elements earlier slices combined, in a copy of its own:
/// the first one indexed by t that the graph computes (a row tile), else
/// the last graph input indexed by t; null when no operand is. `indexedByT`
/// says which inputs t indexes. The slicer masks it and the cost model
/// prices its copy, both through this rule.
OpOperand *
getRaggedSliceMaskedOperand(linalg::LinalgOp op,
                            llvm::function_ref<bool(OpOperand *)> indexedByT);

/// The block arguments a scalar body value depends on (the plan's factors
/// and the slicer's corrections are functions of them).
void collectArgs(Value v, llvm::SmallSetVector<BlockArgument, 4> &args);

/// The indexing map that reads graph value `in` broadcast over the tensor
/// dims of graph value `out`: each tensor dim of `in` is the tensor dim of
/// `out` with the same global dims (one dim, or the same collapsed group);
/// a unit dim is read at 0. Fails when `in` has a dim `out` lacks, or
/// when a dim is on two axes of `out` (a diagonal) or grouped differently.
/// The slicer builds every state update and correction with it, and the
/// plan checks each of them with it, so a plan the SMG accepts is built.
FailureOr<AffineMap> getBroadcastMap(const SpaceMappingGraph &smg, Value in,
                                     Value out);

/// Whether `factor.leaf` is computed from the block arguments it depends
/// on and values defined above the body alone, so that it can be
/// recomputed after the loop.
bool isRecomputableLeaf(const StrippedFactor &factor);

/// Plans slicing `t` of `smg`'s graph temporally; fails with `whyNot` (the
/// member and the reason) when the slicer cannot rewrite it. The graph's
/// aggregated ops (linalg.softmax) must be decomposed first.
FailureOr<TemporalSlicePlan> planTemporalSlice(const SpaceMappingGraph &smg,
                                               unsigned t,
                                               std::string &whyNot);

} // namespace smap
} // namespace mlir

#endif // SPACEFUSION_ANALYSIS_TEMPORALSLICEPLAN_H
