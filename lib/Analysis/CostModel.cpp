//===- CostModel.cpp - Resource and cost model for SMG schedules ----------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Analysis/CostModel.h"
#include "spacefusion/Analysis/BlockBuffers.h"
#include "spacefusion/Analysis/SimtPlan.h"
#include "spacefusion/Analysis/TemporalSlicePlan.h"
#include "spacefusion/Analysis/TensorCoreLegality.h"
#include "spacefusion/Analysis/WgmmaPipeline.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace mlir;
using namespace mlir::smap;

/// Registers every thread keeps for addresses, indices and temporaries.
static constexpr int64_t kBaseRegisters = 32;
/// The least share of the model's register count a row-fragment block is
/// declared two blocks per SM with (chooseResidency).
static constexpr double kDeclaredRegisterShare = 0.625;
/// Fixed cost of one temporal step of one block (a barrier and the latency
/// of its loads that the pipeline cannot hide), in seconds.
static constexpr double kGpuStepLatency = 2e-7;
/// The latency of a group of loads a thread waits for before a step can
/// start, when nothing loaded them ahead (ScheduleEstimate::
/// waitedCopyGroups). Fitted on an H100 (bench/results/one-wave-h100,
/// mc-skinny): the 16-row GEMM's 64 steps of two such groups took 100 us
/// against 31 us with cp.async stages.
static constexpr double kGpuWaitedLoadLatency = 5e-7;
static constexpr double kCpuStepLatency = 1e-8;
/// Largest number of candidates searched; beyond it each dim keeps only its
/// largest tile options.
static constexpr size_t kMaxCandidates = 200000;

static SmallVector<unsigned> flatDims(const SpaceMappingGraph &smg,
                                      Value value) {
  SmallVector<unsigned> flat;
  for (auto &ids : smg.getValueDims(value))
    llvm::append_range(flat, ids);
  return flat;
}

static int64_t elementBytes(Value value) {
  auto type = cast<ShapedType>(value.getType());
  return std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
}

/// Dims the slicers cannot cut yet: dims merged by a reshape with others
/// and dims related by an extract_slice window.
static llvm::SmallBitVector unsliceableDims(const SpaceMappingGraph &smg) {
  llvm::SmallBitVector blocked(smg.getDims().size());
  auto visit = [&](Value v) {
    for (auto &ids : smg.getValueDims(v))
      if (ids.size() > 1)
        for (unsigned d : ids)
          blocked.set(d);
  };
  for (BlockArgument arg : smg.getGraph().getBody().getArguments())
    visit(arg);
  for (const Space &space : smg.getSpaces())
    for (Value r : space.op->getResults())
      visit(r);
  for (const DimWindow &w : smg.getWindows()) {
    if (w.source != DimWindow::kNoDim)
      blocked.set(w.source);
    blocked.set(w.slice);
  }
  return blocked;
}

/// Arithmetic ops per iteration point of a space (at least one).
static double opsPerPoint(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return isa<linalg::SoftmaxOp>(op) ? 5.0 : 0.0;
  double ops = 0;
  for (Operation &inner : linalgOp.getBlock()->without_terminator())
    if (!isa<linalg::IndexOp>(inner))
      ops += 1;
  return std::max(1.0, ops);
}

/// Whether `space` is a contraction that accumulates by addition
/// (TensorCoreLegality.h's structural rule on its op).
static bool isAddContraction(const Space &space) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(space.op);
  return linalgOp && smap::isContraction(linalgOp) &&
         llvm::any_of(space.reductions,
                      [](auto r) { return r.second == Combiner::Add; });
}

/// The global dim of each of `space`'s loops, std::nullopt for a unit loop
/// the analysis folded away; none at all when its dims do not match its
/// loops (a loop a reshape split).
static std::optional<SmallVector<std::optional<unsigned>>>
loopDims(const Space &space) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(space.op);
  if (!linalgOp)
    return std::nullopt;
  // One dim per loop, or per loop of a non-unit extent.
  SmallVector<int64_t> ranges = linalgOp.getStaticLoopRanges();
  bool perLoop = space.dims.size() == ranges.size();
  if (!perLoop &&
      space.dims.size() != static_cast<size_t>(llvm::count_if(
                               ranges, [](int64_t r) { return r != 1; })))
    return std::nullopt;
  SmallVector<std::optional<unsigned>> dims;
  unsigned next = 0;
  for (int64_t range : ranges)
    dims.push_back(!perLoop && range == 1
                       ? std::nullopt
                       : std::optional<unsigned>(space.dims[next++]));
  return dims;
}

/// The loop extents `space`'s op has in a block (one per loop, unit loops
/// the analysis folded away at 1), or none when its dims do not match its
/// loops.
static std::optional<SmallVector<int64_t>>
blockLoopExtents(const Space &space,
                 function_ref<int64_t(unsigned)> blockExtent) {
  std::optional<SmallVector<std::optional<unsigned>>> dims = loopDims(space);
  if (!dims)
    return std::nullopt;
  return llvm::map_to_vector(*dims, [&](std::optional<unsigned> d) {
    return d ? blockExtent(*d) : int64_t(1);
  });
}

/// Whether the GPU lowering runs `space` on tensor cores (mma.sync
/// m16n8k16) with these block extents: the lowering's own rule
/// (TensorCoreLegality.h) on the op with the block's loop extents.
static bool runsOnTensorCores(const Space &space,
                              function_ref<int64_t(unsigned)> blockExtent) {
  if (!isAddContraction(space) || space.reductions.size() != 1)
    return false;
  std::optional<SmallVector<int64_t>> extents =
      blockLoopExtents(space, blockExtent);
  return extents && matchMmaSyncShape(cast<linalg::LinalgOp>(space.op),
                                      *extents)
                        .has_value();
}

/// Whether `space` is a contraction the tensor cores read as TF32.
static bool readsTF32(const Space &space) {
  auto op = dyn_cast<linalg::LinalgOp>(space.op);
  std::optional<Type> type = op ? getMmaOperandType(op) : std::nullopt;
  return type && type->isTF32();
}

bool mlir::smap::fitsWgmmaTile(int64_t m, int64_t n, int64_t k) {
  return k == kWgmmaTileK && (m == 64 || m == 128) && n % 64 == 0 && n <= 256;
}

int64_t mlir::smap::wgmmaConsumerWarpgroups(int64_t bm, int64_t bn) {
  return bm == 128 && bn != 128 ? 2 : 1;
}

/// The global dims of a GEMM the TMA lowering can run (wgmmaDims): m, n,
/// k, and the batch dims of a batched A (a 3-D linear layer's input, or a
/// batched GEMM whose B is batched too), which a block must take one at a
/// time.
struct WgmmaDims {
  unsigned m, n, k;
  SmallVector<unsigned> batch;
};

/// The loop positions `operand`'s indexing map reads (~0u for a result that
/// is not a loop).
static SmallVector<unsigned> loopPositions(linalg::LinalgOp op,
                                           OpOperand *operand) {
  SmallVector<unsigned> result;
  for (AffineExpr expr : op.getMatchingIndexingMap(operand).getResults()) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    result.push_back(dim ? dim.getPosition() : ~0u);
  }
  return result;
}

/// The dims of `space` when its graph is a single GEMM (plus elementwise
/// work) that the Hopper lowering can run on wgmma (strategy wgmma_tma)
/// given a suitable schedule: A[batch..., m, k] and B[k, n] (or B[n, k], a
/// K-major B; either with A's batch dims first) 16-bit matrices the graph
/// reads from memory into
/// C[batch..., m, n]; no other op reducing along k. The caller checks the
/// target's features and that blocks take the batch dims one at a time.
static std::optional<WgmmaDims> wgmmaDims(const SpaceMappingGraph &smg,
                                          const Space &space) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(space.op);
  if (!isAddContraction(space) || !linalgOp ||
      linalgOp.getNumDpsInputs() != 2 || linalgOp.getNumLoops() < 3 ||
      space.reductions.size() != 1)
    return std::nullopt;
  unsigned k = space.reductions.front().first;
  for (const Space &other : smg.getSpaces())
    if (&other != &space && other.role == MemberRole::Compute &&
        (isAddContraction(other) || llvm::is_contained(other.dims, k)))
      return std::nullopt;
  for (OpOperand *operand : linalgOp.getDpsInputOperands()) {
    auto type = dyn_cast<RankedTensorType>(operand->get().getType());
    if (!isa<BlockArgument>(operand->get()) || !type ||
        !(type.getElementType().isF16() || type.getElementType().isBF16()))
      return std::nullopt;
  }
  SmallVector<unsigned> in0 = loopPositions(linalgOp,
                                            linalgOp.getDpsInputOperand(0)),
                        in1 = loopPositions(linalgOp,
                                            linalgOp.getDpsInputOperand(1)),
                        out = loopPositions(linalgOp,
                                            linalgOp.getDpsInitOperand(0));
  SmallVector<utils::IteratorType> iterators = linalgOp.getIteratorTypesArray();
  unsigned r =
      llvm::find(iterators, utils::IteratorType::reduction) - iterators.begin();
  for (auto [a, b] : {std::tie(in0, in1), std::tie(in1, in0)}) {
    // A (batch..., m, k) and C (batch..., m, n): the same leading loops.
    size_t rows = a.size() - 1;
    if (a.size() < 2 || a.size() != out.size() || b.size() < 2 ||
        a.size() + 1 != linalgOp.getNumLoops() || a.back() != r ||
        !llvm::equal(ArrayRef(a).take_front(rows),
                     ArrayRef(out).take_front(rows)))
      continue;
    // B batched like A (a batched GEMM), or one matrix for every batch.
    ArrayRef<unsigned> bBatch = ArrayRef(b).drop_back(2);
    if (!bBatch.empty() && bBatch != ArrayRef(a).take_front(rows - 1))
      continue;
    unsigned b0 = b[b.size() - 2], b1 = b.back();
    std::optional<unsigned> n;
    if (b0 == r && out.back() == b1)
      n = b1;
    else if (b1 == r && out.back() == b0)
      n = b0;
    if (!n)
      continue;
    // TMA reads a batch of B[k, n] as the matrix of its rows: a k slice
    // past the end would read the next batch's rows, not zeros.
    if (!bBatch.empty() && b0 == r &&
        smg.getDims()[k].extent % kWgmmaTileK != 0)
      continue;
    // By the loops' global dims: a unit loop has none (a batch of one is
    // no batch; rows or columns of one are no wgmma tile).
    std::optional<SmallVector<std::optional<unsigned>>> dims = loopDims(space);
    if (!dims)
      return std::nullopt;
    auto dimOf = [&](unsigned loop) {
      return loop < dims->size() ? (*dims)[loop] : std::nullopt;
    };
    std::optional<unsigned> m = dimOf(a[rows - 1]), nDim = dimOf(*n);
    if (!m || !nDim)
      return std::nullopt;
    WgmmaDims result{*m, *nDim, k, {}};
    for (unsigned loop : ArrayRef(a).take_front(rows - 1)) {
      if (loop >= dims->size())
        return std::nullopt;
      if (std::optional<unsigned> batch = (*dims)[loop])
        result.batch.push_back(*batch);
    }
    return result;
  }
  return std::nullopt;
}

/// The values the graph yields (its outputs).
static llvm::SmallPtrSet<Value, 4> graphOutputs(const SpaceMappingGraph &smg) {
  llvm::SmallPtrSet<Value, 4> outputs;
  for (Value out : smg.getGraph().getYield().getValues())
    outputs.insert(out);
  return outputs;
}

/// Whether a row-fragment block has something to keep in registers between
/// ops (RowFragments.cpp: an op other than a contraction writes a block
/// intermediate, or a contraction reads one as A); a lone GEMM has not,
/// unless it reads B as [n, k] (readsBothOperandsKMajor) with a tile the
/// TMA lowering does not take.
static bool fusesInRegisters(const SpaceMappingGraph &smg,
                             function_ref<int64_t(unsigned)> blockExtent) {
  llvm::SmallPtrSet<Value, 4> yielded = graphOutputs(smg);
  for (const Space &space : smg.getSpaces()) {
    if (space.role != MemberRole::Compute)
      continue;
    if (!runsOnTensorCores(space, blockExtent)) {
      if (llvm::any_of(space.op->getResults(),
                       [&](Value r) { return !yielded.contains(r); }))
        return true;
      continue;
    }
    auto linalgOp = cast<linalg::LinalgOp>(space.op);
    Operation *a = linalgOp.getDpsInputs()[0].getDefiningOp();
    if ((a && smg.lookupSpace(a)) || readsBothOperandsKMajor(linalgOp))
      return true;
  }
  return false;
}

