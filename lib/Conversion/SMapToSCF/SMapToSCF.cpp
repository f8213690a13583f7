//===- SMapToSCF.cpp - Lower sliced smap ops to scf loops -----------------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "../PassDetail.h"
#include "spacefusion/Analysis/LoopKernelLegality.h"
#include "spacefusion/Analysis/Remarks.h"
#include "spacefusion/Analysis/SpaceMappingGraph.h"
#include "spacefusion/Dialect/SMap/Transforms/GraphUtils.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace smap {
#define GEN_PASS_DEF_CONVERTSMAPTOSCFPASS
#include "spacefusion/Conversion/Passes.h.inc"
} // namespace smap
} // namespace mlir

using namespace mlir;
using namespace mlir::smap;

/// Clones `region`'s single block at `b` with its arguments bound to `args`;
/// returns the values its smap.yield yields.
static SmallVector<Value> inlineRegion(OpBuilder &b, Region &region,
                                       ValueRange args) {
  Block &block = region.front();
  IRMapping mapping;
  mapping.map(block.getArguments(), args);
  for (Operation &op : block.without_terminator())
    b.clone(op, mapping);
  SmallVector<Value> yielded;
  for (Value v : cast<YieldOp>(block.back()).getValues())
    yielded.push_back(mapping.lookupOrDefault(v));
  return yielded;
}

/// The offsets of a tile in a result whose dims are `names`, given the
/// sliced `dims` and the block's offsets along them.
static SmallVector<OpFoldResult> tileOffsets(OpBuilder &b, ArrayAttr names,
                                             ArrayRef<DimAttr> dims,
                                             ArrayRef<Value> offsets) {
  SmallVector<OpFoldResult> at;
  for (Attribute name : names) {
    OpFoldResult offset = b.getIndexAttr(0);
    for (auto [k, dim] : llvm::enumerate(dims))
      if (dim.getName() == cast<StringAttr>(name).getValue())
        offset = offsets[k];
    at.push_back(offset);
  }
  return at;
}

/// The op that combines the final value of a payload block: an addf, or a
/// float max or min (the combiners whose partial starts from a fill).
static Operation *finalCombine(Block *body) {
  Operation *def = body->getTerminator()->getOperand(0).getDefiningOp();
  return isa_and_nonnull<arith::AddFOp, arith::MaximumFOp, arith::MinimumFOp,
                         arith::MaxNumFOp, arith::MinNumFOp>(def)
             ? def
             : nullptr;
}

/// Whether `fill` fills with the identity of `combine` (getCombinerIdentity:
/// 0 for a sum, -inf for a max, +inf for a min), so that combining into any
/// other start gives that start combined with what the op computes from the
/// fill.
static bool fillsWithIdentity(linalg::FillOp fill, Operation *combine) {
  FloatAttr value;
  std::optional<Combiner> combiner =
      matchCombiner(combine->getResult(0), combine->getOperand(0));
  if (!combiner || !matchPattern(fill.getInputs()[0], m_Constant(&value)))
    return false;
  Builder b(fill.getContext());
  return value == getCombinerIdentity(b, *combiner,
                                      cast<FloatType>(value.getType()));
}

/// Whether `op`'s payload is `combine(out, f(ins))` by the same kind of op
/// as `combine`: accumulating into its output from any starting value gives
/// that value combined with what it computes from the combiner's identity.
static bool accumulatesIntoOutput(linalg::LinalgOp op, Operation *combine) {
  if (op.getNumDpsInits() != 1)
    return false;
  Block *body = op.getBlock();
  Operation *last = finalCombine(body);
  Value out = body->getArgument(op.getNumDpsInputs());
  return last && last->getName() == combine->getName() &&
         (last->getOperand(0) == out) != (last->getOperand(1) == out) &&
         !llvm::any_of(out.getUsers(),
                       [&](Operation *user) { return user != last; });
}

namespace {
/// The rewrite of one update `g(state, ...) + X` (see accumulateInPlace):
/// `match` finds X (the contribution, produced by an op accumulating from
/// an identity fill) and the rest of the final combination, `rewrite`
/// makes that producer accumulate into `g(state, ...)`.
class InPlaceAccumulation {
public:
  InPlaceAccumulation(linalg::GenericOp update, Value state)
      : update(update), state(state), body(update.getBlock()),
        outMap(update.getIndexingMapsArray().back()),
        ranges(update.getStaticLoopRanges()) {}

