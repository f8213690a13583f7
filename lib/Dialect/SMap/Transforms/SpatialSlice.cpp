//===- SpatialSlice.cpp - Materialize spatial slicing of smap.graph -------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Analysis/CostModel.h"
#include "spacefusion/Analysis/Remarks.h"
#include "spacefusion/Analysis/SpaceMappingGraph.h"
#include "spacefusion/Dialect/SMap/Transforms/GraphUtils.h"
#include "spacefusion/Dialect/SMap/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace mlir {
namespace smap {
#define GEN_PASS_DEF_SMAPSPATIALSLICEPASS
#include "spacefusion/Dialect/SMap/Transforms/Passes.h.inc"
} // namespace smap
} // namespace mlir

using namespace mlir;
using namespace mlir::smap;

namespace {

/// Restricts the members of one graph to one block of its spatial grid.
class BlockBuilder {
public:
  BlockBuilder(const SpaceMappingGraph &smg, DenseMap<unsigned, int64_t> tiles,
               DenseMap<unsigned, Value> offsets)
      : smg(smg), tiles(std::move(tiles)), offsets(std::move(offsets)) {}

  /// The global dim of tensor dimension `j` of `v` if it is one sliced dim.
  std::optional<unsigned> slicedDim(Value v, unsigned j) const {
    SmallVector<SmallVector<unsigned>> dims = smg.getValueDims(v);
    if (j < dims.size() && dims[j].size() == 1 && tiles.count(dims[j][0]))
      return dims[j][0];
    return std::nullopt;
  }

  /// `v`'s type restricted to one block.
  Type restrictedType(Value v) const {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type)
      return v.getType();
    SmallVector<int64_t> shape(type.getShape());
    for (unsigned j = 0; j < shape.size(); ++j)
      if (std::optional<unsigned> d = slicedDim(v, j))
        shape[j] = tiles.lookup(*d);
    return type.clone(shape);
  }

  /// Offsets of `v`'s tile (outside the nested graph).
  SmallVector<OpFoldResult> tileOffsets(OpBuilder &b, Value v) const {
    auto type = cast<RankedTensorType>(v.getType());
    SmallVector<OpFoldResult> result;
    for (unsigned j = 0; j < type.getRank(); ++j) {
      std::optional<unsigned> d = slicedDim(v, j);
      result.push_back(d ? OpFoldResult(offsets.lookup(*d))
                         : OpFoldResult(b.getIndexAttr(0)));
    }
    return result;
  }

  /// Clones `op` into `b` restricted to the block; `mapping` maps original
  /// values to restricted ones, `innerOffsets` the sliced dims to the
  /// nested graph's offset arguments.
  LogicalResult restrict(OpBuilder &b, Operation *op, IRMapping &mapping,
                         const DenseMap<unsigned, Value> &innerOffsets);

private:
  /// The sliced dim that loop `loop` of `op` iterates over, if any.
  std::optional<unsigned> slicedDimOfLoop(linalg::LinalgOp op,
                                          uint64_t loop) const;
  /// Clones `op` into `b` with results of `resultTypes`, its linalg.index
  /// ops along sliced dims shifted by `innerOffsets`.
  void restrictLinalg(OpBuilder &b, linalg::LinalgOp op, IRMapping &mapping,
                      ArrayRef<Type> resultTypes,
                      const DenseMap<unsigned, Value> &innerOffsets) const;
  /// `op` on `operands` with results of `resultTypes` when it is a reshape
  /// or a window, else null.
  Value restrictView(OpBuilder &b, Operation *op, ArrayRef<Value> operands,
                     ArrayRef<Type> resultTypes) const;
  /// The window `slice` of `source` (its restricted source), of type `type`.
  Value restrictExtractSlice(OpBuilder &b, tensor::ExtractSliceOp slice,
                             Type type, Value source) const;

  const SpaceMappingGraph &smg;
  DenseMap<unsigned, int64_t> tiles;
  DenseMap<unsigned, Value> offsets;
};

} // namespace

