//===- Wgmma.cpp - GEMM blocks on Hopper wgmma and TMA --------------------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// The sm_90a lowering of a block that is a GEMM plus an epilogue: its
// temporal loop stages an A tile [BM x 64] and a B tile [64 x BN] (or
// [BN x 64] when B is read [n, k], K-major) from global memory and accumulates their product into a block tile, which the
// ops after the loop (bias, activation, rounding, the store) read.
//
// One warpgroup (128 threads) owns the block tile:
//
//  * the host builds one TMA descriptor per operand (128-byte swizzle);
//  * S stages of shared memory (1024-byte aligned, as the swizzle requires)
//    each hold an A tile and B as 64-column chunks; thread 0 fills them with
//    `cp.async.bulk.tensor` loads that complete on one mbarrier per stage
//    (`arrive.expect_tx` with the stage's bytes);
//  * step i waits on its stage's mbarrier (phase parity (i / S) mod 2),
//    issues `wgmma.mma_async` on the stage (`nvgpu.warpgroup.mma`, B read
//    N-major, or K-major one 16-deep slice per op, the accumulators in
//    registers) keeping one step's groups in flight,
//    then, once every thread is past the wait for group i - 1, thread 0
//    refills that group's stage with step i + S - 1;
//  * after the loop the accumulators go to the block tile, placed over the
//    (now idle) stages, and the epilogue is distributed over the threads as
//    any other op.
//
// With warp specialization (an option, and the only way to run the 128-row
// tiles other than 128 x 128), one consumer warpgroup per 64 rows
// multiplies and releases each stage on an `empty` mbarrier, a producer
// warpgroup after them issues the loads, and `setmaxnreg` moves registers
// from the producer to the consumers for the main loop.
//
// What the upstream nvgpu lowering supports bounds the shapes: BK = 64 (one
// swizzle row of f16), BM = 64 with BN in {64, 128, 192, 256}, BM = BN = 128
// on one warpgroup, or BM = 128 on two consumer warpgroups.
//
//===----------------------------------------------------------------------===//

#include "BlockDistributor.h"

#include "spacefusion/Analysis/CostModel.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::smap;

namespace {
/// The swizzle width of the shared-memory tiles (kSwizzleAlignment is the
/// alignment it needs).
constexpr int64_t kSwizzleBytes = 128;
/// Columns of one B chunk (one swizzle row of f16).
constexpr int64_t kChunkColumns = 64;
/// The rows and the depth of one wgmma instruction on 16-bit operands.
constexpr int64_t kWgmmaRows = 64;
constexpr int64_t kWgmmaDepth = 16;
/// Threads of a warpgroup (one wgmma's issuers) and of a warp.
constexpr int64_t kWarpgroupThreads = 128;
constexpr int64_t kWarpThreads = 32;
/// f16 and bf16.
constexpr int64_t kElementBytes = 2;
/// The named barrier (bar.sync id) the consumer warpgroups meet at before
/// their accumulators overwrite the stages; 0 is the whole block's.
constexpr int64_t kConsumerBarrier = 1;
/// The suspend-time hint of an mbarrier wait, in nanoseconds.
constexpr int64_t kWaitTicks = 10000000;
} // namespace

/// The global buffer a staging copy reads and the subview offsets that lead
/// to its tile, or failure when the chain is not a rank-preserving, unit
/// stride one from a buffer defined outside `block`.
static FailureOr<std::pair<Value, SmallVector<SmallVector<OpFoldResult>>>>
tileOrigin(Value tile, Operation *block) {
  SmallVector<SmallVector<OpFoldResult>> offsets;
  while (auto subview = tile.getDefiningOp<memref::SubViewOp>()) {
    if (!llvm::all_of(subview.getStaticStrides(),
                      [](int64_t s) { return s == 1; }) ||
        subview.getSourceType().getRank() != subview.getType().getRank())
      return failure();
    offsets.push_back(subview.getMixedOffsets());
    tile = subview.getSource();
  }
  if (block->isAncestor(tile.getParentRegion()->getParentOp()))
    return failure();
  return std::make_pair(tile, offsets);
}

/// Whether `v` is defined outside `loop` or by pure ops inside it, so that
/// cloneFromLoop computes it at any step.
static bool computedPurely(Value v, scf::ForOp loop) {
  Operation *def = v.getDefiningOp();
  if (!def || !loop->isAncestor(def))
    return true;
  return isPure(def) && def->getNumRegions() == 0 &&
         llvm::all_of(def->getOperands(), [&](Value operand) {
           return computedPurely(operand, loop);
         });
}

/// Whether `type` is a row-major f16/bf16 matrix TMA can read, or a batch
/// of them (a higher rank, read as the matrix of their rows): static
/// shape, identity layout, 16-byte rows.
static bool isTmaSource(MemRefType type) {
  return type && type.getRank() >= 2 && type.hasStaticShape() &&
         type.getLayout().isIdentity() &&
         (type.getElementType().isF16() || type.getElementType().isBF16()) &&
         (type.getShape().back() * kElementBytes) % 16 == 0 &&
         (type.getMemorySpace() == nullptr);
}

/// The loops of `op` other than the contraction's m, n and k, when each is
/// a batch loop of A and the result that the block runs once (extent 1):
/// a block of a batched A, as torch-mlir's 3-D linear layer is sliced.
static std::optional<SmallVector<unsigned>>
unitBatchLoops(linalg::LinalgOp op, const MmaContraction &mma) {
  SmallVector<unsigned> batch;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  for (unsigned loop = 0; loop < op.getNumLoops(); ++loop) {
    if (loop == mma.m || loop == mma.n || loop == mma.k)
      continue;
    if (ranges[loop] != 1)
      return std::nullopt;
    batch.push_back(loop);
  }
  return batch;
}

