//===- SMapToGPU.cpp - Lower row-reduction graphs to GPU kernels ----------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// The first GPU lowering: graphs whose reductions all run along one dim n,
// with every other dim parallel (softmax, LayerNorm, RMSNorm, elementwise
// chains, in any dtype computed in f32). A warp (short rows) or a block
// (long rows) owns each row: its threads hold the row in registers (16-byte
// vector loads, VEC elements per load, K loads per thread; a ragged last
// chunk masked), evaluate the members on their elements, reduce along n with
// warp shuffles (and a shared-memory step across warps), and store the
// outputs with 16-byte vector stores. The whole fused graph is one kernel;
// nothing intermediate touches global memory.
//
// Graphs outside this class (GEMMs, attention) are rejected with a
// diagnostic that says so: their tensor-core lowering is separate work.
//
//===----------------------------------------------------------------------===//

#include "../PassDetail.h"

#include "WarpShuffle.h"

#include "spacefusion/Analysis/Remarks.h"
#include "spacefusion/Analysis/RowKernelPlan.h"
#include "spacefusion/Analysis/SpaceMappingGraph.h"
#include "spacefusion/Dialect/SMap/Transforms/GraphUtils.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

#include <functional>

namespace mlir {
namespace smap {
#define GEN_PASS_DEF_CONVERTSMAPTOGPUPASS
#include "spacefusion/Conversion/Passes.h.inc"
} // namespace smap
} // namespace mlir

using namespace mlir;
using namespace mlir::smap;

namespace {

using Shape = RowShape;

/// A value inside the kernel: one scalar (Row, Scalar) or this thread's
/// elements of a row (Full, Column).
struct KernelValue {
  Shape shape;
  SmallVector<Value> elements; // one for Row/Scalar
};

class RowKernelBuilder {
public:
  RowKernelBuilder(func::FuncOp fn, GraphOp graph, const SpaceMappingGraph &smg,
                   const RowKernelPlan &plan, bool approxMath,
                   bool hoistColumnLoads, bool columnCacheHints)
      : fn(fn), graph(graph), smg(smg), plan(plan), approxMath(approxMath),
        hoistColumnLoads(hoistColumnLoads), columnCacheHints(columnCacheHints),
        reducedDim(plan.graph.reducedDim), rows(plan.graph.rows),
        n(plan.graph.n), vec(plan.graph.vector),
        threads(plan.layout.threadsPerRow), chunks(plan.chunks),
        rowsPerBlock(plan.layout.rowsPerBlock), tiles(plan.tiles),
        ragged(plan.ragged) {}

  /// Replaces `fn` by a function on memrefs that launches the kernel; on
  /// failure `fn` is left as it was.
  LogicalResult build();
  /// Builds `graph`'s launch before it and replaces the uses of its results:
  /// the inputs read as buffers (`bufferization.to_buffer`), the results
  /// written to new buffers and given back as tensors, which the
  /// bufferization of the rest of `fn` joins up; `graph` is then dead. The
  /// kernel is the `index`-th of `fn`'s graphs, when it has several. On
  /// failure `fn` is left as it was.
  LogicalResult buildInPlace(std::optional<size_t> index);

  std::string whyNot;

private:
  LogicalResult buildKernel(func::FuncOp kernelFn);
  /// The launch of the kernel at `hb`, named `kernelName`, writing the
  /// outputs to the 1-D buffers `outFlat` (the inputs' are in `flat`).
  FailureOr<gpu::LaunchOp> buildLaunch(OpBuilder &hb, ValueRange outFlat,
                                       StringRef kernelName);
  /// The record of the kernel `launch` runs, and its remark.
  KernelAttr recordKernel();
  /// The kernel function's arguments as 1-D memrefs (the graph inputs'
  /// into `flat`); returns the outputs'.
  FailureOr<SmallVector<Value>> flattenArguments(OpBuilder &hb, Block *entry);
  gpu::LaunchOp createLaunch(OpBuilder &hb);
  void locateThread(OpBuilder &kb, gpu::LaunchOp launch);
  /// Views the dynamic shared memory as the partials crossing the warps,
  /// then one row of each whole-row input (RowLayout::cacheRow), in
  /// argument order.
  void placeRowCache(OpBuilder &kb);
  /// The row's length and its first element.
  void locateRow(OpBuilder &kb);
  /// Sets the position of each of this thread's chunks: in the row, or in
  /// the tile of the row starting at element `tileStart` when the row is
  /// streamed in tiles.
  void locateChunks(OpBuilder &kb, Value tileStart = nullptr);
  /// Computes at `b`, outside every tile loop, the row-uniform values (of
  /// shape Row or Scalar) that computing `v` element by element needs.
  LogicalResult computeRowUniformOperands(OpBuilder &b, Value v,
                                          DenseSet<Value> &seen);
  /// Builds an scf.for over the row's tiles carrying `inits`, whose body
  /// `body` computes in the tile's chunk positions; what it computes per
  /// element stays in the loop. Returns the loop's results.
  FailureOr<ValueRange> buildTileLoop(
      OpBuilder &b, ValueRange inits,
      function_ref<FailureOr<SmallVector<Value>>(OpBuilder &, ValueRange)>
          body);
  /// The outputs of a row streamed in tiles: row-uniform ones once, the
  /// others tile by tile.
  LogicalResult storeTiledOutputs(OpBuilder &kb, ValueRange outFlat,
                                  Value zero);
  /// The index of this thread's chunk `k` in a value of `shape`.
  Value chunkIndex(OpBuilder &kb, Shape shape, int64_t k);
  void loadInput(OpBuilder &kb, BlockArgument arg);
  LogicalResult ensureComputed(OpBuilder &kb, Value v);
  LogicalResult evaluateGraph(OpBuilder &kb);
  /// Fails unless every graph input read is a tensor.
  LogicalResult checkInputs();
  /// The graph's scalar constants, which the members' bodies capture.
  LogicalResult evaluateConstants(OpBuilder &kb);
  void storeOutput(OpBuilder &kb, const KernelValue &value, Value memref,
                   Value zero);

private:
  FailureOr<Shape> shapeOf(Value v);
  /// Loads the elements of `vecType` at element `index` of the 1-D `memref`
  /// with L1 and L2 evict_last hints (sm_80+ PTX, as inline assembly:
  /// neither the vector nor the NVVM dialect has a hinted load); empty when
  /// the vector is not 1, 2 or 4 32-bit words of 16- or 32-bit elements.
  SmallVector<Value> loadEvictLast(OpBuilder &b, Value memref, Value index,
                                   VectorType vecType);
  /// The L2 evict_last policy, made at the kernel's start on first use.
  Value getEvictLastPolicy(Location loc);
  Value scalarOf(OpBuilder &b, const KernelValue &v, unsigned e) {
    if (v.elements.size() != 1)
      return v.elements[e];
    rowUniform.insert(v.elements[0]);
    return v.elements[0];
  }
  /// Clones one scalar body op. Divisions by a value uniform over the row
  /// (a sum, a norm) become one reciprocal per row and a multiply per
  /// element; with `approxMath`, f32 exp uses the fast hardware exp2.
  void cloneBodyOp(OpBuilder &b, Operation &inner, IRMapping &mapping);
  LogicalResult evaluate(OpBuilder &b, Operation *op);
  /// A linalg.generic member: elementwise, or a reduction along n.
  LogicalResult evaluateGeneric(OpBuilder &b, linalg::GenericOp generic);
  /// An elementwise member (or one reducing over unit loops only), element
  /// by element into a value of `shape`.
  LogicalResult evaluateElementwise(OpBuilder &b, linalg::GenericOp generic,
                                    Shape shape);
  /// A reduction along n: this thread's elements, then the block's.
  LogicalResult evaluateRowReduction(OpBuilder &b, linalg::GenericOp generic);
  /// This thread's elements of `contribution` combined by `combineOp` (the
  /// body's own op; masked chunks contribute `combiner`'s identity).
  FailureOr<Value> reduceThreadElements(OpBuilder &b, linalg::GenericOp generic,
                                        Value contribution, Value acc,
                                        Combiner combiner,
                                        Operation *combineOp);
  /// reduceThreadElements over every tile of a row streamed in tiles, the
  /// row-uniform values the contribution needs computed first at `b`.
  FailureOr<Value> reduceTiles(OpBuilder &b, linalg::GenericOp generic,
                               Value contribution, Value acc, Combiner combiner,
                               Operation *combineOp);
  /// `partial` combined over the threads of the row by `combineOp` (the
  /// reduction body's own op, so that a maxnumf skips NaN data as the
  /// program does).
  Value blockReduce(OpBuilder &b, Value partial, Operation *combineOp);
  /// Clones the scalar body ops `yielded` depends on (except those
  /// depending on `skip`) for element `e`.
  FailureOr<Value> cloneScalar(OpBuilder &b, linalg::LinalgOp op, Value yielded,
                               unsigned e, Value skip, Value accValue);

