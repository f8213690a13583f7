//===- RowKernelPlan.cpp - Which graphs run as row kernels, and how -------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Analysis/RowKernelPlan.h"

#include "spacefusion/Analysis/SpaceMappingGraph.h"
#include "spacefusion/Analysis/TensorCoreLegality.h"
#include "spacefusion/Analysis/WgmmaPipeline.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace mlir::smap;

/// The most elements of a row one thread holds in registers.
static constexpr int64_t kMaxElementsPerThread = 64;
/// The elements of each tile one thread loads when the row is streamed in
/// tiles: as many as a thread holds in registers (64 measured 1.15-1.35x
/// faster than 16 on an H100, bench/results/rows-tiles-per-thread-h100: more
/// bytes in flight, and at the register count this takes one block per SM,
/// whose rows in flight fit L2 for the later passes).
static constexpr int64_t kTileElementsPerThread = kMaxElementsPerThread;
/// Rows of up to this many elements per lane go one warp per row.
static constexpr int64_t kMaxWarpRowElementsPerLane = 32;
/// Rows per block with a warp per row: 2 measured best on the H200 against
/// 1, 4 and 8 (the SM's block slots otherwise limit occupancy).
static constexpr int64_t kWarpRowsPerBlock = 2;

FailureOr<RowShape> RowGraph::shapeOf(const SpaceMappingGraph &smg,
                                      Value value) const {
  SmallVector<unsigned> dims;
  for (auto &ids : smg.getValueDims(value)) {
    if (ids.size() > 1)
      return failure();
    if (ids.size() == 1)
      dims.push_back(ids[0]);
  }
  bool hasN = llvm::is_contained(dims, reducedDim);
  SmallVector<unsigned> others;
  for (unsigned d : dims)
    if (d != reducedDim)
      others.push_back(d);
  if (hasN && dims.back() != reducedDim)
    return failure(); // the reduced dim must be innermost
  if (!others.empty() && others != rowDims)
    return failure();
  if (hasN)
    return others.empty() ? RowShape::Column : RowShape::Full;
  return others.empty() ? RowShape::Scalar : RowShape::Row;
}

std::string mlir::smap::getRowHostRefusal(GraphOp graph) {
  if (!isa<func::FuncOp>(graph->getParentOp()))
    return "the graph is not in the body of a function";
  for (Value input : graph.getInputs())
    if (!isa<RankedTensorType>(input.getType()))
      return "a graph input is not a tensor";
  return "";
}

bool mlir::smap::isWholeFunctionGraph(GraphOp graph) {
  auto fn = dyn_cast<func::FuncOp>(graph->getParentOp());
  // Nothing else may be in the body: the kernel replaces all of it.
  Block &body = fn ? fn.getBody().front() : *graph->getBlock();
  if (!fn || !llvm::hasNItems(body, 2) ||
      !llvm::all_of(fn.getArgumentTypes(), llvm::IsaPred<RankedTensorType>) ||
      !llvm::all_of(fn.getResultTypes(), llvm::IsaPred<RankedTensorType>))
    return false;
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  if (ret.getOperands() != ValueRange(graph.getResults()))
    return false;
  return llvm::all_of(graph.getInputs(), [&](Value input) {
    auto arg = dyn_cast<BlockArgument>(input);
    return arg && arg.getOwner() == &fn.getBody().front() &&
           isa<RankedTensorType>(arg.getType());
  });
}

static std::string opName(Operation &op) {
  return "'" + op.getName().getStringRef().str() + "'";
}

