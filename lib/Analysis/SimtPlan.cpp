//===- SimtPlan.cpp - How a thread computes a CUDA-core contraction -------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Analysis/SimtPlan.h"

#include "llvm/ADT/ArrayRef.h"

#include <algorithm>

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

bool mlir::smap::isSimtContraction(linalg::LinalgOp op,
                                   ArrayRef<unsigned> reduction) {
  return !reduction.empty() && op.getNumDpsInputs() == 2 &&
         llvm::all_of(op.getDpsInputOperands(), [&](OpOperand *operand) {
           return op.getMatchingIndexingMap(operand).isFunctionOfDim(
               reduction.front());
         });
}

SmallVector<unsigned>
mlir::smap::getSimtThreadOrder(linalg::LinalgOp op,
                               ArrayRef<unsigned> parallel) {
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  SmallVector<unsigned> order;
  for (AffineExpr expr : outMap.getResults())
    if (auto dim = dyn_cast<AffineDimExpr>(expr))
      if (llvm::is_contained(parallel, dim.getPosition()) &&
          !llvm::is_contained(order, dim.getPosition()))
        order.push_back(dim.getPosition());
  for (unsigned d : parallel)
    if (!llvm::is_contained(order, d))
      order.insert(order.begin(), d);
  return order;
}

std::optional<SimtMicroTile>
mlir::smap::planSimtMicroTile(linalg::LinalgOp op, ArrayRef<int64_t> ranges,
                              int64_t threads) {
  SmallVector<unsigned> parallel, reduction;
  for (auto [d, kind] : llvm::enumerate(op.getIteratorTypesArray()))
    (kind == utils::IteratorType::parallel ? parallel : reduction).push_back(d);
  if (!isSimtContraction(op, reduction))
    return std::nullopt;
  SmallVector<int64_t> extents;
  for (unsigned d : getSimtThreadOrder(op, parallel))
    extents.push_back(ranges[d]);
  return planSimtMicroTile(extents, threads);
}

double mlir::smap::getSimtLoadBoundFactor(SimtMicroTile tile) {
  // FMA lanes per cycle over load lanes per cycle (128 / 32 on sm_80+).
  constexpr double kFmaPerLoadIssue = 4.0;
  double loadsPerFma = static_cast<double>(tile.rows + tile.cols) /
                       static_cast<double>(tile.lanes());
  return std::max(1.0, kFmaPerLoadIssue * loadsPerFma);
}
