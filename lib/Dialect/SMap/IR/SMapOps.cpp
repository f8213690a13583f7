//===- SMapOps.cpp - SpaceMapping operations ------------------------------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Dialect/SMap/IR/SMap.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::smap;

/// Checks that the types yielded by `region`'s terminator equal `expected`.
static LogicalResult verifyYieldTypes(Operation *op, Region &region,
                                      TypeRange expected, StringRef what) {
  Block &block = region.front();
  auto yield = block.empty() ? YieldOp() : dyn_cast<YieldOp>(block.back());
  if (!yield)
    return op->emitOpError() << "region of " << what
                             << " must end with smap.yield";
  TypeRange yielded = yield.getValues().getTypes();
  if (yielded.size() != expected.size())
    return yield.emitOpError()
           << "yields " << yielded.size() << " values but " << what
           << " expects " << expected.size();
  for (auto [i, pair] : llvm::enumerate(llvm::zip(yielded, expected)))
    if (std::get<0>(pair) != std::get<1>(pair))
      return yield.emitOpError()
             << "value #" << i << " has type " << std::get<0>(pair) << " but "
             << what << " expects " << std::get<1>(pair);
  return success();
}

/// Checks that the entry block arguments of `region` have `expected` types.
static LogicalResult verifyBlockArgTypes(Operation *op, Region &region,
                                         TypeRange expected, StringRef what) {
  Block &entry = region.front();
  if (entry.getNumArguments() != expected.size())
    return op->emitOpError()
           << what << " takes " << entry.getNumArguments()
           << " block arguments but " << expected.size() << " are expected";
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip(entry.getArgumentTypes(), expected)))
    if (std::get<0>(pair) != std::get<1>(pair))
      return op->emitOpError()
             << what << " block argument #" << i << " has type "
             << std::get<0>(pair) << " but " << std::get<1>(pair)
             << " is expected";
  return success();
}

/// Checks that `dims` has no name twice; fills `byName`.
static LogicalResult collectDims(Operation *op, ArrayRef<DimAttr> dims,
                                 llvm::StringMap<DimAttr> &byName) {
  for (DimAttr dim : dims)
    if (!byName.try_emplace(dim.getName().getValue(), dim).second)
      return op->emitOpError()
             << "lists dim '" << dim.getName().getValue() << "' twice";
  return success();
}

static SmallVector<DimAttr> getDimList(ArrayAttr array) {
  SmallVector<DimAttr> dims;
  if (array)
    for (Attribute attr : array)
      dims.push_back(cast<DimAttr>(attr));
  return dims;
}

//===----------------------------------------------------------------------===//
// GraphOp
//===----------------------------------------------------------------------===//

void GraphOp::build(OpBuilder &builder, OperationState &state,
                    TypeRange resultTypes, ValueRange inputs) {
  state.addOperands(inputs);
  state.addTypes(resultTypes);
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  for (Value input : inputs)
    block->addArgument(input.getType(), input.getLoc());
}

YieldOp GraphOp::getYield() {
  return cast<YieldOp>(getBody().front().back());
}

DimAttr GraphOp::lookupDim(StringRef name) {
  for (DimAttr dim : getDimList(getDimsAttr()))
    if (dim.getName().getValue() == name)
      return dim;
  return {};
}

ParseResult GraphOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::Argument> args;
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  SmallVector<Type> operandTypes;
  if (parser.parseCommaSeparatedList(
          OpAsmParser::Delimiter::Paren, [&]() -> ParseResult {
            OpAsmParser::Argument &arg = args.emplace_back();
            if (parser.parseArgument(arg) || parser.parseEqual() ||
                parser.parseOperand(operands.emplace_back()) ||
                parser.parseColonType(arg.type))
              return failure();
            operandTypes.push_back(arg.type);
            return success();
          }))
    return failure();
  if (parser.parseArrowTypeList(result.types) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, args, /*enableNameShadowing=*/false))
    return failure();
  return parser.resolveOperands(operands, operandTypes,
                                parser.getCurrentLocation(), result.operands);
}