LogicalResult
BlockBuilder::restrict(OpBuilder &b, Operation *op, IRMapping &mapping,
                       const DenseMap<unsigned, Value> &innerOffsets) {
  Location loc = op->getLoc();
  SmallVector<Value> operands;
  for (Value v : op->getOperands())
    operands.push_back(mapping.lookupOrDefault(v));
  SmallVector<Type> resultTypes;
  for (Value r : op->getResults())
    resultTypes.push_back(restrictedType(r));

  if (auto empty = dyn_cast<tensor::EmptyOp>(op)) {
    mapping.map(empty.getResult(),
                tensor::EmptyOp::create(
                    b, loc, cast<RankedTensorType>(resultTypes[0]).getShape(),
                    empty.getType().getElementType()));
    return success();
  }
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    if (resultTypes[0] != constant.getType())
      return op->emitOpError(
          "is a tensor constant along a sliced dim; pass it as a graph input");
    b.clone(*op, mapping);
    return success();
  }
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    restrictLinalg(b, linalgOp, mapping, resultTypes, innerOffsets);
    return success();
  }
  if (Value view = restrictView(b, op, operands, resultTypes)) {
    mapping.map(op->getResult(0), view);
    return success();
  }
  if (op->getNumRegions() == 0) {
    // Softmax and scalar arithmetic: same op, restricted types.
    OperationState state(loc, op->getName(), operands, resultTypes,
                         op->getAttrs());
    Operation *clone = b.create(state);
    mapping.map(op->getResults(), clone->getResults());
    return success();
  }
  return op->emitOpError("cannot be restricted to a spatial block");
}

std::optional<unsigned> BlockBuilder::slicedDimOfLoop(linalg::LinalgOp op,
                                                      uint64_t loop) const {
  std::optional<unsigned> dim;
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    for (auto [j, expr] : llvm::enumerate(map.getResults()))
      if (auto dimExpr = dyn_cast<AffineDimExpr>(expr))
        if (dimExpr.getPosition() == loop)
          if (std::optional<unsigned> d = slicedDim(operand.get(), j))
            dim = d;
  }
  return dim;
}

void BlockBuilder::restrictLinalg(
    OpBuilder &b, linalg::LinalgOp op, IRMapping &mapping,
    ArrayRef<Type> resultTypes,
    const DenseMap<unsigned, Value> &innerOffsets) const {
  // Clone with the mapping, so that scalars the body captures from the
  // graph are remapped too, then give the results their tile types.
  Operation *clone = b.clone(*op, mapping);
  for (auto [result, type] : llvm::zip(clone->getResults(), resultTypes))
    result.setType(type);
  // linalg.index counts from the block's origin: shift sliced loops.
  auto cloned = cast<linalg::LinalgOp>(clone);
  SmallVector<linalg::IndexOp> indices;
  cloned.getBlock()->walk(
      [&](linalg::IndexOp index) { indices.push_back(index); });
  for (linalg::IndexOp index : indices) {
    std::optional<unsigned> dim = slicedDimOfLoop(op, index.getDim());
    if (!dim)
      continue;
    OpBuilder inner(index);
    inner.setInsertionPointAfter(index);
    auto shifted = arith::AddIOp::create(inner, op.getLoc(), index.getResult(),
                                         innerOffsets.lookup(*dim));
    index.getResult().replaceAllUsesExcept(shifted, shifted);
  }
}

Value BlockBuilder::restrictView(OpBuilder &b, Operation *op,
                                 ArrayRef<Value> operands,
                                 ArrayRef<Type> resultTypes) const {
  Location loc = op->getLoc();
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
    return tensor::ExpandShapeOp::create(b, loc, resultTypes[0], operands[0],
                                         expand.getReassociationIndices())
        .getResult();
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op))
    return tensor::CollapseShapeOp::create(b, loc, resultTypes[0], operands[0],
                                           collapse.getReassociationIndices())
        .getResult();
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op))
    return restrictExtractSlice(b, slice, resultTypes[0], operands[0]);
  return Value();
}

Value BlockBuilder::restrictExtractSlice(OpBuilder &b,
                                         tensor::ExtractSliceOp slice,
                                         Type type, Value source) const {
  // Windows are never sliced; a sliced dim here is taken whole.
  SmallVector<int64_t> sizes(slice.getStaticSizes());
  for (unsigned j = 0; j < sizes.size(); ++j)
    if (std::optional<unsigned> d = slicedDim(slice.getSource(), j))
      sizes[j] = tiles.lookup(*d);
  return tensor::ExtractSliceOp::create(
             b, slice.getLoc(), cast<RankedTensorType>(type), source,
             ValueRange(), ValueRange(), ValueRange(), slice.getStaticOffsets(),
             sizes, slice.getStaticStrides())
      .getResult();
}