/// Why the row kernel cannot evaluate `op` element by element; empty when
/// it can.
static std::string getMemberRefusal(const SpaceMappingGraph &smg,
                                    Operation &op) {
  if (auto constant = dyn_cast<arith::ConstantOp>(op))
    return isa<ShapedType>(constant.getType())
               ? "a tensor constant is not evaluated per row"
               : "";
  if (isa<tensor::EmptyOp>(op))
    return "";
  if (auto fill = dyn_cast<linalg::FillOp>(op))
    return fill.getInputs()[0].getDefiningOp<arith::ConstantOp>()
               ? ""
               : "a fill of a value that is not a constant";
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic)
    return opName(op) + " is not an elementwise or reduction linalg.generic";
  if (generic.getNumResults() != 1)
    return "a linalg.generic with several results";
  if (!generic.getBody()->getOps<linalg::IndexOp>().empty())
    return "a linalg.generic reads linalg.index";
  const Space *space = smg.lookupSpace(&op);
  if (space && !space->reductions.empty() &&
      !isa<FloatType>(generic.getRegionOutputArgs()[0].getType()))
    return "a reduction of integers (row kernels combine floats)";
  if (space && !space->reductions.empty() &&
      !matchCombiner(generic.getBody()->getTerminator()->getOperand(0),
                     generic.getRegionOutputArgs()[0]))
    return "a reduction whose combiner is not add, mul, max or min";
  return "";
}

/// The dim every member reduces along (kNone when none reduces).
static FailureOr<unsigned> findReducedDim(const SpaceMappingGraph &smg,
                                          std::string &whyNot) {
  unsigned reduced = ~0u;
  for (const Space &space : smg.getSpaces())
    for (auto [d, c] : space.reductions) {
      if (reduced != ~0u && reduced != d) {
        whyNot = "it reduces along more than one dim ('" +
                 smg.getDims()[reduced].name + "' and '" +
                 smg.getDims()[d].name +
                 "'); GEMM-like graphs need the tensor-core lowering";
        return failure();
      }
      reduced = d;
    }
  return reduced;
}

/// Fails with `whyNot` when `body` holds a contraction (GEMM-like).
static LogicalResult checkNoContraction(Block &body, std::string &whyNot) {
  for (Operation &op : body.without_terminator())
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(&op);
        linalgOp && isContraction(linalgOp)) {
      whyNot = opName(op) + " is a contraction (GEMM-like); contractions "
                            "need the tensor-core lowering";
      return failure();
    }
  return success();
}

/// Sets `rowGraph`'s row dims and extents from the graph's first output,
/// and its reduced dim to the output's innermost one when `reduced` (the
/// dim every member reduces along) is none; fails with `whyNot` when the
/// output has no dim.
static LogicalResult findRowDims(const SpaceMappingGraph &smg, unsigned reduced,
                                 RowGraph &rowGraph, std::string &whyNot) {
  GraphOp graph = smg.getGraph();
  rowGraph.reducedDim = reduced;
  SmallVector<unsigned> outDims;
  for (auto &ids : smg.getValueDims(graph.getYield().getValues().front()))
    llvm::append_range(outDims, ids);
  if (rowGraph.reducedDim == ~0u) {
    if (outDims.empty()) {
      whyNot = "its output has no dim to spread over threads";
      return failure();
    }
    rowGraph.reducedDim = outDims.back();
  }
  for (unsigned d : outDims)
    if (d != rowGraph.reducedDim)
      rowGraph.rowDims.push_back(d);
  for (unsigned d : rowGraph.rowDims)
    rowGraph.rows *= smg.getDims()[d].extent;
  rowGraph.n = smg.getDims()[rowGraph.reducedDim].extent;
  return success();
}

/// Fails with `whyNot` unless every input is a tensor, every member is one
/// the kernel evaluates, every output is a member's, and every tensor is a
/// row, a full tile, a column or a scalar.
static LogicalResult checkRowMembers(const SpaceMappingGraph &smg,
                                     const RowGraph &rowGraph,
                                     std::string &whyNot) {
  GraphOp graph = smg.getGraph();
  Block &body = graph.getBody().front();
  auto laidOutAsRows = [&](Value v) {
    return !isa<RankedTensorType>(v.getType()) ||
           succeeded(rowGraph.shapeOf(smg, v));
  };
  for (BlockArgument arg : body.getArguments()) {
    if (!arg.use_empty() && !isa<RankedTensorType>(arg.getType())) {
      whyNot = "scalar graph inputs are not supported on the GPU yet";
      return failure();
    }
    if (!laidOutAsRows(arg)) {
      whyNot = "a tensor is not laid out as rows over the reduced dim "
               "(which must be innermost)";
      return failure();
    }
  }
  for (Operation &op : body.without_terminator()) {
    if (std::string refusal = getMemberRefusal(smg, op); !refusal.empty()) {
      whyNot = refusal;
      return failure();
    }
    if (!llvm::all_of(op.getResults(), laidOutAsRows)) {
      whyNot = "a tensor is not laid out as rows over the reduced dim "
               "(which must be innermost)";
      return failure();
    }
  }
  for (Value output : graph.getYield().getValues())
    if (!output.getDefiningOp<linalg::LinalgOp>()) {
      whyNot = "an output is not computed by a member";
      return failure();
    }
  return success();
}