  func::FuncOp fn;
  GraphOp graph;
  const SpaceMappingGraph &smg;
  const RowKernelPlan &plan;
  bool approxMath;
  bool hoistColumnLoads;
  bool columnCacheHints;
  /// The L2 eviction policy of hinted loads, made once per kernel at the
  /// start of its body, `kernelEntry`.
  Value evictLastPolicy;
  Block *kernelEntry = nullptr;
  // The plan: `threads` threads share a row; a block holds `rowsPerBlock`
  // rows.
  unsigned reducedDim;
  int64_t rows, n, vec, threads, chunks, rowsPerBlock, tiles;
  // Whether the ops built now are in a tile's loop (tiled rows only).
  bool inTile = false;
  // Rows that the threads do not split evenly: the last chunks are valid
  // only in some threads (`chunkValid[k]`, null when always valid).
  bool ragged;
  // Kernel state. `tid` is the thread's position within its row.
  DenseMap<Value, KernelValue> values;
  Value row, tid, lane, warp, smem;
  DenseMap<Value, Value> flat; // graph input -> its flattened memref
  // A cached row (RowLayout::cacheRow): each whole-row input's copy in
  // shared memory, and the inputs an earlier loop copied (read from it).
  DenseMap<Value, Value> rowCache;
  DenseSet<Value> cacheFilled;
  // The row's length and first element; each chunk's column, and whether
  // it is in the row.
  Value nValue, rowBase;
  SmallVector<Value> chunkStart, chunkValid;
  DenseSet<Operation *> evaluated; // graph members computed so far
  int64_t reductionsDone = 0;         // cross-warp reductions built so far
  DenseSet<Value> rowUniform;         // kernel values equal for the whole row
  DenseMap<Value, Value> reciprocals; // row-uniform divisor -> 1 / divisor
};

} // namespace

FailureOr<Shape> RowKernelBuilder::shapeOf(Value v) {
  return plan.graph.shapeOf(smg, v);
}

/// The address of element `index` of the 1-D `memref` of `width`-bit
/// elements: the aligned pointer plus (offset + index) elements, cast to the
/// global address space (ld.global takes a global address).
static Value globalElementAddress(OpBuilder &b, Location loc, Value memref,
                                  Value index, int64_t width) {
  MLIRContext *ctx = b.getContext();
  auto i64 = b.getI64Type();
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Value element = arith::AddIOp::create(b, loc, metadata.getOffset(), index);
  Value bytes = arith::MulIOp::create(
      b, loc, element, arith::ConstantIndexOp::create(b, loc, width / 8));
  Value address = arith::IndexCastUIOp::create(
      b, loc, i64, arith::AddIOp::create(b, loc, base, bytes));
  return LLVM::AddrSpaceCastOp::create(
      b, loc, LLVM::LLVMPointerType::get(ctx, 1),
      LLVM::IntToPtrOp::create(b, loc, LLVM::LLVMPointerType::get(ctx),
                               address));
}

/// The PTX of a hinted load of `words` 32-bit words holding `count`
/// `width`-bit elements, one output operand per element (16-bit ones
/// unpacked from the loaded words), then the address and the policy.
static std::string evictLastLoadAsm(int64_t width, int64_t count,
                                    int64_t words) {
  std::string asmString = "{\n";
  auto operand = [](int64_t i) { return "$" + std::to_string(i); };
  SmallVector<std::string> loadedWords;
  for (int64_t w = 0; w < words; ++w)
    loadedWords.push_back(width == 32 ? operand(w) : "w" + std::to_string(w));
  if (width == 16)
    asmString += ".reg .b32 w<" + std::to_string(words) + ">;\n";
  asmString += "ld.global.L1::evict_last.L2::cache_hint" +
               std::string(words == 1   ? ""
                           : words == 2 ? ".v2"
                                        : ".v4") +
               ".b32 " +
               (words == 1 ? loadedWords[0]
                           : "{" + llvm::join(loadedWords, ", ") + "}") +
               ", [" + operand(count) + "], " + operand(count + 1) + ";\n";
  if (width == 16)
    for (int64_t w = 0; w < words; ++w)
      asmString += "mov.b32 {" + operand(2 * w) + ", " + operand(2 * w + 1) +
                   "}, w" + std::to_string(w) + ";\n";
  asmString += "}";
  return asmString;
}

Value RowKernelBuilder::getEvictLastPolicy(Location loc) {
  if (!evictLastPolicy) {
    // At the kernel's start: it has no operands and dominates every load.
    OpBuilder start = OpBuilder::atBlockBegin(kernelEntry);
    evictLastPolicy =
        LLVM::InlineAsmOp::create(
            start, loc, start.getI64Type(), ValueRange{},
            "createpolicy.fractional.L2::evict_last.b64 $0, 1.0;", "=l",
            /*has_side_effects=*/false, /*is_align_stack=*/false,
            LLVM::tailcallkind::TailCallKind::None, /*asm_dialect=*/nullptr,
            /*operand_attrs=*/nullptr)
            .getResult(0);
  }
  return evictLastPolicy;
}