/// Whether `op` is the first to touch `alloc` (no op before it in the block
/// reads or writes it) and does not read it.
static bool isFirstWrittenBy(memref::AllocOp alloc, linalg::LinalgOp op) {
  Block *block = op->getBlock();
  for (Operation *user : alloc->getUsers()) {
    Operation *inBlock = block->findAncestorOpInBlock(*user);
    if (!inBlock || (inBlock != op && !op->isBeforeInBlock(inBlock)))
      return false;
  }
  return !llvm::is_contained(op.getDpsInputs(), alloc.getResult()) &&
         !op.payloadUsesValueFromOperand(op.getDpsInitOperand(0));
}

/// The epilogue's first op usually maps the accumulator tile elementwise
/// into a new block buffer (adding a bias): when that op is the tile's last
/// reader, it can write the tile in place instead, and the buffer (as large
/// as the tile) is not allocated: two blocks then fit in an SM's shared
/// memory. Only a buffer that op writes first qualifies: one that holds
/// another of its inputs (a broadcast bias the op adds in place) is
/// written before the loop, where the tile does not exist yet. Returns
/// that buffer, or null.
static memref::AllocOp inPlaceEpilogueBuffer(Value tile) {
  Operation *lastReader = nullptr;
  for (Operation *user : tile.getUsers())
    if (!lastReader || lastReader->isBeforeInBlock(user))
      lastReader = user;
  auto op = dyn_cast_or_null<linalg::LinalgOp>(lastReader);
  if (!op || op.getNumReductionLoops() != 0 || op.getNumDpsInits() != 1)
    return nullptr;
  OpOperand *init = op.getDpsInitOperand(0);
  auto alloc = init->get().getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc.getType() != tile.getType() ||
      alloc->getBlock() != op->getBlock() ||
      !op.getMatchingIndexingMap(init).isIdentity() ||
      !isFirstWrittenBy(alloc, op))
    return nullptr;
  for (OpOperand *input : op.getDpsInputOperands())
    if (input->get() == tile && op.getMatchingIndexingMap(input).isIdentity())
      return alloc;
  return nullptr;
}

/// Whether `body` computes a contraction (not a copy) the tensor cores can
/// run: a block without one is not a GEMM block.
static bool hasTensorCoreContraction(Block &body) {
  bool anyContraction = false;
  body.walk([&](linalg::LinalgOp op) {
    anyContraction |=
        !isa<linalg::CopyOp>(op) && matchMmaContraction(op).has_value();
  });
  return anyContraction;
}

/// Finds the block's one temporal loop (`plan.loop`) and its trip count
/// (`plan.steps`); false, with `why`, when it is missing, not unique, or
/// not a static loop without results.
static bool matchTemporalLoop(Block &body, WgmmaPlan &plan, std::string &why) {
  for (Operation &op : body) {
    auto loop = dyn_cast<scf::ForOp>(op);
    if (!loop)
      continue;
    if (plan.loop) {
      why = "the block has more than one temporal loop";
      return false;
    }
    plan.loop = loop;
  }
  if (!plan.loop) {
    why = "the block has no temporal loop";
    return false;
  }
  scf::ForOp loop = plan.loop;
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound()),
                         ub = getConstantIntValue(loop.getUpperBound()),
                         step = getConstantIntValue(loop.getStep());
  if (!lb || !ub || !step || *step <= 0 || *ub <= *lb ||
      (*ub - *lb) % *step != 0 || loop.getNumResults() != 0) {
    why = "the temporal loop has dynamic or ragged bounds, or results";
    return false;
  }
  plan.steps = (*ub - *lb) / *step;
  return true;
}

/// The step: staging copies (`copies`) and one contraction
/// (`plan.contraction`), nothing else with effects; false, with `why`,
/// otherwise.
static bool matchTemporalStep(WgmmaPlan &plan,
                              SmallVectorImpl<linalg::CopyOp> &copies,
                              std::string &why) {
  for (Operation &op : plan.loop.getBody()->without_terminator()) {
    if (auto copy = dyn_cast<linalg::CopyOp>(op)) {
      copies.push_back(copy);
    } else if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
      if (plan.contraction) {
        why = "the temporal step computes more than one contraction";
        return false;
      }
      plan.contraction = linalgOp;
    } else if (!isa<memref::SubViewOp, memref::AllocOp>(op) && !isPure(&op)) {
      why = "'" + op.getName().getStringRef().str() + "' in the temporal step";
      return false;
    }
  }
  if (!plan.contraction || copies.size() != 2) {
    why = "the temporal step is not two staged operands and a contraction";
    return false;
  }
  return true;
}

/// Whether `op` is A[m, k] times B[k, n] or B[n, k] into C[m, n], A and C
/// (and B, or not) batched by unit loops (one batch per block); sets
/// `plan.kMajorB`.
static bool matchOperandLayouts(linalg::LinalgOp op, const MmaContraction &mma,
                                WgmmaPlan &plan) {
  MLIRContext *ctx = op.getContext();
  auto dims = [&](ArrayRef<unsigned> positions) {
    SmallVector<AffineExpr> exprs;
    for (unsigned p : positions)
      exprs.push_back(getAffineDimExpr(p, ctx));
    return AffineMap::get(op.getNumLoops(), 0, exprs, ctx);
  };
  std::optional<SmallVector<unsigned>> batch = unitBatchLoops(op, mma);
  auto batched = [&](ArrayRef<unsigned> positions) {
    SmallVector<unsigned> all(batch ? *batch : SmallVector<unsigned>());
    all.append(positions.begin(), positions.end());
    return dims(all);
  };
  AffineMap mapB = op.getMatchingIndexingMap(mma.b);
  plan.kMajorB =
      mapB == dims({mma.n, mma.k}) || mapB == batched({mma.n, mma.k});
  bool nMajorB =
      mapB == dims({mma.k, mma.n}) || mapB == batched({mma.k, mma.n});
  return batch && op.getMatchingIndexingMap(mma.a) == batched({mma.m, mma.k}) &&
         (nMajorB || plan.kMajorB) &&
         op.getMatchingIndexingMap(op.getDpsInitOperand(0)) ==
             batched({mma.m, mma.n});
}