/// The elements per vector access: the widest (up to 16 bytes) that
/// divides n for the widest element loaded or stored.
static int64_t chooseVectorWidth(const SpaceMappingGraph &smg,
                                 const RowGraph &rowGraph) {
  GraphOp graph = smg.getGraph();
  // Only what is loaded or stored sets the access width.
  int64_t widest = 1;
  bool subByte = false;
  auto accessWidth = [&](Value v) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    FailureOr<RowShape> shape =
        type ? rowGraph.shapeOf(smg, v) : FailureOr<RowShape>(failure());
    if (succeeded(shape) &&
        (*shape == RowShape::Full || *shape == RowShape::Column)) {
      widest = std::max<int64_t>(
          widest, std::max(1u, type.getElementTypeBitWidth() / 8));
      // An i1 tensor holds a byte per element, a vector of i1 packed bits:
      // only scalar accesses read it right.
      subByte |= type.getElementTypeBitWidth() % 8 != 0;
    }
  };
  for (BlockArgument arg : graph.getBody().front().getArguments())
    accessWidth(arg);
  for (Value output : graph.getYield().getValues())
    accessWidth(output);
  if (subByte)
    return 1;
  int64_t vector = 16 / widest;
  while (rowGraph.n % vector != 0)
    vector /= 2;
  return vector;
}

FailureOr<RowGraph> mlir::smap::analyzeRowGraph(const SpaceMappingGraph &smg,
                                                std::string &whyNot) {
  if (failed(checkNoContraction(smg.getGraph().getBody().front(), whyNot)))
    return failure();
  FailureOr<unsigned> reduced = findReducedDim(smg, whyNot);
  if (failed(reduced))
    return failure();

  RowGraph rowGraph;
  if (failed(findRowDims(smg, *reduced, rowGraph, whyNot)) ||
      failed(checkRowMembers(smg, rowGraph, whyNot)))
    return failure();
  rowGraph.vector = chooseVectorWidth(smg, rowGraph);
  for (const Space &space : smg.getSpaces())
    rowGraph.reductions += !space.reductions.empty();
  for (BlockArgument arg : smg.getGraph().getBody().front().getArguments()) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    FailureOr<RowShape> shape =
        type ? rowGraph.shapeOf(smg, arg) : FailureOr<RowShape>(failure());
    // Whole bytes only: an i1 copy would be packed bits.
    if (!arg.use_empty() && succeeded(shape) && *shape == RowShape::Full &&
        type.getElementTypeBitWidth() % 8 == 0)
      rowGraph.cachedInputs.push_back(
          {arg.getArgNumber(), type.getElementTypeBitWidth() / 8});
  }
  return rowGraph;
}

int64_t RowKernelPlan::getCachedRowBytes() const {
  int64_t bytes = 0;
  for (const RowGraph::CachedInput &input : graph.cachedInputs)
    bytes += getCachedRowSize(input);
  return bytes;
}

RowLayout mlir::smap::getRowLayout(ScheduleAttr schedule) {
  RowLayout layout;
  layout.rowsPerBlock = schedule.getRowsPerBlock();
  layout.threadsPerRow = schedule.getThreads() / layout.rowsPerBlock;
  layout.cacheRow =
      schedule.getSmemBytes() > getRowPartialBytes(layout.threadsPerRow);
  return layout;
}