SmallVector<Value> RowKernelBuilder::loadEvictLast(OpBuilder &b, Value memref,
                                                   Value index,
                                                   VectorType vecType) {
  Location loc = graph.getLoc();
  int64_t width = vecType.getElementTypeBitWidth();
  int64_t count = vecType.getNumElements();
  int64_t words = count * width / 32;
  if ((width != 16 && width != 32) || count * width % 32 != 0 ||
      (words != 1 && words != 2 && words != 4))
    return {};
  Value policy = getEvictLastPolicy(loc);
  Value pointer = globalElementAddress(b, loc, memref, index, width);
  // The asm yields one scalar per element (16-bit ones unpacked from the
  // loaded words inside it), not a vector: LLVM's SLP vectorizer would
  // otherwise convert a whole vector of parameters to f32 right after the
  // load, keeping it live in twice the registers through the reductions
  // (LayerNorm over 768 f16: 90 registers instead of 64).
  std::string constraints;
  Type scalarType = b.getIntegerType(width);
  for (int64_t e = 0; e < count; ++e)
    constraints += width == 16 ? "=h," : "=r,";
  Type resultType =
      count == 1 ? scalarType
                 : LLVM::LLVMStructType::getLiteral(
                       b.getContext(), SmallVector<Type>(count, scalarType));
  Value result =
      LLVM::InlineAsmOp::create(
          b, loc, resultType, ValueRange{pointer, policy},
          evictLastLoadAsm(width, count, words), constraints + "l,l",
          /*has_side_effects=*/false,
          /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
          /*asm_dialect=*/nullptr, /*operand_attrs=*/nullptr)
          .getResult(0);
  SmallVector<Value> elements;
  for (int64_t e = 0; e < count; ++e) {
    Value bits =
        count == 1
            ? result
            : LLVM::ExtractValueOp::create(b, loc, result, e).getResult();
    elements.push_back(
        arith::BitcastOp::create(b, loc, vecType.getElementType(), bits));
  }
  return elements;
}

Value RowKernelBuilder::blockReduce(OpBuilder &b, Value partial,
                                    Operation *combineOp) {
  Location loc = graph.getLoc();
  // Within each warp: a butterfly of shuffles.
  Value v = partial;
  for (int32_t offset = 16; offset >= 1; offset /= 2) {
    v = buildCombineLike(b, loc, combineOp, v, shuffleXor(b, loc, v, offset));
  }
  int64_t warps = threads / 32;
  if (warps == 1)
    return v;
  // Across warps: lane 0 of each warp publishes, everyone combines.
  // Consecutive reductions publish into different regions of the 32 slots,
  // so that the barrier of the next one also orders this one's reads before
  // the region is written again; only with one region (32 warps) does a
  // reduction need a second barrier of its own.
  int64_t regions = 32 / warps;
  int64_t base = (reductionsDone++ % regions) * warps;
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value isLeader =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, zero);
  // The slots are f32: a 16-bit partial (an f16 row max) is extended
  // exactly, the warps' partials combined in f32 and rounded once.
  Type slotType = cast<MemRefType>(smem.getType()).getElementType();
  Type partialType = v.getType();
  scf::IfOp::create(b, loc, isLeader, [&](OpBuilder &then, Location l) {
    Value slot = arith::AddIOp::create(
        then, l, warp, arith::ConstantIndexOp::create(then, l, base));
    Value stored = partialType == slotType
                       ? v
                       : arith::ExtFOp::create(then, l, slotType, v);
    memref::StoreOp::create(then, l, stored, smem, ValueRange{slot});
    scf::YieldOp::create(then, l);
  });
  gpu::BarrierOp::create(b, loc);
  Value total = nullptr;
  for (int64_t w = 0; w < warps; ++w) {
    Value partialOfWarp = memref::LoadOp::create(
        b, loc, smem,
        ValueRange{arith::ConstantIndexOp::create(b, loc, base + w)});
    total = total ? buildCombineLike(b, loc, combineOp, total, partialOfWarp)
                  : partialOfWarp;
  }
  if (regions == 1)
    gpu::BarrierOp::create(b, loc);
  if (partialType != slotType)
    total = arith::TruncFOp::create(b, loc, partialType, total);
  return total;
}

FailureOr<Value> RowKernelBuilder::cloneScalar(OpBuilder &b,
                                               linalg::LinalgOp op,
                                               Value yielded, unsigned e,
                                               Value skip, Value accValue) {
  Block *body = op.getBlock();
  IRMapping mapping;
  // Scalars of the graph body (constants) the op's body captures.
  for (auto &[value, kernelValue] : values)
    if (kernelValue.shape == Shape::Scalar && kernelValue.elements.size() == 1)
      mapping.map(value, kernelValue.elements[0]);
  for (OpOperand &operand : op->getOpOperands()) {
    BlockArgument arg = op.getMatchingBlockArgument(&operand);
    if (arg == skip) {
      if (accValue)
        mapping.map(arg, accValue);
      continue;
    }
    auto it = values.find(operand.get());
    if (it != values.end()) {
      mapping.map(arg, scalarOf(b, it->second, e));
      continue;
    }
    if (op.isDpsInit(&operand))
      continue; // an init that is not read
    return failure();
  }
  for (Operation &inner : body->without_terminator()) {
    if (isa<linalg::IndexOp>(inner))
      return failure();
    if (llvm::all_of(inner.getOperands(),
                     [&](Value v) { return mapping.contains(v); }))
      cloneBodyOp(b, inner, mapping);
  }
  Value result = mapping.lookupOrNull(yielded);
  if (!result)
    return failure();
  return result;
}

void RowKernelBuilder::cloneBodyOp(OpBuilder &b, Operation &inner,
                                   IRMapping &mapping) {
  Location loc = inner.getLoc();
  auto isUniform = [&](Value v) { return rowUniform.contains(v); };
  if (auto div = dyn_cast<arith::DivFOp>(inner)) {
    Value lhs = mapping.lookup(div.getLhs());
    Value rhs = mapping.lookup(div.getRhs());
    if (isUniform(rhs) && !isUniform(lhs)) {
      Value &reciprocal = reciprocals[rhs];
      if (!reciprocal) {
        Value one = arith::ConstantOp::create(
            b, loc, b.getFloatAttr(rhs.getType(), 1.0));
        reciprocal = arith::DivFOp::create(b, loc, one, rhs);
        rowUniform.insert(reciprocal);
      }
      mapping.map(div.getResult(),
                  arith::MulFOp::create(b, loc, lhs, reciprocal));
      return;
    }
  }
  Operation *clone = b.clone(inner, mapping);
  if (auto exp = dyn_cast<math::ExpOp>(clone); exp && approxMath)
    exp.setFastmath(exp.getFastmath() | arith::FastMathFlags::afn);
  // What is computed only from row-uniform values is row-uniform.
  if (clone->getNumOperands() > 0 &&
      llvm::all_of(clone->getOperands(), isUniform))
    for (Value result : clone->getResults())
      rowUniform.insert(result);
}

LogicalResult RowKernelBuilder::evaluate(OpBuilder &b, Operation *op) {
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    if (isa<RankedTensorType>(constant.getType()))
      return failure();
    Operation *clone = b.clone(*op);
    values[op->getResult(0)] = {Shape::Scalar, {clone->getResult(0)}};
    return success();
  }
  if (isa<tensor::EmptyOp>(op))
    return success();
  if (auto fill = dyn_cast<linalg::FillOp>(op)) {
    Value scalar = fill.getInputs()[0];
    auto it = values.find(scalar);
    if (it == values.end())
      return failure();
    values[fill.getResult(0)] = {Shape::Scalar, it->second.elements};
    return success();
  }
  return evaluateGeneric(b, cast<linalg::GenericOp>(op));
}