/// The names of a value's dims for smap.spatial_slice's result_dims.
static ArrayAttr getResultDimNames(const SpaceMappingGraph &smg, Value v) {
  Builder b(v.getContext());
  SmallVector<Attribute> names;
  for (auto &ids : smg.getValueDims(v)) {
    std::string name;
    for (auto [i, d] : llvm::enumerate(ids))
      name += (i ? "*" : "") + smg.getDims()[d].name;
    names.push_back(b.getStringAttr(name.empty() ? "1" : name));
  }
  return b.getArrayAttr(names);
}

namespace {
/// The dims a schedule slices spatially, in schedule order, and their tiles.
struct SlicedDims {
  SmallVector<unsigned> dims;
  DenseMap<unsigned, int64_t> tiles;
  /// The dims and their tile sizes as smap.spatial_slice attributes.
  SmallVector<Attribute> dimAttrs;
  SmallVector<int64_t> tileSizes;
};
} // namespace

/// The dims `schedule` slices spatially, looked up among `smg`'s dims.
static FailureOr<SlicedDims> getSlicedDims(GraphOp graph,
                                           const SpaceMappingGraph &smg,
                                           ScheduleAttr schedule) {
  MLIRContext *ctx = graph.getContext();
  SlicedDims sliced;
  for (const SliceSize &s : schedule.getSpatial()) {
    auto it = llvm::find_if(smg.getDims(), [&](const GlobalDim &d) {
      return d.name == s.dim.getValue();
    });
    if (it == smg.getDims().end())
      return graph.emitError("smap-spatial-slice: schedule slices unknown dim '")
             << s.dim.getValue() << "'";
    unsigned d = it - smg.getDims().begin();
    sliced.dims.push_back(d);
    sliced.tiles[d] = s.size;
    sliced.dimAttrs.push_back(DimAttr::get(ctx, StringAttr::get(ctx, it->name),
                                           it->extent, it->dimClass));
    sliced.tileSizes.push_back(s.size);
  }
  return sliced;
}

/// An smap.spatial_slice before `graph`'s yield, producing its outputs, with
/// an empty block whose arguments, the block's offsets along the sliced
/// dims, go to `offsets`.
static SpatialSliceOp createSpatialSlice(GraphOp graph,
                                         const SpaceMappingGraph &smg,
                                         const SlicedDims &sliced,
                                         DenseMap<unsigned, Value> &offsets) {
  MLIRContext *ctx = graph.getContext();
  YieldOp yield = graph.getYield();
  SmallVector<Value> outputs(yield.getValues());
  SmallVector<Attribute> resultDims;
  for (Value v : outputs)
    resultDims.push_back(getResultDimNames(smg, v));

  OpBuilder b(yield);
  auto spatial =
      SpatialSliceOp::create(b, graph.getLoc(), TypeRange(ValueRange(outputs)),
                             ArrayAttr::get(ctx, sliced.dimAttrs),
                             b.getDenseI64ArrayAttr(sliced.tileSizes),
                             ArrayAttr::get(ctx, resultDims));
  Block *block = new Block();
  spatial.getBody().push_back(block);
  for (unsigned d : sliced.dims)
    offsets[d] = block->addArgument(b.getIndexType(), graph.getLoc());
  return spatial;
}

/// Tiles, built by `inner`, of the used arguments of `body` (the graph's
/// inputs): each tile (a scalar as it is) goes to `nestedInputs`, the
/// argument it comes from to `graphInputs`.
static void extractInputTiles(OpBuilder &inner, Location loc, Block &body,
                              const BlockBuilder &builder,
                              SmallVectorImpl<Value> &nestedInputs,
                              SmallVectorImpl<BlockArgument> &graphInputs) {
  for (BlockArgument arg : body.getArguments()) {
    if (arg.use_empty())
      continue;
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type) {
      nestedInputs.push_back(arg);
      graphInputs.push_back(arg);
      continue;
    }
    auto tileType = cast<RankedTensorType>(builder.restrictedType(arg));
    SmallVector<OpFoldResult> sizes;
    for (int64_t size : tileType.getShape())
      sizes.push_back(inner.getIndexAttr(size));
    SmallVector<OpFoldResult> strides(type.getRank(), inner.getIndexAttr(1));
    nestedInputs.push_back(tensor::ExtractSliceOp::create(
        inner, loc, tileType, arg, builder.tileOffsets(inner, arg), sizes,
        strides));
    graphInputs.push_back(arg);
  }
}