void mlir::smap::chooseRowCache(RowKernelPlan &plan, TargetAttr target) {
  // The cache changes no other part of the plan (checkRowLayout).
  plan.layout.cacheRow = plan.tiles > 1 && !plan.graph.cachedInputs.empty() &&
                         plan.getPartialBytes() + plan.getCachedRowBytes() <=
                             target.getSmemPerBlock();
}

/// The threads that split a row's vectors evenly (the most, up to 512), or,
/// when none does or the split leaves a thread too much of the row, as many
/// as the vectors need with the last chunk masked.
static int64_t chooseThreadsPerRow(const RowGraph &graph) {
  int64_t vectors = graph.n / graph.vector;
  int64_t threads = 512;
  while (threads >= 32 && vectors % threads != 0)
    threads /= 2;
  if (threads < 32 || vectors / threads * graph.vector > kMaxElementsPerThread)
    threads = std::min<int64_t>(512, llvm::alignTo(vectors, 32));
  return threads;
}

/// Whether a row with a single reduction goes to a block of 4 warps: its
/// 16-byte vectors split evenly over them, at most 32 elements each, and a
/// warp would hold more than 8. RMSNorm over 1024 f16 measured 4% faster on
/// the H200 that way than a warp per row at 16384 rows, where the warp's 64
/// registers halve the occupancy. Two chained reductions (LayerNorm,
/// softmax) pay two cross-warp barriers and stay on a warp.
static bool prefersFourWarps(const RowGraph &graph, int64_t threads) {
  int64_t vectors = graph.n / graph.vector;
  bool even = vectors % threads == 0;
  return graph.reductions == 1 && even && vectors % 128 == 0 &&
         vectors / 128 * graph.vector <= 32 &&
         llvm::divideCeil(graph.n, 32 * graph.vector) * graph.vector > 8;
}

/// Whether a warp holds the row: at most 32 elements per lane, and either
/// the row is ragged or a warp splits it evenly.
static bool fitsAWarp(const RowGraph &graph, int64_t threads) {
  bool ragged = (graph.n / graph.vector) % threads != 0;
  return (ragged || graph.n % (32 * graph.vector) == 0) &&
         llvm::divideCeil(graph.n, 32 * graph.vector) * graph.vector <=
             kMaxWarpRowElementsPerLane;
}

static LogicalResult checkRequest(const RowGraph &graph,
                                  const RowLayoutRequest &request,
                                  std::string &whyNot) {
  int64_t threads = request.threadsPerRow;
  if (threads > 0 &&
      (!llvm::isPowerOf2_64(threads) || threads < 32 || threads > 512 ||
       llvm::divideCeil(graph.n / graph.vector, threads) * graph.vector >
           kMaxElementsPerThread)) {
    whyNot = "row-threads=" + std::to_string(threads) +
             " is not a power of two from 32 to 512 that leaves at most 64 "
             "elements of a row of " +
             std::to_string(graph.n) + " to each thread";
    return failure();
  }
  if (threads > 32 && request.rowsPerBlock > 0) {
    whyNot = "rows-per-block applies to a warp per row; row-threads=" +
             std::to_string(threads) + " makes a block per row";
    return failure();
  }
  if (request.rowsPerBlock > 0 &&
      (graph.rows % request.rowsPerBlock != 0 || request.rowsPerBlock > 32)) {
    whyNot = "rows-per-block=" + std::to_string(request.rowsPerBlock) +
             " does not divide the " + std::to_string(graph.rows) +
             " rows or exceeds 32 warps";
    return failure();
  }
  return success();
}