LogicalResult RowKernelBuilder::evaluateGeneric(OpBuilder &b,
                                                linalg::GenericOp generic) {
  if (generic.getNumResults() != 1)
    return failure();
  FailureOr<Shape> outShape = shapeOf(generic->getResult(0));
  if (failed(outShape))
    return failure();
  // A reduction over unit loops only reduces along no dim: element by
  // element, it combines the init with one contribution.
  const Space *space = smg.lookupSpace(generic);
  bool reduces = space && llvm::any_of(space->reductions, [&](auto r) {
    return r.first == reducedDim;
  });
  if (!reduces && space && !space->reductions.empty())
    return failure(); // a reduction along another dim: not a row kernel
  if (!reduces)
    return evaluateElementwise(b, generic, *outShape);
  return evaluateRowReduction(b, generic);
}

LogicalResult RowKernelBuilder::evaluateElementwise(OpBuilder &b,
                                                    linalg::GenericOp generic,
                                                    Shape shape) {
  Value yielded = generic.getBody()->getTerminator()->getOperand(0);
  unsigned elements =
      (shape == Shape::Full || shape == Shape::Column) ? chunks * vec : 1;
  KernelValue result{shape, {}};
  for (unsigned e = 0; e < elements; ++e) {
    FailureOr<Value> v = cloneScalar(b, generic, yielded, e, Value(), Value());
    if (failed(v))
      return failure();
    result.elements.push_back(*v);
  }
  values[generic->getResult(0)] = result;
  return success();
}

FailureOr<Value> RowKernelBuilder::reduceThreadElements(
    OpBuilder &b, linalg::GenericOp generic, Value contribution, Value acc,
    Combiner combiner, Operation *combineOp) {
  Location loc = generic.getLoc();
  Value partial;
  for (unsigned e = 0; e < chunks * vec; ++e) {
    FailureOr<Value> v = cloneScalar(b, generic, contribution, e, acc, Value());
    if (failed(v))
      return failure();
    Value contributionValue = *v;
    if (Value valid = chunkValid[e / vec])
      contributionValue = arith::SelectOp::create(
          b, loc, valid, contributionValue,
          arith::ConstantOp::create(
              b, loc,
              getCombineOpIdentity(
                  b, combineOp, combiner,
                  cast<FloatType>(contributionValue.getType()))));
    partial = partial ? buildCombineLike(b, loc, combineOp, partial,
                                         contributionValue)
                      : contributionValue;
  }
  return partial;
}

FailureOr<Value> RowKernelBuilder::reduceTiles(OpBuilder &b,
                                               linalg::GenericOp generic,
                                               Value contribution, Value acc,
                                               Combiner combiner,
                                               Operation *combineOp) {
  DenseSet<Value> seen;
  for (OpOperand *input : generic.getDpsInputOperands())
    if (failed(computeRowUniformOperands(b, input->get(), seen)))
      return failure();
  auto type = cast<FloatType>(acc.getType());
  Value identity = arith::ConstantOp::create(
      b, generic.getLoc(), getCombineOpIdentity(b, combineOp, combiner, type));
  FailureOr<ValueRange> loop = buildTileLoop(
      b, identity,
      [&](OpBuilder &lb, ValueRange carried) -> FailureOr<SmallVector<Value>> {
        for (OpOperand *input : generic.getDpsInputOperands())
          if (failed(ensureComputed(lb, input->get())))
            return failure();
        FailureOr<Value> partial = reduceThreadElements(
            lb, generic, contribution, acc, combiner, combineOp);
        if (failed(partial))
          return failure();
        return SmallVector<Value>{buildCombineLike(
            lb, generic.getLoc(), combineOp, carried[0], *partial)};
      });
  if (failed(loop))
    return failure();
  return (*loop)[0];
}

LogicalResult
RowKernelBuilder::evaluateRowReduction(OpBuilder &b,
                                       linalg::GenericOp generic) {
  Value yielded = generic.getBody()->getTerminator()->getOperand(0);
  Value acc = generic.getRegionOutputArgs()[0];
  std::optional<Combiner> combiner = matchCombiner(yielded, acc);
  if (!combiner)
    return failure();
  Operation *combineOp = yielded.getDefiningOp();
  Value contribution = combineOp->getOperand(0) == acc
                           ? combineOp->getOperand(1)
                           : combineOp->getOperand(0);
  FailureOr<Value> partial =
      tiles > 1
          ? reduceTiles(b, generic, contribution, acc, *combiner, combineOp)
          : reduceThreadElements(b, generic, contribution, acc, *combiner,
                                 combineOp);
  if (failed(partial))
    return failure();
  Value total = blockReduce(b, *partial, combineOp);
  // Start from the init, combined by the body's own op: a max from a NaN
  // fill (linalg.softmax's decomposition) combines with maxnumf, for which
  // NaN is the identity; maximumf would make every row NaN.
  auto init = values.find(generic.getDpsInitOperand(0)->get());
  if (init != values.end()) {
    IRMapping mapping;
    mapping.map(acc, init->second.elements[0]);
    mapping.map(contribution, total);
    total = b.clone(*combineOp, mapping)->getResult(0);
  }
  values[generic->getResult(0)] = {Shape::Row, {total}};
  return success();
}

LogicalResult RowKernelBuilder::build() {
  MLIRContext *ctx = fn.getContext();
  Location loc = fn.getLoc();
  OpBuilder b(fn);

  // The new signature: the inputs, then one out-parameter per result, all
  // memrefs (device pointers when called on the GPU).
  SmallVector<Type> argTypes;
  for (Type t : fn.getArgumentTypes()) {
    auto type = cast<RankedTensorType>(t);
    argTypes.push_back(MemRefType::get(type.getShape(), type.getElementType()));
  }
  for (Type t : fn.getResultTypes()) {
    auto type = cast<RankedTensorType>(t);
    argTypes.push_back(MemRefType::get(type.getShape(), type.getElementType()));
  }
  auto kernelFn = func::FuncOp::create(b, loc, fn.getName(),
                                       FunctionType::get(ctx, argTypes, {}));
  if (failed(buildKernel(kernelFn))) {
    kernelFn.erase();
    return failure();
  }
  fn.erase();
  return success();
}

/// `memref` as a 1-D memref: collapsed, or a rank-0 one (a full
/// reduction's result) expanded to a vector of one.
static Value flattenTo1D(OpBuilder &b, Location loc, Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  if (type.getRank() == 1)
    return memref;
  if (type.getRank() == 0)
    return memref::ExpandShapeOp::create(
        b, loc, MemRefType::get({1}, type.getElementType()), memref,
        ArrayRef<ReassociationIndices>{});
  ReassociationIndices all;
  for (int64_t i = 0; i < type.getRank(); ++i)
    all.push_back(i);
  return memref::CollapseShapeOp::create(b, loc, memref,
                                         ArrayRef<ReassociationIndices>{all});
}

/// The alignment of a vector access of `vec` elements: indices are
/// multiples of vec and rows start at multiples of n, so the access is
/// aligned to its size when the buffer is.
static llvm::Align vectorAlignment(int64_t vec, Type elementType) {
  return llvm::Align(vec *
                     std::max(1u, elementType.getIntOrFloatBitWidth() / 8));
}