  /// Whether the update has that form.
  bool match();
  /// Rewrites it (erasing the update); returns the producer's new result.
  Value rewrite();

private:
  /// Whether `e` is 0: a constant 0 or a unit dim.
  bool isZeroIndex(AffineExpr e) const;
  /// Maps that index the same element as the update's output: results
  /// equal, or both 0 along unit dims (the slicers spell a block's unit
  /// dims as constant 0).
  bool sameElement(AffineMap map) const;
  /// Finds the contribution and `rest` in the final combination.
  void findContribution();
  /// Whether `input` reads the state at the output's element.
  bool readsStateAsOutput(OpOperand *input);
  /// Whether the rest of the combination is the state itself (a plain sum).
  bool restIsState();
  /// g(state, ...) as an op of its own.
  Value buildStateUpdate();

  linalg::GenericOp update;
  Value state;
  Block *body;
  AffineMap outMap;
  SmallVector<int64_t> ranges;
  Operation *combine = nullptr;
  OpOperand *contribution = nullptr;
  Value rest;
  linalg::LinalgOp producer;
};
} // namespace

bool InPlaceAccumulation::isZeroIndex(AffineExpr e) const {
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return c.getValue() == 0;
  auto d = dyn_cast<AffineDimExpr>(e);
  return d && ranges[d.getPosition()] == 1;
}

bool InPlaceAccumulation::sameElement(AffineMap map) const {
  return map.getNumResults() == outMap.getNumResults() &&
         llvm::all_of(
             llvm::seq<unsigned>(0, map.getNumResults()), [&](unsigned i) {
               AffineExpr x = map.getResult(i), y = outMap.getResult(i);
               return x == y || (isZeroIndex(x) && isZeroIndex(y));
             });
}

/// The contribution: an input read at the output's index that only this
/// final combination uses.
void InPlaceAccumulation::findContribution() {
  Value lhs = combine->getOperand(0), rhs = combine->getOperand(1);
  for (OpOperand *input : update.getDpsInputOperands()) {
    BlockArgument arg = body->getArgument(input->getOperandNumber());
    if (!sameElement(update.getMatchingIndexingMap(input)) ||
        !arg.hasOneUse() || (lhs != arg && rhs != arg))
      continue;
    contribution = input;
    rest = lhs == arg ? rhs : lhs;
  }
}

bool InPlaceAccumulation::match() {
  combine = finalCombine(body);
  if (!combine)
    return false;
  findContribution();
  if (!contribution || !contribution->get().hasOneUse() ||
      contribution->get().getType() != state.getType())
    return false;
  producer = contribution->get().getDefiningOp<linalg::LinalgOp>();
  if (!producer || !accumulatesIntoOutput(producer, combine))
    return false;
  auto fill =
      producer.getDpsInitOperand(0)->get().getDefiningOp<linalg::FillOp>();
  return fill && fillsWithIdentity(fill, combine);
}

bool InPlaceAccumulation::readsStateAsOutput(OpOperand *input) {
  return input->get() == state &&
         sameElement(update.getMatchingIndexingMap(input));
}

bool InPlaceAccumulation::restIsState() {
  auto restArg = dyn_cast<BlockArgument>(rest);
  return restArg && restArg.getOwner() == body &&
         restArg.getArgNumber() < update.getNumDpsInputs() &&
         update.getDpsInputOperand(restArg.getArgNumber())->get() == state &&
         sameElement(update.getMatchingIndexingMap(
             update.getDpsInputOperand(restArg.getArgNumber())));
}

