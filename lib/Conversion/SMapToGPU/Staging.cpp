//===- Staging.cpp - Copies and staged tiles of a block -------------------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// How a block's threads copy buffers (16-byte vectors where alignment is
// provable, every load before the stores when each thread has few chunks)
// and how a temporal loop's staged tiles arrive: a cp.async pipeline over
// several copies of each staged buffer, or loads one step ahead through
// registers (the only way for a copy that rounds f32 to f16).
//
//===----------------------------------------------------------------------===//

#include "BlockDistributor.h"
#include "spacefusion/Analysis/TensorCoreLegality.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::smap;

/// Whether `v` is a multiple of `factor` by construction (constants,
/// products with one, sums, differences, minima and maxima of them (the
/// clamped offset of a ragged last slice, min(iv, extent - step)), loop
/// indices stepping by one).
static bool isMultipleOf(Value v, int64_t factor) {
  if (std::optional<int64_t> c = getConstantIntValue(v))
    return *c % factor == 0;
  if (auto mul = v.getDefiningOp<arith::MulIOp>())
    return isMultipleOf(mul.getLhs(), factor) ||
           isMultipleOf(mul.getRhs(), factor);
  Operation *def = v.getDefiningOp();
  if (isa_and_nonnull<arith::AddIOp, arith::SubIOp, arith::MinUIOp,
                      arith::MinSIOp, arith::MaxUIOp, arith::MaxSIOp>(def))
    return llvm::all_of(def->getOperands(), [&](Value operand) {
      return isMultipleOf(operand, factor);
    });
  if (auto arg = dyn_cast<BlockArgument>(v))
    if (auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp()))
      return arg == loop.getInductionVar() &&
             isMultipleOf(loop.getLowerBound(), factor) &&
             isMultipleOf(loop.getStep(), factor);
  return false;
}

/// Whether every `vector`-element group along the innermost dim of `memref`
/// starts 16-byte aligned: unit innermost stride, outer strides multiples
/// of `vector`, and a base that is aligned (a function argument, which the
/// ABI requires 16-byte aligned, or a block buffer) plus offsets that keep
/// it so.
bool mlir::smap::isVectorAligned(Value memref, int64_t vector) {
  auto type = dyn_cast<MemRefType>(memref.getType());
  if (!type)
    return false;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) || strides.empty() ||
      strides.back() != 1 || type.getShape().back() % vector)
    return false;
  for (int64_t stride : ArrayRef<int64_t>(strides).drop_back())
    if (ShapedType::isDynamic(stride) || stride % vector)
      return false;
  if (isa<BlockArgument>(memref))
    return !ShapedType::isDynamic(offset) && offset % vector == 0;
  // A buffer of its own: on the host a device allocation (256-byte
  // aligned), in a block a place in shared memory (16-byte aligned).
  if (memref.getDefiningOp<memref::AllocOp>())
    return !ShapedType::isDynamic(offset) && offset % vector == 0;
  if (auto cast = memref.getDefiningOp<memref::MemorySpaceCastOp>())
    return isVectorAligned(cast.getSource(), vector);
  // A reshape keeps its source's offset (a split graph's inputs are
  // expand_shape views of the arguments).
  if (auto expand = memref.getDefiningOp<memref::ExpandShapeOp>())
    return isVectorAligned(expand.getSrc(), vector);
  if (auto collapse = memref.getDefiningOp<memref::CollapseShapeOp>())
    return isVectorAligned(collapse.getSrc(), vector);
  if (auto view = memref.getDefiningOp<memref::ViewOp>())
    return isMultipleOf(view.getByteShift(), 16);
  if (auto subview = memref.getDefiningOp<memref::SubViewOp>()) {
    SmallVector<OpFoldResult> offsets = subview.getMixedOffsets();
    OpFoldResult last = offsets.back();
    bool lastAligned = isa<Attribute>(last)
                           ? getConstantIntValue(last).value_or(1) % vector == 0
                           : isMultipleOf(cast<Value>(last), vector);
    return lastAligned && isVectorAligned(subview.getSource(), vector);
  }
  return false;
}