/// Restricts `members` to one block in `nested`'s body, whose arguments are
/// the tiles of `graphInputs` then the offsets of the sliced dims, and
/// yields the tiles of `outputs`.
static LogicalResult restrictMembers(GraphOp nested, BlockBuilder &builder,
                                     const SlicedDims &sliced,
                                     ArrayRef<BlockArgument> graphInputs,
                                     ArrayRef<Operation *> members,
                                     ArrayRef<Value> outputs) {
  Block &nestedBody = nested.getBody().front();
  IRMapping mapping;
  for (auto [arg, nestedArg] :
       llvm::zip(graphInputs, nestedBody.getArguments()))
    mapping.map(arg, nestedArg);
  DenseMap<unsigned, Value> innerOffsets;
  for (auto [i, d] : llvm::enumerate(sliced.dims))
    innerOffsets[d] = nestedBody.getArgument(graphInputs.size() + i);

  OpBuilder member = OpBuilder::atBlockBegin(&nestedBody);
  for (Operation *op : members)
    if (failed(builder.restrict(member, op, mapping, innerOffsets)))
      return failure();
  SmallVector<Value> nestedOutputs;
  for (Value v : outputs)
    nestedOutputs.push_back(mapping.lookup(v));
  YieldOp::create(member, nested.getLoc(), nestedOutputs);
  return success();
}

/// Fills the block of `spatial`: the tiles of `graph`'s inputs, then the
/// nested graph (the SMG block) of `members` restricted to one block.
static FailureOr<GraphOp>
buildBlockGraph(GraphOp graph, SpatialSliceOp spatial, BlockBuilder &builder,
                const SlicedDims &sliced,
                const DenseMap<unsigned, Value> &offsets,
                ArrayRef<Operation *> members) {
  Location loc = graph.getLoc();
  OpBuilder inner = OpBuilder::atBlockBegin(&spatial.getBody().front());
  SmallVector<Value> nestedInputs;
  SmallVector<BlockArgument> graphInputs;
  extractInputTiles(inner, loc, graph.getBody().front(), builder, nestedInputs,
                    graphInputs);
  for (unsigned d : sliced.dims)
    nestedInputs.push_back(offsets.lookup(d));

  SmallVector<Value> outputs(graph.getYield().getValues());
  SmallVector<Type> tileTypes;
  for (Value v : outputs)
    tileTypes.push_back(builder.restrictedType(v));
  auto nested = GraphOp::create(inner, loc, tileTypes, nestedInputs);
  if (failed(restrictMembers(nested, builder, sliced, graphInputs, members,
                             outputs)))
    return failure();
  YieldOp::create(inner, loc, nested.getResults());
  return nested;
}

/// Fails, naming the dims, when a block of `graph` no longer has a dim the
/// schedule slices temporally: a reshape inside the graph that splits or
/// merges that dim names the block's dims anew (the normalizations fold
/// the reshapes around contractions and softmax; others may remain).
static LogicalResult checkBlockKeepsTemporalDims(GraphOp graph,
                                                 const SpaceMappingGraph &block,
                                                 ScheduleAttr schedule) {
  for (const SliceSize &slice : schedule.getTemporal()) {
    std::string dims;
    bool found = false;
    for (const GlobalDim &dim : block.getDims()) {
      found |= dim.name == slice.dim.getValue();
      dims += (dims.empty() ? "" : ", ") + dim.name;
    }
    if (found)
      continue;
    return graph.emitError("smap-spatial-slice: a block of this graph has no "
                           "dim '")
           << slice.dim.getValue() << "' to slice temporally (its dims are "
           << dims << "): a reshape inside the graph splits or merges it";
  }
  return success();
}