/// g(state, ...): the update without the contribution, written over the
/// state, which it reads as its output (so that bufferization sees an
/// in-place elementwise update).
Value InPlaceAccumulation::buildStateUpdate() {
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (OpOperand *input : update.getDpsInputOperands())
    if (input != contribution && !readsStateAsOutput(input)) {
      inputs.push_back(input->get());
      maps.push_back(update.getMatchingIndexingMap(input));
    }
  maps.push_back(outMap);
  OpBuilder gb(update);
  auto scaled = linalg::GenericOp::create(
      gb, update.getLoc(), TypeRange{state.getType()}, inputs,
      ValueRange{state}, maps, update.getIteratorTypesArray(),
      [&](OpBuilder &nb, Location loc, ValueRange args) {
        IRMapping mapping;
        unsigned next = 0;
        for (OpOperand *input : update.getDpsInputOperands()) {
          BlockArgument arg = body->getArgument(input->getOperandNumber());
          if (readsStateAsOutput(input))
            mapping.map(arg, args.back());
          else if (input != contribution)
            mapping.map(arg, args[next++]);
        }
        mapping.map(body->getArgument(update.getNumDpsInputs()), args.back());
        for (Operation &op : body->without_terminator())
          if (&op != combine)
            nb.clone(op, mapping);
        linalg::YieldOp::create(nb, loc, mapping.lookup(rest));
      });
  return scaled.getResult(0);
}

Value InPlaceAccumulation::rewrite() {
  Value start = restIsState() ? state : buildStateUpdate();
  producer.getDpsInitOperand(0)->set(start);
  // The producer now reads what the update computes first.
  if (Operation *def = start.getDefiningOp())
    if (def->getBlock() == producer->getBlock() &&
        producer->isBeforeInBlock(def))
      producer->moveAfter(def);
  update->erase();
  return producer->getResult(0);
}

/// A new state `g(state, ...) + X`, where X accumulates from a zero fill (a
/// slice's GEMM into a fresh zero tile, added to the running sum by the
/// update, possibly after rescaling it as online softmax does), becomes X
/// accumulating directly into `g(state, ...)`: no zero tile and no second
/// pass over the state (for a plain sum, g is the state itself). The same
/// for a max or min whose X starts from -inf or +inf. Returns the rewritten
/// value or null.
static Value accumulateInPlace(Value next, Value state) {
  auto update = next.getDefiningOp<linalg::GenericOp>();
  // Called before the loop yields it: nothing else may read the update.
  if (!update || update.getNumDpsInits() != 1 || !update->use_empty() ||
      update.getNumLoops() != update.getNumParallelLoops() ||
      next.getType() != state.getType())
    return nullptr;
  InPlaceAccumulation accumulation(update, state);
  if (!accumulation.match())
    return nullptr;
  return accumulation.rewrite();
}

/// With `stateInPlace`, each iteration ends by copying the new state into
/// the iteration arguments (`linalg.copy`), so that bufferization keeps the
/// state in one buffer per value for the whole loop: the GPU path gives
/// every buffer of a block one fixed place in shared memory, which a loop
/// yielding fresh buffers would overwrite while the old state is read.
static void lowerTemporalSlice(TemporalSliceOp op, bool stateInPlace) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value lb = op.getLower();
  if (!lb)
    lb = arith::ConstantIndexOp::create(b, loc, 0);
  Value ub = op.getUpper();
  if (!ub)
    ub = arith::ConstantIndexOp::create(b, loc, op.getDim().getExtent());
  Value step = arith::ConstantIndexOp::create(
      b, loc, op.getSliceSizeAttr().getValue().getSExtValue());
  auto loop = scf::ForOp::create(
      b, loc, lb, ub, step, op.getInits(),
      [&](OpBuilder &nested, Location, Value offset, ValueRange state) {
        SmallVector<Value> sliceArgs{offset};
        llvm::append_range(sliceArgs, state);
        SmallVector<Value> contributions =
            inlineRegion(nested, op.getSlice(), sliceArgs);
        SmallVector<Value> updateArgs(state);
        llvm::append_range(updateArgs, contributions);
        SmallVector<Value> next =
            inlineRegion(nested, op.getUpdate(), updateArgs);
        if (stateInPlace)
          for (auto [value, old] : llvm::zip(next, state)) {
            if (!isa<RankedTensorType>(value.getType()))
              continue;
            if (Value accumulated = accumulateInPlace(value, old)) {
              value = accumulated; // already written into the state
              continue;
            }
            value =
                linalg::CopyOp::create(nested, loc, value, old).getResult(0);
          }
        scf::YieldOp::create(nested, loc, next);
      });
  op.replaceAllUsesWith(loop.getResults());
  op.erase();
}

