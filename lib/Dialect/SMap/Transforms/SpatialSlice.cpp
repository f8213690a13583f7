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
    // Clone with the mapping, so that scalars the body captures from the
    // graph are remapped too, then give the results their tile types.
    Operation *clone = b.clone(*op, mapping);
    for (auto [result, type] : llvm::zip(clone->getResults(), resultTypes))
      result.setType(type);
    // linalg.index counts from the block's origin: shift sliced loops.
    auto cloned = cast<linalg::LinalgOp>(clone);
    SmallVector<linalg::IndexOp> indices;
    cloned.getBlock()->walk([&](linalg::IndexOp index) { indices.push_back(index); });
    for (linalg::IndexOp index : indices) {
      std::optional<unsigned> dim;
      for (OpOperand &operand : linalgOp->getOpOperands()) {
        AffineMap map = linalgOp.getMatchingIndexingMap(&operand);
        for (auto [j, expr] : llvm::enumerate(map.getResults()))
          if (auto dimExpr = dyn_cast<AffineDimExpr>(expr))
            if (dimExpr.getPosition() == index.getDim())
              if (std::optional<unsigned> d = slicedDim(operand.get(), j))
                dim = d;
      }
      if (!dim)
        continue;
      OpBuilder inner(index);
      inner.setInsertionPointAfter(index);
      auto shifted = arith::AddIOp::create(inner, loc, index.getResult(),
                                           innerOffsets.lookup(*dim));
      index.getResult().replaceAllUsesExcept(shifted, shifted);
    }
    return success();
  }
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op)) {
    auto result = tensor::ExpandShapeOp::create(
        b, loc, resultTypes[0], operands[0],
        expand.getReassociationIndices());
    mapping.map(op->getResult(0), result.getResult());
    return success();
  }
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op)) {
    auto result = tensor::CollapseShapeOp::create(
        b, loc, resultTypes[0], operands[0],
        collapse.getReassociationIndices());
    mapping.map(op->getResult(0), result.getResult());
    return success();
  }
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op)) {
    // Windows are never sliced; a sliced dim here is taken whole.
    SmallVector<int64_t> sizes(slice.getStaticSizes());
    Value source = slice.getSource();
    for (unsigned j = 0; j < sizes.size(); ++j)
      if (std::optional<unsigned> d = slicedDim(source, j))
        sizes[j] = tiles.lookup(*d);
    auto result = tensor::ExtractSliceOp::create(
        b, loc, cast<RankedTensorType>(resultTypes[0]), operands[0],
        ValueRange(), ValueRange(), ValueRange(), slice.getStaticOffsets(),
        sizes, slice.getStaticStrides());
    mapping.map(op->getResult(0), result.getResult());
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
  MLIRContext *ctx = graph.getContext();

  // Sliced dims, in schedule order.
  SmallVector<unsigned> sliced;
  DenseMap<unsigned, int64_t> tiles;
  SmallVector<Attribute> dimAttrs;
  SmallVector<int64_t> tileSizes;
  for (const SliceSize &s : schedule.getSpatial()) {
    auto it = llvm::find_if(smg->getDims(), [&](const GlobalDim &d) {
      return d.name == s.dim.getValue();
    });
    if (it == smg->getDims().end())
      return graph.emitError("smap-spatial-slice: schedule slices unknown dim '")
             << s.dim.getValue() << "'";
    unsigned d = it - smg->getDims().begin();
    sliced.push_back(d);
    tiles[d] = s.size;
    dimAttrs.push_back(DimAttr::get(ctx, StringAttr::get(ctx, it->name),
                                    it->extent, it->dimClass));
    tileSizes.push_back(s.size);
  }

  Block &body = graph.getBody().front();
  YieldOp yield = graph.getYield();
  SmallVector<Value> outputs(yield.getValues());
  SmallVector<Attribute> resultDims;
  for (Value v : outputs)
    resultDims.push_back(getResultDimNames(*smg, v));

  OpBuilder b(yield);
  auto spatial = SpatialSliceOp::create(
      b, graph.getLoc(), TypeRange(ValueRange(outputs)),
      ArrayAttr::get(ctx, dimAttrs), b.getDenseI64ArrayAttr(tileSizes),
      ArrayAttr::get(ctx, resultDims));
  Block *block = new Block();
  spatial.getBody().push_back(block);
  DenseMap<unsigned, Value> offsets;
  for (unsigned d : sliced)
    offsets[d] = block->addArgument(b.getIndexType(), graph.getLoc());
  BlockBuilder builder(*smg, tiles, offsets);

  // Tiles of the graph's inputs, then the nested graph (the SMG block).
  OpBuilder inner = OpBuilder::atBlockBegin(block);
  SmallVector<Value> nestedInputs;
  SmallVector<BlockArgument> tensorInputs;
  for (BlockArgument arg : body.getArguments()) {
    if (arg.use_empty())
      continue;
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type) {
      nestedInputs.push_back(arg);
      tensorInputs.push_back(arg);
      continue;
    }
    auto tileType = cast<RankedTensorType>(builder.restrictedType(arg));
    SmallVector<OpFoldResult> sizes;
    for (int64_t size : tileType.getShape())
      sizes.push_back(inner.getIndexAttr(size));
    SmallVector<OpFoldResult> strides(type.getRank(), inner.getIndexAttr(1));
    nestedInputs.push_back(tensor::ExtractSliceOp::create(
        inner, graph.getLoc(), tileType, arg, builder.tileOffsets(inner, arg),
        sizes, strides));
    tensorInputs.push_back(arg);
  }
  for (unsigned d : sliced)
    nestedInputs.push_back(offsets[d]);

  SmallVector<Type> tileTypes;
  for (Value v : outputs)
    tileTypes.push_back(builder.restrictedType(v));
  auto nested = GraphOp::create(inner, graph.getLoc(), tileTypes, nestedInputs);
  Block &nestedBody = nested.getBody().front();
  IRMapping mapping;
  for (auto [arg, nestedArg] :
       llvm::zip(tensorInputs, nestedBody.getArguments()))
    mapping.map(arg, nestedArg);
  DenseMap<unsigned, Value> innerOffsets;
  for (auto [i, d] : llvm::enumerate(sliced))
    innerOffsets[d] = nestedBody.getArgument(tensorInputs.size() + i);

  OpBuilder member = OpBuilder::atBlockBegin(&nestedBody);
  SmallVector<Operation *> members;
  for (Operation &op : body.without_terminator())
    if (&op != spatial)
      members.push_back(&op);
  for (Operation *op : members)
    if (failed(builder.restrict(member, op, mapping, innerOffsets)))
      return failure();
  SmallVector<Value> nestedOutputs;
  for (Value v : outputs)
    nestedOutputs.push_back(mapping.lookup(v));
  YieldOp::create(member, graph.getLoc(), nestedOutputs);
  YieldOp::create(inner, graph.getLoc(), nested.getResults());

  // The nested graph carries the temporal part of the schedule, and the
  // parent's decisions about dims (a dim declared not sliceable stays so).
  nested.setTargetAttr(graph.getTargetAttr());
  auto noUta =
      graph->getContext()->getOrLoadDialect<SMapDialect>()->getNoUtaAttrHelper();
  if (noUta.isAttrPresent(graph))
    noUta.setAttr(nested, UnitAttr::get(graph->getContext()));
  nested.setDimsAttr(graph.getDimsAttr());
  if (Attribute reasons = graph->getAttr("smap.not_sliceable"))
    nested->setAttr("smap.not_sliceable", reasons);
  FailureOr<SpaceMappingGraph> nestedSmg = buildSMG(nested);
  if (failed(nestedSmg))
    return failure();
  annotateGraph(*nestedSmg, /*explain=*/false);
  nested.setScheduleAttr(ScheduleAttr::get(
      ctx, {}, schedule.getTemporal(), {}, schedule.getThreads(),
      schedule.getSmemBytes(), schedule.getRegsPerThread(),
      schedule.getStrategy(), schedule.getStages(),
      // A block of a row kernel is one row.
      schedule.getStrategy() == KernelStrategy::Rows ? 1 : 0));

  yield->setOperands(spatial.getResults());
  for (Operation *op : llvm::reverse(members))
    op->erase();

  int64_t blocks = 1;
  for (int64_t g : spatial.getGrid())
    blocks *= g;
  std::string dims;
  for (auto [i, d] : llvm::enumerate(sliced))
    dims += (i ? ", " : "") + smg->getDims()[d].name + "=" +
            std::to_string(tiles[d]);
  remark::passed(graph.getLoc(), remarkOpts("spatial-slice", "sliced", graph))
      << ("sliced into " + std::to_string(blocks) + " blocks of " + dims);
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