/// Whether the block's one tensor-core contraction reads as A a value the
/// block computes (a prologue: an MLP's GELU split off before its second
/// GEMM). On row fragments the A fragments are then computed from global
/// loads at every step, with nothing after the contraction to keep in
/// registers: measured 4.3x slower on the H200 than cutting before the
/// contraction, the prologue becoming the first GEMM's epilogue and the
/// GEMM a wgmma_tma block (conformance gap 13,
/// bench/results/conformance-forms).
static bool
isLoneContractionWithPrologue(const SpaceMappingGraph &smg,
                              function_ref<int64_t(unsigned)> blockExtent) {
  const Space *contraction = nullptr;
  for (const Space &space : smg.getSpaces()) {
    if (space.role != MemberRole::Compute ||
        !runsOnTensorCores(space, blockExtent))
      continue;
    if (contraction)
      return false;
    contraction = &space;
  }
  if (!contraction)
    return false;
  Operation *a =
      cast<linalg::LinalgOp>(contraction->op).getDpsInputs()[0].getDefiningOp();
  return a && smg.lookupSpace(a);
}

/// The operands a ragged temporal slice along `t` masks: its last slice
/// repeats elements that earlier slices combined, and the slicer zeroes
/// them in a copy of one operand of each contraction along t
/// (getRaggedSliceMaskedOperand). Empty when t's slices divide it.
static SmallVector<Value>
raggedSliceMaskedOperands(const SpaceMappingGraph &smg,
                          function_ref<int64_t(unsigned)> blockExtent,
                          unsigned t) {
  SmallVector<Value> masked;
  if (smg.getDims()[t].extent % blockExtent(t) == 0)
    return masked;
  for (const Space &space : smg.getSpaces()) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(space.op);
    bool alongT =
        llvm::any_of(space.reductions, [&](auto r) { return r.first == t; });
    if (!linalgOp || !alongT || !isMultiplyAccumulate(linalgOp))
      continue;
    if (OpOperand *chosen =
            getRaggedSliceMaskedOperand(linalgOp, [&](OpOperand *input) {
              return smg.isIndexedBy(input->get(), t);
            }))
      masked.push_back(chosen->get());
  }
  return masked;
}

/// Whether a ragged temporal slice along `t` masks a graph input's tile,
/// which no row-fragment op writes (fuzz seed 867: Q.K^T reduced along a
/// ragged head dim).
static bool masksInputTile(const SpaceMappingGraph &smg,
                           function_ref<int64_t(unsigned)> blockExtent,
                           unsigned t) {
  return llvm::any_of(raggedSliceMaskedOperands(smg, blockExtent, t),
                      [](Value v) { return isa<BlockArgument>(v); });
}

/// Whether `space`'s other dim `col` (besides the rows) is a column of a
/// row tile it reads or writes: a member's value, not a graph input read
/// from global memory (fuzz seed 331: a LayerNorm's sum over its input).
static bool hasColumnTile(const SpaceMappingGraph &smg, const Space &space,
                          unsigned col) {
  auto isTile = [&](Value v) {
    return !isa<BlockArgument>(v) && smg.isIndexedBy(v, col);
  };
  return llvm::any_of(space.op->getOperands(), isTile) ||
         llvm::any_of(space.op->getResults(), isTile);
}

/// Whether the block's tile of `value` (a member's result) has the rows as
/// its first dim of more than one element, or stays in global memory (a
/// graph output no member reads). The row-fragment lowering keeps a block
/// buffer in registers by its first non-unit dim (RowFragments.cpp,
/// rowLayoutOf), and an output a member reads gets a block buffer too
/// (privatizeRunningOutputs), so a transposed tile would have its columns
/// where the rows go (fuzz seed 41139: a contraction's [n, m] result
/// transposed to [m, n], returned and used).
static bool hasRowsFirst(const SpaceMappingGraph &smg, Value value,
                         const llvm::SmallPtrSet<Value, 4> &outputs,
                         function_ref<int64_t(unsigned)> blockExtent,
                         unsigned rowDim) {
  bool global = outputs.contains(value) &&
                llvm::none_of(value.getUsers(), [&](Operation *user) {
                  return smg.lookupSpace(user) != nullptr;
                });
  if (global)
    return true;
  for (const SmallVector<unsigned> &ids : smg.getValueDims(value)) {
    SmallVector<unsigned> nonUnit;
    for (unsigned d : ids)
      if (blockExtent(d) > 1)
        nonUnit.push_back(d);
    if (!nonUnit.empty())
      return nonUnit.size() == 1 && nonUnit.front() == rowDim;
  }
  return true;
}

/// Whether every member has the form the row-fragment lowering builds
/// (RowFragments.cpp, RowFragmentPlanner::checkOp). Every tile a member
/// writes has the rows first (hasRowsFirst). A tensor-core contraction
/// accumulates into a row tile (findRows, checkContraction); any other op
/// runs over the rows and at most one more dim of the block (loopRolesOf):
/// a contraction the tensor cores do not take (three inputs, a fused
/// prologue) has a third. A contraction or row reduction that is a graph
/// output (a split graph's partial sums, per-part max and sum) accumulates
/// in registers too: privatizeRunningOutputs gives it a block buffer.
static bool membersTakeRowFragments(const SpaceMappingGraph &smg,
                                    function_ref<int64_t(unsigned)> blockExtent,
                                    unsigned rowDim,
                                    std::optional<unsigned> temporalDim) {
  if (temporalDim && masksInputTile(smg, blockExtent, *temporalDim))
    return false;
  llvm::SmallPtrSet<Value, 4> outputs = graphOutputs(smg);
  for (const Space &space : smg.getSpaces()) {
    if (space.role != MemberRole::Compute)
      continue;
    if (llvm::any_of(space.op->getResults(), [&](Value result) {
          return !hasRowsFirst(smg, result, outputs, blockExtent, rowDim);
        }))
      return false;
    if (runsOnTensorCores(space, blockExtent))
      continue;
    SmallVector<unsigned> others;
    for (unsigned d : space.dims)
      if (d != rowDim && blockExtent(d) > 1)
        others.push_back(d);
    if (others.size() > 1)
      return false;
    if (others.size() == 1 && !hasColumnTile(smg, space, others[0]))
      return false;
  }
  return true;
}

/// The barriers one temporal step of a shared-memory strategy (simt,
/// mma_sync) waits on: the block lowering distributes each contraction and
/// reduction of the step over the block's threads with a barrier after it,
/// and the elementwise ops between them in groups (DistributeBlocks). A
/// block alone on its SM waits on each; other resident blocks hide them.
/// Row fragments and wgmma keep a step's intermediates in registers and
/// wait once per step, on the staged tiles.
static int64_t stepPhases(const SpaceMappingGraph &smg, unsigned t) {
  int64_t reductions = 0;
  bool elementwise = false;
  for (const Space &space : smg.getSpaces()) {
    if (space.role != MemberRole::Compute ||
        !llvm::is_contained(space.dims, t))
      continue;
    if (space.reductions.empty())
      elementwise = true;
    else
      ++reductions;
  }
  return std::max<int64_t>(1, reductions + (elementwise ? 1 : 0));
}

namespace {
/// A block the row-fragment lowering keeps in registers: its row dim and
/// the per-lane registers of one 16-row slab per warp (without the base).
struct RowFragmentFit {
  unsigned rowDim;
  int64_t rows;
  int64_t registers;
};
} // namespace

/// The rows of a row-fragment block: the last non-unit dim of the result of
/// the first contraction on tensor cores that A has and B has not (its m
/// dim), if any.
static std::optional<unsigned>
tensorCoreRowDim(const SpaceMappingGraph &smg,
                 function_ref<int64_t(unsigned)> blockExtent) {
  std::optional<unsigned> rowDim;
  for (const Space &space : smg.getSpaces()) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(space.op);
    if (!linalgOp || !runsOnTensorCores(space, blockExtent))
      continue;
    SmallVector<unsigned> a = flatDims(smg, linalgOp.getDpsInputs()[0]),
                          b = flatDims(smg, linalgOp.getDpsInputs()[1]),
                          out = flatDims(smg, linalgOp->getResult(0));
    for (unsigned d : out)
      if (blockExtent(d) > 1 && llvm::is_contained(a, d) &&
          !llvm::is_contained(b, d))
        rowDim = d;
    break;
  }
  return rowDim;
}

/// The per-lane registers the row-fragment lowering
/// (strategy row_fragments) needs to keep every intermediate
/// of a block in registers, if it can: a tensor-core contraction's result
/// is a tile of the block's rows (its m dim), and so is every intermediate
/// (the rows and at most one other dim). Each warp owns 16 rows; a
/// [rows, C] tile takes C / 2 registers per lane, a row vector 2. Live at
/// once: the state the temporal loop carries (what reduces along it) and
/// the two largest of the other tiles (a step's scores and probabilities;
/// elementwise ops write in place). None when the block has nothing to
/// fuse, rows the lowering does not take, or a contraction over more than
/// 256 elements.
static std::optional<RowFragmentFit>
rowFragmentRegisters(const SpaceMappingGraph &smg,
                     function_ref<int64_t(unsigned)> blockExtent,
                     std::optional<unsigned> temporalDim) {
  std::optional<unsigned> rowDim = tensorCoreRowDim(smg, blockExtent);
  // The row-fragment lowering takes 16-bit operands, not TF32 ones.
  if (!rowDim || llvm::any_of(smg.getSpaces(), readsTF32))
    return std::nullopt;
  int64_t rows = blockExtent(*rowDim);
  if (rows % 16 || rows > 128 || !fusesInRegisters(smg, blockExtent) ||
      isLoneContractionWithPrologue(smg, blockExtent))
    return std::nullopt;
  // A contraction of a row block reduces over at most 256 elements at a
  // time (RowFragments.cpp).
  for (const Space &space : smg.getSpaces())
    if (runsOnTensorCores(space, blockExtent) &&
        blockExtent(space.reductions.front().first) > 256)
      return std::nullopt;
  if (!membersTakeRowFragments(smg, blockExtent, *rowDim, temporalDim))
    return std::nullopt;
  int64_t state = 0;
  SmallVector<int64_t> tiles;
  for (const Space &space : smg.getSpaces()) {
    if (space.role == MemberRole::Init)
      continue;
    bool carried = temporalDim && llvm::any_of(space.reductions, [&](auto r) {
                     return r.first == *temporalDim;
                   });
    for (Value result : space.op->getResults()) {
      SmallVector<unsigned> others;
      bool hasRows = false;
      for (unsigned d : flatDims(smg, result)) {
        if (d == *rowDim)
          hasRows = true;
        else if (blockExtent(d) > 1)
          others.push_back(d);
      }
      if (!hasRows || others.size() > 1)
        return std::nullopt;
      int64_t cost = others.empty() ? 2 : blockExtent(others.front()) / 2;
      if (carried)
        state += cost;
      else
        tiles.push_back(cost);
    }
  }
  llvm::sort(tiles, std::greater<int64_t>());
  int64_t registers = state;
  for (int64_t cost : ArrayRef<int64_t>(tiles).take_front(2))
    registers += cost;
  if (registers > kRowFragmentRegisterBudget)
    return std::nullopt;
  return RowFragmentFit{*rowDim, rows, registers};
}

/// Whether the tile of graph input `value` a block stages is one wgmma
/// reads through a swizzled descriptor (RowFragments.cpp, wgmmaTileOf): an
/// f16 or bf16 tile of two non-unit dims, the input's last one contiguous and a
/// multiple of 16 wide, and one of them `k`. Returns the non-unit dims.
static std::optional<std::pair<unsigned, unsigned>>
swizzledWgmmaTile(const SpaceMappingGraph &smg, Value value, unsigned k,
                  function_ref<int64_t(unsigned)> blockExtent) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!isa<BlockArgument>(value) || !type ||
      !(type.getElementType().isF16() || type.getElementType().isBF16()))
    return std::nullopt;
  SmallVector<unsigned> nonUnit;
  auto axes = smg.getValueDims(value);
  for (auto &ids : axes) {
    // A unit axis is folded away (no dim); a reshaped one has several.
    if (ids.size() > 1)
      return std::nullopt;
    if (ids.size() == 1 && blockExtent(ids.front()) > 1)
      nonUnit.push_back(ids.front());
  }
  if (nonUnit.size() != 2 || axes.empty() || axes.back().size() != 1 ||
      axes.back().front() != nonUnit[1] ||
      blockExtent(nonUnit[1]) % 16 || !llvm::is_contained(nonUnit, k))
    return std::nullopt;
  return std::make_pair(nonUnit[0], nonUnit[1]);
}