/// The offset of the block at nominal offset `offset` along a dim of
/// `extent` cut into tiles of `tile`: the nominal one, except that where the
/// tile does not divide the extent, the last block ends at the extent
/// (overlapping its neighbour; see smap.spatial_slice).
static Value clampRaggedOffset(OpBuilder &b, Location loc, Value offset,
                               int64_t extent, int64_t tile) {
  if (extent % tile == 0)
    return offset;
  Value last = arith::ConstantIndexOp::create(b, loc, extent - tile);
  return arith::MinUIOp::create(b, loc, offset, last);
}

/// The innermost level of lowerSpatialSlice: the block at `offsets` (along
/// `dims`), its tiles inserted into the results so far (`accs`).
static SmallVector<Value>
insertBlockTiles(OpBuilder &builder, SpatialSliceOp op, ArrayRef<DimAttr> dims,
                 ArrayRef<Value> offsets, ValueRange accs) {
  Location loc = op.getLoc();
  SmallVector<Value> tilesOut = inlineRegion(builder, op.getBody(), offsets);
  SmallVector<Value> updated;
  for (auto [i, tile] : llvm::enumerate(tilesOut)) {
    auto tileType = cast<RankedTensorType>(tile.getType());
    SmallVector<OpFoldResult> at = tileOffsets(
        builder, cast<ArrayAttr>(op.getResultDims()[i]), dims, offsets);
    SmallVector<OpFoldResult> sizes, strides;
    for (int64_t size : tileType.getShape()) {
      sizes.push_back(builder.getIndexAttr(size));
      strides.push_back(builder.getIndexAttr(1));
    }
    updated.push_back(tensor::InsertSliceOp::create(builder, loc, tile, accs[i],
                                                    at, sizes, strides));
  }
  return updated;
}

static void lowerSpatialSlice(SpatialSliceOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  SmallVector<Value> inits;
  for (Type t : op.getResultTypes()) {
    auto type = cast<RankedTensorType>(t);
    inits.push_back(tensor::EmptyOp::create(b, loc, type.getShape(),
                                            type.getElementType()));
  }
  SmallVector<DimAttr> dims;
  for (Attribute attr : op.getDims())
    dims.push_back(cast<DimAttr>(attr));
  ArrayRef<int64_t> tiles = op.getTiles();

  // One loop per sliced dim; the innermost runs the block and inserts its
  // tiles.
  SmallVector<Value> offsets;
  std::function<SmallVector<Value>(OpBuilder &, unsigned, ValueRange)> nest =
      [&](OpBuilder &builder, unsigned level,
          ValueRange accs) -> SmallVector<Value> {
    if (level == dims.size())
      return insertBlockTiles(builder, op, dims, offsets, accs);
    Value lb = arith::ConstantIndexOp::create(builder, loc, 0);
    Value ub =
        arith::ConstantIndexOp::create(builder, loc, dims[level].getExtent());
    Value step = arith::ConstantIndexOp::create(builder, loc, tiles[level]);
    auto loop = scf::ForOp::create(
        builder, loc, lb, ub, step, accs,
        [&](OpBuilder &inner, Location, Value iv, ValueRange iterAccs) {
          offsets.push_back(clampRaggedOffset(
              inner, loc, iv, dims[level].getExtent(), tiles[level]));
          SmallVector<Value> next = nest(inner, level + 1, iterAccs);
          offsets.pop_back();
          scf::YieldOp::create(inner, loc, next);
        });
    return SmallVector<Value>(loop.getResults());
  };
  SmallVector<Value> results = nest(b, 0, inits);
  op.replaceAllUsesWith(results);
  op.erase();
}

/// The GPU form: one scf.forall over all blocks, linearized (the grid's x
/// dim on the GPU), whose body recovers each sliced dim's offset and writes
/// its tiles with tensor.parallel_insert_slice.
/// The fewest blocks along the second of two sliced dims for which the
/// blocks are numbered in groups of rows (`raster-group`): 16-row groups
/// ran 8192x4096x4096 (32 columns of 128) 2.8% and 4096x11008x4096 (86)
/// 4.0% faster on the H200, but the MLP's 24- and 6-column grids 1% slower
/// (bench/results/wgmma-v21-setmaxnreg.md).
static constexpr int64_t kRasterMinColumns = 32;