/// Matches the step's contraction (`plan.contraction`) as a tensor-core one
/// whose layouts and tile wgmma runs, and sets the plan's tile; nullopt,
/// with `why`, otherwise.
static std::optional<MmaContraction> matchWgmmaContraction(WgmmaPlan &plan,
                                                           std::string &why) {
  linalg::LinalgOp op = plan.contraction;
  std::optional<MmaContraction> mma = matchMmaContraction(op);
  if (!mma || !op.hasPureBufferSemantics()) {
    why = "the contraction is not a tensor-core one";
    return std::nullopt;
  }
  if (mma->isTF32()) {
    why = "the contraction reads TF32 operands, which run on mma.sync";
    return std::nullopt;
  }
  if (!matchOperandLayouts(op, *mma, plan)) {
    why = "the contraction is not A[m, k] times B[k, n] or B[n, k] into "
          "C[m, n] (with A and C batched, B batched or not, one batch per "
          "block)";
    return std::nullopt;
  }
  plan.bm = mma->extentM;
  plan.bn = mma->extentN;
  plan.bk = mma->extentK;
  // One warpgroup takes 64 x {64..256} or 128 x 128; the other 128-row
  // tiles take one consumer warpgroup per 64 rows, warp-specialized.
  if (plan.bk != kSwizzleBytes / 2 ||
      !fitsWgmmaTile(plan.bm, plan.bn, plan.bk)) {
    why = "the tile " + std::to_string(plan.bm) + "x" +
          std::to_string(plan.bn) + "x" + std::to_string(plan.bk) +
          " is not one wgmma supports here ({64,128}x{64..256}x64)";
    return std::nullopt;
  }
  if (wgmmaConsumerWarpgroups(plan.bm, plan.bn) > 1)
    plan.warpSpecialized = true;
  return mma;
}

/// One operand: a copy from a global matrix (`copy`, the last of `copies`
/// that does) fills the very view the contraction reads, a tile of a
/// TMA-readable matrix (`global`) at `offsets` the step computes purely;
/// false, with `why`, otherwise.
static bool matchStagedOperand(OpOperand *operand,
                               ArrayRef<linalg::CopyOp> copies,
                               Operation *block, scf::ForOp loop,
                               linalg::CopyOp &copy, Value &global,
                               SmallVector<SmallVector<OpFoldResult>> &offsets,
                               std::string &why) {
  for (linalg::CopyOp candidate : copies)
    if (candidate.getOutputs()[0] == operand->get())
      copy = candidate;
  if (!copy) {
    why = "a contraction operand is not staged by a copy in the step";
    return false;
  }
  FailureOr<std::pair<Value, SmallVector<SmallVector<OpFoldResult>>>> origin =
      tileOrigin(copy.getInputs()[0], block);
  if (failed(origin) ||
      !isTmaSource(dyn_cast<MemRefType>(origin->first.getType())) ||
      cast<MemRefType>(origin->first.getType()).getElementType() !=
          getElementTypeOrSelf(operand->get().getType())) {
    why = "an operand is not a tile of a row-major f16/bf16 matrix in "
          "global memory";
    return false;
  }
  for (ArrayRef<OpFoldResult> level : origin->second)
    for (OpFoldResult offset : level)
      if (auto v = dyn_cast<Value>(offset); v && !computedPurely(v, loop)) {
        why = "a staged tile's offset is computed by an op with effects";
        return false;
      }
  global = origin->first;
  offsets = origin->second;
  return true;
}

/// Both operands staged (matchStagedOperand), by two copies, from matrices
/// of one element type; false, with `why`, otherwise.
static bool matchStagedOperands(WgmmaPlan &plan, const MmaContraction &mma,
                                ArrayRef<linalg::CopyOp> copies,
                                Operation *block, std::string &why) {
  if (!matchStagedOperand(mma.a, copies, block, plan.loop, plan.copyA,
                          plan.globalA, plan.offsetsA, why) ||
      !matchStagedOperand(mma.b, copies, block, plan.loop, plan.copyB,
                          plan.globalB, plan.offsetsB, why))
    return false;
  if (plan.copyA == plan.copyB ||
      getElementTypeOrSelf(plan.globalA.getType()) !=
          getElementTypeOrSelf(plan.globalB.getType())) {
    why = "the operands differ in element type";
    return false;
  }
  // TMA reads a batch of B[k, n] as the matrix of its rows (wgmmaDims).
  auto typeB = cast<MemRefType>(plan.globalB.getType());
  if (typeB.getRank() > 2 && !plan.kMajorB &&
      typeB.getShape()[typeB.getRank() - 2] % plan.bk != 0) {
    why = "a batched B[k, n] whose k no tile divides would read the next "
          "batch's rows";
    return false;
  }
  return true;
}

/// The accumulator: a block buffer zeroed before the loop (`plan.fill`)
/// that only ops after the loop read; false, with `why`, otherwise.
static bool matchAccumulator(Block &body, WgmmaPlan &plan, std::string &why) {
  linalg::LinalgOp op = plan.contraction;
  scf::ForOp loop = plan.loop;
  auto alloc = op.getDpsInitOperand(0)->get().getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc->getBlock() != &body ||
      !alloc.getType().getLayout().isIdentity()) {
    why = "the contraction does not accumulate into a block buffer";
    return false;
  }
  plan.accumulator = alloc;
  for (Operation *user : alloc->getUsers()) {
    if (user == op)
      continue;
    auto fill = dyn_cast<linalg::FillOp>(user);
    if (fill && fill->getBlock() == &body && fill->isBeforeInBlock(loop)) {
      auto zero = fill.getInputs()[0].getDefiningOp<arith::ConstantOp>();
      auto value = zero ? dyn_cast<FloatAttr>(zero.getValue()) : nullptr;
      if (!value || !value.getValue().isZero() || plan.fill) {
        why = "the accumulator does not start at zero";
        return false;
      }
      plan.fill = fill;
      continue;
    }
    if (user->getBlock() != &body || !loop->isBeforeInBlock(user)) {
      why = "the accumulator is used inside or before the temporal loop";
      return false;
    }
  }
  if (!plan.fill) {
    why = "the accumulator does not start at zero";
    return false;
  }
  return true;
}