FailureOr<SmallVector<Value>>
RowKernelBuilder::flattenArguments(OpBuilder &hb, Block *entry) {
  SmallVector<Value> flatArgs;
  for (BlockArgument arg : entry->getArguments())
    flatArgs.push_back(flattenTo1D(hb, fn.getLoc(), arg));
  // Graph inputs map to function arguments through the graph's operands.
  for (auto [graphArg, operand] :
       llvm::zip(graph.getBody().getArguments(), graph.getInputs())) {
    auto fnArg = dyn_cast<BlockArgument>(operand);
    if (!fnArg || fnArg.getOwner() != &fn.getBody().front()) {
      whyNot = "a graph input is not a function argument";
      return failure();
    }
    flat[graphArg] = flatArgs[fnArg.getArgNumber()];
  }
  return SmallVector<Value>(flatArgs.begin() + fn.getNumArguments(),
                            flatArgs.end());
}

/// The 32 f32 slots in shared memory the warps of a row combine through.
static MemRefType getPartialsType(MLIRContext *ctx) {
  return MemRefType::get(
      {32}, Float32Type::get(ctx), AffineMap(),
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup));
}

/// A block of `rowsPerBlock` rows of `threads` threads each per row; shared
/// memory carries partials across the warps of a row, and the cached row.
gpu::LaunchOp RowKernelBuilder::createLaunch(OpBuilder &hb) {
  MLIRContext *ctx = fn.getContext();
  Location loc = fn.getLoc();
  Value one = arith::ConstantIndexOp::create(hb, loc, 1);
  Value gridX = arith::ConstantIndexOp::create(hb, loc, rows / rowsPerBlock);
  Value blockX =
      arith::ConstantIndexOp::create(hb, loc, threads * rowsPerBlock);
  MemRefType smemType = getPartialsType(ctx);
  // A cached row takes more than the 48 KB of static shared memory: the
  // partials go into the dynamic shared memory with it (placeRowCache),
  // whose base is the start of the shared memory only when nothing is
  // static.
  SmallVector<Type> workgroup;
  Value dynamicBytes;
  if (plan.layout.cacheRow)
    dynamicBytes = arith::ConstantIntOp::create(hb, loc, hb.getI32Type(),
                                                plan.getSharedMemoryBytes());
  else if (threads > 32)
    workgroup.push_back(smemType);
  return gpu::LaunchOp::create(hb, loc, gridX, one, one, blockX, one, one,
                               dynamicBytes, nullptr, {}, workgroup);
}

/// The thread's row and its position within the row (`tid`); with more
/// than a warp per row, its lane and warp too.
void RowKernelBuilder::locateThread(OpBuilder &kb, gpu::LaunchOp launch) {
  Location loc = fn.getLoc();
  row = launch.getBlockIds().x;
  tid = launch.getThreadIds().x;
  if (threads > 32 && !plan.layout.cacheRow)
    smem = launch.getWorkgroupAttributions().front();
  Value c32 = arith::ConstantIndexOp::create(kb, loc, 32);
  if (rowsPerBlock > 1) {
    // One warp per row: the warp index picks the row within the block.
    Value rowInBlock = arith::DivUIOp::create(kb, loc, tid, c32);
    row = arith::AddIOp::create(
        kb, loc,
        arith::MulIOp::create(
            kb, loc, row,
            arith::ConstantIndexOp::create(kb, loc, rowsPerBlock)),
        rowInBlock);
    tid = arith::RemUIOp::create(kb, loc, tid, c32);
  }
  if (threads > 32) {
    // Only reductions across the warps of a row need these.
    lane = arith::RemUIOp::create(kb, loc, tid, c32);
    warp = arith::DivUIOp::create(kb, loc, tid, c32);
  }
}

void RowKernelBuilder::placeRowCache(OpBuilder &kb) {
  MLIRContext *ctx = fn.getContext();
  Location loc = fn.getLoc();
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  Value bytes = gpu::DynamicSharedMemoryOp::create(
      kb, loc,
      MemRefType::get({ShapedType::kDynamic}, IntegerType::get(ctx, 8),
                      AffineMap(), workgroup));
  if (threads > 32)
    smem = memref::ViewOp::create(kb, loc, getPartialsType(ctx), bytes,
                                  arith::ConstantIndexOp::create(kb, loc, 0),
                                  ValueRange{});
  int64_t offset = plan.getPartialBytes();
  for (const RowGraph::CachedInput &input : plan.graph.cachedInputs) {
    BlockArgument arg = graph.getBody().getArgument(input.argument);
    Type elementType = cast<RankedTensorType>(arg.getType()).getElementType();
    rowCache[arg] = memref::ViewOp::create(
        kb, loc, MemRefType::get({n}, elementType, AffineMap(), workgroup),
        bytes, arith::ConstantIndexOp::create(kb, loc, offset), ValueRange{});
    offset += plan.getCachedRowSize(input);
  }
}

/// Element e = k * vec + v of this thread sits at column
/// (k * threads + tid) * vec + v of its row.
void RowKernelBuilder::locateRow(OpBuilder &kb) {
  Location loc = fn.getLoc();
  nValue = arith::ConstantIndexOp::create(kb, loc, n);
  rowBase = arith::MulIOp::create(kb, loc, row, nValue);
}

void RowKernelBuilder::locateChunks(OpBuilder &kb, Value tileStart) {
  Location loc = fn.getLoc();
  chunkStart.clear();
  chunkValid.clear();
  for (int64_t k = 0; k < chunks; ++k) {
    Value kt = arith::AddIOp::create(
        kb, loc, arith::ConstantIndexOp::create(kb, loc, k * threads), tid);
    chunkStart.push_back(arith::MulIOp::create(
        kb, loc, kt, arith::ConstantIndexOp::create(kb, loc, vec)));
    if (tileStart)
      chunkStart.back() =
          arith::AddIOp::create(kb, loc, tileStart, chunkStart.back());
    // Chunks past the row's end (ragged rows only) are not stored and do not
    // contribute to reductions; their loads read the row's last vector
    // instead, so that every value computed is finite. In a tiled row only
    // the last tile has such chunks, but every tile tests.
    Value valid;
    if (tileStart ? ragged : (k + 1) * threads * vec > n) {
      valid = arith::CmpIOp::create(kb, loc, arith::CmpIPredicate::ult,
                                    chunkStart.back(), nValue);
      chunkStart.back() = arith::MinUIOp::create(
          kb, loc, chunkStart.back(),
          arith::ConstantIndexOp::create(kb, loc, n - vec));
    }
    chunkValid.push_back(valid);
  }
}

Value RowKernelBuilder::chunkIndex(OpBuilder &kb, Shape shape, int64_t k) {
  return shape == Shape::Full
             ? arith::AddIOp::create(kb, fn.getLoc(), rowBase, chunkStart[k])
             : chunkStart[k];
}

