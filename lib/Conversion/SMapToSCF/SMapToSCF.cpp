//===- SMapToSCF.cpp - Lower sliced smap ops to scf loops -----------------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Conversion/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace mlir {
namespace smap {
#define GEN_PASS_DEF_SMAPLOWERTOLOOPS
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

static void lowerTemporalSlice(TemporalSliceOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value lb = arith::ConstantIndexOp::create(b, loc, 0);
  Value ub = arith::ConstantIndexOp::create(b, loc, op.getDim().getExtent());
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
        scf::YieldOp::create(nested, loc, next);
      });
  op.replaceAllUsesWith(loop.getResults());
  op.erase();
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
    if (level == dims.size()) {
      SmallVector<Value> tilesOut = inlineRegion(builder, op.getBody(), offsets);
      SmallVector<Value> updated;
      for (auto [i, tile] : llvm::enumerate(tilesOut)) {
        auto names = cast<ArrayAttr>(op.getResultDims()[i]);
        auto tileType = cast<RankedTensorType>(tile.getType());
        SmallVector<OpFoldResult> at, sizes, strides;
        for (auto [j, name] : llvm::enumerate(names)) {
          OpFoldResult offset = builder.getIndexAttr(0);
          for (auto [k, dim] : llvm::enumerate(dims))
            if (dim.getName() == name)
              offset = offsets[k];
          at.push_back(offset);
          sizes.push_back(builder.getIndexAttr(tileType.getDimSize(j)));
          strides.push_back(builder.getIndexAttr(1));
        }
        updated.push_back(tensor::InsertSliceOp::create(
            builder, loc, tile, accs[i], at, sizes, strides));
      }
      return updated;
    }
    Value lb = arith::ConstantIndexOp::create(builder, loc, 0);
    Value ub =
        arith::ConstantIndexOp::create(builder, loc, dims[level].getExtent());
    Value step = arith::ConstantIndexOp::create(builder, loc, tiles[level]);
    auto loop = scf::ForOp::create(
        builder, loc, lb, ub, step, accs,
        [&](OpBuilder &inner, Location, Value iv, ValueRange iterAccs) {
          offsets.push_back(iv);
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

static void inlineGraphBody(GraphOp graph) {
  OpBuilder b(graph);
  SmallVector<Value> results =
      inlineRegion(b, graph.getBody(), graph.getInputs());
  graph.replaceAllUsesWith(results);
  graph.erase();
}

namespace {
struct LowerToLoopsPass
    : public smap::impl::SMapLowerToLoopsBase<LowerToLoopsPass> {
  void runOnOperation() override {
    // Innermost first, so that every op is lowered inside its final parent.
    SmallVector<Operation *> ops;
    getOperation()->walk<WalkOrder::PostOrder>([&](Operation *op) {
      if (isa<TemporalSliceOp, SpatialSliceOp, GraphOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      if (auto temporal = dyn_cast<TemporalSliceOp>(op))
        lowerTemporalSlice(temporal);
      else if (auto spatial = dyn_cast<SpatialSliceOp>(op))
        lowerSpatialSlice(spatial);
      else
        inlineGraphBody(cast<GraphOp>(op));
    }
  }
};
} // namespace