std::optional<WgmmaPlan> mlir::smap::planWgmma(Block &body, bool warpSpecialize,
                                               std::string &why) {
  // Blocks without a tensor-core contraction are not GEMM blocks: nothing
  // to explain.
  why.clear();
  if (!hasTensorCoreContraction(body))
    return std::nullopt;
  WgmmaPlan plan;
  plan.warpSpecialized = warpSpecialize;
  if (!matchTemporalLoop(body, plan, why))
    return std::nullopt;
  SmallVector<linalg::CopyOp> copies;
  if (!matchTemporalStep(plan, copies, why))
    return std::nullopt;
  std::optional<MmaContraction> mma = matchWgmmaContraction(plan, why);
  if (!mma || !matchStagedOperands(plan, *mma, copies, body.getParentOp(), why))
    return std::nullopt;
  if (!matchAccumulator(body, plan, why))
    return std::nullopt;
  plan.inPlaceEpilogue = inPlaceEpilogueBuffer(plan.accumulator);
  return plan;
}

/// The TMA coordinates (innermost first) of a staged tile at a step, in
/// the matrix of rows of `shape` (the global buffer's).
static SmallVector<Value>
tmaCoordinates(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
               ArrayRef<SmallVector<OpFoldResult>> offsets, scf::ForOp loop,
               IRMapping &mapping) {
  SmallVector<Value> sums(shape.size());
  for (ArrayRef<OpFoldResult> level : offsets)
    for (auto [d, offset] : llvm::enumerate(level)) {
      Value v = isa<Attribute>(offset)
                    ? arith::ConstantIndexOp::create(
                          b, loc, *getConstantIntValue(offset))
                    : cloneFromLoop(b, cast<Value>(offset), loop, mapping);
      sums[d] = sums[d] ? arith::AddIOp::create(b, loc, sums[d], v) : v;
    }
  for (Value &sum : sums)
    if (!sum)
      sum = arith::ConstantIndexOp::create(b, loc, 0);
  // Batch offsets count whole matrices of rows.
  Value row = sums[0];
  for (size_t d = 1; d + 1 < sums.size(); ++d)
    row = arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(
            b, loc, row, arith::ConstantIndexOp::create(b, loc, shape[d])),
        sums[d]);
  return {sums.back(), row};
}

void mlir::smap::planRegisterReallocation(WgmmaPlan &plan, int64_t regsPerSm) {
  RegisterSplit split = planRegisterSplit(plan.shape(), regsPerSm);
  plan.entryRegisters = split.entry;
  plan.producerRegisters = split.producer;
  plan.consumerRegisters = split.consumer;
}

bool mlir::smap::sizeWgmmaStages(WgmmaPlan &plan, int64_t smemBudget,
                                 int64_t stages, std::string &why) {
  std::optional<TmaPipeline> pipeline =
      sizeTmaPipeline(plan.shape(), smemBudget, stages, why);
  if (!pipeline)
    return false;
  plan.stages = pipeline->stages;
  plan.sharedBytes = pipeline->sharedBytes;
  return true;
}

namespace {
/// Builds the TMA + wgmma pipeline of a WgmmaPlan in place of its loop. The
/// shared memory holds `stages` stages from a 1024-byte aligned base (each
/// an A tile and B in 64-column chunks), with the f32 accumulator tile over
/// them after the loop; `full` mbarriers signal loaded stages and, when
/// warp-specialized, `empty` ones the consumers' releases.
class WgmmaPipelineBuilder {
public:
  WgmmaPipelineBuilder(gpu::LaunchOp launch, WgmmaPlan &plan)
      : launch(launch), plan(plan), ctx(launch.getContext()),
        loc(plan.loop.getLoc()),
        element(getElementTypeOrSelf(plan.globalA.getType())),
        workgroup(
            gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup)),
        rows(plan.consumerRows()),
        partRows(plan.kMajorB ? kWgmmaRows : rows) {}

  /// Builds the pipeline and replaces the loop and the accumulator; returns
  /// the per-thread code it put in place.
  SmallVector<Operation *> build();

private:
  Operation *track(Operation *op) {
    emitted.push_back(op);
    return op;
  }
  Value index(OpBuilder &b, int64_t v) const {
    return arith::ConstantIndexOp::create(b, loc, v);
  }
  MemRefType sharedMatrix(int64_t rows, int64_t cols, Type type) const {
    return MemRefType::get({rows, cols}, type, AffineMap(), workgroup);
  }
  Value view(OpBuilder &b, Value offset, MemRefType type) const {
    return memref::ViewOp::create(b, loc, type, smem, offset, ValueRange())
        .getResult();
  }
  scf::ForOp forEachStep(OpBuilder &b, ValueRange inits) const {
    return scf::ForOp::create(b, loc, index(b, 0), index(b, plan.steps),
                              index(b, 1), inits);
  }
  Value tid() { return launch.getThreadIds().x; }
  Value stageOf(OpBuilder &b, Value step) const {
    return arith::RemUIOp::create(b, loc, step, index(b, plan.stages));
  }

  Value createTmaDescriptor(OpBuilder &hb, Value global, int64_t rows);
  void createSharedBase(OpBuilder &b);
  Value stageBase(OpBuilder &b, Value stage);
  Value createBarriers(OpBuilder &b, int64_t count);
  Value waitPhase(OpBuilder &b, Value group, Value step, int64_t usesBack);
  void issueLoads(OpBuilder &b, Value step, Value stage, Value when);
  SmallVector<Value> multiplyStage(OpBuilder &b, Value step, ValueRange accs,
                                   Value firstRow);
  SmallVector<Value> multiplyKMajorStage(OpBuilder &b, Value at,
                                         ValueRange accs, Value firstRow);
  SmallVector<Value> initAccumulators(OpBuilder &b);
  void storeAccumulators(OpBuilder &b, ValueRange accs, Value whole);
  void setMaxRegisters(OpBuilder &b, int64_t count,
                       NVVM::SetMaxRegisterAction action);
  void buildOneWarpgroup(OpBuilder &b, Value tile);
  void buildProducer(OpBuilder &b, Value producerWarpgroup);
  void buildConsumers(OpBuilder &b);
  /// In consumer step `step`, the warp leaders' (`warpLeader`) release of
  /// the stage of step - 1 on the `empty` barrier.
  void releasePreviousStage(OpBuilder &b, Value step, Value warpLeader);
  void buildWarpSpecialized(OpBuilder &b);
  void replaceAccumulator(OpBuilder &b, Value tile);