void RowKernelBuilder::loadInput(OpBuilder &kb, BlockArgument arg) {
  Location loc = fn.getLoc();
  Value memref = flat.lookup(arg);
  Type elementType = cast<RankedTensorType>(arg.getType()).getElementType();
  Shape shape = *shapeOf(arg);
  KernelValue value{shape, {}};
  if (shape == Shape::Row || shape == Shape::Scalar) {
    Value index = shape == Shape::Row
                      ? row
                      : arith::ConstantIndexOp::create(kb, loc, 0);
    value.elements.push_back(
        memref::LoadOp::create(kb, loc, memref, ValueRange{index}));
    values[arg] = value;
    return;
  }
  auto vecType = VectorType::get({vec}, elementType);
  // A cached row: the first tile loop copies what it loads, the later ones
  // read the copy. Each thread reads back the chunks it wrote itself (the
  // same positions in every pass), so no barrier is needed.
  // An input is loaded once per loop (buildTileLoop forgets it after), so
  // its first load is in the first loop that reads it.
  Value cache = rowCache.lookup(arg);
  bool fromCache = cache && !cacheFilled.insert(arg).second;
  for (int64_t k = 0; k < chunks; ++k) {
    if (fromCache) {
      Value copied = vector::LoadOp::create(
          kb, loc, vecType, cache, ValueRange{chunkStart[k]},
          /*nontemporal=*/false, vectorAlignment(vec, elementType));
      for (int64_t v = 0; v < vec; ++v)
        value.elements.push_back(
            vector::ExtractOp::create(kb, loc, copied, ArrayRef<int64_t>{v}));
      continue;
    }
    Value index = chunkIndex(kb, shape, k);
    // A row's per-column parameters are read by every row while the rows
    // stream past once: evict_last keeps them in L1 and L2. Only with a
    // warp per row: with a block per row, the address arithmetic costs
    // registers past an occupancy step (bench/results/rows-cache-hints.md).
    if (columnCacheHints && threads == 32 && shape == Shape::Column) {
      SmallVector<Value> elements = loadEvictLast(kb, memref, index, vecType);
      if (!elements.empty()) {
        llvm::append_range(value.elements, elements);
        continue;
      }
    }
    Value loaded = vector::LoadOp::create(
        kb, loc, vecType, memref, ValueRange{index},
        /*nontemporal=*/false, vectorAlignment(vec, elementType));
    if (cache)
      vector::StoreOp::create(kb, loc, loaded, cache, ValueRange{chunkStart[k]},
                              /*nontemporal=*/false,
                              vectorAlignment(vec, elementType));
    for (int64_t v = 0; v < vec; ++v)
      value.elements.push_back(
          vector::ExtractOp::create(kb, loc, loaded, ArrayRef<int64_t>{v}));
  }
  values[arg] = value;
}

/// Computes `v` in the kernel, its operands first (inputs are loaded, and
/// members evaluated, on first use).
LogicalResult RowKernelBuilder::ensureComputed(OpBuilder &kb, Value v) {
  if (values.count(v))
    return success();
  // In a row streamed in tiles, elements exist only inside a tile's loop.
  if (tiles > 1 && !inTile && isa<RankedTensorType>(v.getType()))
    if (FailureOr<Shape> shape = shapeOf(v);
        succeeded(shape) && (*shape == Shape::Full || *shape == Shape::Column))
      return success();
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (arg.getOwner() == &graph.getBody().front())
      loadInput(kb, arg);
    return success();
  }
  Operation *op = v.getDefiningOp();
  if (!op || op->getBlock() != &graph.getBody().front() ||
      !evaluated.insert(op).second)
    return success();
  for (Value operand : op->getOperands())
    if (failed(ensureComputed(kb, operand)))
      return failure();
  if (failed(evaluate(kb, op))) {
    whyNot =
        "cannot evaluate '" + op->getName().getStringRef().str() + "' per row";
    return failure();
  }
  return success();
}

/// Evaluates the graph from its outputs backwards. A row's per-column
/// parameters (gamma, beta) are then loaded only once the reductions that
/// precede their use are done: fewer live registers, but their L2 latency
/// adds to every row's critical path; with hoistColumnLoads they are
/// loaded first instead, so that their latency overlaps the reductions.
LogicalResult RowKernelBuilder::checkInputs() {
  for (BlockArgument arg : graph.getBody().getArguments())
    if (!arg.use_empty() && !isa<RankedTensorType>(arg.getType())) {
      whyNot = "scalar graph inputs are not supported on the GPU yet";
      return failure();
    }
  return success();
}

LogicalResult RowKernelBuilder::evaluateConstants(OpBuilder &kb) {
  // Scalar constants are captured by the members' bodies, not operands.
  for (Operation &op : graph.getBody().front().without_terminator())
    if (isa<arith::ConstantOp>(op))
      if (failed(ensureComputed(kb, op.getResult(0))))
        return failure();
  return success();
}

LogicalResult RowKernelBuilder::evaluateGraph(OpBuilder &kb) {
  if (failed(checkInputs()))
    return failure();
  if (hoistColumnLoads && threads == 32)
    for (BlockArgument arg : graph.getBody().getArguments())
      if (FailureOr<Shape> shape = shapeOf(arg);
          !arg.use_empty() && succeeded(shape) && *shape == Shape::Column)
        loadInput(kb, arg);
  if (failed(evaluateConstants(kb)))
    return failure();
  for (Value output : graph.getYield().getValues())
    if (failed(ensureComputed(kb, output)))
      return failure();
  return success();
}

LogicalResult
RowKernelBuilder::computeRowUniformOperands(OpBuilder &b, Value v,
                                            DenseSet<Value> &seen) {
  if (values.count(v) || !seen.insert(v).second)
    return success();
  if (isa<RankedTensorType>(v.getType())) {
    FailureOr<Shape> shape = shapeOf(v);
    if (succeeded(shape) && (*shape == Shape::Row || *shape == Shape::Scalar))
      return ensureComputed(b, v);
  }
  Operation *op = v.getDefiningOp();
  if (!op || op->getBlock() != &graph.getBody().front())
    return success();
  for (Value operand : op->getOperands())
    if (failed(computeRowUniformOperands(b, operand, seen)))
      return failure();
  return success();
}

FailureOr<ValueRange> RowKernelBuilder::buildTileLoop(
    OpBuilder &b, ValueRange inits,
    function_ref<FailureOr<SmallVector<Value>>(OpBuilder &, ValueRange)> body) {
  Location loc = graph.getLoc();
  // What the body computes per element (and the reciprocals of row-uniform
  // divisors it makes) lives in the loop: forget it afterwards.
  DenseMap<Value, KernelValue> savedValues = values;
  DenseSet<Operation *> savedEvaluated = evaluated;
  DenseMap<Value, Value> savedReciprocals = reciprocals;
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value count = arith::ConstantIndexOp::create(b, loc, tiles);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  bool built = true;
  auto loop = scf::ForOp::create(
      b, loc, zero, count, one, inits,
      [&](OpBuilder &lb, Location l, Value tile, ValueRange carried) {
        Value tileStart = arith::MulIOp::create(
            lb, l, tile,
            arith::ConstantIndexOp::create(lb, l, plan.getTileElements()));
        locateChunks(lb, tileStart);
        inTile = true;
        FailureOr<SmallVector<Value>> yielded = body(lb, carried);
        inTile = false;
        built = succeeded(yielded);
        scf::YieldOp::create(lb, l, built ? ValueRange(*yielded) : carried);
      });
  values = std::move(savedValues);
  evaluated = std::move(savedEvaluated);
  reciprocals = std::move(savedReciprocals);
  if (!built)
    return failure();
  return loop.getResults();
}

