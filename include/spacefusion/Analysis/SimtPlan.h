//===- SimtPlan.h - A CUDA-core contraction's micro-tile --------*- C++ -*-===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// The register micro-tile of a contraction on CUDA cores (strategy simt):
// the lowering builds what this says, the kernel record reports it
// (`fma_lanes`) and the cost model prices the loads it leaves per FMA.
//
//===----------------------------------------------------------------------===//

#ifndef SPACEFUSION_ANALYSIS_SIMTPLAN_H
#define SPACEFUSION_ANALYSIS_SIMTPLAN_H

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Support/LLVM.h"

#include <cstdint>

namespace mlir {
namespace smap {

/// The results one thread of a CUDA-core contraction accumulates in
/// registers: `rows` x `cols` along the last two parallel loops of the
/// output's order. A thread then loads `rows` elements of the operand
/// without the column loop and `cols` of the one without the row loop per
/// reduction step, for rows x cols FMAs: one load per FMA becomes
/// (rows + cols) / (rows x cols). A thread's rows (and columns) are strided
/// by the tile's extent over `rows` (`cols`), so that neighbouring threads
/// read neighbouring columns.
struct SimtMicroTile {
  int64_t rows = 1, cols = 1;

  int64_t lanes() const { return rows * cols; }
};

/// The micro-tile of a contraction whose parallel loops have `extents` in
/// the output's order (the last fastest) over `threads` threads: the largest
/// of 8 x 8 down to 1 x 2 whose sides divide the last two extents and that
/// leaves every thread at least one micro-tile; 1 x 1 when none does (or
/// there is one parallel loop).
SimtMicroTile planSimtMicroTile(ArrayRef<int64_t> extents, int64_t threads);

/// Whether `op`, with `reduction` loops, is a contraction for the CUDA
/// cores: two inputs, both indexed by its first reduction loop.
bool isSimtContraction(linalg::LinalgOp op, ArrayRef<unsigned> reduction);

/// The `parallel` loops of `op` in the order of its first output's indices,
/// so that the fastest-varying thread index walks its contiguous last dim.
SmallVector<unsigned> getSimtThreadOrder(linalg::LinalgOp op,
                                         ArrayRef<unsigned> parallel);

/// The micro-tile `op` gets with loop extents `ranges` (one per loop, as
/// the block runs it) over `threads` threads: planSimtMicroTile of its
/// parallel extents in thread order if it is a simt contraction, none
/// otherwise. For a caller that has only the op (the cost model); the
/// lowering, which orders the loops anyway, calls the two parts.
std::optional<SimtMicroTile> planSimtMicroTile(linalg::LinalgOp op,
                                               ArrayRef<int64_t> ranges,
                                               int64_t threads);

/// The issue time of `tile`'s operand loads relative to its FMAs, at least
/// 1: an SM issues a quarter as many loads (shared memory or L1, one per
/// lane) per cycle as FMAs, and a micro-tile loads (rows + cols) elements
/// per rows x cols FMAs, so that 8 x 8 balances the two and 1 x 1 takes 8
/// times the FMAs' time.
double getSimtLoadBoundFactor(SimtMicroTile tile);

} // namespace smap
} // namespace mlir

#endif // SPACEFUSION_ANALYSIS_SIMTPLAN_H