  gpu::LaunchOp launch;
  WgmmaPlan &plan;
  MLIRContext *ctx;
  Location loc;
  Type element;
  gpu::AddressSpaceAttr workgroup;
  /// The rows one consumer warpgroup multiplies, and the rows of each of
  /// its accumulators: all of them, or 64 when B is K-major (one wgmma's).
  int64_t rows, partRows;
  nvgpu::WarpgroupAccumulatorType accumulatorType;
  Value descA, descB, smem, base, leader, full, empty;
  SmallVector<Operation *> emitted;
};
} // namespace

/// A host-built TMA descriptor of `global` for boxes of `rows` x one
/// 128-byte swizzle row.
Value WgmmaPipelineBuilder::createTmaDescriptor(OpBuilder &hb, Value global,
                                                int64_t rows) {
  int64_t swizzleColumns = kSwizzleBytes / kElementBytes;
  auto type = nvgpu::TensorMapDescriptorType::get(
      ctx, sharedMatrix(rows, swizzleColumns, element),
      nvgpu::TensorMapSwizzleKind::SWIZZLE_128B,
      nvgpu::TensorMapL2PromoKind::L2PROMO_256B,
      nvgpu::TensorMapOOBKind::OOB_ZERO,
      nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
  auto globalType = cast<MemRefType>(global.getType());
  if (globalType.getRank() > 2) {
    // A batch of matrices is read as the matrix of their rows.
    ReassociationIndices batchAndRows = llvm::to_vector(
        llvm::seq<int64_t>(0, globalType.getRank() - 1));
    global = memref::CollapseShapeOp::create(
        hb, loc, global,
        ArrayRef<ReassociationIndices>{batchAndRows,
                                       {globalType.getRank() - 1}});
  }
  Value unranked = memref::CastOp::create(
      hb, loc, UnrankedMemRefType::get(element, Attribute()), global);
  return nvgpu::TmaCreateDescriptorOp::create(
             hb, loc, type, unranked,
             ValueRange{index(hb, rows), index(hb, swizzleColumns)})
      .getResult();
}

/// The dynamic shared memory and the stages' base in it: the swizzle
/// pattern follows address bits, so the base is rounded up to 1024 bytes.
void WgmmaPipelineBuilder::createSharedBase(OpBuilder &b) {
  smem = gpu::DynamicSharedMemoryOp::create(
      b, loc,
      MemRefType::get({ShapedType::kDynamic}, IntegerType::get(ctx, 8),
                      AffineMap(), workgroup));
  Value address = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, smem);
  Value align = index(b, kSwizzleAlignment);
  base = arith::RemUIOp::create(
      b, loc,
      arith::SubIOp::create(b, loc, align,
                            arith::RemUIOp::create(b, loc, address, align)),
      align);
}

Value WgmmaPipelineBuilder::stageBase(OpBuilder &b, Value stage) {
  int64_t stageBytes = plan.shape().stageBytes();
  return arith::AddIOp::create(
      b, loc, base, arith::MulIOp::create(b, loc, stage, index(b, stageBytes)));
}

/// One mbarrier per stage, initialized by thread 0 for `count` arrivals.
Value WgmmaPipelineBuilder::createBarriers(OpBuilder &b, int64_t count) {
  auto type = nvgpu::MBarrierGroupType::get(ctx, workgroup, plan.stages);
  Value group =
      track(nvgpu::MBarrierCreateOp::create(b, loc, type))->getResult(0);
  for (int64_t s = 0; s < plan.stages; ++s)
    track(nvgpu::MBarrierInitOp::create(b, loc, group, index(b, count),
                                        index(b, s), leader));
  return group;
}

/// Waits until `group`'s barrier of step `step`'s stage completed the phase
/// of the stage's use number step / S - `usesBack` (phases alternate
/// parity); returns the stage.
Value WgmmaPipelineBuilder::waitPhase(OpBuilder &b, Value group, Value step,
                                      int64_t usesBack) {
  Value stage = stageOf(b, step);
  Value use = arith::SubIOp::create(
      b, loc, arith::DivUIOp::create(b, loc, step, index(b, plan.stages)),
      index(b, usesBack));
  Value parity = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ne,
      arith::RemUIOp::create(b, loc, use, index(b, 2)), index(b, 0));
  nvgpu::MBarrierTryWaitParityOp::create(b, loc, group, parity,
                                         index(b, kWaitTicks), stage);
  return stage;
}