/// The block offsets of linear block `linear`, row-major over the sliced
/// dims (the last one varies fastest); with `rasterGroup` > 0 and exactly
/// two dims of several blocks, the first's count a multiple of it and the
/// second's at least kRasterMinColumns, row r and column c of those two in
/// groups of `rasterGroup` rows, column-major within a group.
static SmallVector<Value> blockOffsets(OpBuilder &b, Location loc, Value linear,
                                       ArrayRef<int64_t> counts,
                                       ArrayRef<int64_t> tiles,
                                       int64_t rasterGroup) {
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  SmallVector<Value> offsets(counts.size());
  SmallVector<unsigned> several;
  for (auto [d, count] : llvm::enumerate(counts))
    if (count > 1)
      several.push_back(d);
  // Whole groups only: the divisors stay constants, which the block
  // distribution treats as pure arithmetic. Narrow grids keep row-major
  // order: a row of theirs already fits in what runs at once.
  if (rasterGroup > 0 && several.size() == 2 &&
      counts[several[0]] > rasterGroup &&
      counts[several[0]] % rasterGroup == 0 &&
      counts[several[1]] >= kRasterMinColumns) {
    unsigned r = several[0], c = several[1];
    Value groupSize = cst(rasterGroup * counts[c]);
    Value first = arith::MulIOp::create(
        b, loc, arith::DivUIOp::create(b, loc, linear, groupSize),
        cst(rasterGroup));
    Value within = arith::RemUIOp::create(b, loc, linear, groupSize);
    Value row = arith::AddIOp::create(
        b, loc, first,
        arith::RemUIOp::create(b, loc, within, cst(rasterGroup)));
    Value column = arith::DivUIOp::create(b, loc, within, cst(rasterGroup));
    for (unsigned d = 0; d < counts.size(); ++d)
      offsets[d] = cst(0);
    offsets[r] = arith::MulIOp::create(b, loc, row, cst(tiles[r]));
    offsets[c] = arith::MulIOp::create(b, loc, column, cst(tiles[c]));
    return offsets;
  }
  for (int64_t k = counts.size() - 1; k >= 0; --k) {
    Value index = k == 0
                      ? linear
                      : arith::RemUIOp::create(b, loc, linear, cst(counts[k]))
                            .getResult();
    offsets[k] = arith::MulIOp::create(b, loc, index, cst(tiles[k]));
    if (k != 0)
      linear = arith::DivUIOp::create(b, loc, linear, cst(counts[k]));
  }
  return offsets;
}

namespace {
/// What one block writes into a result: its tile and the tile's offsets.
struct BlockTile {
  Value tile;
  SmallVector<OpFoldResult> offsets;
};
} // namespace

/// `tile` copied into a fresh tensor.empty tagged smap.overlapped_tile (the
/// tag keeps cse from merging it with the empty the tile was computed in).
/// Bufferization then places only the copy in the result: the tile is
/// computed in a block buffer and written out once.
static Value copyIntoOwnTile(OpBuilder &b, Location loc, Value tile) {
  auto type = cast<RankedTensorType>(tile.getType());
  auto empty =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  b.getContext()
      ->getLoadedDialect<SMapDialect>()
      ->getOverlappedTileAttrHelper()
      .setAttr(empty, b.getUnitAttr());
  return linalg::CopyOp::create(b, loc, tile, empty.getResult()).getResult(0);
}