Value mlir::smap::swizzledOffset(OpBuilder &b, Location loc, Value row,
                                 Value col, int64_t rows) {
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  // Column block col / 64 of [rows, 64]; in it, chunk (col / 8) mod 8 of
  // row `row` sits at chunk ((col / 8) mod 8) ^ (row mod 8).
  Value block = arith::DivUIOp::create(b, loc, col, index(64));
  Value chunk = arith::RemUIOp::create(
      b, loc, arith::DivUIOp::create(b, loc, col, index(8)), index(8));
  Value swizzled = arith::XOrIOp::create(
      b, loc, chunk, arith::RemUIOp::create(b, loc, row, index(8)));
  Value offset = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, block, index(rows * 64)),
      arith::MulIOp::create(b, loc, row, index(64)));
  offset = arith::AddIOp::create(
      b, loc, offset, arith::MulIOp::create(b, loc, swizzled, index(8)));
  return arith::AddIOp::create(b, loc, offset,
                               arith::RemUIOp::create(b, loc, col, index(8)));
}

memref::ViewOp mlir::smap::swizzledTileView(Value value) {
  if (auto subview = value.getDefiningOp<memref::SubViewOp>())
    value = subview.getSource();
  if (auto cast = value.getDefiningOp<memref::MemorySpaceCastOp>())
    value = cast.getSource();
  auto view = value.getDefiningOp<memref::ViewOp>();
  return view && view->hasAttr(kSwizzledTileAttr) ? view : nullptr;
}

Value mlir::smap::flatSwizzledTile(OpBuilder &b, Location loc,
                                   memref::ViewOp view) {
  MemRefType type = view.getType();
  auto flat = MemRefType::get({type.getNumElements()}, type.getElementType(),
                              AffineMap(), type.getMemorySpace());
  return memref::ViewOp::create(b, loc, flat, view.getSource(),
                                view.getByteShift(), ValueRange());
}

std::pair<Value, SmallVector<Value>>
CopyPlan::targetAddress(OpBuilder &b, Location loc, Value to,
                        ArrayRef<Value> indices) const {
  memref::ViewOp view = swizzledTileView(to);
  if (!view)
    return {to, SmallVector<Value>(indices)};
  // The tile's rows: every dim but the last (all of extent 1 but one).
  auto type = cast<MemRefType>(to.getType());
  Value row = arith::ConstantIndexOp::create(b, loc, 0);
  for (auto [index, extent] :
       llvm::zip(indices.drop_back(), type.getShape().drop_back()))
    row = arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(b, loc, row,
                              arith::ConstantIndexOp::create(b, loc, extent)),
        index);
  int64_t rows = 1;
  for (int64_t extent : view.getType().getShape().drop_back())
    rows *= extent;
  return {flatSwizzledTile(b, loc, view),
          {swizzledOffset(b, loc, row, indices.back(), rows)}};
}

/// Orders the generic-proxy writes of swizzled tiles before the async-proxy
/// reads of wgmma (each writing thread, before the barrier that publishes
/// them).
static void fenceSwizzledWrites(OpBuilder &b, Location loc,
                                ArrayRef<CopyPlan> plans) {
  if (llvm::none_of(plans,
                    [](const CopyPlan &plan) { return plan.swizzled(); }))
    return;
  MLIRContext *ctx = b.getContext();
  NVVM::FenceProxyOp::create(
      b, loc, NVVM::ProxyKindAttr::get(ctx, NVVM::ProxyKind::async_shared),
      NVVM::SharedSpaceAttr::get(ctx, NVVM::SharedSpace::shared_cta));
}

/// Each thread's chunk indices of `plan` when every thread has the same
/// number of chunks, at most `maxPerThread` (the copy is then straight-line
/// code), else empty.
static SmallVector<SmallVector<Value>>
unrolledChunks(OpBuilder &b, Location loc, const CopyPlan &plan, Value tid,
               int64_t threads, int64_t maxPerThread) {
  SmallVector<SmallVector<Value>> at;
  if (!splitsEvenly(plan.chunks, threads, maxPerThread))
    return at;
  for (int64_t u = 0; u < plan.chunks / threads; ++u) {
    Value linear = arith::AddIOp::create(
        b, loc, tid, arith::ConstantIndexOp::create(b, loc, u * threads));
    at.push_back(
        plan.elementIndices(b, loc, delinearize(b, loc, linear, plan.extents)));
  }
  return at;
}

