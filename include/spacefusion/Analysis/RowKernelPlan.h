//===- RowKernelPlan.h - Which graphs run as row kernels, and how -*- C++
//-*-===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// The legality and layout of the `rows` strategy: a graph whose reductions
// all run along one innermost dim n, parallel in every other (softmax,
// LayerNorm, RMSNorm, elementwise chains), runs as one kernel in which a warp
// (short rows) or a block (long rows) holds each row in registers.
//
// One module for both sides of the decision: smap-schedule calls
// `analyzeRowGraph` and `chooseRowLayout` and records the layout in the
// graph's `#smap.schedule` (strategy `rows`, its threads and rows per block);
// convert-smap-to-gpu calls `analyzeRowGraph` and `checkRowLayout` on the
// recorded layout and builds it, or fails naming why. Neither has a second
// copy of a precondition.
//
//===----------------------------------------------------------------------===//

#ifndef SPACEFUSION_ANALYSIS_ROWKERNELPLAN_H
#define SPACEFUSION_ANALYSIS_ROWKERNELPLAN_H

#include "spacefusion/Dialect/SMap/IR/SMap.h"

#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"

#include <string>

namespace mlir {
namespace smap {

class SpaceMappingGraph;

/// How a tensor of a row graph lies relative to its rows: over the row dims
/// and n (Full), the row dims only (Row), n only (Column: per-column
/// parameters such as gamma), or neither (Scalar).
enum class RowShape { Full, Row, Column, Scalar };

/// What a row graph is, from its SMG alone (no choice made yet).
struct RowGraph {
  /// The dim every reduction runs along (the output's innermost dim when
  /// nothing reduces).
  unsigned reducedDim = ~0u;
  /// The other dims of the first output, in its order.
  SmallVector<unsigned> rowDims;
  /// The product of the row dims' extents, and the extent of n.
  int64_t rows = 1, n = 1;
  /// Elements per vector access: the widest (up to 16 bytes) that divides n
  /// for the widest element loaded or stored.
  int64_t vector = 1;
  /// Members that reduce.
  int64_t reductions = 0;
  /// A graph input read as whole rows (shape Full) of whole-byte elements:
  /// what a row cached in shared memory holds, in argument order.
  struct CachedInput {
    unsigned argument;
    int64_t elementBytes;
  };
  SmallVector<CachedInput> cachedInputs;

  /// The shape of `value` (a graph input or member result); fails when it
  /// is not laid out as rows over n with n innermost.
  FailureOr<RowShape> shapeOf(const SpaceMappingGraph &smg, Value value) const;
};

/// The layout smap-schedule chooses: threads sharing a row and rows sharing
/// a block (rows per block > 1 only with a warp per row).
struct RowLayout {
  int64_t threadsPerRow = 32;
  int64_t rowsPerBlock = 1;
  /// A row streamed in tiles keeps its inputs in shared memory: the first
  /// pass reads them from global memory, the later ones from the copy.
  bool cacheRow = false;
};

/// The shared memory of the partials crossing the warps of a row: 32 f32
/// when a row has more than one warp.
inline int64_t getRowPartialBytes(int64_t threadsPerRow) {
  return threadsPerRow > 32 ? 32 * 4 : 0;
}

/// A row graph with its layout, and what follows from the two.
struct RowKernelPlan {
  RowGraph graph;
  RowLayout layout;
  /// Vector loads per thread and row (per tile, when the row is tiled).
  int64_t chunks = 1;
  /// Whether the last chunk is partial (masked) in some threads.
  bool ragged = false;
  /// Tiles the row is streamed in: 1 when a thread holds its whole share
  /// of the row in registers. A row longer than that (a vocabulary's
  /// softmax, 50257 columns) is read once per reduction and once more for
  /// the outputs, tile by tile, every element recomputed from the inputs
  /// in each pass; only row-uniform values (the reductions) are kept.
  int64_t tiles = 1;