void GraphOp::print(OpAsmPrinter &p) {
  p << '(';
  llvm::interleaveComma(
      llvm::zip(getBody().getArguments(), getInputs()), p, [&](auto pair) {
        auto [arg, input] = pair;
        p << arg << " = " << input << " : " << input.getType();
      });
  p << ") -> (" << getResultTypes() << ')';
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs());
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/true);
}

/// A declared residency (`blocks_per_sm`) must fit the SM: the registers
/// the schedule gives every thread of that many blocks, and their shared
/// memory (each block also takes the 1 KiB the driver reserves).
static LogicalResult verifyResidency(GraphOp graph, ScheduleAttr schedule,
                                     TargetAttr target) {
  int64_t blocks = schedule.getBlocksPerSm();
  if (!blocks)
    return success();
  int64_t registers =
      blocks * schedule.getThreads() * schedule.getRegsPerThread();
  if (registers > target.getRegsPerSm())
    return graph.emitOpError()
           << "schedule declares " << blocks << " blocks per SM of "
           << schedule.getThreads() << " threads with "
           << schedule.getRegsPerThread() << " registers each, but the SM of "
           << "target '" << target.getName() << "' has "
           << target.getRegsPerSm();
  int64_t smemPerSm = target.getSmemPerSm();
  if (smemPerSm && blocks * (schedule.getSmemBytes() + 1024) > smemPerSm)
    return graph.emitOpError()
           << "schedule declares " << blocks << " blocks per SM of "
           << schedule.getSmemBytes() << " bytes of shared memory, but the "
           << "SM of target '" << target.getName() << "' has " << smemPerSm;
  return success();
}

LogicalResult GraphOp::verify() {
  SmallVector<DimAttr> dims = getDimList(getDimsAttr());
  llvm::StringMap<DimAttr> byName;
  if (failed(collectDims(*this, dims, byName)))
    return failure();

  ScheduleAttr schedule = getScheduleAttr();
  if (!schedule)
    return success();
  if (!getDimsAttr())
    return emitOpError("has a schedule but no dims to check it against");

  auto checkSizes = [&](ArrayRef<SliceSize> sizes,
                        StringRef kind) -> LogicalResult {
    for (const SliceSize &s : sizes) {
      DimAttr dim = byName.lookup(s.dim.getValue());
      if (!dim)
        return emitOpError() << "schedule " << kind << "ly slices unknown dim '"
                             << s.dim.getValue() << "'";
      if (s.size > dim.getExtent())
        return emitOpError()
               << "schedule " << kind << " size " << s.size << " of dim '"
               << s.dim.getValue() << "' exceeds its extent "
               << dim.getExtent();
    }
    return success();
  };
  if (failed(checkSizes(schedule.getSpatial(), "spatial")) ||
      failed(checkSizes(schedule.getTemporal(), "temporal")))
    return failure();

  for (auto [s, blocks] : llvm::zip(schedule.getSpatial(), schedule.getGrid())) {
    int64_t expected =
        llvm::divideCeil(byName.lookup(s.dim.getValue()).getExtent(), s.size);
    if (blocks != expected)
      return emitOpError() << "schedule grid has " << blocks
                           << " blocks along '" << s.dim.getValue()
                           << "' but its tiles imply " << expected;
  }

  if (TargetAttr target = getTargetAttr()) {
    if (schedule.getSmemBytes() > target.getSmemPerBlock())
      return emitOpError() << "schedule needs " << schedule.getSmemBytes()
                           << " bytes of shared memory per block but target '"
                           << target.getName() << "' has "
                           << target.getSmemPerBlock();
    if (schedule.getThreads() > target.getMaxThreads())
      return emitOpError() << "schedule uses " << schedule.getThreads()
                           << " threads per block but target '"
                           << target.getName() << "' allows "
                           << target.getMaxThreads();
    if (schedule.getRegsPerThread() > target.getRegsPerThread())
      return emitOpError() << "schedule needs " << schedule.getRegsPerThread()
                           << " registers per thread but target '"
                           << target.getName() << "' has "
                           << target.getRegsPerThread();
    // A row kernel's count is the one every thread gets (nvvm.maxnreg).
    if (schedule.getStrategy() == KernelStrategy::Rows &&
        schedule.getRegsPerThread() * schedule.getThreads() >
            target.getRegsPerSm())
      return emitOpError() << "schedule gives " << schedule.getThreads()
                           << " threads " << schedule.getRegsPerThread()
                           << " registers each but the SM of target '"
                           << target.getName() << "' has "
                           << target.getRegsPerSm();
    if (failed(verifyResidency(*this, schedule, target)))
      return failure();
  }
  return success();
}