/// Whether every contraction of a row-fragment block runs on wgmma
/// (strategy row_fragments_wgmma; RowFragments.cpp, planWgmmaRows): rows a
/// multiple of 64; each contraction at most 256 wide and k a multiple of
/// 16; B, and A unless it is an intermediate row tile, a swizzled staged
/// tile, A with k contiguous. Collects the swizzled graph inputs.
static bool rowFragmentsOnWgmma(const SpaceMappingGraph &smg,
                                const RowFragmentFit &fit,
                                function_ref<int64_t(unsigned)> blockExtent,
                                llvm::SmallSetVector<Value, 4> &swizzled) {
  if (fit.rows % 64)
    return false;
  for (const Space &space : smg.getSpaces()) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(space.op);
    if (!linalgOp || !runsOnTensorCores(space, blockExtent))
      continue;
    unsigned k = space.reductions.front().first;
    if (blockExtent(k) % 16)
      return false;
    Value a = linalgOp.getDpsInputs()[0], b = linalgOp.getDpsInputs()[1];
    if (!llvm::is_contained(flatDims(smg, a), fit.rowDim))
      std::swap(a, b);
    for (unsigned d : flatDims(smg, linalgOp->getResult(0)))
      if (d != fit.rowDim && blockExtent(d) > 256)
        return false;
    if (!swizzledWgmmaTile(smg, b, k, blockExtent))
      return false;
    swizzled.insert(b);
    if (isa<BlockArgument>(a)) {
      auto tile = swizzledWgmmaTile(smg, a, k, blockExtent);
      if (!tile || tile->second != k || tile->first != fit.rowDim)
        return false;
      swizzled.insert(a);
    }
  }
  return true;
}

/// Whether elementwise `op` writes in place over an intermediate of its
/// type that nothing else reads: one made by an op `inPlaceOver` accepts
/// (one-shot bufferization does so after an elementwise op; the wgmma
/// lowering after the GEMM, into its accumulator tile).
static bool writesInPlace(Operation *op,
                          function_ref<bool(Operation *)> inPlaceOver) {
  if (!isElementwise(op))
    return false;
  auto linalgOp = cast<linalg::LinalgOp>(op);
  return llvm::any_of(linalgOp.getDpsInputOperands(), [&](OpOperand *in) {
    Value v = in->get();
    return v.getDefiningOp() && inPlaceOver(v.getDefiningOp()) &&
           v.hasOneUse() && v.getType() == op->getResult(0).getType() &&
           linalgOp.getMatchingIndexingMap(in).isIdentity();
  });
}

bool mlir::smap::fitsMmaSyncTile(int64_t m, int64_t n, int64_t k,
                                 int64_t tileK) {
  return m % 16 == 0 && n % 8 == 0 && k % tileK == 0;
}

int64_t mlir::smap::wgmmaRegistersPerThread(int64_t bm, int64_t bn) {
  return kBaseRegisters + bm / wgmmaConsumerWarpgroups(bm, bn) * bn / 128;
}

int64_t mlir::smap::residentBySharedMemory(int64_t bytes,
                                           int64_t smemPerBlock) {
  return bytes > smemPerBlock ? 0 : (smemPerBlock + 1024) / (bytes + 1024);
}

int64_t mlir::smap::chooseCpAsyncStages(int64_t totalBytes,
                                        int64_t bytesPerStage,
                                        int64_t maxStages,
                                        int64_t smemPerBlock) {
  auto resident = [&](int64_t stages) {
    return residentBySharedMemory(totalBytes + (stages - 1) * bytesPerStage,
                                  smemPerBlock);
  };
  if (bytesPerStage)
    for (int64_t stages = maxStages; stages > 1; --stages)
      if (resident(stages) >=
          std::max<int64_t>(1, std::min<int64_t>(2, resident(2))))
        return stages;
  return 1;
}

int64_t mlir::smap::registersForResidency(TargetAttr target, int64_t threads,
                                          int64_t blocksPerSm) {
  int64_t share =
      target.getRegsPerSm() / std::max<int64_t>(1, threads * blocksPerSm);
  return std::min(target.getRegsPerThread(), share / 8 * 8);
}

std::string mlir::smap::residencyRefusal(TargetAttr target, int64_t blocksPerSm,
                                         int64_t threads, int64_t smemBytes) {
  if (residentBySharedMemory(smemBytes, target.getSmemPerBlock()) < blocksPerSm)
    return "needs " + std::to_string(smemBytes) +
           " bytes of shared memory per block: " + std::to_string(blocksPerSm) +
           " such blocks do not fit an SM";
  int64_t registers = registersForResidency(target, threads, blocksPerSm);
  if (registers < kBaseRegisters)
    return std::to_string(blocksPerSm) + " blocks of " +
           std::to_string(threads) + " threads leave each thread " +
           std::to_string(registers) + " registers";
  return "";
}

double mlir::smap::waveUtilization(int64_t blocks, int64_t sms,
                                   int64_t resident) {
  int64_t slots = sms * std::max<int64_t>(1, resident);
  return static_cast<double>(blocks) /
         static_cast<double>(llvm::divideCeil(blocks, slots) * slots);
}


namespace {
/// A candidate as the strategy-specific pricing sees it.
struct CandidateView {
  const SpaceMappingGraph &smg;
  const ScheduleCandidate &candidate;
  TargetAttr target;
  const StrategyOptions &options;
  function_ref<int64_t(unsigned)> blockExtent;
  function_ref<double(Value)> stepBytes;
  /// The fraction of the temporal slices a block visits (a mask skips
  /// the others).
  double visitedSlices = 1;
  /// What slicing the temporal dim adds (null without one).
  const TemporalSliceFacts *facts = nullptr;

  /// Whether the temporal loop runs over `d`'s values.
  bool alongTemporal(ArrayRef<unsigned> d) const {
    return candidate.temporalDim &&
           llvm::is_contained(d, *candidate.temporalDim);
  }

  /// Whether a tile does not divide its spatial dim: the last block is
  /// moved back to end at the extent, overlapping its neighbour.
  bool hasRaggedBlocks() const {
    ArrayRef<GlobalDim> dims = smg.getDims();
    for (unsigned d = 0; d < dims.size(); ++d)
      if (candidate.temporalDim != d && candidate.tiles[d] < dims[d].extent &&
          dims[d].extent % candidate.tiles[d] != 0)
        return true;
    return false;
  }
};

/// A block's input tiles (16-bit ones with their row padding): one copy
/// of each, and those that move with the temporal step.
struct StagedInputs {
  /// One input's tile: its bytes, its rows and padded row width (for a
  /// 16-bit tile), and whether it moves with the temporal step.
  struct Tile {
    Value input;
    double bytes = 0;
    int64_t rows = 0, bufferColumns = 0;
    /// The 16-byte chunks its copy moves, 0 when it cannot be copied in
    /// 16-byte chunks.
    int64_t chunks = 0;
    /// Its elements (copied one at a time when there are no chunks).
    int64_t elements = 0;
    bool moves = false;
    /// Laid out for wgmma: copied in 16-byte chunks only.
    bool swizzled = false;
  };
  SmallVector<Tile> tiles;
  double once = 0, moving = 0;
  void add(const Tile &tile) {
    tiles.push_back(tile);
    once += tile.bytes;
    if (tile.moves)
      moving += tile.bytes;
  }
  /// The same tiles with those in `swizzled` laid out for wgmma.
  StagedInputs swizzle(const llvm::SmallSetVector<Value, 4> &swizzled) const {
    StagedInputs out;
    for (Tile tile : tiles) {
      if (swizzled.contains(tile.input) && tile.rows) {
        tile.bytes = swizzledTileBytes(tile.rows, tile.bufferColumns);
        tile.swizzled = true;
      }
      out.add(tile);
    }
    return out;
  }
};
} // namespace

/// The cp.async depth of the staged tiles that move with the temporal step
/// (chooseCpAsyncStages, beside `onceBytes` of other shared memory), or
/// none when they cannot be pipelined: the options allow no pipeline, or a
/// tile does not arrive in 16-byte chunks that the block's `threads` split
/// evenly (Staging.cpp builds the copies so).
static std::optional<int64_t> cpAsyncDepth(const CandidateView &view,
                                           const StagedInputs &staged,
                                           int64_t onceBytes,
                                           int64_t threads) {
  int64_t maxStages = std::min(view.options.maxStages, kMaxCpAsyncStages);
  bool evenCopies =
      llvm::all_of(staged.tiles, [&](const StagedInputs::Tile &tile) {
        return !tile.moves ||
               splitsEvenly(tile.chunks, threads, kMaxAsyncCopyChunks);
      });
  if (maxStages <= 1 || !evenCopies)
    return std::nullopt;
  int64_t stages =
      chooseCpAsyncStages(onceBytes, static_cast<int64_t>(staged.moving),
                          maxStages, view.target.getSmemPerBlock());
  // One stage prefetches through registers, which holds at most
  // kMaxRegisterCopyChunks per thread (Staging.cpp,
  // prefetchStagedOperands); a larger step is not prefetched.
  bool fitsRegisters =
      llvm::all_of(staged.tiles, [&](const StagedInputs::Tile &tile) {
        return !tile.moves ||
               splitsEvenly(tile.chunks, threads, kMaxRegisterCopyChunks);
      });
  if (stages == 1 && !fitsRegisters)
    return std::nullopt;
  return stages;
}

/// Whether the copy through registers (Staging.cpp,
/// prefetchStagedOperands) loads every moving tile of `staged` one step
/// ahead: each splits evenly over the `threads` into at most
/// kMaxRegisterCopyChunks chunks of 16 bytes, or (but a swizzled tile) of
/// narrower ones down to kMinRegisterCopyChunkBytes, or of single elements
/// where it has no 16-byte chunks (Staging.cpp, stagingCopyPlan).
static bool prefetchesThroughRegisters(const StagedInputs &staged,
                                       int64_t threads) {
  return llvm::all_of(staged.tiles, [&](const StagedInputs::Tile &tile) {
    if (!tile.moves)
      return true;
    if (!tile.chunks)
      return splitsEvenly(tile.elements, threads, kMaxRegisterCopyChunks);
    int64_t maxSplit = tile.swizzled ? 1 : 16 / kMinRegisterCopyChunkBytes;
    for (int64_t split = 1; split <= maxSplit; split *= 2)
      if (splitsEvenly(tile.chunks * split, threads, kMaxRegisterCopyChunks))
        return true;
    return false;
  });
}

/// The copy groups a thread waits for in each step of a block whose moving
/// tiles nothing loads ahead (`stages` of at most one, no copy through
/// registers): a staging copy moves up to kMaxRegisterCopyChunks chunks
/// (single elements without 16-byte ones) per thread at a time, tile after
/// tile (Staging.cpp, distributeCopy). 0 when something loads them ahead.
static int64_t waitedCopyGroups(const StagedInputs &staged, int64_t threads,
                                int64_t stages) {
  if (!staged.moving || stages > 1 ||
      prefetchesThroughRegisters(staged, threads))
    return 0;
  int64_t groups = 0;
  for (const StagedInputs::Tile &tile : staged.tiles)
    if (tile.moves)
      groups += llvm::divideCeil(
          llvm::divideCeil(tile.chunks ? tile.chunks : tile.elements, threads),
          kMaxRegisterCopyChunks);
  return groups;
}

/// Whether a block of one row warp gets rowWarpReplicas copies of it
/// (RowFragments.cpp, sizeSlabs): when the grid leaves every SM at most one
/// block, so the other warp slots are idle, and no tile that moves with the
/// temporal step is read by other blocks too (a K tile of the decode step
/// whose value head dim is split over blocks). Measured on the H200
/// (bench/results/decode-row-replicas.md): 1.1-1.8x faster without such a
/// tile, 0.91x with one.
static bool replicatesRowWarp(const CandidateView &view,
                              const StagedInputs &staged, int64_t blocks) {
  if (view.options.rowWarpReplicas == 1 ||
      blocks > view.target.getSmCount())
    return false;
  const auto &dims = view.smg.getDims();
  return llvm::none_of(staged.tiles, [&](const StagedInputs::Tile &tile) {
    if (!tile.moves)
      return false;
    SmallVector<unsigned> tileDims = flatDims(view.smg, tile.input);
    for (unsigned d = 0; d < dims.size(); ++d)
      if (view.candidate.temporalDim != d &&
          view.candidate.tiles[d] < dims[d].extent &&
          !llvm::is_contained(tileDims, d))
        return true;
    return false;
  });
}

