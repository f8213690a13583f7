//===- MaskPredicate.h - Masks from index arithmetic ------------*- C++ -*-===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// Masks written as index arithmetic (`linalg.index`, `arith.cmpi`,
// `arith.select` of -inf), as frontends write causal attention, and the
// temporal slices they leave without a contribution.
//
//===----------------------------------------------------------------------===//

#ifndef SPACEFUSION_ANALYSIS_MASKPREDICATE_H
#define SPACEFUSION_ANALYSIS_MASKPREDICATE_H

#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace mlir {
namespace smap {

class SpaceMappingGraph;
struct TemporalSlicePlan;

/// A key index (along the temporal dim) computed from the graph's inputs:
/// constant + sum of coefficient x input, an input being an index, or a
/// one-element integer tensor (a block's tile of a per-batch length)
/// standing for its element.
struct SliceBound {
  int64_t constant = 0;
  SmallVector<std::pair<Value, int64_t>> inputs;
};

/// The largest (`isMax`) or the smallest of key indices: one mostly; a
/// conjunction of compares gives several (a prefix-LM mask hides the keys
/// after the query and from the prefix's end on: from max(i + 1, prefix)).
struct KeyBound {
  SmallVector<SliceBound, 1> parts;
  bool isMax = true;
};

/// A mask that makes a value -inf where (a disjunction of conjunctions of)
///   +-index_t + sum_d coef_d index_d + sum_a coef_a a + sum_e coef_e e + c > 0
/// holds (t the temporal dim, d other dims of the graph, a its index inputs
/// such as a block's offset, e the elements of its one-element integer
/// inputs such as a block's length; R the part after index_t, minimized over
/// the block). With +index_t (causal attention) every key from 1 - min R on is
/// hidden in every row (`from`); with -index_t (a sliding window) every key
/// below min R (`below`). A conjunction of compares of one sign hides from
/// the largest of their bounds on (+index_t) or below the smallest.
struct SkippedSlices {
  /// The member whose result is -inf where masked.
  Operation *mask = nullptr;
  std::optional<KeyBound> from, below;
  /// "keys from ... on" / "keys below ..." for remarks.
  std::string describe;
};

/// The slices `plan` (of dim `plan.t`) can skip: a member masks a value to
/// -inf by an index predicate of the form above, and at masked elements
/// every reduction along t combines only its identity (the max sees -inf,
/// sums see exp(-inf) = 0 and products with it). Inputs are taken to be
/// finite: where the unfused program multiplies a masked 0 by an inf or
/// NaN input, skipping drops that NaN. std::nullopt when no mask qualifies;
/// then `whyNot` says why a member that masks by an index predicate skips
/// nothing ("" when there is none).
std::optional<SkippedSlices> findSkippedSlices(const SpaceMappingGraph &smg,
                                               const TemporalSlicePlan &plan,
                                               std::string &whyNot);

/// The slices findSkippedSlices skips, as the cost model sees them before
/// the graph is sliced: each bound's R as a form over the graph's dims
/// (constant + sum coef_d index_d), to be taken over each block's ranges.
struct SliceSkipModel {
  struct Form {
    SmallVector<std::pair<unsigned, int64_t>, 2> dims;
    int64_t constant = 0;
  };
  /// Keys from the largest 1 - min R on, below the smallest min R.
  SmallVector<Form, 2> from, below;

  /// The key slices of `step` along dim `t` (of `extents`) a block visits,
  /// as a fraction of all of them, averaged over the blocks of `tile`
  /// (ragged ones clamped at the end of their dim, as sliced): the loop
  /// bounds smap-temporal-slice builds, block by block. 1 when the blocks
  /// are too many to count (over 65536 along the bounds' dims).
  double visitedFraction(ArrayRef<int64_t> extents,
                         function_ref<int64_t(unsigned)> tile, unsigned t,
                         int64_t step) const;
};

/// findSkippedSlices for the cost model; std::nullopt when nothing is
/// skipped or a bound reads a graph input (a length known only at run
/// time: the model then counts every slice).
std::optional<SliceSkipModel> modelSkippedSlices(const SpaceMappingGraph &smg,
                                                 const TemporalSlicePlan &plan);

/// A mask whose test a slice can leave out: one member that masks by
/// index predicates each of which bounds the key index (t) alone. A slice
/// of keys [o, o + size) lies where every row of the block sees every key
/// when o + size <= each `below` and o >= each `from` (one per conjunction
/// of compares: a prefix-LM row sees the keys below max(i + 1, prefix),
/// so a slice below max(first row + 1, prefix) is seen whole); there the mask's
/// selects yield their unmasked operand, and the test is needed only on
/// the slices that cut the predicate (causal attention: the diagonal one).
struct UnmaskedSlices {
  Operation *mask = nullptr;
  /// The selects in the mask's body, by their position among its selects
  /// (a copy of the body has them in the same order), and whether each
  /// masks where its condition is true.
  SmallVector<std::pair<unsigned, bool>> selects;
  SmallVector<KeyBound> below, from;
  /// For remarks.
  std::string describe;
};

/// The masks among `plan`'s main-loop members whose test the slices that
/// every row sees whole can leave out. Unlike skipping, this needs nothing
/// of the reductions: it is exact for any use of the mask's result.
SmallVector<UnmaskedSlices, 1> findUnmaskedSlices(const SpaceMappingGraph &smg,
                                               const TemporalSlicePlan &plan);

} // namespace smap
} // namespace mlir

#endif // SPACEFUSION_ANALYSIS_MASKPREDICATE_H