/// One thread loads step `step` into stage `stage` when `when` holds: A in
/// one box, B in 64-column chunks, all completing on the stage's `full`
/// barrier with the stage's bytes.
void WgmmaPipelineBuilder::issueLoads(OpBuilder &b, Value step, Value stage,
                                      Value when) {
  scf::ForOp loop = plan.loop;
  int64_t aBytes = plan.bm * plan.bk * kElementBytes;
  int64_t chunkBytes = plan.bk * kChunkColumns * kElementBytes;
  auto ifOp = cast<scf::IfOp>(track(scf::IfOp::create(b, loc, when, false)));
  OpBuilder tb = ifOp.getThenBodyBuilder();
  nvgpu::MBarrierArriveExpectTxOp::create(
      tb, loc, full, index(tb, plan.shape().stageBytes()), stage, Value());
  Value at = stageBase(tb, stage);
  IRMapping mapping;
  mapping.map(loop.getInductionVar(),
              arith::AddIOp::create(
                  tb, loc, loop.getLowerBound(),
                  arith::MulIOp::create(tb, loc, step, loop.getStep())));
  auto shapeOf = [](Value global) {
    return cast<MemRefType>(global.getType()).getShape();
  };
  SmallVector<Value> coordsA = tmaCoordinates(
      tb, loc, shapeOf(plan.globalA), plan.offsetsA, loop, mapping);
  nvgpu::TmaAsyncLoadOp::create(
      tb, loc, view(tb, at, sharedMatrix(plan.bm, plan.bk, element)), full,
      descA, coordsA, stage, Value(), Value());
  SmallVector<Value> coordsB = tmaCoordinates(
      tb, loc, shapeOf(plan.globalB), plan.offsetsB, loop, mapping);
  if (plan.kMajorB) {
    // B [n, k] is one box of bn swizzle rows, laid out as A's.
    Value tileB = arith::AddIOp::create(tb, loc, at, index(tb, aBytes));
    nvgpu::TmaAsyncLoadOp::create(
        tb, loc, view(tb, tileB, sharedMatrix(plan.bn, plan.bk, element)), full,
        descB, coordsB, stage, Value(), Value());
    return;
  }
  for (int64_t c = 0; c < plan.bn / kChunkColumns; ++c) {
    Value chunk =
        arith::AddIOp::create(tb, loc, at, index(tb, aBytes + c * chunkBytes));
    Value column = arith::AddIOp::create(tb, loc, coordsB[0],
                                         index(tb, c * kChunkColumns));
    nvgpu::TmaAsyncLoadOp::create(
        tb, loc, view(tb, chunk, sharedMatrix(plan.bk, kChunkColumns, element)),
        full, descB, ValueRange{column, coordsB[1]}, stage, Value(), Value());
  }
}

/// Step `step` of a warpgroup multiplying `rows` rows from `firstRow`: waits
/// for its stage and issues the wgmma on it. One step's groups stay in
/// flight: those of step - 1 are complete after this.
SmallVector<Value> WgmmaPipelineBuilder::multiplyStage(OpBuilder &b,
                                                       Value step,
                                                       ValueRange accs,
                                                       Value firstRow) {
  Value at = stageBase(b, waitPhase(b, full, step, 0));
  if (plan.kMajorB)
    return multiplyKMajorStage(b, at, accs, firstRow);
  MemRefType aType = sharedMatrix(rows, plan.bk, element);
  MemRefType bType = sharedMatrix(plan.bk, plan.bn, element);
  // A's rows are 128-byte swizzle rows: 64 of them keep the 1024-byte
  // alignment the descriptor needs.
  Value aAt = arith::AddIOp::create(
      b, loc, at,
      arith::MulIOp::create(b, loc, firstRow,
                            index(b, plan.bk * kElementBytes)));
  Value descriptorA = nvgpu::WarpgroupGenerateDescriptorOp::create(
      b, loc, nvgpu::WarpgroupMatrixDescriptorType::get(ctx, aType),
      view(b, aAt, aType), descA);
  int64_t aBytes = plan.bm * plan.bk * kElementBytes;
  Value descriptorB = nvgpu::WarpgroupGenerateDescriptorOp::create(
      b, loc, nvgpu::WarpgroupMatrixDescriptorType::get(ctx, bType),
      view(b, arith::AddIOp::create(b, loc, at, index(b, aBytes)), bType),
      descB);
  return {nvgpu::WarpgroupMmaOp::create(b, loc, accumulatorType, descriptorA,
                                        descriptorB, b.getI64IntegerAttr(1),
                                        UnitAttr(), b.getUnitAttr(), accs[0])
              .getResult()};
}

/// The products of the stage at `at` when B is K-major. Upstream's
/// nvgpu.warpgroup.mma lowering steps a B descriptor through k as for an
/// N-major B only, so each 16-deep slice of the stage is an op of its own
/// on 64 rows, its descriptors generated at the slice: 32 bytes further
/// along the swizzle rows of both tiles, as that lowering steps A. Each op
/// commits a group; the step's last one waits until at most the step's
/// own groups are pending, the others for no more than can be pending (no
/// wait at all).
SmallVector<Value> WgmmaPipelineBuilder::multiplyKMajorStage(OpBuilder &b,
                                                             Value at,
                                                             ValueRange accs,
                                                             Value firstRow) {
  MemRefType aType = sharedMatrix(kWgmmaRows, kWgmmaDepth, element);
  MemRefType bType = sharedMatrix(kWgmmaDepth, plan.bn, element);
  int64_t rowBytes = plan.bk * kElementBytes;
  Value aAt = arith::AddIOp::create(
      b, loc, at, arith::MulIOp::create(b, loc, firstRow, index(b, rowBytes)));
  Value bAt = arith::AddIOp::create(b, loc, at, index(b, plan.bm * rowBytes));
  auto descriptor = [&](Value tile, int64_t bytes, MemRefType type,
                        Value tensorMap) -> Value {
    Value slice = arith::AddIOp::create(b, loc, tile, index(b, bytes));
    return nvgpu::WarpgroupGenerateDescriptorOp::create(
        b, loc, nvgpu::WarpgroupMatrixDescriptorType::get(ctx, type),
        view(b, slice, type), tensorMap);
  };
  SmallVector<Value> results(accs);
  int64_t ops = plan.bk / kWgmmaDepth * results.size(), issued = 0;
  for (int64_t k = 0; k < plan.bk; k += kWgmmaDepth) {
    Value descriptorB = descriptor(bAt, k * kElementBytes, bType, descB);
    for (auto [part, acc] : llvm::enumerate(results)) {
      int64_t bytes = part * kWgmmaRows * rowBytes + k * kElementBytes;
      Value descriptorA = descriptor(aAt, bytes, aType, descA);
      ++issued;
      int64_t pending = issued == ops ? ops : ops + issued;
      acc = nvgpu::WarpgroupMmaOp::create(
          b, loc, accumulatorType, descriptorA, descriptorB,
          b.getI64IntegerAttr(pending), UnitAttr(), UnitAttr(), acc);
    }
  }
  return results;
}