/// Prices a row-fragment block (RowFragments.cpp): two slabs per warp when
/// their registers fit, one warpgroup per 64 rows on wgmma (whose swizzled
/// tiles need the alignment slack); shared memory holds the staged input
/// tiles only, the moving ones in the cp.async copies chooseCpAsyncStages
/// gives (which the block lowering then builds). Returns the shared memory.
static double priceRowFragments(const CandidateView &view,
                                const RowFragmentFit &fit,
                                const StagedInputs &padded, bool hopper,
                                ScheduleEstimate &est) {
  llvm::SmallSetVector<Value, 4> swizzled;
  bool wgmmaRows = hopper && rowFragmentsOnWgmma(view.smg, fit,
                                                 view.blockExtent, swizzled);
  StagedInputs staged = wgmmaRows ? padded.swizzle(swizzled) : padded;
  int64_t slack = wgmmaRows ? kWgmmaSwizzleAlignment : 0;
  int64_t slabs = !wgmmaRows && fit.rows % 32 == 0 &&
                          2 * fit.registers <= kRowFragmentRegisterBudget
                      ? 2
                      : 1;
  est.strategy = wgmmaRows ? KernelStrategy::RowFragmentsWgmma
                           : KernelStrategy::RowFragments;
  est.threads = fit.rows * 2 / slabs;
  if (!wgmmaRows && est.threads == 32 &&
      replicatesRowWarp(view, staged, est.blocks))
    est.threads = 32 * view.options.rowWarpReplicas;
  est.regsPerThread = kBaseRegisters + slabs * fit.registers;
  est.stages = cpAsyncDepth(view, staged,
                            slack + static_cast<int64_t>(staged.once),
                            est.threads)
                   .value_or(1);
  est.waitedCopyGroups = waitedCopyGroups(staged, est.threads, est.stages);
  return slack + staged.once + (est.stages - 1) * staged.moving;
}

/// Prices a wgmma GEMM block (Wgmma.cpp): a TMA ring of the A and B tiles,
/// 1024-byte aligned, with the accumulator tile over it after the loop, its
/// depth chosen for the waves (WgmmaPipeline.h); one warpgroup holds the
/// accumulators, or one per 64 rows and a producer when specialized.
/// Besides, the epilogue's buffers: the graph's results go to global
/// memory, and elementwise ops over the accumulators or an elementwise
/// intermediate write in place. Returns the shared memory.
static double priceWgmmaBlock(const CandidateView &view, const Space &gemm,
                              std::array<int64_t, 3> tile,
                              ScheduleEstimate &est) {
  auto [bm, bn, bk] = tile;
  const StrategyOptions &options = view.options;
  double other = 0;
  llvm::SmallPtrSet<Value, 4> yielded = graphOutputs(view.smg);
  for (const Space &space : view.smg.getSpaces()) {
    if (&space == &gemm || space.role == MemberRole::Init ||
        writesInPlace(space.op, [&](Operation *producer) {
          return isElementwise(producer) || producer == gemm.op;
        }))
      continue;
    for (Value r : space.op->getResults())
      if (!yielded.contains(r))
        other += view.stepBytes(r);
  }
  est.warpSpecialized = wgmmaConsumerWarpgroups(bm, bn) > 1;
  WgmmaBlockShape block;
  block.bm = bm;
  block.bn = bn;
  block.bk = bk;
  block.steps =
      view.smg.getDims()[*view.candidate.temporalDim].extent / bk;
  block.warpSpecialized = est.warpSpecialized || options.warpSpecialize;
  block.producerWarps = options.producerWarps;
  std::string why;
  std::optional<TmaPipeline> pipeline =
      chooseTmaPipeline(block, static_cast<int64_t>(other), est.blocks,
                        view.target, options.maxStages, why);
  est.stages = pipeline ? pipeline->stages : 2;
  est.regsPerThread = wgmmaRegistersPerThread(bm, bn);
  est.strategy = block.warpSpecialized
                     ? KernelStrategy::WgmmaTmaWarpSpecialized
                     : KernelStrategy::WgmmaTma;
  est.threads = block.threads();
  // Without a pipeline that fits, the two-stage footprint says how far
  // over the budget the block is.
  return other + (pipeline ? pipeline->sharedBytes
                           : kWgmmaSwizzleAlignment +
                                 std::max(2 * block.stageBytes(),
                                          block.accumulatorBytes()));
}

/// The 16-byte chunks of the 16-bit staged tile of graph input `input`
/// ([rows, columns]), when the copy can move it in such chunks: its rows
/// and the input's rows are whole chunks (isVectorAligned in the lowering),
/// and a ragged temporal slice moves the tile along its last dimension only
/// when that dimension is the temporal dim alone: the last slice is then
/// read at extent - slice, a whole number of chunks too (the offset of a
/// flattened group of dims is not provably aligned). 0 otherwise.
static int64_t sixteenByteChunks(const CandidateView &view, Value input,
                                 Type stagedType, int64_t rows,
                                 int64_t columns) {
  auto type = cast<RankedTensorType>(input.getType());
  std::optional<unsigned> t = view.candidate.temporalDim;
  SmallVector<unsigned> lastDims = view.smg.getValueDims(input).back();
  bool raggedAlongLastDim =
      t && llvm::is_contained(lastDims, *t) && lastDims.size() > 1 &&
      view.smg.getDims()[*t].extent % view.candidate.sliceSize != 0;
  // A chunk is 16 bytes, as much as a staged row's padding.
  int64_t perChunk = getStagedRowPadding(stagedType);
  if (columns % perChunk || type.getShape().back() % perChunk ||
      raggedAlongLastDim)
    return 0;
  return rows * columns / perChunk;
}

/// The input tiles a shared-memory block (simt, mma_sync) stages: those
/// smap-stage-block-operands copies (getStagedTileType: each use by a
/// two-input reduction of a graph input, in its staged type), rows padded
/// by 16 bytes. A tile the tensor cores read rounded is copied through
/// registers, which keeps its loop from being pipelined (stagedTileAllocs):
/// then nothing moves in cp.async stages.
static StagedInputs stagedBlockTiles(const CandidateView &view,
                                     bool tensorCores) {
  StagedInputs staged;
  bool roundedMoves = false;
  // A ragged slice's masked copy of an input tile replaces the tile: the
  // contraction reads the copy, which is no slice to stage.
  SmallVector<Value> masked;
  if (std::optional<unsigned> t = view.candidate.temporalDim)
    masked = raggedSliceMaskedOperands(view.smg, view.blockExtent, *t);
  for (const Space &space : view.smg.getSpaces()) {
    std::optional<SmallVector<int64_t>> extents =
        blockLoopExtents(space, view.blockExtent);
    if (space.role != MemberRole::Compute || !extents)
      continue;
    auto linalgOp = cast<linalg::LinalgOp>(space.op);
    for (OpOperand *input : linalgOp.getDpsInputOperands()) {
      if (!isa<BlockArgument>(input->get()) ||
          llvm::is_contained(masked, input->get()))
        continue;
      std::optional<Type> type =
          getStagedTileType(linalgOp, input, *extents, tensorCores);
      SmallVector<unsigned> dims = flatDims(view.smg, input->get());
      SmallVector<SmallVector<unsigned>> perDimension =
          view.smg.getValueDims(input->get());
      if (!type || dims.empty() || perDimension.empty())
        continue;
      // An input the block reads whole (no dim tiled, none sliced in
      // time) is no slice of it, and only slices are staged: the
      // contraction reads it where it is.
      if (llvm::all_of(dims, [&](unsigned d) {
            return view.blockExtent(d) >= view.smg.getDims()[d].extent;
          }))
        continue;
      StagedInputs::Tile tile;
      tile.input = input->get();
      // The tile's last dimension is padded, a unit one too.
      int64_t columns = 1;
      for (unsigned d : perDimension.back())
        columns *= view.blockExtent(d);
      tile.rows = static_cast<int64_t>(view.stepBytes(input->get())) /
                  (elementBytes(input->get()) * columns);
      tile.bufferColumns =
          columns + getStagedRowPadding(linalgOp, input, *type);
      // Each copy placed 16-byte aligned.
      int64_t stagedBytes = type->getIntOrFloatBitWidth() / 8;
      tile.bytes = static_cast<double>(
          llvm::alignTo(stagedBytes * tile.rows * tile.bufferColumns, 16));
      tile.moves = view.candidate.temporalDim &&
                   llvm::is_contained(dims, *view.candidate.temporalDim);
      tile.chunks =
          sixteenByteChunks(view, input->get(), *type, tile.rows, columns);
      tile.elements = tile.rows * columns;
      roundedMoves |=
          tile.moves && *type != getElementTypeOrSelf(input->get().getType());
      staged.add(tile);
    }
  }
  if (roundedMoves)
    staged.moving = 0;
  return staged;
}

/// Whether the temporal loop accumulates `space` in a buffer of its own
/// that is finished after the loop: a reduction along the temporal dim
/// whose partial results are rescaled (or that the plan does not list).
static bool finishedAfterLoop(const CandidateView &view, const Space &space) {
  std::optional<unsigned> t = view.candidate.temporalDim;
  if (!t || llvm::none_of(space.reductions,
                          [&](auto r) { return r.first == *t; }))
    return false;
  for (auto [op, update] : view.smg.getDims()[*t].updates)
    if (op == space.op)
      return update != ReductionUpdate::Independent;
  return true;
}

/// Whether `space` writes into fresh tensors (tensor.empty, or a fill of
/// one): any other init (a graph input, another member's value: a computed
/// init) is copied into a block buffer first, which bufferization does not
/// place in the graph's output (fuzz seed 1004, a split).
static bool startsEmpty(const Space &space) {
  auto dps = dyn_cast<DestinationStyleOpInterface>(space.op);
  if (!dps)
    return true;
  return llvm::all_of(dps.getDpsInits(), [](Value init) {
    if (auto fill = init.getDefiningOp<linalg::FillOp>())
      init = fill.getDpsInits()[0];
    return static_cast<bool>(init.getDefiningOp<tensor::EmptyOp>());
  });
}

/// Whether `space`'s result takes over the buffer of an input
/// (getInPlaceInput, which smap-place-block-buffers builds) or of its
/// computed init (getInPlaceInit, which bufferization updates in place),
/// except a reduction along the temporal dim: the temporal slicer starts its
/// state from the identity and adds the init after the loop. Not in a block
/// whose temporal loop updates a centered sum of squares: the slack of
/// pricing every member a buffer of its own covers the update's own buffers
/// there (an upper bound; seed 33 of the CPU fuzzer's GPU stage took 112
/// bytes more than an exact pricing of the members).
static bool reusesOperandBuffer(const CandidateView &view, const Space &space) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(space.op);
  if (!linalgOp || (view.facts && view.facts->centeredSquares))
    return false;
  if (getInPlaceInput(linalgOp))
    return true;
  std::optional<unsigned> t = view.candidate.temporalDim;
  bool reducesAlongT = t && llvm::any_of(space.reductions,
                                         [&](auto r) { return r.first == *t; });
  return !reducesAlongT && getInPlaceInit(linalgOp);
}