/// The chunks per thread that one iteration of a copy loop moves: the
/// most, up to kMaxRegisterCopyChunks, that divide every thread's share
/// evenly (1 when the threads' shares differ).
static int64_t copyGroupChunks(int64_t chunks, int64_t threads) {
  if (!splitsEvenly(chunks, threads, chunks))
    return 1;
  int64_t perThread = chunks / threads;
  int64_t group = std::min(perThread, kMaxRegisterCopyChunks);
  while (perThread % group != 0)
    --group;
  return group;
}

/// Loads every chunk `at` of `plan` from `from` into registers, then stores
/// them all into `to`: the loads' latencies overlap instead of adding up.
static void copyChunksThroughRegisters(OpBuilder &b, Location loc,
                                       const CopyPlan &plan, Value from,
                                       Value to,
                                       ArrayRef<SmallVector<Value>> at) {
  SmallVector<Value> values;
  for (ArrayRef<Value> indices : at)
    values.push_back(plan.load(b, loc, from, indices));
  for (auto [v, indices] : llvm::zip(values, at))
    plan.store(b, loc, v, to, indices);
}

void BlockDistributor::distributeCopy(Operation *op, Value source,
                                      Value target) {
  if (source == target) {
    op->erase();
    return;
  }
  OpBuilder b(op);
  Location loc = op->getLoc();
  CopyPlan plan(source, target);
  SmallVector<SmallVector<Value>> at =
      unrolledChunks(b, loc, plan, tid, threads, kMaxRegisterCopyChunks);
  if (!at.empty()) {
    // A few chunks per thread: issue every load before the first store, so
    // that their latencies overlap instead of adding up.
    copyChunksThroughRegisters(b, loc, plan, source, target, at);
  } else {
    // More: a loop whose iterations do the same for a group of chunks per
    // thread (one load in flight per thread made a 16-row linear's 128 KB
    // weight tile latency-bound).
    int64_t group = copyGroupChunks(plan.chunks, threads);
    buildStridedLoop(b, loc, plan.extents, group,
                     [&](OpBuilder &tb, ArrayRef<SmallVector<Value>> chunks) {
                       SmallVector<SmallVector<Value>> indices;
                       for (ArrayRef<Value> chunk : chunks)
                         indices.push_back(plan.elementIndices(tb, loc, chunk));
                       copyChunksThroughRegisters(tb, loc, plan, source, target,
                                                  indices);
                     });
  }
  fenceSwizzledWrites(b, loc, plan);
  gpu::BarrierOp::create(b, loc);
  op->erase();
}

Value mlir::smap::cloneFromLoop(OpBuilder &b, Value v, scf::ForOp loop,
                                IRMapping &mapping) {
  if (Value mapped = mapping.lookupOrNull(v))
    return mapped;
  Operation *def = v.getDefiningOp();
  if (!def || !loop->isAncestor(def))
    return v;
  if (!isPure(def) || def->getNumRegions())
    return nullptr;
  for (Value operand : def->getOperands())
    if (!cloneFromLoop(b, operand, loop, mapping))
      return nullptr;
  b.clone(*def, mapping);
  return mapping.lookup(v);
}

/// Whether `op` copies its one input into its one output elementwise,
/// possibly rounding floats (an f32 operand staged as f16).
static bool isStagingCopy(linalg::LinalgOp op) {
  if (isa<linalg::CopyOp>(op))
    return true;
  if (!isa<linalg::GenericOp>(op) || op.getNumDpsInputs() != 1 ||
      op.getNumDpsInits() != 1 || op.getNumReductionLoops() ||
      !llvm::all_of(op.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isIdentity(); }))
    return false;
  Block *body = op.getBlock();
  auto trunc =
      body->getTerminator()->getOperand(0).getDefiningOp<arith::TruncFOp>();
  return std::distance(body->begin(), body->end()) == 2 && trunc &&
         trunc.getIn() == body->getArgument(0);
}

/// Whether `v` is `loop`'s induction variable or pure arithmetic of it in
/// the loop (the clamped offset of a ragged last slice, min(iv, last)).
static bool followsInductionVar(Value v, scf::ForOp loop) {
  if (v == loop.getInductionVar())
    return true;
  Operation *def = v.getDefiningOp();
  if (!def || !loop->isAncestor(def) || !isPure(def) || def->getNumRegions())
    return false;
  return llvm::any_of(def->getOperands(), [&](Value operand) {
    return followsInductionVar(operand, loop);
  });
}