LogicalResult GraphOp::verifyRegions() {
  if (failed(verifyBlockArgTypes(*this, getBody(), getInputs().getTypes(),
                                 "body")))
    return failure();
  return verifyYieldTypes(*this, getBody(), getResultTypes(), "the graph");
}

//===----------------------------------------------------------------------===//
// SpatialSliceOp
//===----------------------------------------------------------------------===//

SmallVector<int64_t> SpatialSliceOp::getGrid() {
  SmallVector<int64_t> grid;
  for (auto [dim, tile] : llvm::zip(getDimList(getDims()), getTiles()))
    grid.push_back(llvm::divideCeil(dim.getExtent(), tile));
  return grid;
}

/// Checks that each of `tiles` fits its dim of `dims`; fills `tileOf`.
static LogicalResult verifyTileSizes(SpatialSliceOp op, ArrayRef<DimAttr> dims,
                                     ArrayRef<int64_t> tiles,
                                     llvm::StringMap<int64_t> &tileOf) {
  for (auto [dim, tile] : llvm::zip(dims, tiles)) {
    if (tile <= 0 || tile > dim.getExtent())
      return op.emitOpError()
             << "tile size " << tile << " of dim '" << dim.getName().getValue()
             << "' must be in [1, " << dim.getExtent() << "]";
    tileOf[dim.getName().getValue()] = tile;
  }
  return success();
}

/// Checks that entry `names` of result_dims names each dimension of result
/// #`i` and that the result varies along every sliced dim of `dims`.
static LogicalResult verifyResultDimNames(SpatialSliceOp op, size_t i,
                                          RankedTensorType resultType,
                                          ArrayAttr names,
                                          ArrayRef<DimAttr> dims) {
  if (!names || names.size() != static_cast<size_t>(resultType.getRank()) ||
      !llvm::all_of(names, [](Attribute a) { return isa<StringAttr>(a); }))
    return op.emitOpError()
           << "result_dims #" << i << " must list one dim name "
           << "per dimension of " << resultType;
  llvm::StringSet<> present;
  for (Attribute name : names)
    present.insert(cast<StringAttr>(name).getValue());
  for (DimAttr dim : dims)
    if (!present.contains(dim.getName().getValue()))
      return op.emitOpError() << "result #" << i << " does not vary along "
                              << "sliced dim '" << dim.getName().getValue()
                              << "': every block would write all of it";
  return success();
}

/// Checks that tile #`i` of `yield` has result #`i`'s rank and element type,
/// the tile size along each sliced dim (of `tileOf`) and the result's size
/// along the others, and that the result spans each sliced dim's extent.
static LogicalResult verifyYieldedTile(SpatialSliceOp op, YieldOp yield,
                                       size_t i, RankedTensorType resultType,
                                       ArrayAttr names,
                                       const llvm::StringMap<int64_t> &tileOf,
                                       const llvm::StringMap<DimAttr> &byName) {
  auto tileType = dyn_cast<RankedTensorType>(yield.getValues()[i].getType());
  if (!tileType || tileType.getRank() != resultType.getRank() ||
      tileType.getElementType() != resultType.getElementType())
    return yield.emitOpError() << "tile #" << i << " must be a tensor of rank "
                               << resultType.getRank() << " and element type "
                               << resultType.getElementType();
  for (auto [d, name] : llvm::enumerate(names)) {
    StringRef dimName = cast<StringAttr>(name).getValue();
    int64_t tileSize = tileType.getDimSize(d);
    auto it = tileOf.find(dimName);
    if (it == tileOf.end()) {
      if (tileSize != resultType.getDimSize(d))
        return yield.emitOpError()
               << "tile #" << i << " dimension " << d << " ('" << dimName
               << "', not sliced) must have the result's size "
               << resultType.getDimSize(d);
      continue;
    }
    int64_t extent = byName.lookup(dimName).getExtent();
    if (resultType.getDimSize(d) != extent)
      return op.emitOpError()
             << "result #" << i << " dimension " << d << " ('" << dimName
             << "') must have the dim's extent " << extent;
    // A ragged last tile has the tile size too (it ends at the extent).
    if (tileSize != it->second)
      return yield.emitOpError() << "tile #" << i << " dimension " << d << " ('"
                                 << dimName << "') must be " << it->second;
  }
  return success();
}