/// Prices a block the shared-memory lowering builds (strategies simt and
/// mma_sync): its staged input tiles, the moving ones in the cp.async
/// copies chooseCpAsyncStages gives (which smap-distribute-blocks then
/// builds), a ragged slice's masked copy of an input tile in place of its
/// staged tile; and a buffer for every intermediate, the state the temporal
/// loop carries included, except views, the results that take over an
/// input's or their init's buffer (reusesOperandBuffer), and the graph's
/// results (bufferization writes them in place into global memory, an
/// accumulator too unless it is finished after the loop; with ragged blocks
/// only a result written once, the others are copied out of a block buffer:
/// convert-smap-to-scf's isWrittenOnceIntoEmpty), each 16-byte aligned as
/// placed; and the temporal slicer's own (TemporalSliceFacts: a running max's
/// new value and -inf guard, a finished value that is no result or comes before
/// a computed init is added; blocks of one row and one key, where every buffer
/// is 16 bytes, took more than the members' alone, found by the fuzzer).
/// These are the placed bytes (smap-place-block-buffers builds the sharing
/// priced here), except for an upper bound, which smap-distribute-blocks
/// checks, in three cases: a loop updating a centered sum of squares
/// (reusesOperandBuffer); a final pass (a second loop over the temporal dim)
/// repeats the loop's body, and its staged tiles and intermediates are
/// buffers of their own: the bound counts the block twice; and a temporal
/// loop of one slice folds away, letting bufferization write a running
/// max's new value over the slice's.
/// Returns the shared memory.
static double priceSharedMemoryBlock(const CandidateView &view,
                                     bool tensorCores, bool finalPass,
                                     ScheduleEstimate &est) {
  StagedInputs staged = stagedBlockTiles(view, tensorCores);
  llvm::SmallPtrSet<Value, 4> yielded = graphOutputs(view.smg);
  double intermediates = 0;
  auto buffer = [&](Value v) {
    return static_cast<double>(
        llvm::alignTo(static_cast<int64_t>(view.stepBytes(v)), 16));
  };
  bool ragged = view.hasRaggedBlocks();
  for (const Space &space : view.smg.getSpaces()) {
    if (space.role == MemberRole::Init || isBufferView(space.op) ||
        reusesOperandBuffer(view, space))
      continue;
    bool inPlace = !finishedAfterLoop(view, space) && startsEmpty(space);
    for (Value r : space.op->getResults())
      if (!inPlace || !yielded.contains(r) ||
          (ragged && !isWrittenOnceIntoEmpty(r)))
        intermediates += buffer(r);
  }
  // The temporal slicer's own buffers: a ragged last slice's masked copies
  // (of an input tile too, unpadded: stagedBlockTiles does not stage it),
  // each shift's slice maximum (the state is the member's own buffer), new
  // value and guard, and the finished value of a reduction
  // whose factors wait for the end (before its computed init is added, if it
  // has one).
  if (std::optional<unsigned> t = view.candidate.temporalDim)
    for (Value masked :
         raggedSliceMaskedOperands(view.smg, view.blockExtent, *t))
      intermediates += buffer(masked);
  if (view.facts) {
    for (Value shift : view.facts->shifts)
      intermediates += 3 * buffer(shift);
    for (Value finished : view.facts->finishedAfterLoop)
      if (!yielded.contains(finished) ||
          llvm::is_contained(view.facts->finishedBeforeInit, finished))
        intermediates += buffer(finished);
  }
  int64_t once = static_cast<int64_t>(staged.once + intermediates);
  est.stages = staged.moving
                   ? cpAsyncDepth(view, staged, once, est.threads).value_or(0)
                   : 0;
  est.waitedCopyGroups = waitedCopyGroups(staged, est.threads, est.stages);
  double bytes = once + (std::max<int64_t>(est.stages, 1) - 1) * staged.moving;
  return finalPass ? 2 * bytes : bytes;
}

/// L2 and the SMs move whole 32-byte sectors.
static constexpr int64_t kSectorBytes = 32;
/// L2 fills from DRAM in 64-byte units (two sectors): the 16- and 32-byte
/// column runs of a decode step's narrow weight tiles ran 4x and 1.3-1.5x
/// slower than 64-byte ones (bench/results/model-check-h100).
static constexpr int64_t kL2FetchBytes = 64;

/// The bytes moved per byte a block uses of `value`'s tile, in units of
/// `granule` bytes: a tile whose contiguous run (its last dims, as far as
/// the tile spans them whole) is shorter than a unit, or not a multiple of
/// one, moves more than it uses (a merge of split parts scheduled one
/// column per block moved 8x its bytes).
static double sectorFactor(const CandidateView &view, Value value,
                           int64_t granule = kSectorBytes) {
  // Measured on the H200 only; CPU caches move 64-byte lines, unmodelled.
  if (!view.target.isGPU())
    return 1.0;
  ArrayRef<GlobalDim> dims = view.smg.getDims();
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<SmallVector<unsigned>> valueDims = view.smg.getValueDims(value);
  int64_t run = elementBytes(value);
  for (int64_t i = type.getRank() - 1; i >= 0; --i) {
    // A dimension the SMG does not map to whole global dims (a slice
    // window, a unit dim) ends what is known of the run: no penalty.
    int64_t extent = 1;
    for (unsigned d : valueDims[i])
      extent *= dims[d].extent;
    if (valueDims[i].empty() || extent != type.getDimSize(i))
      return 1.0;
    for (unsigned d : llvm::reverse(valueDims[i])) {
      run *= view.blockExtent(d);
      if (view.blockExtent(d) < dims[d].extent)
        return static_cast<double>(llvm::alignTo(run, granule)) /
               static_cast<double>(run);
    }
  }
  return 1.0;
}

namespace {
/// The bytes blocks move to and from global memory, and the part of them
/// DRAM serves (the rest are re-reads of data L2 still holds).
struct GlobalTraffic {
  double total = 0, dram = 0;
};
} // namespace

/// The blocks of the candidate's grid along dim `d`.
static uint64_t gridSize(const CandidateView &view, unsigned d) {
  return llvm::divideCeil(view.smg.getDims()[d].extent,
                          view.candidate.tiles[d]);
}

/// The dims the grid's blocks are numbered along (sliced, not temporal), in
/// launch order's significance: the last varies fastest (row-major, as
/// convert-smap-to-scf numbers them; its raster groups are not modelled).
static SmallVector<unsigned> gridDims(const CandidateView &view) {
  SmallVector<unsigned> dims;
  for (unsigned d = 0; d < view.smg.getDims().size(); ++d)
    if (view.candidate.temporalDim != d &&
        view.candidate.tiles[d] < view.smg.getDims()[d].extent)
      dims.push_back(d);
  return dims;
}

/// How many consecutive blocks share a value along grid dim `d`: the
/// blocks of the dims after it.
static double launchStride(const CandidateView &view, ArrayRef<unsigned> grid,
                           unsigned d) {
  double stride = 1;
  for (unsigned e :
       llvm::drop_begin(grid, llvm::find(grid, d) - grid.begin() + 1))
    stride *= gridSize(view, e);
  return stride;
}

/// The usable part of L2 for re-reads: on Hopper each of its two
/// partitions holds its own copy of data SMs on both sides read.
static constexpr double kL2UsableFraction = 0.5;

/// Whether re-reads are priced by what L2 holds (StrategyOptions::l2Reuse,
/// on a GPU target that gives L2's size and rate).
static bool pricesL2(const CandidateView &view) {
  TargetAttr target = view.target;
  return view.options.l2Reuse && target.isGPU() && target.getL2Bytes() &&
         target.getL2Gbps();
}

/// Whether the blocks that read the same tile of `arg` find it in L2: the
/// data every input's tiles take over the blocks launched between two such
/// reads (and the wave running with them) fits in the usable L2. A tile is
/// shared along the sliced dims `arg` lacks; the closest two readers are a
/// stride of its fastest such dim apart.
static bool rereadsHitL2(const CandidateView &view, BlockArgument arg,
                         int64_t resident) {
  TargetAttr target = view.target;
  SmallVector<unsigned> grid = gridDims(view);
  SmallVector<unsigned> own = flatDims(view.smg, arg);
  std::optional<double> closest;
  for (unsigned d : grid)
    if (!llvm::is_contained(own, d))
      closest = std::min(closest.value_or(launchStride(view, grid, d)),
                         launchStride(view, grid, d));
  if (!closest)
    return true;
  double window = *closest + target.getSmCount() * resident;
  double workingSet = 0;
  for (BlockArgument input : view.smg.getGraph().getBody().getArguments()) {
    auto type = dyn_cast<RankedTensorType>(input.getType());
    if (!type || input.use_empty())
      continue;
    SmallVector<unsigned> inputDims = flatDims(view.smg, input);
    double tiles = 1, touched = 1;
    for (unsigned d : grid) {
      if (!llvm::is_contained(inputDims, d))
        continue;
      tiles *= gridSize(view, d);
      touched *= std::min<double>(
          gridSize(view, d), std::ceil(window / launchStride(view, grid, d)));
    }
    workingSet += type.getNumElements() * elementBytes(input) * touched / tiles;
  }
  return workingSet <= kL2UsableFraction * target.getL2Bytes();
}

/// Global traffic: inputs are re-read by every block along sliced dims
/// they lack (from L2 when rereadsHitL2 says so), and twice when a final
/// pass streams them again; outputs are written once.
static GlobalTraffic globalTraffic(const CandidateView &view, bool finalPass,
                                   int64_t resident) {
  const ScheduleCandidate &candidate = view.candidate;
  GraphOp graph = view.smg.getGraph();
  SmallVector<unsigned> grid = gridDims(view);
  GlobalTraffic traffic;
  for (BlockArgument arg : graph.getBody().getArguments()) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type || arg.use_empty())
      continue;
    SmallVector<unsigned> own = flatDims(view.smg, arg);
    double used = type.getNumElements() * elementBytes(arg);
    if (finalPass && llvm::is_contained(own, *candidate.temporalDim))
      used *= 2;
    if (view.alongTemporal(own))
      used *= view.visitedSlices;
    double rereads = 1;
    for (unsigned d : grid)
      if (!llvm::is_contained(own, d))
        rereads *= gridSize(view, d);
    double bytes = used * sectorFactor(view, arg);
    traffic.total += bytes * rereads;
    if (!pricesL2(view)) {
      traffic.dram += bytes * rereads;
      continue;
    }
    double fetched = used * sectorFactor(view, arg, kL2FetchBytes);
    traffic.dram +=
        rereadsHitL2(view, arg, resident) ? fetched : fetched * rereads;
  }
  for (Value out : graph.getYield().getValues())
    if (auto type = dyn_cast<RankedTensorType>(out.getType())) {
      double bytes =
          type.getNumElements() * elementBytes(out) * sectorFactor(view, out);
      traffic.total += bytes;
      traffic.dram += bytes;
    }
  return traffic;
}

namespace {
/// The strategies a target and the options allow.
struct AllowedStrategies {
  bool gpu, mmaSync, wgmma, rowFragments;
};
} // namespace

static AllowedStrategies allowedStrategies(TargetAttr target,
                                           const StrategyOptions &options) {
  AllowedStrategies allowed;
  allowed.gpu = target.isGPU();
  allowed.mmaSync = allowed.gpu && options.tensorCores &&
                    target.hasFeature(TargetFeature::MmaSync);
  allowed.wgmma = allowed.mmaSync && options.wgmma &&
                  target.hasFeature(TargetFeature::Wgmma) &&
                  target.hasFeature(TargetFeature::Tma);
  allowed.rowFragments = allowed.mmaSync && options.rowFragments;
  return allowed;
}

/// Whether `space` runs on tensor cores with this candidate's tiles.
static bool onTensorCores(const CandidateView &view,
                          const AllowedStrategies &allowed,
                          const Space &space) {
  return allowed.mmaSync && runsOnTensorCores(space, view.blockExtent);
}

namespace {
/// The GEMM a block runs on wgmma, if any, and its block tile (m, n, k).
struct WgmmaGemm {
  const Space *space = nullptr;
  std::array<int64_t, 3> tile = {0, 0, 0};
};

/// The ranking footprint of one block at one temporal step, and the part
/// of it that is reduction state.
struct StepFootprint {
  double smem = 0, state = 0;
};

/// The FLOPs of all blocks by the rate they run at.
struct FlopCounts {
  double tensor = 0, mmaSync = 0, scalar = 0;
  /// The CUDA cores' FLOPs, each weighted by the load issue time of its
  /// contraction's micro-tile (simtLoadFactor): what their time is priced
  /// by.
  double scalarIssue = 0;
};
} // namespace

/// A single GEMM whose block tile wgmma takes (Hopper): its footprint and
/// rate are those of that lowering.
static WgmmaGemm findWgmmaGemm(const CandidateView &view,
                               const AllowedStrategies &allowed) {
  bool hopper = allowed.wgmma;
  auto blockExtent = view.blockExtent;
  WgmmaGemm gemm;
  for (const Space &space : view.smg.getSpaces()) {
    std::optional<WgmmaDims> mnk = hopper && onTensorCores(view, allowed, space)
                                       ? wgmmaDims(view.smg, space)
                                       : std::nullopt;
    if (mnk && view.candidate.temporalDim == mnk->k &&
        fitsWgmmaTile(blockExtent(mnk->m), blockExtent(mnk->n),
                      blockExtent(mnk->k)) &&
        llvm::all_of(mnk->batch,
                     [&](unsigned d) { return blockExtent(d) == 1; })) {
      gemm.space = &space;
      gemm.tile = {blockExtent(mnk->m), blockExtent(mnk->n),
                   blockExtent(mnk->k)};
    }
  }
  return gemm;
}

