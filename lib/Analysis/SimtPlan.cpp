//===- SimtPlan.cpp - How a thread computes a CUDA-core contraction -------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Analysis/SimtPlan.h"

#include "llvm/ADT/ArrayRef.h"

using namespace mlir;
using namespace mlir::smap;

SimtMicroTile mlir::smap::planSimtMicroTile(ArrayRef<int64_t> extents,
                                            int64_t threads) {
  if (extents.size() < 2 || threads <= 0)
    return {};
  int64_t rows = extents[extents.size() - 2], cols = extents.back();
  int64_t total = 1;
  for (int64_t extent : extents)
    total *= extent;
  // Largest first; square before skinny at the same size (fewer loads).
  static constexpr SimtMicroTile kCandidates[] = {
      {8, 8}, {4, 8}, {8, 4}, {4, 4}, {2, 4}, {4, 2},
      {2, 2}, {1, 4}, {4, 1}, {1, 2}, {2, 1}};
  for (SimtMicroTile tile : kCandidates)
    if (rows % tile.rows == 0 && cols % tile.cols == 0 &&
        total / tile.lanes() >= threads)
      return tile;
  return {};
}