/// Replaces `op` (a spatial slice or a graph) by a GPU-mapped scf.forall of
/// `blocks` blocks; `buildBlock` builds one block's body from the block id
/// and returns the tile it writes into each of `op`'s results. The forall
/// carries the graph's schedule (its strategy and threads) and target for
/// the block lowering. With `overlapping`, a ragged last block writes
/// elements of its neighbour's tiles too: the same values, which is
/// harmless for a tile written once, but a tile its block reads back while
/// computing it (a fill then a reduction, a loop's state) would read the
/// other block's writes (fuzz seed 408), so such a tile is copied out of
/// a buffer of its own.
static void replaceByBlockForall(
    Operation *op, int64_t blocks, ScheduleAttr schedule, TargetAttr target,
    bool overlapping,
    function_ref<SmallVector<BlockTile>(OpBuilder &, Value)> buildBlock) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  SmallVector<Value> inits;
  for (Type t : op->getResultTypes()) {
    auto type = cast<RankedTensorType>(t);
    inits.push_back(tensor::EmptyOp::create(b, loc, type.getShape(),
                                            type.getElementType()));
  }
  auto mapping = b.getArrayAttr(
      {gpu::GPUBlockMappingAttr::get(b.getContext(), gpu::MappingId::DimX)});
  auto forall = scf::ForallOp::create(
      b, loc, ArrayRef<OpFoldResult>{b.getIndexAttr(blocks)}, inits, mapping,
      [&](OpBuilder &nested, Location, ValueRange args) {
        SmallVector<BlockTile> tiles = buildBlock(nested, args[0]);
        if (overlapping)
          for (BlockTile &tile : tiles)
            if (!isWrittenOnceIntoEmpty(tile.tile))
              tile.tile = copyIntoOwnTile(nested, loc, tile.tile);
        auto terminator = scf::InParallelOp::create(nested, loc);
        OpBuilder tb = OpBuilder::atBlockBegin(terminator.getBody());
        for (auto [tile, out] : llvm::zip(tiles, args.drop_front())) {
          auto tileType = cast<RankedTensorType>(tile.tile.getType());
          SmallVector<OpFoldResult> sizes, strides;
          for (int64_t size : tileType.getShape()) {
            sizes.push_back(tb.getIndexAttr(size));
            strides.push_back(tb.getIndexAttr(1));
          }
          tensor::ParallelInsertSliceOp::create(tb, loc, tile.tile, out,
                                                tile.offsets, sizes, strides);
        }
      });
  auto *dialect = b.getContext()->getLoadedDialect<SMapDialect>();
  if (schedule)
    dialect->getScheduleAttrHelper().setAttr(forall, schedule);
  if (target)
    dialect->getTargetAttrHelper().setAttr(forall, target);
  op->replaceAllUsesWith(forall.getResults());
  op->erase();
}

static void lowerSpatialSliceToForall(SpatialSliceOp op, ScheduleAttr schedule,
                                      TargetAttr target, int64_t rasterGroup) {
  SmallVector<DimAttr> dims;
  for (Attribute attr : op.getDims())
    dims.push_back(cast<DimAttr>(attr));
  ArrayRef<int64_t> tiles = op.getTiles();
  SmallVector<int64_t> counts;
  int64_t blocks = 1;
  bool ragged = false;
  for (auto [dim, tile] : llvm::zip(dims, tiles)) {
    counts.push_back(llvm::divideCeil(dim.getExtent(), tile));
    blocks *= counts.back();
    ragged |= dim.getExtent() % tile != 0;
  }
  // Blocks whose loop a mask shortens do less work the earlier they are
  // (causal attention: the first query blocks see the fewest keys): the
  // grid runs them last, so that the longest ones do not form the tail.
  bool shortenedLoops = false;
  op.getBody().walk([&](TemporalSliceOp loop) {
    shortenedLoops |= loop.getUpper() && !loop.getLower();
  });
  replaceByBlockForall(
      op, blocks, schedule, target, ragged, [&](OpBuilder &b, Value block) {
        Location loc = op.getLoc();
        if (shortenedLoops)
          block = arith::SubIOp::create(
              b, loc, arith::ConstantIndexOp::create(b, loc, blocks - 1),
              block);
        SmallVector<Value> offsets =
            blockOffsets(b, loc, block, counts, tiles, rasterGroup);
        for (auto [offset, dim, tile] : llvm::zip(offsets, dims, tiles))
          offset = clampRaggedOffset(b, loc, offset, dim.getExtent(), tile);
        SmallVector<BlockTile> written;
        for (auto [i, tile] :
             llvm::enumerate(inlineRegion(b, op.getBody(), offsets)))
          written.push_back(
              {tile, tileOffsets(b, cast<ArrayAttr>(op.getResultDims()[i]),
                                 dims, offsets)});
        return written;
      });
}