  int64_t getBlocks() const { return graph.rows / layout.rowsPerBlock; }
  /// The row's elements one pass over a tile covers.
  int64_t getTileElements() const {
    return layout.threadsPerRow * chunks * graph.vector;
  }
  int64_t getBlockThreads() const {
    return layout.threadsPerRow * layout.rowsPerBlock;
  }
  /// The partials crossing the warps of a row, then the cached row's
  /// inputs, if cached.
  int64_t getSharedMemoryBytes() const {
    return getPartialBytes() + (layout.cacheRow ? getCachedRowBytes() : 0);
  }
  int64_t getPartialBytes() const {
    return getRowPartialBytes(layout.threadsPerRow);
  }
  /// The bytes of one row of `input`, 16-byte aligned: its copy's size.
  int64_t getCachedRowSize(const RowGraph::CachedInput &input) const {
    return llvm::alignTo(graph.n * input.elementBytes, 16);
  }
  /// The bytes of the copies of every cached input.
  int64_t getCachedRowBytes() const;
};

/// Caches `plan`'s row in shared memory (RowLayout::cacheRow) when it is
/// streamed in tiles, reads whole-row inputs and the copy fits `target`'s
/// shared memory per block: the passes after the first then read no global
/// memory (a 50257-column f16 softmax reads 100 KB once instead of three
/// times).
void chooseRowCache(RowKernelPlan &plan, TargetAttr target);

/// The layout `schedule` (strategy rows) records: its threads per row and
/// rows per block, and a cached row when its shared memory exceeds the
/// partials' (checkRowLayout then checks it).
RowLayout getRowLayout(ScheduleAttr schedule);

/// What the user asked for (0: choose).
struct RowLayoutRequest {
  int64_t threadsPerRow = 0;
  int64_t rowsPerBlock = 0;
};

/// Why no row kernel can replace `graph` where it is: it must sit in the
/// body of a function and take and give tensors only (the kernel reads and
/// writes them as buffers); empty when one can.
std::string getRowHostRefusal(GraphOp graph);

/// Whether `graph` is the whole of its function: the function's body is
/// the graph and a return of its results in order, and the graph is fed by
/// the function's arguments, all tensors. The row
/// kernel then replaces the function by one on buffers that launches it;
/// any other row graph is replaced by its launch in place
/// (convert-smap-to-gpu).
bool isWholeFunctionGraph(GraphOp graph);

/// The row graph `smg` is; fails with `whyNot` when it is not one (a
/// contraction, several reduced dims, an op the kernel does not evaluate, a
/// tensor not laid out as rows, ...).
FailureOr<RowGraph> analyzeRowGraph(const SpaceMappingGraph &smg,
                                    std::string &whyNot);

/// The layout for `graph`: the widest vectors, then the threads that split
/// them evenly (a warp for rows of up to 32 elements per lane, two rows per
/// block; a block of up to 512 threads otherwise), or what `request` asks.
/// Fails with `whyNot` when the request is impossible or the row does not
/// fit in registers.
FailureOr<RowKernelPlan> chooseRowLayout(const RowGraph &graph,
                                         const RowLayoutRequest &request,
                                         std::string &whyNot);

/// The plan of `layout` (a recorded schedule) on `graph`; fails with
/// `whyNot` when the lowering cannot build it.
FailureOr<RowKernelPlan> checkRowLayout(const RowGraph &graph,
                                        const RowLayout &layout,
                                        std::string &whyNot);

/// The registers each thread of `plan`'s blocks is given at entry
/// (`nvvm.maxnreg`), or 0 to leave the count to ptxas. A block gets the
/// whole register file of `target`'s SM when the row elements one thread
/// holds take more than half of what it gets with two blocks per SM: ptxas
/// aims at two such blocks and spills.
int64_t chooseRowRegisters(const RowKernelPlan &plan, TargetAttr target);

} // namespace smap
} // namespace mlir

#endif // SPACEFUSION_ANALYSIS_ROWKERNELPLAN_H