/// Zero accumulators, one per `partRows` rows of the warpgroup.
SmallVector<Value> WgmmaPipelineBuilder::initAccumulators(OpBuilder &b) {
  SmallVector<Value> accs;
  for (int64_t r = 0; r < rows; r += partRows)
    accs.push_back(track(nvgpu::WarpgroupMmaInitAccumulatorOp::create(
                             b, loc, accumulatorType))
                       ->getResult(0));
  return accs;
}

/// Stores the accumulators into the tile over the stages: one into `whole`
/// (the warpgroup's rows), several into views of their 64 rows each.
void WgmmaPipelineBuilder::storeAccumulators(OpBuilder &b, ValueRange accs,
                                             Value whole) {
  if (accs.size() == 1) {
    track(nvgpu::WarpgroupMmaStoreOp::create(b, loc, accs[0], whole));
    return;
  }
  MemRefType partType = sharedMatrix(partRows, plan.bn, b.getF32Type());
  int64_t partBytes = partRows * plan.bn * 4;
  for (auto [part, acc] : llvm::enumerate(accs)) {
    Value at = arith::AddIOp::create(b, loc, base, index(b, part * partBytes));
    track(nvgpu::WarpgroupMmaStoreOp::create(b, loc, acc,
                                             view(b, at, partType)));
  }
}

void WgmmaPipelineBuilder::setMaxRegisters(OpBuilder &b, int64_t count,
                                           NVVM::SetMaxRegisterAction action) {
  if (plan.entryRegisters)
    NVVM::SetMaxRegisterOp::create(b, loc, count, action);
}

/// One warpgroup loads and multiplies: S - 1 stages ahead, each step
/// refilling the stage the previous group read; the accumulators go to the
/// tile over the stages after the loop.
void WgmmaPipelineBuilder::buildOneWarpgroup(OpBuilder &b, Value tile) {
  int64_t stages = plan.stages;
  track(gpu::BarrierOp::create(b, loc));
  for (int64_t s = 0; s + 1 < stages; ++s)
    issueLoads(b, index(b, s), index(b, s), leader);
  scf::ForOp mainLoop = forEachStep(b, initAccumulators(b));
  track(mainLoop);
  OpBuilder lb = OpBuilder::atBlockBegin(mainLoop.getBody());
  Value step = mainLoop.getInductionVar();
  SmallVector<Value> accs =
      multiplyStage(lb, step, mainLoop.getRegionIterArgs(), index(lb, 0));
  // Every thread is past its wait for group i - 1: its stage is free.
  gpu::BarrierOp::create(lb, loc);
  Value next = arith::AddIOp::create(lb, loc, step, index(lb, stages - 1));
  Value inRange = arith::CmpIOp::create(lb, loc, arith::CmpIPredicate::ult,
                                        next, index(lb, plan.steps));
  issueLoads(lb, next, stageOf(lb, next),
             arith::AndIOp::create(lb, loc, leader, inRange));
  scf::YieldOp::create(lb, loc, accs);
  track(NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0));
  // The accumulator tile overlays the stages: every read of them is done.
  track(gpu::BarrierOp::create(b, loc));
  storeAccumulators(b, mainLoop.getResults(), tile);
  track(gpu::BarrierOp::create(b, loc));
}

/// The producer warpgroup: at few registers, one thread issues every step's
/// loads, from the second use of a stage on once the consumers released
/// the previous use.
void WgmmaPipelineBuilder::buildProducer(OpBuilder &b,
                                         Value producerWarpgroup) {
  int64_t consumerThreads = plan.consumerThreads();
  auto produce = cast<scf::IfOp>(
      track(scf::IfOp::create(b, loc, producerWarpgroup, false)));
  OpBuilder pb = produce.getThenBodyBuilder();
  setMaxRegisters(pb, plan.producerRegisters,
                  NVVM::SetMaxRegisterAction::decrease);
  Value producer = arith::CmpIOp::create(pb, loc, arith::CmpIPredicate::eq,
                                         tid(), index(pb, consumerThreads));
  auto loads = scf::IfOp::create(pb, loc, producer, false);
  OpBuilder ib = loads.getThenBodyBuilder();
  scf::ForOp producerLoop = forEachStep(ib, ValueRange());
  OpBuilder lb = OpBuilder::atBlockBegin(producerLoop.getBody());
  Value step = producerLoop.getInductionVar();
  Value reused = arith::CmpIOp::create(lb, loc, arith::CmpIPredicate::uge, step,
                                       index(lb, plan.stages));
  auto wait = scf::IfOp::create(lb, loc, reused, false);
  OpBuilder wb = wait.getThenBodyBuilder();
  waitPhase(wb, empty, step, 1);
  issueLoads(lb, step, stageOf(lb, step),
             arith::ConstantIntOp::create(lb, loc, 1, 1).getResult());
}