FailureOr<RowKernelPlan>
mlir::smap::chooseRowLayout(const RowGraph &graph,
                            const RowLayoutRequest &request,
                            std::string &whyNot) {
  if (failed(checkRequest(graph, request, whyNot)))
    return failure();
  RowLayout layout;
  layout.threadsPerRow = request.threadsPerRow > 0 ? request.threadsPerRow
                                                   : chooseThreadsPerRow(graph);
  bool chosen = request.threadsPerRow == 0 && request.rowsPerBlock == 0;
  if (chosen && prefersFourWarps(graph, layout.threadsPerRow)) {
    layout.threadsPerRow = 128;
  } else if (request.threadsPerRow <= 32 &&
             fitsAWarp(graph, layout.threadsPerRow)) {
    layout.threadsPerRow = 32;
    layout.rowsPerBlock = request.rowsPerBlock;
    if (layout.rowsPerBlock == 0)
      for (layout.rowsPerBlock = kWarpRowsPerBlock;
           graph.rows % layout.rowsPerBlock != 0; layout.rowsPerBlock /= 2)
        ;
  } else if (request.rowsPerBlock > 1) {
    whyNot = "rows-per-block applies to a warp per row; a row of " +
             std::to_string(graph.n) + " elements takes " +
             std::to_string(layout.threadsPerRow) + " threads";
    return failure();
  }
  return checkRowLayout(graph, layout, whyNot);
}

FailureOr<RowKernelPlan>
mlir::smap::checkRowLayout(const RowGraph &graph, const RowLayout &layout,
                           std::string &whyNot) {
  int64_t threads = layout.threadsPerRow;
  if (threads < 32 || threads > 512 || threads % 32 != 0) {
    whyNot = std::to_string(threads) +
             " threads per row is not a multiple of 32 from 32 to 512";
    return failure();
  }
  if (layout.rowsPerBlock < 1 || graph.rows % layout.rowsPerBlock != 0 ||
      (layout.rowsPerBlock > 1 && threads != 32)) {
    whyNot = std::to_string(layout.rowsPerBlock) +
             " rows per block do not divide the " + std::to_string(graph.rows) +
             " rows, or share a block without a warp per row";
    return failure();
  }
  RowKernelPlan plan{graph, layout, 0, false};
  plan.chunks = llvm::divideCeil(graph.n, threads * graph.vector);
  if (plan.chunks * graph.vector > kMaxElementsPerThread) {
    // The row does not fit in registers: stream it in tiles.
    if (threads != 512 || layout.rowsPerBlock != 1) {
      whyNot = "rows of " + std::to_string(graph.n) +
               " elements do not fit in the registers of " +
               std::to_string(threads) +
               " threads; tiled rows take a block "
               "of 512 threads per row";
      return failure();
    }
    // A cached row keeps 64 elements per thread and tile too: at 32 (two
    // blocks per SM) the 4096x50257 f16 softmax's first pass had half the
    // loads in flight and ran 26% slower on an H100
    // (bench/results/rows-cache-h100).
    plan.chunks = std::max<int64_t>(1, kTileElementsPerThread / graph.vector);
    plan.tiles = llvm::divideCeil(graph.n, plan.getTileElements());
  }
  if (layout.cacheRow && (plan.tiles == 1 || graph.cachedInputs.empty())) {
    whyNot = "only a row streamed in tiles that reads whole-row inputs is "
             "cached in shared memory";
    return failure();
  }
  plan.ragged = graph.n % plan.getTileElements() != 0;
  // CUDA's grid: at most 2^31 - 1 blocks along x.
  if (plan.getBlocks() > std::numeric_limits<int32_t>::max()) {
    whyNot = "it needs " + std::to_string(plan.getBlocks()) +
             " blocks, more than CUDA's grid limit of 2^31 - 1";
    return failure();
  }
  return plan;
}

int64_t mlir::smap::chooseRowRegisters(const RowKernelPlan &plan,
                                       TargetAttr target) {
  int64_t threads = plan.getBlockThreads();
  // One 32-bit register per element: rows are evaluated in f32.
  int64_t elements = plan.chunks * plan.graph.vector;
  int64_t twoBlocksShare = target.getRegsPerSm() / (2 * threads);
  if (2 * elements <= twoBlocksShare)
    return 0;
  return std::min(target.getRegsPerThread(),
                  registersAtEntry(threads, target.getRegsPerSm()));
}