/// The staging copies of `loop`: a tile whose position depends on the step,
/// copied into a block buffer that nothing else in the step writes.
static SmallVector<linalg::LinalgOp> stagingCopies(scf::ForOp loop) {
  SmallVector<linalg::LinalgOp> copies;
  for (Operation &op : loop.getBody()->without_terminator()) {
    auto copy = dyn_cast<linalg::LinalgOp>(op);
    if (!copy || !copy.hasPureBufferSemantics() || !isStagingCopy(copy))
      continue;
    auto source =
        copy.getDpsInputOperand(0)->get().getDefiningOp<memref::SubViewOp>();
    if (source && loop->isAncestor(source) &&
        llvm::any_of(source.getOffsets(), [&](Value offset) {
          return followsInductionVar(offset, loop);
        }))
      copies.push_back(copy);
  }
  for (Operation &op : loop.getBody()->without_terminator()) {
    auto writer = dyn_cast<DestinationStyleOpInterface>(op);
    if (!writer)
      continue;
    for (linalg::LinalgOp copy : copies)
      if (&op != copy.getOperation() &&
          llvm::is_contained(writer.getDpsInits(),
                             copy.getDpsInitOperand(0)->get()))
        return {};
  }
  return copies;
}

/// The block buffers (allocated in a loop) that staging copies fill: each
/// gets one copy per pipeline stage.
llvm::DenseSet<Operation *> mlir::smap::stagedTileAllocs(Block &body) {
  llvm::DenseSet<Operation *> allocs;
  body.walk([&](scf::ForOp loop) {
    SmallVector<linalg::LinalgOp> copies = stagingCopies(loop);
    // A rounding copy goes through registers: the loop is not pipelined.
    if (llvm::any_of(copies, [](linalg::LinalgOp copy) {
          return !isa<linalg::CopyOp>(copy);
        }))
      return;
    for (linalg::LinalgOp copy : copies) {
      Value target = copy.getDpsInitOperand(0)->get();
      if (auto subview = target.getDefiningOp<memref::SubViewOp>())
        target = subview.getSource();
      if (auto alloc = target.getDefiningOp<memref::AllocOp>())
        if (loop->isAncestor(alloc))
          allocs.insert(alloc);
    }
  });
  return allocs;
}

/// The workgroup-space view behind a generic pointer into a shared-memory
/// buffer (a cast of a workgroup view, or a subview of one, then rebuilt on
/// the view), or null.
static Value workgroupView(OpBuilder &b, Value value) {
  auto subview = value.getDefiningOp<memref::SubViewOp>();
  auto cast = (subview ? subview.getSource() : value)
                  .getDefiningOp<memref::MemorySpaceCastOp>();
  auto type =
      cast ? dyn_cast<MemRefType>(cast.getSource().getType()) : MemRefType();
  auto space =
      type ? dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace())
           : nullptr;
  if (!space || space.getValue() != gpu::AddressSpace::Workgroup)
    return nullptr;
  if (!subview)
    return cast.getSource();
  return memref::SubViewOp::create(
      b, subview.getLoc(), cast.getSource(), subview.getMixedOffsets(),
      subview.getMixedSizes(), subview.getMixedStrides());
}

/// The shared-memory views the staging copies write (each to be placed
/// with `stages` copies), or failure when a copy is not a 16-byte copy into
/// a view made in `loop`.
static FailureOr<SmallVector<memref::ViewOp>>
asyncStagedViews(scf::ForOp loop, ArrayRef<linalg::LinalgOp> copies,
                 ArrayRef<CopyPlan> plans) {
  SmallVector<memref::ViewOp> views;
  for (auto [constCopy, plan] : llvm::zip(copies, plans)) {
    linalg::LinalgOp copy = constCopy;
    if (plan.converts() ||
        plan.vector *
                llvm::divideCeil(plan.elementType.getIntOrFloatBitWidth(), 8) !=
            16)
      return failure();
    Value target = copy.getDpsInitOperand(0)->get();
    if (auto subview = target.getDefiningOp<memref::SubViewOp>())
      target = subview.getSource();
    auto cast = target.getDefiningOp<memref::MemorySpaceCastOp>();
    auto view =
        cast ? cast.getSource().getDefiningOp<memref::ViewOp>() : nullptr;
    if (!view || !loop->isAncestor(view))
      return failure();
    views.push_back(view);
  }
  return views;
}