/// The ranking footprint (rankingSmemBytes) of one block at one temporal
/// step: every input tile (16-bit ones with rows padded by 16 bytes) and
/// intermediate; the reduction state in registers.
static StepFootprint stepFootprint(const CandidateView &view, bool cpu) {
  const SpaceMappingGraph &smg = view.smg;
  std::optional<unsigned> t = view.candidate.temporalDim;
  StepFootprint footprint;
  for (BlockArgument arg : smg.getGraph().getBody().getArguments()) {
    if (!isa<RankedTensorType>(arg.getType()) || arg.use_empty())
      continue;
    double bytes = view.stepBytes(arg);
    SmallVector<unsigned> argDims = flatDims(smg, arg);
    if (!cpu && elementBytes(arg) == 2 && !argDims.empty())
      bytes += 16 * (bytes / (2 * view.blockExtent(argDims.back())));
    footprint.smem += bytes;
  }
  for (const Space &space : smg.getSpaces()) {
    if (space.role == MemberRole::Init)
      continue;
    bool reducesTemporal = t && llvm::any_of(space.reductions, [&](auto r) {
                             return r.first == *t;
                           });
    for (Value r : space.op->getResults())
      (reducesTemporal ? footprint.state : footprint.smem) += view.stepBytes(r);
  }
  // The block lowering (smap-distribute-blocks) keeps the reduction state
  // in shared memory too; a CPU "block" keeps everything in cache.
  footprint.smem += footprint.state;
  return footprint;
}

/// The strategy of a block no specialized lowering takes: loops on a CPU,
/// else mma.sync when a space runs on tensor cores, else simt.
static KernelStrategy fallbackStrategy(const CandidateView &view,
                                       const AllowedStrategies &allowed) {
  bool tensorCoreSpace =
      llvm::any_of(view.smg.getSpaces(), [&](const Space &space) {
        return onTensorCores(view, allowed, space);
      });
  return !allowed.gpu      ? KernelStrategy::Loops
         : tensorCoreSpace ? KernelStrategy::MmaSync
                           : KernelStrategy::Simt;
}

/// Chooses the block's strategy and prices its shared memory (ranking and
/// placed), threads, registers and stages into `est`. Returns the
/// registers residency is ranked with when they are not est.regsPerThread
/// (see the wave quantization).
static std::optional<int64_t> priceBlock(const CandidateView &view,
                                         const AllowedStrategies &allowed,
                                         const WgmmaGemm &gemm, bool finalPass,
                                         ScheduleEstimate &est) {
  bool cpu = !allowed.gpu;
  StepFootprint footprint = stepFootprint(view, cpu);
  double smem = footprint.smem;
  if (cpu) {
    // There are no registers to budget.
    est.regsPerThread = 0;
  } else {
    est.regsPerThread =
        kBaseRegisters +
        llvm::divideCeil(static_cast<int64_t>(footprint.state / 4),
                         view.candidate.threads);
  }
  std::optional<int64_t> rankingRegisters;
  // Intermediates in registers as row fragments (16 rows per warp): shared
  // memory holds the staged input tiles only.
  // A final pass is a second loop over the temporal dim; the row-fragment
  // lowering builds one loop per block (planRowFragments).
  std::optional<RowFragmentFit> fragments =
      !allowed.rowFragments || gemm.space || finalPass
          ? std::nullopt
          : rowFragmentRegisters(view.smg, view.blockExtent,
                                 view.candidate.temporalDim);
  if (fragments) {
    smem = priceRowFragments(view, *fragments,
                             stagedBlockTiles(view, /*tensorCores=*/true),
                             allowed.wgmma, est);
    rankingRegisters = kBaseRegisters + fragments->registers;
  }
  if (gemm.space)
    smem = priceWgmmaBlock(view, *gemm.space, gemm.tile, est);
  if (est.strategy == KernelStrategy::None)
    est.strategy = fallbackStrategy(view, allowed);
  // The ranking footprint: the placed one, except for the shared-memory
  // strategies (see ScheduleEstimate::rankingSmemBytes).
  est.rankingSmemBytes = static_cast<int64_t>(smem);
  est.smemBytes =
      !cpu && (est.strategy == KernelStrategy::Simt ||
               est.strategy == KernelStrategy::MmaSync)
          ? static_cast<int64_t>(priceSharedMemoryBlock(
                view, est.strategy == KernelStrategy::MmaSync, finalPass, est))
          : est.rankingSmemBytes;
  return rankingRegisters;
}

/// Whether the block's last temporal slice is partial (the slicer masks
/// the elements earlier slices saw).
static bool hasRaggedSlice(const CandidateView &view) {
  std::optional<unsigned> t = view.candidate.temporalDim;
  return t && view.smg.getDims()[*t].extent % view.candidate.sliceSize != 0;
}

/// The residency a block is built for: the one StrategyOptions::blocksPerSm
/// declares, else two for a row-fragment block on wgmma with a ragged
/// temporal slice whose grid fills more than one wave, when two fit in
/// shared memory but not in the registers the model counts and their share
/// is at least kDeclaredRegisterShare of that count; 0 (ptxas chooses)
/// otherwise. The ragged slice's mask code is what takes ptxas past the
/// share (64-dim attention at 128-key slices: 165 registers at 197 and
/// 1000 keys, 128 at 1024; bench/results/model-check-h100). Asked for two
/// blocks per SM, ptxas fit those in 128 with at most 120 bytes of spills
/// and they ran 1.13x to 1.35x faster (bench/results/blocks-per-sm-h100).
/// A grid of one wave would only look underused at two (the model has no
/// per-block rate).
static int64_t chooseResidency(const CandidateView &view,
                               const ScheduleEstimate &est) {
  if (view.options.blocksPerSm)
    return view.options.blocksPerSm;
  TargetAttr target = view.target;
  if (est.strategy != KernelStrategy::RowFragmentsWgmma ||
      !hasRaggedSlice(view) || est.blocks <= target.getSmCount() ||
      residentBySharedMemory(est.smemBytes, target.getSmemPerBlock()) < 2 ||
      2 * est.regsPerThread * est.threads <= target.getRegsPerSm())
    return 0;
  int64_t share = registersForResidency(target, est.threads, 2);
  return share >= kDeclaredRegisterShare * est.regsPerThread ? 2 : 0;
}

/// Builds the block for `blocks` blocks per SM: every thread starts with
/// what they leave it (ptxas spills what does not fit), and residency is
/// ranked at it. Returns why the block cannot be built for it, if it
/// cannot.
static std::string declareResidency(const CandidateView &view, int64_t blocks,
                                    ScheduleEstimate &est) {
  if (est.strategy == KernelStrategy::WgmmaTmaWarpSpecialized)
    return "moves registers between its warpgroups (setmaxnreg), which a "
           "declared residency would cap";
  std::string why =
      residencyRefusal(view.target, blocks, est.threads, est.smemBytes);
  if (why.empty()) {
    est.blocksPerSm = blocks;
    est.regsPerThread = registersForResidency(view.target, est.threads, blocks);
  }
  return why;
}

/// Says in est.overBudget which of the target's budgets the block exceeds
/// first, if any. Both shared-memory figures must fit: the placed one is
/// what the schedule records (and its verifier checks).
static void checkBudgets(TargetAttr target, ScheduleEstimate &est) {
  int64_t smem = std::max(est.rankingSmemBytes, est.smemBytes);
  if (smem > target.getSmemPerBlock())
    est.overBudget = "needs " + std::to_string(smem) +
                     " bytes of shared memory per block, the target has " +
                     std::to_string(target.getSmemPerBlock());
  else if (est.regsPerThread > target.getRegsPerThread())
    est.overBudget = "needs " + std::to_string(est.regsPerThread) +
                     " registers per thread, the target has " +
                     std::to_string(target.getRegsPerThread());
  else if (est.threads > target.getMaxThreads())
    est.overBudget = "uses " + std::to_string(est.threads) +
                     " threads per block, the target allows " +
                     std::to_string(target.getMaxThreads());
}

/// The arithmetic ops all blocks run for `space`: every block recomputes
/// the spaces that lack its sliced dims.
static double computedPoints(const CandidateView &view, const Space &space,
                             bool finalPass) {
  const ScheduleCandidate &candidate = view.candidate;
  ArrayRef<GlobalDim> dims = view.smg.getDims();
  // Ragged tiles and slices compute their whole tile.
  double points = opsPerPoint(space.op);
  for (unsigned d : space.dims)
    points *= gridSize(view, d) * view.blockExtent(d) *
              (candidate.temporalDim == d
                   ? llvm::divideCeil(dims[d].extent, candidate.sliceSize)
                   : 1);
  for (unsigned d = 0; d < dims.size(); ++d)
    if (candidate.tiles[d] < dims[d].extent &&
        !llvm::is_contained(space.dims, d))
      points *= gridSize(view, d);
  if (finalPass && llvm::is_contained(space.dims, *candidate.temporalDim))
    points *= 2;
  return points;
}

/// How much longer than its FMAs `space` takes on a GPU's CUDA cores
/// because of its operand loads: the lowering's micro-tile
/// (planSimtMicroTile with the block's loop extents and threads) priced by
/// getSimtLoadBoundFactor; 1 for what is no simt contraction, and on CPUs.
static double simtLoadFactor(const CandidateView &view, const Space &space) {
  auto op = dyn_cast<linalg::LinalgOp>(space.op);
  if (!view.target.isGPU() || !op)
    return 1.0;
  std::optional<SmallVector<int64_t>> extents =
      blockLoopExtents(space, view.blockExtent);
  if (!extents)
    return 1.0;
  std::optional<SimtMicroTile> tile =
      planSimtMicroTile(op, *extents, view.candidate.threads);
  return tile ? getSimtLoadBoundFactor(*tile) : 1.0;
}

/// The FLOPs of all blocks by rate. The f16 peak is the tensor cores' best
/// instruction's (wgmma on sm_90a); mma.sync runs at the target's
/// mma_sync_gflops; the CUDA cores' FLOPs are also weighted by their loads.
static FlopCounts countFlops(const CandidateView &view,
                             const AllowedStrategies &allowed,
                             const Space *wgmmaSpace, bool finalPass) {
  FlopCounts flops;
  for (const Space &space : view.smg.getSpaces()) {
    if (space.role != MemberRole::Compute)
      continue;
    double points = computedPoints(view, space, finalPass);
    if (view.alongTemporal(space.dims))
      points *= view.visitedSlices;
    if (onTensorCores(view, allowed, space)) {
      // A single GEMM chooses between the wgmma and mma.sync lowerings;
      // other graphs have only mma.sync, whose rate then ranks nothing.
      bool onMmaSync = &space != wgmmaSpace && allowed.wgmma &&
                       wgmmaDims(view.smg, space).has_value();
      // TF32 runs on mma.sync only, at half the 16-bit rate (the Hopper
      // tensor cores' dense TF32 peak is half their f16 one): a multiply
      // and an add per point, twice as long; the body's roundings are no
      // arithmetic of the tensor cores.
      if (readsTF32(space)) {
        flops.mmaSync += 2 * 2 * points / opsPerPoint(space.op);
        continue;
      }
      (onMmaSync ? flops.mmaSync : flops.tensor) += points;
    } else {
      flops.scalar += points;
      flops.scalarIssue += points * simtLoadFactor(view, space);
    }
  }
  return flops;
}

/// The blocks resident on one SM, for the wave quantization. Residency by
/// registers counts the tiles' thread count (chooseThreads) and one row
/// slab's registers, not the strategy's threads and slabs: the ranking was
/// calibrated that way on the H200, and a grid smaller than its slots
/// would otherwise look underused (the model has no per-block rate);
/// changing it needs its own measurements.
static int64_t residentBlocks(const CandidateView &view, bool cpu,
                              std::optional<int64_t> rankingRegisters,
                              const ScheduleEstimate &est) {
  if (cpu)
    return 1;
  if (est.blocksPerSm)
    return est.blocksPerSm;
  TargetAttr target = view.target;
  int64_t bySmem =
      target.getSmemPerBlock() / std::max<int64_t>(1, est.rankingSmemBytes);
  int64_t byRegs =
      target.getRegsPerSm() /
      std::max<int64_t>(1, rankingRegisters.value_or(est.regsPerThread) *
                               view.candidate.threads);
  return std::clamp<int64_t>(std::min(bySmem, byRegs), 1, kMaxBlocksPerSm);
}