/// A graph that no spatial slice divides (every dim crosses a reshape, or
/// none is worth a block of its own) runs as one block on the GPU: its body
/// in a one-iteration scf.forall, which the block lowering distributes over
/// the schedule's threads like any block.
static void lowerGraphToOneBlock(GraphOp graph) {
  auto schedule = graph->getAttrOfType<ScheduleAttr>("schedule");
  replaceByBlockForall(
      graph, /*blocks=*/1, schedule, graph->getAttrOfType<TargetAttr>("target"),
      /*overlapping=*/false, [&](OpBuilder &b, Value) {
        SmallVector<BlockTile> written;
        for (Value result :
             inlineRegion(b, graph.getBody(), graph.getInputs())) {
          auto rank = cast<RankedTensorType>(result.getType()).getRank();
          written.push_back(
              {result, SmallVector<OpFoldResult>(rank, b.getIndexAttr(0))});
        }
        return written;
      });
}

/// Whether a top-level graph on the GPU path has no grid of blocks.
static bool needsOneBlock(GraphOp graph) {
  if (graph->getParentOfType<GraphOp>() ||
      graph->getParentOfType<scf::ForallOp>())
    return false;
  return llvm::none_of(graph.getBody().front(),
                       [](Operation &op) { return isa<scf::ForallOp>(op); });
}

static void inlineGraphBody(GraphOp graph) {
  OpBuilder b(graph);
  SmallVector<Value> results =
      inlineRegion(b, graph.getBody(), graph.getInputs());
  graph.replaceAllUsesWith(results);
  graph.erase();
}

namespace {
struct ConvertSMapToSCFPass
    : public smap::impl::ConvertSMapToSCFPassBase<ConvertSMapToSCFPass> {
  using Base::Base;

  /// On the GPU path an op outside every graph runs as a loop kernel
  /// (smap-distribute-blocks); one that cannot is an error here, while it is
  /// still on tensors and bufferization has not failed on it.
  LogicalResult checkLoopKernels() {
    WalkResult result = getOperation()->walk([&](linalg::LinalgOp op) {
      if (op->getParentOfType<GraphOp>() || !op.hasPureTensorSemantics())
        return WalkResult::advance();
      if (std::string why = getLoopKernelRefusal(op); !why.empty()) {
        op->emitError("'") << op->getName() << "'" << describeOrigin(op)
                           << " cannot be compiled for the GPU: it is "
                              "outside every fusion graph and cannot run as "
                              "a loop kernel: "
                           << why;
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    return failure(result.wasInterrupted());
  }
  void runOnOperation() override {
    if (blocksAsForall && failed(checkLoopKernels()))
      return signalPassFailure();
    if (blocksAsForall) {
      // A slice of a filled tensor becomes a fill of the slice, so that a
      // block fills only what one step needs (a contraction's output slice)
      // instead of keeping the whole filled tensor on chip.
      RewritePatternSet patterns(&getContext());
      linalg::populateSwapExtractSliceWithFillPatterns(patterns);
      tensor::populateFoldTensorEmptyPatterns(patterns);
      (void)applyPatternsGreedily(getOperation(), std::move(patterns));
    }
    // Innermost first, so that every op is lowered inside its final parent.
    SmallVector<Operation *> ops;
    getOperation()->walk<WalkOrder::PostOrder>([&](Operation *op) {
      if (isa<TemporalSliceOp, SpatialSliceOp, GraphOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      if (auto temporal = dyn_cast<TemporalSliceOp>(op)) {
        lowerTemporalSlice(temporal, /*stateInPlace=*/blocksAsForall);
      } else if (auto spatial = dyn_cast<SpatialSliceOp>(op)) {
        if (!blocksAsForall) {
          lowerSpatialSlice(spatial);
          continue;
        }
        auto graph = spatial->getParentOfType<GraphOp>();
        auto schedule =
            graph ? graph->getAttrOfType<ScheduleAttr>("schedule") : nullptr;
        lowerSpatialSliceToForall(
            spatial, schedule,
            graph ? graph->getAttrOfType<TargetAttr>("target") : nullptr,
            rasterGroup);
      } else if (blocksAsForall && needsOneBlock(cast<GraphOp>(op))) {
        lowerGraphToOneBlock(cast<GraphOp>(op));
      } else {
        inlineGraphBody(cast<GraphOp>(op));
      }
    }
  }
};
} // namespace