LogicalResult RowKernelBuilder::storeTiledOutputs(OpBuilder &kb,
                                                  ValueRange outFlat,
                                                  Value zero) {
  SmallVector<std::pair<Value, Value>> tiled; // output, its buffer
  DenseSet<Value> seen;
  for (auto [output, memref] :
       llvm::zip(graph.getYield().getValues(), outFlat)) {
    FailureOr<Shape> shape = shapeOf(output);
    if (failed(shape))
      return failure();
    if (*shape == Shape::Row || *shape == Shape::Scalar) {
      if (failed(ensureComputed(kb, output)) || !values.count(output)) {
        whyNot = "an output is not computed in the kernel";
        return failure();
      }
      storeOutput(kb, values.find(output)->second, memref, zero);
      continue;
    }
    if (failed(computeRowUniformOperands(kb, output, seen)))
      return failure();
    tiled.emplace_back(output, memref);
  }
  if (tiled.empty())
    return success();
  FailureOr<ValueRange> loop = buildTileLoop(
      kb, {}, [&](OpBuilder &lb, ValueRange) -> FailureOr<SmallVector<Value>> {
        for (auto [output, memref] : tiled) {
          if (failed(ensureComputed(lb, output)) || !values.count(output)) {
            whyNot = "an output is not computed in the kernel";
            return failure();
          }
          storeOutput(lb, values.find(output)->second, memref, zero);
        }
        return SmallVector<Value>();
      });
  return failure(failed(loop));
}

/// Stores a per-row (or scalar) output from the row's first thread, and a
/// row of elements vector by vector, the chunks past a ragged row's end
/// skipped.
void RowKernelBuilder::storeOutput(OpBuilder &kb, const KernelValue &value,
                                   Value memref, Value zero) {
  Location loc = fn.getLoc();
  if (value.shape == Shape::Row || value.shape == Shape::Scalar) {
    Value isFirst =
        arith::CmpIOp::create(kb, loc, arith::CmpIPredicate::eq, tid, zero);
    scf::IfOp::create(kb, loc, isFirst, [&](OpBuilder &then, Location l) {
      memref::StoreOp::create(
          then, l, value.elements[0], memref,
          ValueRange{value.shape == Shape::Row ? row : zero});
      scf::YieldOp::create(then, l);
    });
    return;
  }
  Type elementType = cast<MemRefType>(memref.getType()).getElementType();
  auto vecType = VectorType::get({vec}, elementType);
  for (int64_t k = 0; k < chunks; ++k) {
    SmallVector<Value> lanes(value.elements.begin() + k * vec,
                             value.elements.begin() + (k + 1) * vec);
    Value packed = vector::FromElementsOp::create(kb, loc, vecType, lanes);
    Value index = chunkIndex(kb, value.shape, k);
    auto store = [&](OpBuilder &sb) {
      vector::StoreOp::create(sb, loc, packed, memref, ValueRange{index},
                              /*nontemporal=*/false,
                              vectorAlignment(vec, elementType));
    };
    if (!chunkValid[k]) {
      store(kb);
      continue;
    }
    scf::IfOp::create(kb, loc, chunkValid[k], [&](OpBuilder &then, Location l) {
      store(then);
      scf::YieldOp::create(then, l);
    });
  }
}

KernelAttr RowKernelBuilder::recordKernel() {
  MLIRContext *ctx = fn.getContext();
  Builder b(ctx);
  SmallVector<NamedAttribute> parts = {
      b.getNamedAttr("rows", b.getI64IntegerAttr(rows)),
      b.getNamedAttr("rows_per_block", b.getI64IntegerAttr(rowsPerBlock)),
      b.getNamedAttr("vector", b.getI64IntegerAttr(vec)),
      b.getNamedAttr("chunks", b.getI64IntegerAttr(chunks))};
  if (ragged)
    parts.push_back(b.getNamedAttr("ragged", b.getI64IntegerAttr(1)));
  if (tiles > 1)
    parts.push_back(b.getNamedAttr("tiles", b.getI64IntegerAttr(tiles)));
  // smap-set-kernel-register-counts gives the outlined kernel this count.
  if (int64_t registers = graph.getScheduleAttr().getRegsPerThread())
    parts.push_back(
        b.getNamedAttr("regs_entry", b.getI64IntegerAttr(registers)));
  if (int64_t blocks = graph.getScheduleAttr().getBlocksPerSm())
    parts.push_back(
        b.getNamedAttr("blocks_per_sm", b.getI64IntegerAttr(blocks)));
  KernelAttr kernel = KernelAttr::get(
      ctx, KernelStrategy::Rows, plan.getBlocks(), plan.getBlockThreads(),
      plan.getSharedMemoryBytes(), /*scratch=*/0, b.getDictionaryAttr(parts),
      KernelAttr::getPrediction(graph.getScheduleAttr()));
  remark::passed(graph.getLoc(),
                 remarkOpts("convert-smap-to-gpu", "row-kernel", graph))
      << ("lowered to one kernel: " + kernel.describe());
  return kernel;
}

/// The host function lists its kernels, as the block lowering's do.
static void appendKernelRecord(func::FuncOp fn, KernelAttr kernel) {
  auto helper =
      fn.getContext()->getOrLoadDialect<SMapDialect>()->getKernelsAttrHelper();
  SmallVector<Attribute> records;
  if (ArrayAttr existing = helper.getAttr(fn))
    llvm::append_range(records, existing);
  records.push_back(kernel.toDictionary());
  helper.setAttr(fn, ArrayAttr::get(fn.getContext(), records));
}

LogicalResult RowKernelBuilder::buildKernel(func::FuncOp kernelFn) {
  kernelFn->setAttr("llvm.emit_c_interface", UnitAttr::get(fn.getContext()));
  // Tells smap-distribute-blocks the function is built (a user's function
  // may carry llvm.emit_c_interface too).
  fn.getContext()
      ->getOrLoadDialect<SMapDialect>()
      ->getRowKernelHostAttrHelper()
      .setAttr(kernelFn, UnitAttr::get(fn.getContext()));
  Block *entry = kernelFn.addEntryBlock();
  OpBuilder hb = OpBuilder::atBlockBegin(entry);
  FailureOr<SmallVector<Value>> outFlat = flattenArguments(hb, entry);
  if (failed(outFlat))
    return failure();
  // Outlining names the kernel so.
  Type elementType = kernelFn.getNumArguments()
                         ? getElementTypeOrSelf(kernelFn.getArgument(0))
                         : Type();
  std::string name =
      getKernelName(kernelFn.getName(), std::nullopt, "rows", elementType);
  if (failed(buildLaunch(hb, *outFlat, name)))
    return failure();
  func::ReturnOp::create(hb, fn.getLoc());
  appendKernelRecord(kernelFn, recordKernel());
  return success();
}

FailureOr<gpu::LaunchOp> RowKernelBuilder::buildLaunch(OpBuilder &hb,
                                                       ValueRange outFlat,
                                                       StringRef kernelName) {
  Location loc = fn.getLoc();
  gpu::LaunchOp launch = createLaunch(hb);
  launch.setFunctionAttr(FlatSymbolRefAttr::get(fn.getContext(), kernelName));
  OpBuilder kb = OpBuilder::atBlockBegin(&launch.getBody().front());
  kernelEntry = &launch.getBody().front();
  locateThread(kb, launch);
  locateRow(kb);
  if (plan.layout.cacheRow)
    placeRowCache(kb);
  if (tiles > 1) {
    Value zero = arith::ConstantIndexOp::create(kb, loc, 0);
    if (failed(checkInputs()) || failed(evaluateConstants(kb)) ||
        failed(storeTiledOutputs(kb, outFlat, zero)))
      return failure();
    gpu::TerminatorOp::create(kb, loc);
    return launch;
  }
  locateChunks(kb);
  if (failed(evaluateGraph(kb)))
    return failure();
  Value zero = arith::ConstantIndexOp::create(kb, loc, 0);
  for (auto [i, output] : llvm::enumerate(graph.getYield().getValues())) {
    auto it = values.find(output);
    if (it == values.end()) {
      whyNot = "an output is not computed in the kernel";
      return failure();
    }
    storeOutput(kb, it->second, outFlat[i], zero);
  }
  gpu::TerminatorOp::create(kb, loc);
  return launch;
}