/// The fixed cost of the temporal steps of `waves` waves of blocks, of
/// which `resident` share an SM: their barriers and the loads they wait
/// for (apart, as StrategyOptions::overlapSteps overlaps only the first).
struct StepCost {
  double barrierSeconds = 0;
  double waitedSeconds = 0;
  double total() const { return barrierSeconds + waitedSeconds; }
};

static StepCost temporalStepCost(const CandidateView &view, bool cpu,
                                 const ScheduleEstimate &est, int64_t waves,
                                 int64_t resident) {
  const ScheduleCandidate &candidate = view.candidate;
  double steps = static_cast<double>(waves) * view.visitedSlices *
                 static_cast<double>(llvm::divideCeil(
                     view.smg.getDims()[*candidate.temporalDim].extent,
                     candidate.sliceSize));
  int64_t phases = 1;
  if (est.strategy == KernelStrategy::Simt ||
      est.strategy == KernelStrategy::MmaSync)
    phases = llvm::divideCeil(stepPhases(view.smg, *candidate.temporalDim),
                              resident);
  StepCost cost;
  if (cpu) {
    cost.barrierSeconds = phases * steps * kCpuStepLatency;
    return cost;
  }
  cost.barrierSeconds = phases * steps * kGpuStepLatency;
  if (view.options.waitedLoads)
    cost.waitedSeconds = steps * est.waitedCopyGroups * kGpuWaitedLoadLatency;
  return cost;
}

/// Whether a grid of one wave is priced by the share of the SMs it keeps
/// busy (StrategyOptions::oneWave) rather than of their block slots: a
/// lone block is not 1/resident as fast as a full SM (a grid of 384 small
/// blocks was priced at 0.36 of the machine, and 96 larger ones that move
/// half the bytes measured faster: bench/results/one-wave-h100).
static bool pricesOneWaveBySms(const CandidateView &view, bool cpu,
                               const ScheduleEstimate &est, int64_t waves) {
  if (cpu || waves != 1)
    return false;
  bool memoryBound = est.memorySeconds >= est.computeSeconds;
  return view.options.oneWave == 2 ||
         (view.options.oneWave == 1 && memoryBound);
}

/// Estimates the time of the blocks: the slower of memory and compute,
/// over the utilization of the waves, plus the temporal steps' fixed cost.
static void estimateTime(const CandidateView &view, bool cpu,
                         const FlopCounts &flops,
                         std::optional<int64_t> rankingRegisters,
                         ScheduleEstimate &est) {
  TargetAttr target = view.target;
  est.memorySeconds = est.dramBytes / (target.getBandwidthGbps() * 1e9);
  if (pricesL2(view))
    est.memorySeconds = std::max(est.memorySeconds,
                                 est.globalBytes / (target.getL2Gbps() * 1e9));
  est.computeSeconds = flops.tensor / (target.getF16Gflops() * 1e9) +
                       flops.mmaSync / (target.getMmaSyncRate() * 1e9) +
                       flops.scalarIssue / (target.getF32Gflops() * 1e9);
  double seconds = std::max(est.memorySeconds, est.computeSeconds);
  // Wave quantization: blocks run in waves of (SMs x resident blocks).
  int64_t resident = residentBlocks(view, cpu, rankingRegisters, est);
  int64_t waves = llvm::divideCeil(est.blocks, target.getSmCount() * resident);
  est.waveUtilization =
      pricesOneWaveBySms(view, cpu, est, waves)
          ? waveUtilization(est.blocks, target.getSmCount(), /*resident=*/1)
          : waveUtilization(est.blocks, target.getSmCount(), resident);
  StepCost steps;
  if (view.candidate.temporalDim)
    steps = temporalStepCost(view, cpu, est, waves, resident);
  est.stepSeconds = steps.total();
  est.waitedLoadSeconds = steps.waitedSeconds;
  est.barriersOverlapMemory = !cpu && view.options.overlapSteps;
  if (est.barriersOverlapMemory) {
    // The steps' barriers hide under the memory traffic of the other
    // resident blocks; a load a step waits for does not.
    est.seconds = std::max(est.memorySeconds / est.waveUtilization,
                           est.computeSeconds / est.waveUtilization +
                               steps.barrierSeconds) +
                  steps.waitedSeconds;
    return;
  }
  est.seconds = seconds / est.waveUtilization + est.stepSeconds;
}

TemporalSliceFacts
mlir::smap::getTemporalSliceFacts(const SpaceMappingGraph &smg, unsigned t) {
  TemporalSliceFacts facts;
  std::string unused;
  FailureOr<TemporalSlicePlan> plan = planTemporalSlice(smg, t, unused);
  if (failed(plan))
    return facts;
  facts.skips = modelSkippedSlices(smg, *plan);
  for (const ReductionPlan &r : plan->reductions) {
    facts.centeredSquares |= r.update == ReductionUpdate::CenteredSquare;
    for (const ExpTerm &term : r.info.expTerms)
      if (!llvm::is_contained(facts.shifts, term.shift))
        facts.shifts.push_back(term.shift);
    if (r.info.stripped.empty())
      continue;
    facts.finishedAfterLoop.push_back(r.op->getResult(0));
    if (addsInitAfterLoop(r))
      facts.finishedBeforeInit.push_back(r.op->getResult(0));
  }
  return facts;
}

ScheduleEstimate mlir::smap::estimateSchedule(
    const SpaceMappingGraph &smg, const ScheduleCandidate &candidate,
    TargetAttr target, const StrategyOptions &options) {
  std::optional<TemporalSliceFacts> facts;
  if (candidate.temporalDim)
    facts = getTemporalSliceFacts(smg, *candidate.temporalDim);
  return estimateSchedule(smg, candidate, target, options,
                          facts ? &*facts : nullptr);
}

ScheduleEstimate
mlir::smap::estimateSchedule(const SpaceMappingGraph &smg,
                             const ScheduleCandidate &candidate,
                             TargetAttr target, const StrategyOptions &options,
                             const TemporalSliceFacts *facts) {
  AllowedStrategies allowed = allowedStrategies(target, options);
  ArrayRef<GlobalDim> dims = smg.getDims();
  auto blockExtent = [&](unsigned d) {
    if (candidate.temporalDim && *candidate.temporalDim == d)
      return candidate.sliceSize;
    return candidate.tiles[d];
  };
  auto stepBytes = [&](Value v) {
    double bytes = elementBytes(v);
    for (unsigned d : flatDims(smg, v))
      bytes *= blockExtent(d);
    return bytes;
  };
  bool finalPass =
      candidate.temporalDim && dims[*candidate.temporalDim].needsFinalPass;

  CandidateView view{smg, candidate, target, options, blockExtent, stepBytes};
  ScheduleEstimate est;
  if (candidate.temporalDim)
    view.facts = facts;
  if (view.facts && view.facts->skips) {
    SmallVector<int64_t> extents;
    for (const GlobalDim &dim : dims)
      extents.push_back(dim.extent);
    view.visitedSlices = view.facts->skips->visitedFraction(
        extents, blockExtent, *candidate.temporalDim, candidate.sliceSize);
    est.visitedSlices = view.visitedSlices;
  }
  est.threads = candidate.threads;
  for (unsigned d = 0; d < dims.size(); ++d)
    est.blocks *= gridSize(view, d);
  WgmmaGemm gemm = findWgmmaGemm(view, allowed);
  // The registers residency is ranked with (see the wave quantization).
  std::optional<int64_t> rankingRegisters =
      priceBlock(view, allowed, gemm, finalPass, est);
  checkBudgets(target, est);
  if (allowed.gpu && est.fits())
    if (int64_t blocks = chooseResidency(view, est))
      est.overBudget = declareResidency(view, blocks, est);
  GlobalTraffic traffic =
      globalTraffic(view, finalPass,
                    residentBlocks(view, !allowed.gpu, rankingRegisters, est));
  est.globalBytes = traffic.total;
  est.dramBytes = traffic.dram;
  FlopCounts flops = countFlops(view, allowed, gemm.space, finalPass);
  est.flops = flops.tensor + flops.mmaSync + flops.scalar;
  estimateTime(view, !allowed.gpu, flops, rankingRegisters, est);
  return est;
}

double mlir::smap::idealSeconds(const SpaceMappingGraph &smg,
                                TargetAttr target) {
  double bytes = 0, tensorFlops = 0, scalarFlops = 0;
  GraphOp graph = smg.getGraph();
  auto tensorBytes = [](Value v) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    return type ? static_cast<double>(type.getNumElements()) * elementBytes(v)
                : 0.0;
  };
  for (BlockArgument arg : graph.getBody().getArguments())
    bytes += tensorBytes(arg);
  for (Value out : graph.getYield().getValues())
    bytes += tensorBytes(out);
  for (const Space &space : smg.getSpaces()) {
    if (space.role != MemberRole::Compute)
      continue;
    double points = opsPerPoint(space.op);
    for (unsigned d : space.dims)
      points *= smg.getDims()[d].extent;
    auto linalgOp = dyn_cast<linalg::LinalgOp>(space.op);
    bool halfOperands =
        linalgOp &&
        llvm::any_of(linalgOp.getDpsInputOperands(), [](OpOperand *operand) {
          auto type = dyn_cast<ShapedType>(operand->get().getType());
          return type && (type.getElementType().isF16() ||
                          type.getElementType().isBF16());
        });
    (isAddContraction(space) && halfOperands ? tensorFlops : scalarFlops) +=
        points;
  }
  return std::max(bytes / (target.getBandwidthGbps() * 1e9),
                  tensorFlops / (target.getF16Gflops() * 1e9) +
                      scalarFlops / (target.getF32Gflops() * 1e9));
}

std::string mlir::smap::raggedTileRefusal(const SpaceMappingGraph &smg) {
  // The last block's tile overlaps its neighbour's: both must compute the
  // same values, which an op accumulating into a graph input (C += A . B)
  // would not (the second block would add to what the first wrote).
  for (const Space &space : smg.getSpaces()) {
    auto op = dyn_cast<linalg::LinalgOp>(space.op);
    if (!op)
      continue;
    for (OpOperand &init : op.getDpsInitsMutable())
      if (isa<BlockArgument>(init.get()) && op.payloadUsesValueFromOperand(&init))
        return smg.nameOf(op) + " accumulates into a graph input";
  }
  return "";
}

/// The tiles of a dim of `extent`: its power-of-two divisors and the
/// extent. An extent no power of two from 16 up divides (197 tokens, 1000
/// columns) also gets ragged tiles of 16 to 128 when `ragged` (ceildiv
/// blocks, the last one overlapping its neighbour): tensor-core tiles
/// need them.
static SmallVector<int64_t> tileOptions(int64_t extent, bool ragged) {
  SmallVector<int64_t> options;
  for (int64_t p = 1; p < extent; p *= 2)
    if (extent % p == 0)
      options.push_back(p);
  if (ragged && extent % 16 != 0)
    for (int64_t p = 16; p <= 128 && p < extent; p *= 2)
      options.push_back(p);
  options.push_back(extent);
  return options;
}

int64_t mlir::smap::chooseThreads(const SpaceMappingGraph &smg,
                                  const ScheduleCandidate &candidate,
                                  TargetAttr target) {
  if (!target.isGPU())
    return 1;
  int64_t elements = 1;
  for (Value out : smg.getGraph().getYield().getValues())
    for (unsigned d : flatDims(smg, out))
      elements *= candidate.tiles[d];
  return std::clamp<int64_t>(static_cast<int64_t>(llvm::PowerOf2Ceil(elements)),
                             32,
                             std::min<int64_t>(256, target.getMaxThreads()));
}

/// A block writes a tile of every output, so a spatially sliced dim must be
/// a dim of every output (independent outputs, as in the LSTM cell's two
/// GEMMs, have none in common and are not spatially sliced).
static llvm::SmallBitVector dimsOfEveryOutput(const SpaceMappingGraph &smg) {
  llvm::SmallBitVector inAll(smg.getDims().size(), true);
  for (Value out :
       smg.getGraph().getBody().front().getTerminator()->getOperands()) {
    llvm::SmallBitVector has(smg.getDims().size());
    for (auto &ids : smg.getValueDims(out))
      for (unsigned d : ids)
        has.set(d);
    inAll &= has;
  }
  return inAll;
}

