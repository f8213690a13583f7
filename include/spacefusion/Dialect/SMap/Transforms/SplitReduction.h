//===- SplitReduction.h - Split a temporal dim across blocks ----*- C++ -*-===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// Splitting a temporal dim t of extent L into P parts that run side by side
// (split-K for a GEMM, split-KV for attention): a graph whose spatial blocks
// do not fill the machine (a decode step: 32 heads of 16 queries on 132 SMs)
// gains a parallel dim. The graph becomes two:
//
//  - the partial graph: the same program with t's loops split into a new
//    parallel dim s (P) and t' (L / P); every value indexed by t gets s next
//    to t' (inputs through tensor.expand_shape outside the graph), every
//    value computed from reductions along t gets s prepended (one per part).
//    Each part is the unfused program over its keys.
//  - the merge graph: for each reduction of the temporal slicer's plan, in
//    program order, the parts combined over s with the plan's update
//    function (Update-then-Aggregate across blocks): an independent
//    reduction with its combiner; a rescaled one with its parts' postponed
//    factors removed, each part moved to the merged shift
//    (exp(sign * (C - c_s))) and summed, then the factors applied to the
//    merged values; then every op after the reductions recomputed.
//
// A part whose shift is infinite (a row it masks entirely) contributes
// nothing, so masks keep the unfused result; a row masked in every part is
// NaN, as unfused. Numerics: see docs/Rationale.md ("Split reductions").
//
//===----------------------------------------------------------------------===//

#ifndef SPACEFUSION_DIALECT_SMAP_TRANSFORMS_SPLITREDUCTION_H
#define SPACEFUSION_DIALECT_SMAP_TRANSFORMS_SPLITREDUCTION_H

#include "spacefusion/Analysis/SpaceMappingGraph.h"

#include <string>

namespace mlir {
namespace smap {

/// The two graphs a split makes.
struct ReductionSplit {
  GraphOp partial;
  GraphOp merge;
};

/// Why `plan.t` of `smg`'s graph cannot be split into `parts` (the member
/// and the reason), or an empty string when it can.
std::string whyNotSplittable(const SpaceMappingGraph &smg,
                             const TemporalSlicePlan &plan, int64_t parts);

/// Splits `plan.t` of `smg`'s graph into `parts` (which whyNotSplittable
/// accepted) and erases the graph; the caller drops its SMG first. The new
/// graphs get the graph's target; they have no schedule yet.
ReductionSplit splitReduction(const SpaceMappingGraph &smg,
                              const TemporalSlicePlan &plan, int64_t parts);

} // namespace smap
} // namespace mlir

#endif // SPACEFUSION_DIALECT_SMAP_TRANSFORMS_SPLITREDUCTION_H