LogicalResult SpatialSliceOp::verifyRegions() {
  SmallVector<DimAttr> dims = getDimList(getDims());
  ArrayRef<int64_t> tiles = getTiles();
  if (dims.empty())
    return emitOpError("must slice at least one dim");
  if (tiles.size() != dims.size())
    return emitOpError() << "has " << tiles.size() << " tile sizes for "
                         << dims.size() << " dims";
  llvm::StringMap<DimAttr> byName;
  if (failed(collectDims(*this, dims, byName)))
    return failure();
  llvm::StringMap<int64_t> tileOf;
  if (failed(verifyTileSizes(*this, dims, tiles, tileOf)))
    return failure();

  SmallVector<Type> indexTypes(dims.size(),
                               IndexType::get(getContext()));
  if (failed(verifyBlockArgTypes(*this, getBody(), indexTypes, "body")))
    return failure();

  ArrayAttr resultDims = getResultDims();
  if (resultDims.size() != getNumResults())
    return emitOpError() << "has " << resultDims.size()
                         << " result_dims entries for " << getNumResults()
                         << " results";

  Block &body = getBody().front();
  auto yield = body.empty() ? YieldOp() : dyn_cast<YieldOp>(body.back());
  if (!yield)
    return emitOpError("body must end with smap.yield");
  if (yield.getValues().size() != getNumResults())
    return yield.emitOpError() << "yields " << yield.getValues().size()
                               << " tiles for " << getNumResults()
                               << " results";

  for (auto [i, result] : llvm::enumerate(getResults())) {
    auto resultType = cast<RankedTensorType>(result.getType());
    auto names = dyn_cast<ArrayAttr>(resultDims[i]);
    if (failed(verifyResultDimNames(*this, i, resultType, names, dims)) ||
        failed(verifyYieldedTile(*this, yield, i, resultType, names, tileOf,
                                 byName)))
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// TemporalSliceOp
//===----------------------------------------------------------------------===//

int64_t TemporalSliceOp::getNumSlices() {
  return llvm::divideCeil(getDim().getExtent(),
                          getSliceSizeAttr().getValue().getSExtValue());
}

LogicalResult TemporalSliceOp::verify() {
  int64_t extent = getDim().getExtent();
  int64_t sliceSize = getSliceSizeAttr().getValue().getSExtValue();
  if (sliceSize <= 0 || sliceSize > extent)
    return emitOpError() << "slice size " << sliceSize << " of dim '"
                         << getDim().getName().getValue() << "' must be in [1, "
                         << extent << "]";
  if (getInits().empty())
    return emitOpError("must carry at least one value");
  if (getInits().getTypes() != getResultTypes())
    return emitOpError("result types must match the inits' types");
  return success();
}

LogicalResult TemporalSliceOp::verifyRegions() {
  SmallVector<Type> sliceArgs{IndexType::get(getContext())};
  llvm::append_range(sliceArgs, getInits().getTypes());
  if (failed(verifyBlockArgTypes(*this, getSlice(), sliceArgs, "slice")))
    return failure();
  Block &slice = getSlice().front();
  auto contributions =
      slice.empty() ? YieldOp() : dyn_cast<YieldOp>(slice.back());
  if (!contributions)
    return emitOpError("slice region must end with smap.yield");

  SmallVector<Type> updateArgs(getInits().getTypes());
  llvm::append_range(updateArgs, contributions.getValues().getTypes());
  if (failed(verifyBlockArgTypes(*this, getUpdate(), updateArgs, "update")))
    return failure();
  return verifyYieldTypes(*this, getUpdate(), getInits().getTypes(),
                          "the carried state");
}

#define GET_OP_CLASSES
#include "spacefusion/Dialect/SMap/IR/SMapOps.cpp.inc"