/// Gives `nested` the temporal part of `graph`'s schedule `schedule`, and
/// the parent's decisions about dims (a dim declared not sliceable stays
/// so).
static LogicalResult annotateNestedGraph(GraphOp graph, GraphOp nested,
                                         ScheduleAttr schedule) {
  nested.setTargetAttr(graph.getTargetAttr());
  auto *dialect = graph->getContext()->getOrLoadDialect<SMapDialect>();
  auto noUta = dialect->getNoUtaAttrHelper();
  if (noUta.isAttrPresent(graph))
    noUta.setAttr(nested, UnitAttr::get(graph->getContext()));
  nested.setDimsAttr(graph.getDimsAttr());
  auto notSliceable = dialect->getNotSliceableAttrHelper();
  if (DictionaryAttr reasons = notSliceable.getAttr(graph))
    notSliceable.setAttr(nested, reasons);
  FailureOr<SpaceMappingGraph> nestedSmg = buildSMG(nested);
  if (failed(nestedSmg))
    return failure();
  annotateGraph(*nestedSmg, /*explain=*/false);
  if (failed(checkBlockKeepsTemporalDims(graph, *nestedSmg, schedule)))
    return failure();
  nested.setScheduleAttr(ScheduleAttr::get(
      graph.getContext(), {}, schedule.getTemporal(), {}, schedule.getThreads(),
      schedule.getSmemBytes(), schedule.getRegsPerThread(),
      schedule.getStrategy(), schedule.getStages(),
      // A block of a row kernel is one row.
      schedule.getStrategy() == KernelStrategy::Rows ? 1 : 0,
      schedule.getBlocksPerSm()));
  return success();
}

/// Says into how many blocks of which tiles `spatial` slices `graph`.
static void remarkSliced(GraphOp graph, const SpaceMappingGraph &smg,
                         SpatialSliceOp spatial, const SlicedDims &sliced) {
  int64_t blocks = 1;
  for (int64_t g : spatial.getGrid())
    blocks *= g;
  std::string dims;
  for (auto [i, d] : llvm::enumerate(sliced.dims))
    dims += (i ? ", " : "") + smg.getDims()[d].name + "=" +
            std::to_string(sliced.tiles.lookup(d));
  remark::passed(graph.getLoc(), remarkOpts("spatial-slice", "sliced", graph))
      << ("sliced into " + std::to_string(blocks) + " blocks of " + dims);
}

static LogicalResult sliceGraph(GraphOp graph, AnalysisManager am) {
  ScheduleAttr schedule = graph.getScheduleAttr();
  if (!schedule) {
    remarkUnscheduled(graph, "spatial-slice");
    return success();
  }
  if (schedule.getSpatial().empty())
    return success();
  if (llvm::any_of(graph.getBody().front(),
                   [](Operation &op) { return isa<SpatialSliceOp>(op); }))
    return success();

  const SpaceMappingGraph *smg = getSMG(graph, am);
  if (!smg)
    return failure();
  // The schedule is an attribute anyone can write: check it against the
  // graph as analyzed now (a dim it calls parallel may be reduced).
  std::string error;
  if (failed(getCandidate(*smg, schedule, error)))
    return graph.emitError("smap-spatial-slice: the schedule does not fit "
                           "the graph: ")
           << error;
  FailureOr<SlicedDims> sliced = getSlicedDims(graph, *smg, schedule);
  if (failed(sliced))
    return failure();

  DenseMap<unsigned, Value> offsets;
  SpatialSliceOp spatial = createSpatialSlice(graph, *smg, *sliced, offsets);
  BlockBuilder builder(*smg, sliced->tiles, offsets);
  SmallVector<Operation *> members;
  for (Operation &op : graph.getBody().front().without_terminator())
    if (&op != spatial)
      members.push_back(&op);
  FailureOr<GraphOp> nested =
      buildBlockGraph(graph, spatial, builder, *sliced, offsets, members);
  if (failed(nested) || failed(annotateNestedGraph(graph, *nested, schedule)))
    return failure();

  graph.getYield()->setOperands(spatial.getResults());
  for (Operation *op : llvm::reverse(members))
    op->erase();
  remarkSliced(graph, *smg, spatial, *sliced);
  return success();
}

namespace {
struct SpatialSlicePass
    : public smap::impl::SMapSpatialSlicePassBase<SpatialSlicePass> {
  void runOnOperation() override {
    SmallVector<GraphOp> graphs;
    getOperation()->walk([&](GraphOp graph) {
      if (!graph->getParentOfType<GraphOp>())
        graphs.push_back(graph);
    });
    for (GraphOp graph : graphs)
      if (failed(sliceGraph(graph, getAnalysisManager())))
        return signalPassFailure();
  }
};
} // namespace