static MemRefType getBufferType(Type tensorType) {
  auto type = cast<RankedTensorType>(tensorType);
  return MemRefType::get(type.getShape(), type.getElementType());
}

LogicalResult RowKernelBuilder::buildInPlace(std::optional<size_t> index) {
  Location loc = graph.getLoc();
  Operation *before = graph->getPrevNode();
  OpBuilder hb(graph);
  for (auto [graphArg, input] :
       llvm::zip(graph.getBody().getArguments(), graph.getInputs())) {
    Value buffer = bufferization::ToBufferOp::create(
        hb, loc, getBufferType(input.getType()), input, /*read_only=*/true);
    flat[graphArg] = flattenTo1D(hb, loc, buffer);
  }
  SmallVector<Value> outBuffers, outFlat;
  for (Type type : graph.getResultTypes()) {
    outBuffers.push_back(memref::AllocOp::create(hb, loc, getBufferType(type)));
    outFlat.push_back(flattenTo1D(hb, loc, outBuffers.back()));
  }
  // Named as smap-distribute-blocks names the function's other kernels.
  Type elementType =
      fn.getNumArguments() ? getElementTypeOrSelf(fn.getArgument(0)) : Type();
  std::string name = getKernelName(fn.getName(), index, "rows", elementType);
  if (failed(buildLaunch(hb, outFlat, name))) {
    // Erase what was built, last first.
    for (Operation *op = graph->getPrevNode(); op != before;) {
      Operation *prev = op->getPrevNode();
      op->erase();
      op = prev;
    }
    return failure();
  }
  for (auto [result, buffer] : llvm::zip(graph.getResults(), outBuffers))
    result.replaceAllUsesWith(bufferization::ToTensorOp::create(
        hb, loc, result.getType(), buffer, /*restrict=*/true,
        /*writable=*/true));
  appendKernelRecord(fn, recordKernel());
  return success();
}

namespace {
struct ConvertSMapToGPUPass
    : public smap::impl::ConvertSMapToGPUPassBase<ConvertSMapToGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> functions(module.getOps<func::FuncOp>());
    bool any = false;
    for (func::FuncOp fn : functions) {
      if (fn.isExternal())
        continue;
      FailureOr<bool> lowered = lowerFunction(fn);
      if (failed(lowered))
        return signalPassFailure();
      any |= *lowered;
    }
    if (any)
      module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                      UnitAttr::get(module.getContext()));
  }

  /// The graphs of `fn` that smap-schedule made row kernels; without
  /// `other-graphs`, an error at any other graph (or a function without).
  FailureOr<SmallVector<GraphOp>> findRowGraphs(func::FuncOp fn) {
    SmallVector<GraphOp> graphs(fn.getOps<GraphOp>()), rowGraphs;
    if (graphs.empty() && !otherGraphs)
      return fn.emitError("convert-smap-to-gpu: @")
             << fn.getName() << " holds no fusion graph";
    for (GraphOp graph : graphs) {
      ScheduleAttr schedule = graph.getScheduleAttr();
      if (schedule && schedule.getStrategy() == KernelStrategy::Rows) {
        rowGraphs.push_back(graph);
        continue;
      }
      if (otherGraphs)
        continue;
      InFlightDiagnostic diag =
          graph.emitError("convert-smap-to-gpu: not lowered to a GPU kernel: ");
      if (!schedule)
        diag << "the graph has no schedule (run smap-schedule first)";
      else
        diag << "the graph is scheduled as "
             << stringifyKernelStrategy(schedule.getStrategy())
             << ", not as a row kernel (smap-schedule's remark says why)";
      return diag;
    }
    return rowGraphs;
  }

  /// Builds the row kernels of `fn`'s graphs, as their schedules say;
  /// returns whether `fn` had one.
  FailureOr<bool> lowerFunction(func::FuncOp fn) {
    FailureOr<SmallVector<GraphOp>> rowGraphs = findRowGraphs(fn);
    if (failed(rowGraphs))
      return failure();
    SmallVector<GraphOp> graphs(fn.getOps<GraphOp>());
    // Decided before anything is built: a graph lowered in place does not
    // make the next one the whole function.
    if (rowGraphs->size() == 1 && isWholeFunctionGraph(rowGraphs->front())) {
      if (failed(lowerGraph(fn, rowGraphs->front(), std::nullopt,
                            /*wholeFunction=*/true)))
        return failure();
      return true;
    }
    for (auto [i, graph] : llvm::enumerate(graphs)) {
      if (!llvm::is_contained(*rowGraphs, graph))
        continue;
      std::optional<size_t> index;
      if (graphs.size() > 1)
        index = i;
      if (failed(lowerGraph(fn, graph, index, /*wholeFunction=*/false)))
        return failure();
    }
    return !rowGraphs->empty();
  }

  /// Builds `graph`'s row kernel: replacing `fn` when `wholeFunction`, in
  /// place otherwise.
  LogicalResult lowerGraph(func::FuncOp fn, GraphOp graph,
                           std::optional<size_t> index, bool wholeFunction) {
    auto refuse = [&](const std::string &why) {
      remark::failed(graph->getLoc(),
                     remarkOpts("convert-smap-to-gpu", "not-lowered", graph))
          << why;
      return graph->emitError(
                 "convert-smap-to-gpu: the row kernel cannot be built: ")
             << why;
    };
    if (std::string why = getRowHostRefusal(graph); !why.empty())
      return refuse(why);
    const SpaceMappingGraph *smg = getSMG(graph, getAnalysisManager());
    if (!smg)
      return failure();
    std::string whyNot;
    FailureOr<RowGraph> rowGraph = analyzeRowGraph(*smg, whyNot);
    ScheduleAttr schedule = graph.getScheduleAttr();
    FailureOr<RowKernelPlan> plan = failure();
    if (succeeded(rowGraph))
      plan = checkRowLayout(*rowGraph, getRowLayout(schedule), whyNot);
    if (failed(plan))
      return refuse(whyNot);
    if (plan->getSharedMemoryBytes() != schedule.getSmemBytes())
      return refuse("the schedule's " +
                    std::to_string(schedule.getSmemBytes()) +
                    " bytes of shared memory are not the row kernel's " +
                    std::to_string(plan->getSharedMemoryBytes()));
    RowKernelBuilder builder(fn, graph, *smg, *plan, approxMath,
                             hoistColumnLoads, cacheHints);
    if (wholeFunction)
      return failed(builder.build()) ? refuse(builder.whyNot) : success();
    if (failed(builder.buildInPlace(index)))
      return refuse(builder.whyNot);
    forgetSMG(graph, getAnalysisManager());
    graph.erase();
    return success();
  }
};
} // namespace