bool mlir::smap::isBetterEstimate(const ScheduleEstimate &a,
                                  const ScheduleEstimate &b) {
  if (a.seconds != b.seconds)
    return a.seconds < b.seconds;
  return a.rankingSmemBytes < b.rankingSmemBytes;
}

/// Keeps `entry` among the `keep` best of `top` (best first).
static void keepAmongTop(
    SmallVectorImpl<std::pair<ScheduleCandidate, ScheduleEstimate>> &top,
    const std::pair<ScheduleCandidate, ScheduleEstimate> &entry,
    unsigned keep) {
  auto at = llvm::upper_bound(top, entry, [](const auto &a, const auto &b) {
    return isBetterEstimate(a.second, b.second);
  });
  if (static_cast<unsigned>(at - top.begin()) >= keep)
    return;
  top.insert(at, entry);
  if (top.size() > keep)
    top.pop_back();
}

/// The tiles to try of each dim: the tileOptions of a dim blocks may slice
/// spatially, the whole extent of any other.
static SmallVector<SmallVector<int64_t>>
spatialTileOptions(const SpaceMappingGraph &smg,
                   const llvm::SmallBitVector &blocked) {
  llvm::SmallBitVector inAllOutputs = dimsOfEveryOutput(smg);
  bool raggedTiles = raggedTileRefusal(smg).empty();

  SmallVector<SmallVector<int64_t>> options;
  for (auto [d, dim] : llvm::enumerate(smg.getDims())) {
    bool spatial = (dim.dimClass == DimClass::Parallel ||
                    dim.dimClass == DimClass::ParallelRecompute) &&
                   !blocked.test(d) && inAllOutputs.test(d);
    options.push_back(spatial ? tileOptions(dim.extent, raggedTiles)
                              : SmallVector<int64_t>{dim.extent});
  }
  return options;
}

/// The temporal slices to try: none, and every slice size below the extent
/// of every temporal dim blocks may slice.
static SmallVector<std::pair<std::optional<unsigned>, int64_t>>
temporalSliceOptions(const SpaceMappingGraph &smg,
                     const llvm::SmallBitVector &blocked) {
  SmallVector<std::pair<std::optional<unsigned>, int64_t>> temporal{
      {std::nullopt, 0}};
  for (auto [d, dim] : llvm::enumerate(smg.getDims()))
    if (dim.dimClass == DimClass::Temporal && !blocked.test(d))
      for (int64_t s : tileOptions(dim.extent, /*ragged=*/true))
        if (s < dim.extent)
          temporal.push_back({static_cast<unsigned>(d), s});
  return temporal;
}

/// Keeps the search bounded: drops the smallest tiles of the dims with the
/// most options first, until the spatial `options` times the
/// `temporalOptions` are at most kMaxCandidates.
static void boundCandidates(SmallVectorImpl<SmallVector<int64_t>> &options,
                            size_t temporalOptions) {
  auto count = [&] {
    size_t n = temporalOptions;
    for (auto &o : options)
      n *= o.size();
    return n;
  };
  while (count() > kMaxCandidates) {
    auto widest = llvm::max_element(
        options, [](auto &a, auto &b) { return a.size() < b.size(); });
    widest->erase(widest->begin());
  }
}

/// Records the estimate `est` of a tried `candidate` in `search`: the
/// smallest one that does not fit, else among the best.
static void recordEstimate(ScheduleSearch &search,
                           const ScheduleCandidate &candidate,
                           const ScheduleEstimate &est, unsigned keepTop) {
  // The cost model counts every re-read of a broadcast input at DRAM
  // bandwidth (no L2), which favours the largest tiles; the
  // two-consumer ones measured 2-17% slower than 128 x 128 on one
  // warpgroup (bench/results/wgmma-v21-setmaxnreg.md).
  if (est.warpSpecialized)
    return;
  if (!est.fits()) {
    if (!search.smallest ||
        est.rankingSmemBytes < search.smallest->second.rankingSmemBytes)
      search.smallest = {candidate, est};
    return;
  }
  if (keepTop)
    keepAmongTop(search.top, {candidate, est}, keepTop);
  if (!search.best || isBetterEstimate(est, search.best->second)) {
    search.runnerUp = search.best;
    search.best = {candidate, est};
  } else if (!search.runnerUp ||
             isBetterEstimate(est, search.runnerUp->second)) {
    search.runnerUp = {candidate, est};
  }
}

/// Advances `index` to the next combination of spatial tiles of `options`
/// (the first dim fastest); false after the last one.
static bool nextTileCombination(SmallVectorImpl<size_t> &index,
                                ArrayRef<SmallVector<int64_t>> options) {
  for (unsigned d = 0; d < index.size(); ++d) {
    if (++index[d] < options[d].size())
      return true;
    index[d] = 0;
  }
  return false;
}

ScheduleSearch mlir::smap::searchSchedules(const SpaceMappingGraph &smg,
                                           TargetAttr target,
                                           const StrategyOptions &strategies,
                                           unsigned keepTop) {
  ArrayRef<GlobalDim> dims = smg.getDims();
  llvm::SmallBitVector blocked = unsliceableDims(smg);
  SmallVector<SmallVector<int64_t>> options = spatialTileOptions(smg, blocked);
  SmallVector<std::pair<std::optional<unsigned>, int64_t>> temporal =
      temporalSliceOptions(smg, blocked);
  boundCandidates(options, temporal.size());

  // What slicing each temporal dim adds, once per dim.
  DenseMap<unsigned, TemporalSliceFacts> facts;
  for (auto [t, s] : temporal)
    if (t && !facts.count(*t))
      facts[*t] = getTemporalSliceFacts(smg, *t);

  ScheduleSearch search;
  SmallVector<size_t> index(dims.size(), 0);
  ScheduleCandidate candidate;
  candidate.tiles.resize(dims.size());
  do {
    for (unsigned d = 0; d < dims.size(); ++d)
      candidate.tiles[d] = options[d][index[d]];
    for (auto [t, s] : temporal) {
      candidate.temporalDim = t;
      candidate.sliceSize = s;
      candidate.threads = chooseThreads(smg, candidate, target);
      ScheduleEstimate est =
          estimateSchedule(smg, candidate, target, strategies,
                           t ? &facts.find(*t)->second : nullptr);
      ++search.tried;
      recordEstimate(search, candidate, est, keepTop);
    }
  } while (nextTileCombination(index, options));
  return search;
}

ScheduleAttr mlir::smap::getScheduleAttr(const SpaceMappingGraph &smg,
                                         const ScheduleCandidate &candidate,
                                         const ScheduleEstimate &estimate) {
  MLIRContext *ctx = smg.getGraph().getContext();
  SmallVector<SliceSize> spatial, temporal;
  SmallVector<int64_t> grid;
  for (auto [d, dim] : llvm::enumerate(smg.getDims())) {
    if (candidate.tiles[d] < dim.extent) {
      spatial.push_back({StringAttr::get(ctx, dim.name), candidate.tiles[d]});
      grid.push_back(llvm::divideCeil(dim.extent, candidate.tiles[d]));
    }
  }
  if (candidate.temporalDim)
    temporal.push_back(
        {StringAttr::get(ctx, smg.getDims()[*candidate.temporalDim].name),
         candidate.sliceSize});
  return ScheduleAttr::get(ctx, spatial, temporal, grid, estimate.threads,
                           estimate.smemBytes, estimate.regsPerThread,
                           estimate.strategy, estimate.stages,
                           /*rowsPerBlock=*/0, estimate.blocksPerSm);
}

/// The index of the dim named `name`, if the graph has one.
static std::optional<unsigned> findDim(ArrayRef<GlobalDim> dims,
                                       StringRef name) {
  for (auto [d, dim] : llvm::enumerate(dims))
    if (dim.name == name)
      return d;
  return std::nullopt;
}

/// The error for a schedule that slices `name`, a dim the graph lacks.
static std::string unknownDimError(ArrayRef<GlobalDim> dims, StringRef name) {
  // Name the dims there are: extent-1 dims are folded away by the
  // analysis, so a dim of the source can be missing from the graph.
  std::string error =
      "schedule slices unknown dim '" + name.str() + "' (the graph's dims are";
  for (const GlobalDim &dim : dims)
    error += " " + dim.name;
  error += "; dims of extent 1 are folded away)";
  return error;
}

/// The dim a schedule's slice `s` names, if the graph has it and can slice
/// it so (spatially or temporally), to that size; else sets `error`.
static std::optional<unsigned> checkSlice(const SpaceMappingGraph &smg,
                                          const llvm::SmallBitVector &blocked,
                                          const SliceSize &s, bool spatial,
                                          std::string &error) {
  ArrayRef<GlobalDim> dims = smg.getDims();
  std::optional<unsigned> d = findDim(dims, s.dim.getValue());
  if (!d) {
    error = unknownDimError(dims, s.dim.getValue());
    return std::nullopt;
  }
  const GlobalDim &dim = dims[*d];
  bool ok = spatial ? (dim.dimClass == DimClass::Parallel ||
                       dim.dimClass == DimClass::ParallelRecompute)
                    : dim.dimClass == DimClass::Temporal;
  if (!ok) {
    error = "dim '" + dim.name + "' is " +
            stringifyDimClass(dim.dimClass).str() + " and cannot be sliced " +
            (spatial ? "spatially" : "temporally");
    if (!dim.reason.empty())
      error += " (" + dim.reason + ")";
    return std::nullopt;
  }
  if (blocked.test(*d)) {
    error = "dim '" + dim.name +
            "' crosses a reshape or a slice window and cannot be sliced yet";
    return std::nullopt;
  }
  if (s.size < 1 || s.size > dim.extent) {
    error = "size " + std::to_string(s.size) + " of dim '" + dim.name +
            "' is not in [1, " + std::to_string(dim.extent) + "]";
    return std::nullopt;
  }
  if (dim.extent % s.size != 0 && spatial) {
    std::string why = raggedTileRefusal(smg);
    if (!why.empty()) {
      error = "size " + std::to_string(s.size) + " of dim '" + dim.name +
              "' leaves a ragged last tile, and " + why;
      return std::nullopt;
    }
  }
  return d;
}

FailureOr<ScheduleCandidate>
mlir::smap::getCandidate(const SpaceMappingGraph &smg, ScheduleAttr schedule,
                         std::string &error) {
  ArrayRef<GlobalDim> dims = smg.getDims();
  llvm::SmallBitVector blocked = unsliceableDims(smg);
  ScheduleCandidate candidate;
  for (const GlobalDim &dim : dims)
    candidate.tiles.push_back(dim.extent);
  candidate.threads = schedule.getThreads();

  llvm::SmallBitVector inAllOutputs = dimsOfEveryOutput(smg);
  for (const SliceSize &s : schedule.getSpatial()) {
    std::optional<unsigned> d =
        checkSlice(smg, blocked, s, /*spatial=*/true, error);
    if (!d)
      return failure();
    if (!inAllOutputs.test(*d) && s.size != dims[*d].extent) {
      error = "dim '" + dims[*d].name +
              "' is not a dim of every output, so every block would write "
              "all of an output that does not vary along it";
      return failure();
    }
    candidate.tiles[*d] = s.size;
  }
  if (schedule.getTemporal().size() > 1) {
    error = "only one dim can be sliced temporally";
    return failure();
  }
  for (const SliceSize &s : schedule.getTemporal()) {
    std::optional<unsigned> d =
        checkSlice(smg, blocked, s, /*spatial=*/false, error);
    if (!d)
      return failure();
    if (s.size < dims[*d].extent) {
      candidate.temporalDim = *d;
      candidate.sliceSize = s.size;
    }
  }
  return candidate;
}

std::string mlir::smap::formatCandidate(const SpaceMappingGraph &smg,
                                        const ScheduleCandidate &candidate) {
  std::string out = "spatial [";
  bool first = true;
  for (auto [d, dim] : llvm::enumerate(smg.getDims()))
    if (candidate.tiles[d] < dim.extent) {
      out += (first ? "" : ", ") + dim.name + "=" +
             std::to_string(candidate.tiles[d]);
      first = false;
    }
  out += "] temporal [";
  if (candidate.temporalDim)
    out += smg.getDims()[*candidate.temporalDim].name + "=" +
           std::to_string(candidate.sliceSize);
  return out + "]";
}