/// Moves each of `views` to the stage `loop`'s step reads: step i reads
/// stage i % stages, each view moving by its size per stage.
static void rotateStagedViews(scf::ForOp loop, ArrayRef<memref::ViewOp> views,
                              int64_t stages) {
  Location loc = loop.getLoc();
  auto index = [&](OpBuilder &b, int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  OpBuilder top(loop.getBody(), loop.getBody()->begin());
  Value iv = loop.getInductionVar();
  Value stepIndex = arith::DivUIOp::create(
      top, loc, arith::SubIOp::create(top, loc, iv, loop.getLowerBound()),
      loop.getStep());
  Value stage = arith::RemUIOp::create(top, loc, stepIndex, index(top, stages));
  for (memref::ViewOp view : views) {
    MemRefType type = view.getType();
    int64_t bytes = stagedBytes(type, view->hasAttr(kSwizzledTileAttr));
    OpBuilder vb(view);
    view.getByteShiftMutable().assign(arith::AddIOp::create(
        vb, loc, view.getByteShift(),
        arith::MulIOp::create(vb, loc, stage, index(vb, bytes))));
  }
}

/// The copies of step `at` into its stage (the tiles of the last step,
/// `last`, when `at` is past it: same addresses, no branch; into a stage no
/// step reads then), as one cp.async group; returns the group's token.
static Value issueAsyncCopies(
    OpBuilder &b, scf::ForOp loop, Value last, ArrayRef<CopyPlan> plans,
    ArrayRef<SmallVector<SmallVector<Value>>> chunkIndices, Value at) {
  Location loc = loop.getLoc();
  auto tokenType = nvgpu::DeviceAsyncTokenType::get(loop.getContext());
  Value iv = loop.getInductionVar();
  IRMapping sourceMapping, targetMapping;
  sourceMapping.map(iv, arith::MinUIOp::create(b, loc, at, last));
  targetMapping.map(iv, at);
  SmallVector<Value> tokens;
  for (auto [plan, indices] : llvm::zip(plans, chunkIndices)) {
    Value source = cloneFromLoop(b, plan.source, loop, sourceMapping);
    Value target = cloneFromLoop(b, plan.target, loop, targetMapping);
    Value shared = workgroupView(b, target);
    for (ArrayRef<Value> chunk : indices) {
      auto [to, at] = plan.targetAddress(b, loc, shared, chunk);
      tokens.push_back(nvgpu::DeviceAsyncCopyOp::create(
          b, loc, tokenType, to, at, source, chunk, b.getIndexAttr(plan.vector),
          Value(), b.getUnitAttr()));
    }
  }
  return nvgpu::DeviceAsyncCreateGroupOp::create(b, loc, tokenType, tokens);
}

/// Each step, at `in`: waits for its own group `token` (the stages - 2
/// later ones may still be in flight), makes every thread's copies
/// visible, then starts the step stages - 1 ahead into the stage the
/// previous step read (which every warp has left: they all passed the
/// barrier).
static void
waitAndIssueAhead(OpBuilder &in, scf::ForOp loop, Value token, Value last,
                  int64_t stages, ArrayRef<CopyPlan> plans,
                  ArrayRef<SmallVector<SmallVector<Value>>> chunkIndices) {
  Location loc = loop.getLoc();
  nvgpu::DeviceAsyncWaitOp::create(in, loc, token,
                                   in.getI32IntegerAttr(stages - 2));
  fenceSwizzledWrites(in, loc, plans);
  gpu::BarrierOp::create(in, loc);
  issueAsyncCopies(in, loop, last, plans, chunkIndices,
                   arith::AddIOp::create(
                       in, loc, loop.getInductionVar(),
                       arith::MulIOp::create(in, loc, loop.getStep(),
                                             arith::ConstantIndexOp::create(
                                                 in, loc, stages - 1))));
}

bool BlockDistributor::prefetchAsync(
    scf::ForOp loop, ArrayRef<linalg::LinalgOp> copies,
    ArrayRef<CopyPlan> plans,
    ArrayRef<SmallVector<SmallVector<Value>>> chunkIndices) {
  // 16-byte chunks into shared-memory views placed with `stages` copies.
  FailureOr<SmallVector<memref::ViewOp>> views =
      asyncStagedViews(loop, copies, plans);
  if (failed(views))
    return false;
  rotateStagedViews(loop, *views, stages);

  Location loc = loop.getLoc();
  OpBuilder pre(loop);
  Value last =
      arith::SubIOp::create(pre, loc, loop.getUpperBound(), loop.getStep());
  // The first stages - 1 steps before the loop.
  Value token;
  for (int64_t s = 0; s + 1 < stages; ++s)
    token =
        issueAsyncCopies(pre, loop, last, plans, chunkIndices,
                         arith::AddIOp::create(
                             pre, loc, loop.getLowerBound(),
                             arith::MulIOp::create(
                                 pre, loc, loop.getStep(),
                                 arith::ConstantIndexOp::create(pre, loc, s))));
  OpBuilder in(copies.front());
  waitAndIssueAhead(in, loop, token, last, stages, plans, chunkIndices);
  // Nothing may still write shared memory after the loop.
  OpBuilder after(loop->getContext());
  after.setInsertionPointAfter(loop);
  nvgpu::DeviceAsyncWaitOp::create(after, loc, token,
                                   after.getI32IntegerAttr(0));
  for (linalg::LinalgOp copy : copies)
    copy->erase();
  ++prefetchedLoops;
  ++asyncLoops;
  asyncPrefetch = true;
  return true;
}

/// The plan of staging `copy`: 16-byte chunks, or for a copy through
/// registers (`narrowing`) whose 16-byte chunks do not split evenly over
/// the `threads`, the widest narrower chunk that does (a 16 x 64 tile over
/// 256 threads: one 8-byte chunk each); cp.async and swizzled tiles keep
/// 16-byte chunks.
static CopyPlan stagingCopyPlan(linalg::LinalgOp copy, int64_t threads,
                                int64_t maxPerThread, bool narrowing) {
  Value source = copy.getDpsInputOperand(0)->get();
  Value target = copy.getDpsInitOperand(0)->get();
  CopyPlan plan(source, target);
  if (!narrowing || plan.vector == 1 || plan.swizzled() ||
      splitsEvenly(plan.chunks, threads, maxPerThread))
    return plan;
  for (int64_t bytes = 8; bytes >= kMinRegisterCopyChunkBytes; bytes /= 2) {
    CopyPlan narrower(source, target, bytes);
    if (splitsEvenly(narrower.chunks, threads, maxPerThread))
      return narrower;
  }
  return plan;
}

/// The copy plans of the staging `copies` (stagingCopyPlan), each with
/// every thread's chunk indices (unrolledChunks, at most `maxPerThread`,
/// built at `pre`); false when a copy does not split evenly over the
/// threads.
static bool
planStagingCopies(OpBuilder &pre, Location loc,
                  ArrayRef<linalg::LinalgOp> copies, Value tid, int64_t threads,
                  int64_t maxPerThread, bool narrowing,
                  SmallVector<CopyPlan> &plans,
                  SmallVector<SmallVector<SmallVector<Value>>> &chunkIndices) {
  for (linalg::LinalgOp copy : copies) {
    plans.push_back(stagingCopyPlan(copy, threads, maxPerThread, narrowing));
    chunkIndices.push_back(
        unrolledChunks(pre, loc, plans.back(), tid, threads, maxPerThread));
    if (chunkIndices.back().empty())
      return false;
  }
  return true;
}

/// Copies the first step's tiles of `loop` at `pre` (before the loop), then
/// publishes them; false when a tile's address cannot be cloned out of the
/// loop.
static bool
copyFirstStepTiles(OpBuilder &pre, Location loc, scf::ForOp loop,
                   ArrayRef<CopyPlan> plans,
                   ArrayRef<SmallVector<SmallVector<Value>>> chunkIndices) {
  SmallVector<std::pair<Value, Value>> firstEnds;
  for (const CopyPlan &plan : plans) {
    IRMapping mapping;
    mapping.map(loop.getInductionVar(), loop.getLowerBound());
    Value source = cloneFromLoop(pre, plan.source, loop, mapping);
    Value target = cloneFromLoop(pre, plan.target, loop, mapping);
    if (!source || !target)
      return false;
    firstEnds.push_back({source, target});
  }
  for (auto [plan, ends, at] : llvm::zip(plans, firstEnds, chunkIndices))
    copyChunksThroughRegisters(pre, loc, plan, ends.first, ends.second, at);
  fenceSwizzledWrites(pre, loc, plans);
  gpu::BarrierOp::create(pre, loc);
  return true;
}

/// Loads the next step's tiles into registers at `in` (the last step
/// reloads its own: same addresses, no branch), into `values`, with the
/// targets they go to in `targets`; the loads (and roundings) join
/// `alreadyDistributed`. False when a source cannot be cloned.
static bool loadNextStepTiles(
    OpBuilder &in, Location loc, scf::ForOp loop, ArrayRef<CopyPlan> plans,
    ArrayRef<SmallVector<SmallVector<Value>>> chunkIndices,
    llvm::DenseSet<Operation *> &alreadyDistributed,
    SmallVector<SmallVector<Value>> &values, SmallVector<Value> &targets) {
  Value next =
      arith::AddIOp::create(in, loc, loop.getInductionVar(), loop.getStep());
  Value last =
      arith::SubIOp::create(in, loc, loop.getUpperBound(), loop.getStep());
  next = arith::MinUIOp::create(in, loc, next, last);
  for (auto [plan, at] : llvm::zip(plans, chunkIndices)) {
    IRMapping mapping;
    mapping.map(loop.getInductionVar(), next);
    Value source = cloneFromLoop(in, plan.source, loop, mapping);
    if (!source)
      return false;
    SmallVector<Value> loaded;
    for (ArrayRef<Value> indices : at) {
      loaded.push_back(plan.load(in, loc, source, indices));
      // The load, and the rounding of a converting copy.
      Operation *def = loaded.back().getDefiningOp();
      alreadyDistributed.insert(def);
      if (isa<arith::TruncFOp>(def))
        alreadyDistributed.insert(def->getOperand(0).getDefiningOp());
    }
    values.push_back(loaded);
    targets.push_back(plan.target);
  }
  return true;
}

/// Stores the prefetched registers `values` into their `targets` after a
/// step, then publishes them.
static void
storePrefetchedTiles(OpBuilder &b, Location loc, ArrayRef<CopyPlan> plans,
                     ArrayRef<SmallVector<SmallVector<Value>>> chunkIndices,
                     ArrayRef<SmallVector<Value>> values,
                     ArrayRef<Value> targets) {
  for (auto [plan, at, loaded, target] :
       llvm::zip(plans, chunkIndices, values, targets))
    for (auto [v, indices] : llvm::zip(loaded, at))
      plan.store(b, loc, v, target, indices);
  fenceSwizzledWrites(b, loc, plans);
  gpu::BarrierOp::create(b, loc);
}

std::function<void(OpBuilder &)>
BlockDistributor::prefetchStagedOperands(scf::ForOp loop) {
  asyncPrefetch = false;
  SmallVector<linalg::LinalgOp> copies = stagingCopies(loop);
  if (copies.empty())
    return nullptr;
  Location loc = loop.getLoc();
  OpBuilder pre(loop);
  SmallVector<CopyPlan> plans;
  SmallVector<SmallVector<SmallVector<Value>>> chunkIndices;
  int64_t maxPerThread =
      stages > 1 ? kMaxAsyncCopyChunks : kMaxRegisterCopyChunks;
  if (!planStagingCopies(pre, loc, copies, tid, threads, maxPerThread,
                         /*narrowing=*/stages <= 1, plans, chunkIndices))
    return nullptr;

  if (stages > 1 && prefetchAsync(loop, copies, plans, chunkIndices))
    return [](OpBuilder &) {};
  // Through registers, a thread holds at most kMaxRegisterCopyChunks.
  if (llvm::any_of(chunkIndices, [](const auto &at) {
        return static_cast<int64_t>(at.size()) > kMaxRegisterCopyChunks;
      }))
    return nullptr;
  if (!copyFirstStepTiles(pre, loc, loop, plans, chunkIndices))
    return nullptr;

  // In each step, the next step's tiles are loaded into registers first,
  // while the tensor cores work on this step's; stored after the step.
  OpBuilder in(copies.front());
  auto values = std::make_shared<SmallVector<SmallVector<Value>>>();
  auto targets = std::make_shared<SmallVector<Value>>();
  if (!loadNextStepTiles(in, loc, loop, plans, chunkIndices, alreadyDistributed,
                         *values, *targets))
    return nullptr;
  for (linalg::LinalgOp copy : copies)
    copy->erase();
  ++prefetchedLoops;
  return [=, plans = std::move(plans),
          chunkIndices = std::move(chunkIndices)](OpBuilder &b) {
    storePrefetchedTiles(b, loc, plans, chunkIndices, *values, *targets);
  };
}