/// Consumer warpgroup c multiplies rows 64 c.., releasing each stage on the
/// `empty` barrier (one arrival per warp) once the group that read it is
/// complete, then stores its accumulators into the tile over the stages.
void WgmmaPipelineBuilder::buildConsumers(OpBuilder &b) {
  int64_t consumerThreads = plan.consumerThreads();
  Value consumer = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                         tid(), index(b, consumerThreads));
  auto consumeIf =
      cast<scf::IfOp>(track(scf::IfOp::create(b, loc, consumer, false)));
  OpBuilder cb = consumeIf.getThenBodyBuilder();
  setMaxRegisters(cb, plan.consumerRegisters,
                  NVVM::SetMaxRegisterAction::increase);
  Value firstRow = arith::MulIOp::create(
      cb, loc,
      arith::DivUIOp::create(cb, loc, tid(), index(cb, kWarpgroupThreads)),
      index(cb, rows));
  Value warpLeader = arith::CmpIOp::create(
      cb, loc, arith::CmpIPredicate::eq,
      arith::RemUIOp::create(cb, loc, tid(), index(cb, kWarpThreads)),
      index(cb, 0));
  scf::ForOp mainLoop = forEachStep(cb, initAccumulators(cb));
  OpBuilder lb = OpBuilder::atBlockBegin(mainLoop.getBody());
  Value step = mainLoop.getInductionVar();
  SmallVector<Value> accs =
      multiplyStage(lb, step, mainLoop.getRegionIterArgs(), firstRow);
  releasePreviousStage(lb, step, warpLeader);
  scf::YieldOp::create(lb, loc, accs);
  cb.setInsertionPointAfter(mainLoop);
  NVVM::WgmmaWaitGroupSyncOp::create(cb, loc, 0);
  // Every load was waited for; once every consumer is past its last wait (a
  // named barrier over the consumers' threads), every product read its
  // stage: the tile over the stages is free. nvgpu's store places a warp's
  // 16 rows by its warp index in the block (thread id / 32), so consumer c's
  // rows land at 64 c.. of the view it is given: every consumer stores
  // through a view of the tile's first `rows` rows (the accumulator's shape,
  // which the op requires), the others' rows follow in the tile.
  NVVM::BarrierOp::create(
      cb, loc, TypeRange(),
      arith::ConstantIntOp::create(cb, loc, kConsumerBarrier, 32),
      arith::ConstantIntOp::create(cb, loc, consumerThreads, 32),
      NVVM::BarrierReductionAttr(), Value());
  Value fragmentView =
      view(cb, base, sharedMatrix(rows, plan.bn, cb.getF32Type()));
  storeAccumulators(cb, mainLoop.getResults(), fragmentView);
  setMaxRegisters(cb, plan.entryRegisters,
                  NVVM::SetMaxRegisterAction::decrease);
}

void WgmmaPipelineBuilder::releasePreviousStage(OpBuilder &b, Value step,
                                                Value warpLeader) {
  // Group step - 1 is complete: release its stage.
  Value released = arith::AndIOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, step,
                            index(b, 1)),
      warpLeader);
  auto release = scf::IfOp::create(b, loc, released, false);
  OpBuilder rb = release.getThenBodyBuilder();
  Value previous =
      stageOf(rb, arith::SubIOp::create(rb, loc, step, index(rb, 1)));
  nvgpu::MBarrierArriveOp::create(rb, loc, nvgpu::MBarrierTokenType::get(ctx),
                                  empty, previous);
}

/// Warp specialization: the consumer warpgroups first (the accumulator
/// store numbers warps from thread 0), then a producer warpgroup. The
/// producer gives up the registers its one thread does not need and the
/// consumers take them; both return to the entry count before the
/// epilogue, which every thread runs. The producer takes its registers back
/// only after the barrier that follows the consumers' release: an `inc`
/// waits until the block has the registers, and taken earlier they would be
/// the ones the consumers' `inc` waits for.
void WgmmaPipelineBuilder::buildWarpSpecialized(OpBuilder &b) {
  // One arrival per consumer warp (its first lane, once the whole warp is
  // past the aligned wait): 32 times fewer shared-memory atomics per step
  // than one per thread.
  empty = createBarriers(b, plan.consumerThreads() / kWarpThreads);
  track(gpu::BarrierOp::create(b, loc));
  Value producerWarpgroup =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, tid(),
                            index(b, plan.consumerThreads()));
  buildProducer(b, producerWarpgroup);
  buildConsumers(b);
  track(gpu::BarrierOp::create(b, loc));
  if (plan.entryRegisters) {
    auto restore = cast<scf::IfOp>(
        track(scf::IfOp::create(b, loc, producerWarpgroup, false)));
    OpBuilder rb = restore.getThenBodyBuilder();
    setMaxRegisters(rb, plan.entryRegisters,
                    NVVM::SetMaxRegisterAction::increase);
  }
}

/// The epilogue reads the accumulator tile where the loop's buffer was (of
/// the buffer's shape: a batched block's has unit batch dims first).
void WgmmaPipelineBuilder::replaceAccumulator(OpBuilder &b, Value tile) {
  MemRefType accumulator = plan.accumulator.getType();
  if (accumulator.getRank() > 2) {
    ReassociationIndices batchAndRows =
        llvm::to_vector(llvm::seq<int64_t>(0, accumulator.getRank() - 1));
    tile = memref::ExpandShapeOp::create(
        b, loc,
        MemRefType::get(accumulator.getShape(), accumulator.getElementType(),
                        AffineMap(), workgroup),
        tile,
        ArrayRef<ReassociationIndices>{batchAndRows,
                                       {accumulator.getRank() - 1}});
  }
  Value generic =
      memref::MemorySpaceCastOp::create(b, loc, accumulator, tile);
  plan.accumulator.replaceAllUsesWith(generic);
  plan.fill.erase();
  plan.loop.erase();
  plan.accumulator.erase();
  if (plan.inPlaceEpilogue) {
    plan.inPlaceEpilogue.replaceAllUsesWith(generic);
    plan.inPlaceEpilogue.erase();
  }
}

SmallVector<Operation *> WgmmaPipelineBuilder::build() {
  OpBuilder hb(launch);
  descA = createTmaDescriptor(hb, plan.globalA, plan.bm);
  descB = createTmaDescriptor(hb, plan.globalB,
                              plan.kMajorB ? plan.bn : plan.bk);
  // The kernel code goes where the loop was.
  OpBuilder b(plan.loop);
  createSharedBase(b);
  leader = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid(),
                                 index(b, 0));
  // The loads complete on `full`, each with its stage's bytes.
  full = createBarriers(b, 1);
  accumulatorType = nvgpu::WarpgroupAccumulatorType::get(
      ctx, VectorType::get({partRows, plan.bn}, b.getF32Type()));
  Value tile = view(b, base, sharedMatrix(plan.bm, plan.bn, b.getF32Type()));
  if (plan.warpSpecialized)
    buildWarpSpecialized(b);
  else
    buildOneWarpgroup(b, tile);
  replaceAccumulator(b, tile);
  return emitted;
}

SmallVector<Operation *> mlir::smap::lowerWgmma(gpu::LaunchOp launch,
                                                WgmmaPlan &plan) {
  return WgmmaPipelineBuilder(launch, plan).build();
}
