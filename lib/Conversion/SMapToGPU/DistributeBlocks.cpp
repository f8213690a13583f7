//===- DistributeBlocks.cpp - Spatial blocks to GPU thread blocks ---------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// The general GPU lowering, for any sliced graph (contractions and attention
// included). After bufferization, each spatial slice is an scf.forall over
// its blocks (convert-smap-to-scf{blocks-as-forall}); this pass makes it a
// gpu.launch with one thread block per spatial block, in which
//
//  * every buffer the block allocates (staged operand tiles, intermediate
//    tiles, the temporal state) gets a fixed place in dynamic shared memory,
//    or in a per-block global scratch region when shared memory is short;
//  * copies are strided over the threads (Staging.cpp);
//  * when every intermediate is indexed by the block's rows, warps own rows
//    and keep those intermediates in mma.sync accumulator registers
//    (RowFragments.cpp); otherwise:
//  * contractions with f16 or bf16 operands run on tensor cores (mma.sync
//  m16n8k16,
//    ldmatrix fragments from shared memory), with their accumulators in
//    registers across the temporal loop when they end its step, the warps
//    forming a grid over the output tiles;
//  * every other linalg op is distributed over the threads: the parallel
//    iterations, linearized with the output's last dim fastest so that
//    neighbouring threads touch neighbouring elements, are strided by the
//    thread count; each thread runs the reduction loops of its iterations
//    with the accumulator in registers;
//  * a barrier follows each distributed op, since the next one may read
//    what another thread wrote;
//  * the temporal loop runs uniformly in all threads, and the tiles it
//    stages from global memory arrive by a cp.async pipeline or one step
//    ahead through registers (Staging.cpp).
//
//===----------------------------------------------------------------------===//

#include "BlockDistributor.h"
#include "HostBuffers.h"
#include "LoopKernels.h"

#include "mlir/Dialect/Linalg/Utils/Utils.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include "../PassDetail.h"
#include "spacefusion/Analysis/CostModel.h"
#include "spacefusion/Analysis/Remarks.h"
#include "spacefusion/Analysis/SimtPlan.h"
#include "spacefusion/Analysis/SpaceMappingGraph.h"
#include "spacefusion/Analysis/TF32.h"
#include "spacefusion/Analysis/Targets.h"
#include "spacefusion/Analysis/TensorCoreLegality.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"
#include "llvm/ADT/ScopeExit.h"

#include <cmath>

namespace mlir {
namespace smap {
#define GEN_PASS_DEF_SMAPDISTRIBUTEBLOCKSPASS
#include "spacefusion/Conversion/Passes.h.inc"
} // namespace smap
} // namespace mlir

using namespace mlir;
using namespace mlir::smap;

/// The most k-steps of 16 a register-accumulator step unrolls.
static constexpr int64_t kUnrolledKSteps = 4;


SmallVector<Value> mlir::smap::delinearize(OpBuilder &b, Location loc,
                                           Value linear,
                                           ArrayRef<int64_t> extents) {
  SmallVector<Value> indices(extents.size());
  for (int64_t k = extents.size() - 1; k >= 0; --k) {
    if (extents[k] == 1) {
      indices[k] = arith::ConstantIndexOp::create(b, loc, 0);
      continue;
    }
    if (k == 0 ||
        llvm::all_of(extents.take_front(k), [](int64_t e) { return e == 1; })) {
      indices[k] = linear;
      continue;
    }
    Value extent = arith::ConstantIndexOp::create(b, loc, extents[k]);
    indices[k] = arith::RemUIOp::create(b, loc, linear, extent);
    linear = arith::DivUIOp::create(b, loc, linear, extent);
  }
  return indices;
}

scf::ForOp BlockDistributor::buildStridedLoop(
    OpBuilder &b, Location loc, ArrayRef<int64_t> parallelExtents,
    int64_t unroll,
    function_ref<void(OpBuilder &, ArrayRef<SmallVector<Value>>)> body) {
  int64_t total = 1;
  for (int64_t extent : parallelExtents)
    total *= extent;
  Value ub = arith::ConstantIndexOp::create(b, loc, total);
  Value step = arith::ConstantIndexOp::create(b, loc, threads * unroll);
  return scf::ForOp::create(
      b, loc, tid, ub, step, ValueRange(),
      [&](OpBuilder &nested, Location, Value linear, ValueRange) {
        SmallVector<SmallVector<Value>> iterations;
        for (int64_t u = 0; u < unroll; ++u) {
          Value at = u == 0
                         ? linear
                         : arith::AddIOp::create(nested, loc, linear,
                                                 arith::ConstantIndexOp::create(
                                                     nested, loc, u * threads));
          iterations.push_back(delinearize(nested, loc, at, parallelExtents));
        }
        body(nested, iterations);
        scf::YieldOp::create(nested, loc);
      });
}

void BlockDistributor::buildStridedLoop(
    OpBuilder &b, Location loc, ArrayRef<int64_t> parallelExtents,
    function_ref<void(OpBuilder &, ArrayRef<Value>)> body) {
  buildStridedLoop(b, loc, parallelExtents, /*unroll=*/1,
                   [&](OpBuilder &nested, ArrayRef<SmallVector<Value>> at) {
                     body(nested, at.front());
                   });
}

SmallVector<Value> mlir::smap::applyMap(OpBuilder &b, Location loc,
                                        AffineMap map,
                                        ArrayRef<Value> loopIndices) {
  SmallVector<Value> indices;
  for (AffineExpr expr : map.getResults()) {
    if (auto dim = dyn_cast<AffineDimExpr>(expr))
      indices.push_back(loopIndices[dim.getPosition()]);
    else
      indices.push_back(
          affine::expandAffineExpr(b, loc, expr, loopIndices, ValueRange()));
  }
  return indices;
}

/// Matches a contraction for `nvgpu.mma.sync` m16n8k16: f32 accumulators,
/// operands of one 16-bit type in memory (one of them may be an f32
/// intermediate, rounded to that type as FlashAttention rounds its
/// probabilities), a body `acc + x * y`
/// with x, y the operands or their extensions, and extents that are
/// multiples of the instruction's tile.
std::optional<MmaContraction>
mlir::smap::matchMmaContraction(linalg::LinalgOp op) {
  std::optional<MmaShape> shape =
      matchMmaSyncShape(op, op.getStaticLoopRanges());
  if (!shape)
    return std::nullopt;
  MmaContraction mma;
  mma.m = shape->m;
  mma.n = shape->n;
  mma.k = shape->k;
  mma.extentM = shape->extentM;
  mma.extentN = shape->extentN;
  mma.extentK = shape->extentK;
  mma.a = op.getDpsInputOperand(0);
  mma.b = op.getDpsInputOperand(1);
  mma.operandType = shape->operandType;
  mma.nTiles = (mma.extentN / 8) % 4 == 0   ? 4
               : (mma.extentN / 8) % 2 == 0 ? 2
                                            : 1;
  mma.warpTiles = (mma.extentM / 16) * (mma.extentN / (8 * mma.nTiles));
  return mma;
}

Type MmaContraction::storageType() const {
  return isTF32() ? Float32Type::get(operandType.getContext()) : operandType;
}

Type MmaContraction::fragmentType() const {
  return isTF32() ? IntegerType::get(operandType.getContext(), 32)
                  : operandType;
}

/// The shared-memory buffer behind `operand` when ldmatrix can read its
/// fragments: a block buffer of the fragments' type (a generic-pointer cast of a workgroup
/// view, or a subview of one, which is then rebuilt on the view) whose
/// innermost dim is `contiguous` (m or k for A, n or k for B), with unit
/// innermost stride and rows of a multiple of 16 bytes; null otherwise.
static Value ldmatrixSource(linalg::LinalgOp op, OpOperand *operand,
                            unsigned contiguous, Type fragmentType) {
  AffineMap map = op.getMatchingIndexingMap(operand);
  if (map.getNumResults() == 0)
    return nullptr;
  auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
  if (!last || last.getPosition() != contiguous)
    return nullptr;
  Value value = operand->get();
  auto subview = value.getDefiningOp<memref::SubViewOp>();
  auto spaceCast = (subview ? subview.getSource() : value)
                       .getDefiningOp<memref::MemorySpaceCastOp>();
  if (!spaceCast)
    return nullptr;
  auto shared = dyn_cast<MemRefType>(spaceCast.getSource().getType());
  auto space =
      shared ? dyn_cast_or_null<gpu::AddressSpaceAttr>(shared.getMemorySpace())
             : nullptr;
  auto type = cast<MemRefType>(value.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  // Rows of a multiple of 16 bytes.
  int64_t rowElements = 128 / fragmentType.getIntOrFloatBitWidth();
  if (!space || space.getValue() != gpu::AddressSpace::Workgroup ||
      type.getElementType() != fragmentType ||
      failed(type.getStridesAndOffset(strides, offset)) ||
      strides.back() != 1 ||
      llvm::any_of(ArrayRef<int64_t>(strides).drop_back(), [&](int64_t s) {
        return ShapedType::isDynamic(s) || s % rowElements;
      }))
    return nullptr;
  if (!subview)
    return spaceCast.getSource();
  OpBuilder b(subview);
  return memref::SubViewOp::create(
      b, subview.getLoc(), spaceCast.getSource(), subview.getMixedOffsets(),
      subview.getMixedSizes(), subview.getMixedStrides());
}

/// The fragment's rows of two 16-bit values, each packed into one i32
/// register.
static SmallVector<Value> packFragmentRows(OpBuilder &b, Location loc,
                                           Value fragment) {
  SmallVector<Value> registers;
  auto i32x1 = VectorType::get({1}, b.getI32Type());
  for (int64_t r = 0; r < cast<VectorType>(fragment.getType()).getDimSize(0);
       ++r) {
    Value row = vector::ExtractOp::create(b, loc, fragment, ArrayRef<int64_t>{r});
    Value packed = vector::BitCastOp::create(b, loc, i32x1, row);
    registers.push_back(
        vector::ExtractOp::create(b, loc, packed, ArrayRef<int64_t>{0}));
  }
  return registers;
}

/// The fragment's rows of one 32-bit TF32 register each.
static SmallVector<Value> fragmentRegisters(OpBuilder &b, Location loc,
                                            Value fragment) {
  SmallVector<Value> registers;
  for (int64_t r = 0; r < cast<VectorType>(fragment.getType()).getDimSize(0);
       ++r)
    registers.push_back(
        vector::ExtractOp::create(b, loc, fragment, ArrayRef<int64_t>{r, 0}));
  return registers;
}

/// f16 fragments go through nvgpu.mma.sync. The NVGPU lowering of LLVM 22
/// cannot type bf16 fragments ("failed to deduce operand PTX types"), so
/// bf16 goes to nvvm.mma.sync directly, its fragments packed in i32
/// registers as PTX wants them; TF32 fragments are such registers already.
Value mlir::smap::createMmaSync(OpBuilder &b, Location loc, Value a,
                                Value bFragment, Value acc) {
  Type element = cast<VectorType>(a.getType()).getElementType();
  if (element.isF16())
    return nvgpu::MmaSyncOp::create(b, loc, a, bFragment, acc,
                                    ArrayRef<int64_t>{16, 8, 16});
  bool tf32 = element.isInteger(32);
  NVVM::MMATypes type = tf32 ? NVVM::MMATypes::tf32 : NVVM::MMATypes::bf16;
  SmallVector<Value> c;
  for (int64_t r = 0; r < 2; ++r)
    for (int64_t e = 0; e < 2; ++e)
      c.push_back(
          vector::ExtractOp::create(b, loc, acc, ArrayRef<int64_t>{r, e}));
  Type f32 = b.getF32Type();
  auto resultType =
      LLVM::LLVMStructType::getLiteral(b.getContext(), {f32, f32, f32, f32});
  auto mma = NVVM::MmaOp::create(
      b, loc, resultType,
      tf32 ? fragmentRegisters(b, loc, a) : packFragmentRows(b, loc, a),
      tf32 ? fragmentRegisters(b, loc, bFragment)
           : packFragmentRows(b, loc, bFragment),
      c, ArrayRef<int64_t>{16, 8, tf32 ? 8 : 16}, std::nullopt, std::nullopt,
      std::array<NVVM::MMATypes, 2>{type, type},
      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                     NVVM::MMALayout::col});
  SmallVector<Value> d;
  for (int64_t i = 0; i < 4; ++i)
    d.push_back(
        LLVM::ExtractValueOp::create(b, loc, mma.getResult(), ArrayRef<int64_t>{i}));
  return vector::FromElementsOp::create(b, loc, acc.getType(), d);
}

Value MmaFragmentLoader::index(OpBuilder &b, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value MmaFragmentLoader::add(OpBuilder &b, Value x, Value y) {
  return arith::AddIOp::create(b, loc, x, y);
}

MmaFragmentLoader::MmaFragmentLoader(OpBuilder &b, linalg::LinalgOp op,
                                     const MmaContraction &mma, Value lane)
    : op(op), mma(mma), loc(op.getLoc()) {
  group = arith::DivUIOp::create(b, loc, lane, index(b, 4));
  inGroup = arith::RemUIOp::create(b, loc, lane, index(b, 4));
  pairCol = arith::MulIOp::create(b, loc, inGroup, index(b, 2));
  kInGroup = mma.registerElements() == 2 ? pairCol : inGroup;
  // ldmatrix: lane l addresses row l % 8 of 8x8 matrix l / 8 (of 16-bit
  // elements; 8 x 4 of 32-bit ones). Without .trans the matrix rows are the
  // operand's rows (m for A, n for B) with k contiguous; with .trans (16-bit
  // only) they are k rows with m (n) contiguous.
  Type stored = mma.storageType();
  bool transposable = !mma.isTF32();
  aRows = ldmatrixSource(op, mma.a, mma.k, stored);
  if (!aRows && transposable &&
      (aRows = ldmatrixSource(op, mma.a, mma.m, stored)))
    aTrans = true;
  bRows = ldmatrixSource(op, mma.b, mma.k, stored);
  if (!bRows && transposable &&
      (bRows = ldmatrixSource(op, mma.b, mma.n, stored)))
    bTrans = true;
  Value matrix = arith::DivUIOp::create(b, loc, lane, index(b, 8));
  matrixRow = arith::RemUIOp::create(b, loc, lane, index(b, 8));
  matrixLow = arith::RemUIOp::create(b, loc, matrix, index(b, 2));
  matrixHigh = arith::DivUIOp::create(b, loc, matrix, index(b, 2));
}

/// Loop indices with the unit dims at 0 and m, n, k as given.
SmallVector<Value> MmaFragmentLoader::indicesAt(OpBuilder &b, Value m, Value n,
                                                Value k) {
  SmallVector<Value> indices(op.getNumLoops(), index(b, 0));
  indices[mma.m] = m;
  indices[mma.n] = n;
  indices[mma.k] = k;
  return indices;
}

Value MmaFragmentLoader::loadHalf(OpBuilder &b, OpOperand *operand,
                                  ArrayRef<Value> loopIndices) {
  Value v = memref::LoadOp::create(
      b, loc, operand->get(),
      applyMap(b, loc, op.getMatchingIndexingMap(operand), loopIndices));
  if (mma.isTF32())
    return buildTF32OperandBits(b, loc, v);
  return v.getType() == mma.operandType
             ? v
             : arith::TruncFOp::create(b, loc, mma.operandType, v);
}

Value MmaFragmentLoader::toFragment(OpBuilder &b, Value loaded) {
  if (!mma.isTF32())
    return loaded;
  auto type = cast<VectorType>(loaded.getType());
  SmallVector<Value> bits;
  for (int64_t r = 0; r < type.getDimSize(0); ++r)
    bits.push_back(buildTF32OperandBits(
        b, loc,
        vector::ExtractOp::create(b, loc, loaded, ArrayRef<int64_t>{r, 0})));
  return vector::FromElementsOp::create(
      b, loc, VectorType::get(type.getShape(), mma.fragmentType()), bits);
}

/// The (row, k) whose address lane l gives: matrix rows start at
/// rowBase + 8 rowMatrix and k at kBase + kStep / 2 kMatrix (a matrix row
/// is 16 bytes), and the lane's row of its matrix advances the rows, or k
/// with .trans.
std::pair<Value, Value>
MmaFragmentLoader::laneRowAndK(OpBuilder &b, Value rowBase, Value rowMatrix,
                               Value kBase, Value kMatrix, bool transpose) {
  Value rowAt =
      add(b, rowBase, arith::MulIOp::create(b, loc, rowMatrix, index(b, 8)));
  Value kAt =
      add(b, kBase,
          arith::MulIOp::create(b, loc, kMatrix, index(b, mma.kStep() / 2)));
  if (transpose)
    kAt = add(b, kAt, matrixRow);
  else
    rowAt = add(b, rowAt, matrixRow);
  return {rowAt, kAt};
}

Value MmaFragmentLoader::ldmatrix(OpBuilder &b, Value source,
                                  OpOperand *operand,
                                  ArrayRef<Value> loopIndices, bool transpose,
                                  int64_t tiles) {
  return toFragment(
      b,
      nvgpu::LdMatrixOp::create(
          b, loc,
          VectorType::get({tiles, mma.registerElements()}, mma.storageType()),
          source,
          applyMap(b, loc, op.getMatchingIndexingMap(operand), loopIndices),
          b.getBoolAttr(transpose), b.getI32IntegerAttr(tiles)));
}

Value MmaFragmentLoader::loadA(OpBuilder &b, Value row0, Value k0) {
  Value zero = index(b, 0);
  if (aRows) {
    // Matrix q holds rows 8 (q % 2) and k kStep / 2 (q / 2) of the tile.
    auto [mAt, kAt] = laneRowAndK(b, row0, matrixLow, k0, matrixHigh, aTrans);
    return ldmatrix(b, aRows, mma.a, indicesAt(b, mAt, zero, kAt), aTrans, 4);
  }
  // A register r: row group + 8 (r % 2), k kInGroup + kStep / 2 (r / 2) + e.
  SmallVector<Value> elements;
  int64_t perRegister = mma.registerElements();
  for (int64_t r = 0; r < 4; ++r)
    for (int64_t e = 0; e < perRegister; ++e) {
      Value m = add(b, row0, add(b, group, index(b, 8 * (r % 2))));
      Value k =
          add(b, k0, add(b, kInGroup, index(b, mma.kStep() / 2 * (r / 2) + e)));
      elements.push_back(loadHalf(b, mma.a, indicesAt(b, m, zero, k)));
    }
  return vector::FromElementsOp::create(
      b, loc, VectorType::get({4, perRegister}, mma.fragmentType()), elements);
}

SmallVector<Value> MmaFragmentLoader::loadB(OpBuilder &b, Value col0, Value k0,
                                            int64_t nTiles) {
  Value zero = index(b, 0);
  int64_t perRegister = mma.registerElements();
  auto bType = VectorType::get({2, perRegister}, mma.fragmentType());
  SmallVector<Value> fragments;
  for (int64_t j = 0; j < nTiles; ++j) {
    if (bRows && j % 2 == 0) {
      // Two n-tiles per ldmatrix.x4 (one, with .x2, for a last odd one):
      // matrix q holds k kStep / 2 (q % 2) of n-tile j + q / 2.
      int64_t tiles = j + 1 < nTiles ? 4 : 2;
      auto [nAt, kAt] = laneRowAndK(b, add(b, col0, index(b, 8 * j)),
                                    matrixHigh, k0, matrixLow, bTrans);
      Value pair = ldmatrix(b, bRows, mma.b, indicesAt(b, zero, nAt, kAt),
                            bTrans, tiles);
      for (int64_t t = 0; t < tiles / 2; ++t) {
        SmallVector<Value> elements;
        for (int64_t r = 0; r < 2; ++r)
          for (int64_t e = 0; e < perRegister; ++e)
            elements.push_back(vector::ExtractOp::create(
                b, loc, pair, ArrayRef<int64_t>{2 * t + r, e}));
        fragments.push_back(
            vector::FromElementsOp::create(b, loc, bType, elements));
      }
      continue;
    }
    if (bRows)
      continue;
    // B register r: k kInGroup + kStep / 2 r + e, column group.
    SmallVector<Value> elements;
    Value n = add(b, col0, add(b, group, index(b, 8 * j)));
    for (int64_t r = 0; r < 2; ++r)
      for (int64_t e = 0; e < perRegister; ++e) {
        Value k =
            add(b, k0, add(b, kInGroup, index(b, mma.kStep() / 2 * r + e)));
        elements.push_back(loadHalf(b, mma.b, indicesAt(b, zero, n, k)));
      }
    fragments.push_back(
        vector::FromElementsOp::create(b, loc, bType, elements));
  }
  return fragments;
}

/// Each warp owns 16 x (8 * nTiles) tiles of the output, strided over the
/// warps; for each, it loads the accumulator fragments, runs
/// `nvgpu.mma.sync` m16n8k16 along k with operand fragments from
/// MmaFragmentLoader (lane = 4 * group + thread-in-group), and stores the
/// fragments back.
namespace {
/// The warp-level mma.sync code of one contraction: warp tiles of
/// 16 x 8 nTiles (row-major over the output), their accumulators loaded
/// from and stored to the contraction's init, and k-steps of 16 in which
/// each A and B fragment is loaded once.
class MmaSyncTiles {
public:
  MmaSyncTiles(OpBuilder &b, linalg::LinalgOp op, const MmaContraction &mma,
               Value lane)
      : mma(mma), loc(op.getLoc()), loader(b, op, mma, lane),
        nTiles(mma.nTiles), tilesN(mma.extentN / (8 * mma.nTiles)),
        numLoops(op.getNumLoops()),
        cType(VectorType::get({2, 2}, b.getF32Type())),
        init(op.getDpsInitOperand(0)->get()),
        outMap(op.getMatchingIndexingMap(op.getDpsInitOperand(0))) {}

  unsigned ldmatrixOperands() const { return loader.ldmatrixOperands(); }
  Value index(OpBuilder &b, int64_t v) const {
    return arith::ConstantIndexOp::create(b, loc, v);
  }
  Value add(OpBuilder &b, Value x, Value y) const {
    return arith::AddIOp::create(b, loc, x, y);
  }
  /// The origin (row, column) of warp tile `tile`.
  std::pair<Value, Value> tileOrigin(OpBuilder &b, Value tile) const;
  /// The accumulators of the tile at (row0, col0), one per n-tile.
  SmallVector<Value> loadAccumulators(OpBuilder &b, Value row0, Value col0);
  void storeAccumulators(OpBuilder &b, Value row0, Value col0,
                         ValueRange accs);
  /// The whole k range for the tiles at `rows` x `cols` (origins), their
  /// accumulators `accs` row by row, nTiles per tile. A short range is
  /// straight-line code, so that ptxas can load the next k-step's fragments
  /// while the tensor cores work on this one's (a loop of two iterations is
  /// not unrolled by the backend).
  SmallVector<Value> accumulate(OpBuilder &b, ArrayRef<Value> rows,
                                ArrayRef<Value> cols, ValueRange accs);

  const MmaContraction &mma;
  Location loc;

private:
  /// Accumulator element (i, e) of n-tile j: row group + 8i, column
  /// 2 * inGroup + e.
  SmallVector<Value> cIndices(OpBuilder &b, Value row0, Value col0, int64_t j,
                              int64_t i, int64_t e);
  /// One k-step (mma.kStep()) at `k0`.
  SmallVector<Value> step(OpBuilder &b, Value k0, ArrayRef<Value> rows,
                          ArrayRef<Value> cols, ValueRange accs);

  MmaFragmentLoader loader;
  int64_t nTiles, tilesN;
  unsigned numLoops;
  VectorType cType;
  Value init;
  AffineMap outMap;
};
} // namespace

std::pair<Value, Value> MmaSyncTiles::tileOrigin(OpBuilder &b,
                                                 Value tile) const {
  Value row0 = arith::MulIOp::create(
      b, loc, arith::DivUIOp::create(b, loc, tile, index(b, tilesN)),
      index(b, 16));
  Value col0 = arith::MulIOp::create(
      b, loc, arith::RemUIOp::create(b, loc, tile, index(b, tilesN)),
      index(b, 8 * nTiles));
  return std::make_pair(row0, col0);
}

SmallVector<Value> MmaSyncTiles::cIndices(OpBuilder &b, Value row0, Value col0,
                                          int64_t j, int64_t i, int64_t e) {
  Value m = add(b, row0, add(b, loader.group, index(b, 8 * i)));
  Value n = add(b, col0, add(b, loader.pairCol, index(b, 8 * j + e)));
  SmallVector<Value> indices(numLoops, index(b, 0));
  indices[mma.m] = m;
  indices[mma.n] = n;
  return applyMap(b, loc, outMap, indices);
}

SmallVector<Value> MmaSyncTiles::loadAccumulators(OpBuilder &b, Value row0,
                                                  Value col0) {
  SmallVector<Value> accs;
  for (int64_t j = 0; j < nTiles; ++j) {
    SmallVector<Value> elements;
    for (int64_t i = 0; i < 2; ++i)
      for (int64_t e = 0; e < 2; ++e)
        elements.push_back(memref::LoadOp::create(
            b, loc, init, cIndices(b, row0, col0, j, i, e)));
    accs.push_back(vector::FromElementsOp::create(b, loc, cType, elements));
  }
  return accs;
}

void MmaSyncTiles::storeAccumulators(OpBuilder &b, Value row0, Value col0,
                                     ValueRange accs) {
  for (int64_t j = 0; j < nTiles; ++j)
    for (int64_t i = 0; i < 2; ++i)
      for (int64_t e = 0; e < 2; ++e) {
        Value v = vector::ExtractOp::create(b, loc, accs[j],
                                            ArrayRef<int64_t>{i, e});
        memref::StoreOp::create(b, loc, v, init,
                                cIndices(b, row0, col0, j, i, e));
      }
}

SmallVector<Value> MmaSyncTiles::step(OpBuilder &b, Value k0,
                                      ArrayRef<Value> rows,
                                      ArrayRef<Value> cols, ValueRange accs) {
  SmallVector<Value> aFragments;
  for (Value row0 : rows)
    aFragments.push_back(loader.loadA(b, row0, k0));
  SmallVector<SmallVector<Value>> bFragments;
  for (Value col0 : cols)
    bFragments.push_back(loader.loadB(b, col0, k0, nTiles));
  SmallVector<Value> next;
  for (auto [r, aFragment] : llvm::enumerate(aFragments))
    for (auto [c, fragments] : llvm::enumerate(bFragments))
      for (int64_t j = 0; j < nTiles; ++j)
        next.push_back(createMmaSync(b, loc, aFragment, fragments[j],
                                     accs[(r * cols.size() + c) * nTiles + j]));
  return next;
}

SmallVector<Value> MmaSyncTiles::accumulate(OpBuilder &b, ArrayRef<Value> rows,
                                            ArrayRef<Value> cols,
                                            ValueRange accs) {
  if (mma.extentK / mma.kStep() <= kUnrolledKSteps) {
    SmallVector<Value> current(accs);
    for (int64_t k0 = 0; k0 < mma.extentK; k0 += mma.kStep())
      current = step(b, index(b, k0), rows, cols, current);
    return current;
  }
  auto kLoop = scf::ForOp::create(
      b, loc, index(b, 0), index(b, mma.extentK), index(b, mma.kStep()), accs,
      [&](OpBuilder &kb, Location, Value k0, ValueRange iterAccs) {
        scf::YieldOp::create(kb, loc, step(kb, k0, rows, cols, iterAccs));
      });
  return SmallVector<Value>(kLoop.getResults());
}

/// The warps' grid over the warp tiles whose accumulators stay in registers
/// across a loop: each warp owns R x C tiles, so that per k-step it loads R
/// A fragments and C B fragment groups for R x C x nTiles mma.sync
/// (shared-memory bandwidth, not the tensor cores, bounds a warp that
/// reloads them per tile); the grid with the fewest loads. {0, 0} when no
/// grid divides the tiles.
static std::pair<int64_t, int64_t> chooseWarpGrid(int64_t warps,
                                                  int64_t rowGroups,
                                                  int64_t tilesN,
                                                  int64_t nTiles) {
  int64_t gridM = 0, gridN = 0, bestLoads = 0;
  for (int64_t wm = 1; wm <= warps; ++wm) {
    if (warps % wm || rowGroups % wm || tilesN % (warps / wm))
      continue;
    int64_t loads = rowGroups / wm + (tilesN / (warps / wm)) * (nTiles + 1) / 2;
    if (!gridM || loads < bestLoads) {
      gridM = wm;
      gridN = warps / wm;
      bestLoads = loads;
    }
  }
  return {gridM, gridN};
}

/// The origins of `perRow` x 16 rows (or `perCol` x 8 nTiles columns) of
/// the warp at `position` in its grid row (column).
static SmallVector<Value> warpOrigins(OpBuilder &b, const MmaSyncTiles &tiles,
                                      Value position, int64_t count,
                                      int64_t span) {
  SmallVector<Value> origins;
  for (int64_t r = 0; r < count; ++r)
    origins.push_back(arith::MulIOp::create(
        b, tiles.loc,
        tiles.add(b,
                  arith::MulIOp::create(b, tiles.loc, position,
                                        tiles.index(b, count)),
                  tiles.index(b, r)),
        tiles.index(b, span)));
  return origins;
}

/// Each warp takes every `warps`-th tile in turn: its accumulators loaded,
/// advanced over the whole k range and stored back.
static void accumulateTilesInTurn(OpBuilder &b, MmaSyncTiles &tiles, Value warp,
                                  int64_t warps) {
  Location loc = tiles.loc;
  scf::ForOp::create(
      b, loc, warp, tiles.index(b, tiles.mma.warpTiles), tiles.index(b, warps),
      ValueRange(), [&](OpBuilder &tb, Location, Value tile, ValueRange) {
        auto [row0, col0] = tiles.tileOrigin(tb, tile);
        SmallVector<Value> accs = tiles.loadAccumulators(tb, row0, col0);
        tiles.storeAccumulators(tb, row0, col0,
                                tiles.accumulate(tb, row0, col0, accs));
        scf::YieldOp::create(tb, loc);
      });
}

namespace {
/// The warp tiles one warp keeps in registers across a loop: with a warp
/// grid (`gridM` x `gridN`, see chooseWarpGrid), the tiles at `rowOrigins`
/// x `colOrigins`; otherwise every warps-th tile. `origins` lists them in
/// the order of their accumulators.
struct RegisterTiles {
  int64_t gridM = 0, gridN = 0;
  SmallVector<Value> rowOrigins, colOrigins;
  SmallVector<std::pair<Value, Value>> origins;
};
} // namespace

/// The tiles of `warp` (of `warps`) when their accumulators stay in
/// registers: the warps in a grid over the tiles when one divides them.
static RegisterTiles assignRegisterTiles(OpBuilder &b, MmaSyncTiles &tiles,
                                         Value warp, int64_t warps) {
  const MmaContraction &mma = tiles.mma;
  Location loc = tiles.loc;
  int64_t nTiles = mma.nTiles;
  int64_t tilesN = mma.extentN / (8 * nTiles);
  RegisterTiles assigned;
  std::tie(assigned.gridM, assigned.gridN) =
      chooseWarpGrid(warps, mma.extentM / 16, tilesN, nTiles);
  if (assigned.gridM) {
    Value warpRow =
        arith::DivUIOp::create(b, loc, warp, tiles.index(b, assigned.gridN));
    Value warpCol =
        arith::RemUIOp::create(b, loc, warp, tiles.index(b, assigned.gridN));
    assigned.rowOrigins =
        warpOrigins(b, tiles, warpRow, mma.extentM / 16 / assigned.gridM, 16);
    assigned.colOrigins =
        warpOrigins(b, tiles, warpCol, tilesN / assigned.gridN, 8 * nTiles);
    for (Value row0 : assigned.rowOrigins)
      for (Value col0 : assigned.colOrigins)
        assigned.origins.push_back({row0, col0});
    return assigned;
  }
  for (int64_t w = 0; w < mma.warpTiles / warps; ++w)
    assigned.origins.push_back(
        tiles.tileOrigin(b, tiles.add(b, warp, tiles.index(b, w * warps))));
  return assigned;
}

/// One step of the loop that carries the accumulators `args` of the
/// warp's `assigned` tiles: the whole k range for each of them.
static SmallVector<Value> accumulateRegisterTiles(OpBuilder &b,
                                                  MmaSyncTiles &tiles,
                                                  const RegisterTiles &assigned,
                                                  ValueRange args) {
  if (assigned.gridM)
    return tiles.accumulate(b, assigned.rowOrigins, assigned.colOrigins, args);
  int64_t nTiles = tiles.mma.nTiles;
  SmallVector<Value> next;
  for (auto [w, origin] : llvm::enumerate(assigned.origins))
    llvm::append_range(next, tiles.accumulate(b, origin.first, origin.second,
                                              args.slice(w * nTiles, nTiles)));
  return next;
}

/// Adds the accumulators of the warp's `assigned` tiles to `stateLoop`'s
/// iteration arguments, loaded before it (at `b`) and advanced in each step,
/// followed by a barrier (unless the staged operands arrive by cp.async,
/// `asyncPrefetch`) and `afterStep`; returns the new loop.
static scf::ForOp
carryAccumulators(scf::ForOp stateLoop, OpBuilder &b, MmaSyncTiles &tiles,
                  const RegisterTiles &assigned, bool asyncPrefetch,
                  const std::function<void(OpBuilder &)> &afterStep) {
  Location loc = tiles.loc;
  SmallVector<Value> inits;
  for (auto [row0, col0] : assigned.origins)
    llvm::append_range(inits, tiles.loadAccumulators(b, row0, col0));
  IRRewriter rewriter(b.getContext());
  return cast<scf::ForOp>(
      *cast<LoopLikeOpInterface>(stateLoop.getOperation())
           .replaceWithAdditionalYields(
               rewriter, inits, /*replaceInitOperandUsesInLoop=*/false,
               [&](OpBuilder &yb, Location, ArrayRef<BlockArgument> args) {
                 SmallVector<Value> next = accumulateRegisterTiles(
                     yb, tiles, assigned, ValueRange(args));
                 // The next step overwrites the staged operands (with
                 // cp.async, the next step's first barrier orders that).
                 if (!asyncPrefetch)
                   gpu::BarrierOp::create(yb, loc);
                 if (afterStep)
                   afterStep(yb);
                 return next;
               }));
}

scf::ForOp BlockDistributor::distributeContractionOnTensorCores(
    linalg::LinalgOp op, const MmaContraction &mma, scf::ForOp stateLoop,
    const std::function<void(OpBuilder &)> &afterStep) {
  Location loc = op.getLoc();
  // With `stateLoop`, the per-lane setup goes before that loop, which then
  // carries the accumulators.
  OpBuilder b(stateLoop ? stateLoop.getOperation() : op.getOperation());
  auto index = [&](OpBuilder &builder, int64_t v) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, v);
  };
  Value lane = arith::RemUIOp::create(b, loc, tid, index(b, 32));
  Value warp = arith::DivUIOp::create(b, loc, tid, index(b, 32));
  MmaSyncTiles tiles(b, op, mma, lane);
  ldmatrixOperands += tiles.ldmatrixOperands();
  int64_t nTiles = mma.nTiles, warps = threads / 32;

  if (!stateLoop) {
    accumulateTilesInTurn(b, tiles, warp, warps);
    gpu::BarrierOp::create(b, loc);
    op->erase();
    return nullptr;
  }

  // The accumulators of the warp's tiles live in registers for the whole
  // temporal loop: loaded before it, advanced in each step where the
  // contraction was, stored after it.
  RegisterTiles assigned = assignRegisterTiles(b, tiles, warp, warps);
  scf::ForOp newLoop = carryAccumulators(stateLoop, b, tiles, assigned,
                                         asyncPrefetch, afterStep);
  OpBuilder after(newLoop.getContext());
  after.setInsertionPointAfter(newLoop);
  int64_t perWarp = assigned.origins.size();
  ValueRange results = newLoop.getResults().take_back(perWarp * nTiles);
  for (int64_t w = 0; w < perWarp; ++w)
    tiles.storeAccumulators(after, assigned.origins[w].first,
                            assigned.origins[w].second,
                            results.slice(w * nTiles, nTiles));
  gpu::BarrierOp::create(after, loc);
  op->erase();
  return newLoop;
}

/// Whether `op` (not a copy, which has its own vector distribution) has no
/// reductions, static ranges, an identity output map and inputs indexed by
/// projected permutations.
static bool isFusibleElementwise(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  return linalgOp && !isa<linalg::CopyOp>(op) &&
         linalgOp.hasPureBufferSemantics() &&
         linalgOp.getNumReductionLoops() == 0 &&
         linalgOp.getNumDpsInits() == 1 &&
         !llvm::any_of(linalgOp.getStaticLoopRanges(), ShapedType::isDynamic) &&
         linalgOp.getMatchingIndexingMap(linalgOp.getDpsInitOperand(0))
             .isIdentity() &&
         llvm::all_of(linalgOp.getIndexingMapsArray(), [](AffineMap map) {
           return map.isProjectedPermutation();
         });
}

/// Whether `x` and `y` are buffers of one static shape and element type.
static bool haveSameStaticShape(Value x, Value y) {
  auto a = dyn_cast<MemRefType>(x.getType());
  auto b = dyn_cast<MemRefType>(y.getType());
  return a && b && a.getShape() == b.getShape() &&
         a.getElementType() == b.getElementType() && a.hasStaticShape();
}

namespace {
/// The code one thread runs for some parallel iterations (lanes) of a
/// linalg op strided over the block's threads: the reduction loops
/// (innermost last) with every lane's accumulators in registers, then the
/// stores of the outputs. At each reduction step the lanes run one after
/// another and an operand element several of them read is loaded once (a
/// CUDA-core contraction's micro-tile).
class ThreadIteration {
public:
  ThreadIteration(const BlockDistributor &distributor, linalg::LinalgOp op,
                  ArrayRef<unsigned> order, ArrayRef<unsigned> reduction,
                  ArrayRef<int64_t> ranges)
      : distributor(distributor), op(op), order(order), reduction(reduction),
        ranges(ranges), loc(op.getLoc()), body(op.getBlock()) {}

  /// The iterations at `laneIndices` (each lane's parallel dims in
  /// `order`).
  void build(OpBuilder &b, ArrayRef<SmallVector<Value>> laneIndices);

private:
  /// The payload of `lane` at its current loop indices, with `outs` as the
  /// output args.
  SmallVector<Value> evaluate(OpBuilder &b, unsigned lane, ValueRange outs);
  /// `input` at `indices`, loaded once per reduction step.
  Value loadInput(OpBuilder &b, OpOperand *input, ArrayRef<Value> indices);
  /// Current output values of `lane`: the accumulators' initial values, or
  /// what a payload reading its output sees (null when nothing reads it);
  /// their indices go to `outIndices`.
  SmallVector<Value> loadOutputs(OpBuilder &b, unsigned lane);
  /// Reduction loops from `level` in, carrying the accumulators `accs` (the
  /// outputs of lane 0, then lane 1, ...).
  SmallVector<Value> nestReductions(OpBuilder &b, unsigned level,
                                    ValueRange accs);

  /// An operand element loaded at the current reduction step.
  struct LoadedElement {
    unsigned operand;
    SmallVector<Value> indices;
    Value value;
  };

  const BlockDistributor &distributor;
  linalg::LinalgOp op;
  ArrayRef<unsigned> order, reduction;
  ArrayRef<int64_t> ranges;
  Location loc;
  Block *body;
  /// Per lane: the full loop indices, the indices of each output.
  SmallVector<SmallVector<Value>> loopIndices;
  SmallVector<SmallVector<SmallVector<Value>>> outIndices;
  SmallVector<LoadedElement> loaded;
};
} // namespace

void ThreadIteration::build(OpBuilder &b,
                            ArrayRef<SmallVector<Value>> laneIndices) {
  unsigned lanes = laneIndices.size();
  loopIndices.assign(lanes, SmallVector<Value>(ranges.size()));
  outIndices.assign(lanes, {});
  SmallVector<Value> accs;
  for (unsigned lane = 0; lane < lanes; ++lane) {
    for (auto [d, index] : llvm::zip(order, laneIndices[lane]))
      loopIndices[lane][d] = index;
    llvm::append_range(accs, loadOutputs(b, lane));
  }
  SmallVector<Value> results = nestReductions(b, 0, accs);
  unsigned outputs = op.getNumDpsInits();
  for (unsigned lane = 0; lane < lanes; ++lane)
    for (auto [i, init] : llvm::enumerate(op.getDpsInits()))
      memref::StoreOp::create(b, loc, results[lane * outputs + i], init,
                              outIndices[lane][i]);
}

Value ThreadIteration::loadInput(OpBuilder &b, OpOperand *input,
                                 ArrayRef<Value> indices) {
  unsigned operand = input->getOperandNumber();
  for (const LoadedElement &element : loaded)
    if (element.operand == operand && element.indices == indices)
      return element.value;
  Value value = memref::LoadOp::create(b, loc, input->get(), indices);
  loaded.push_back({operand, SmallVector<Value>(indices), value});
  return value;
}

SmallVector<Value> ThreadIteration::evaluate(OpBuilder &b, unsigned lane,
                                             ValueRange outs) {
  ArrayRef<Value> indices = loopIndices[lane];
  IRMapping mapping;
  for (OpOperand *input : op.getDpsInputOperands()) {
    Value value = input->get();
    Value arg = body->getArgument(input->getOperandNumber());
    if (isa<MemRefType>(value.getType()))
      value = loadInput(
          b, input,
          applyMap(b, loc, op.getMatchingIndexingMap(input), indices));
    mapping.map(arg, value);
  }
  for (auto [i, out] : llvm::enumerate(outs))
    if (out)
      mapping.map(body->getArgument(op.getNumDpsInputs() + i), out);
  for (Operation &payload : body->without_terminator()) {
    if (auto index = dyn_cast<linalg::IndexOp>(payload)) {
      mapping.map(index.getResult(), indices[index.getDim()]);
      continue;
    }
    distributor.clonePayload(b, payload, mapping);
  }
  return mappedYield(body, mapping);
}

SmallVector<Value> ThreadIteration::loadOutputs(OpBuilder &b, unsigned lane) {
  SmallVector<Value> outValues;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    outIndices[lane].push_back(
        applyMap(b, loc, op.getMatchingIndexingMap(&init), loopIndices[lane]));
    bool read = !reduction.empty() ||
                !body->getArgument(init.getOperandNumber()).use_empty();
    outValues.push_back(read ? memref::LoadOp::create(b, loc, init.get(),
                                                      outIndices[lane].back())
                                   .getResult()
                             : Value());
  }
  return outValues;
}

SmallVector<Value> ThreadIteration::nestReductions(OpBuilder &b, unsigned level,
                                                   ValueRange accs) {
  if (level == reduction.size()) {
    loaded.clear();
    unsigned outputs = op.getNumDpsInits();
    SmallVector<Value> results;
    for (unsigned lane = 0; lane < loopIndices.size(); ++lane)
      llvm::append_range(
          results, evaluate(b, lane, accs.slice(lane * outputs, outputs)));
    return results;
  }
  Value lb = arith::ConstantIndexOp::create(b, loc, 0);
  Value ub = arith::ConstantIndexOp::create(b, loc, ranges[reduction[level]]);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto loop = scf::ForOp::create(
      b, loc, lb, ub, one, accs,
      [&](OpBuilder &inner, Location, Value iv, ValueRange iterAccs) {
        for (SmallVector<Value> &indices : loopIndices)
          indices[reduction[level]] = iv;
        scf::YieldOp::create(inner, loc,
                             nestReductions(inner, level + 1, iterAccs));
      });
  return SmallVector<Value>(loop.getResults());
}

/// The lanes of a thread's micro-tile `tile` at the tile index
/// `tileIndices` (the parallel dims in the output's order, the last two
/// divided by the tile's sides): row r and column c of the tile are
/// `tileIndices` + r x rows / tile.rows, + c x cols / tile.cols.
static SmallVector<SmallVector<Value>>
microTileLanes(OpBuilder &b, Location loc, ArrayRef<Value> tileIndices,
               ArrayRef<int64_t> extents, SimtMicroTile tile) {
  if (tile.lanes() == 1)
    return {SmallVector<Value>(tileIndices)};
  size_t rowAt = extents.size() - 2, colAt = extents.size() - 1;
  int64_t rowStride = extents[rowAt] / tile.rows;
  int64_t colStride = extents[colAt] / tile.cols;
  auto offset = [&](Value base, int64_t by) {
    if (by == 0)
      return base;
    return arith::AddIOp::create(b, loc, base,
                                 arith::ConstantIndexOp::create(b, loc, by))
        .getResult();
  };
  // One index value per row and column: lanes sharing one load the
  // operand element once (ThreadIteration::loadInput compares values).
  SmallVector<Value> rows, cols;
  for (int64_t r = 0; r < tile.rows; ++r)
    rows.push_back(offset(tileIndices[rowAt], r * rowStride));
  for (int64_t c = 0; c < tile.cols; ++c)
    cols.push_back(offset(tileIndices[colAt], c * colStride));
  SmallVector<SmallVector<Value>> lanes;
  for (Value row : rows)
    for (Value col : cols) {
      SmallVector<Value> lane(tileIndices);
      lane[rowAt] = row;
      lane[colAt] = col;
      lanes.push_back(std::move(lane));
    }
  return lanes;
}

void BlockDistributor::distributeElementwise(linalg::LinalgOp op,
                                             ArrayRef<unsigned> order,
                                             ArrayRef<int64_t> extents) {
  // This op and the elementwise ops after it (an epilogue: bias,
  // activation, rounding) in one pass: values stay in registers between
  // them, one barrier at the end.
  SmallVector<linalg::LinalgOp> group = groupElementwise
                                            ? elementwiseGroup(op)
                                            : SmallVector<linalg::LinalgOp>{op};
  alreadyDistributed.insert(distributeElementwiseGroup(group, order, extents));
  OpBuilder after(group.back());
  after.setInsertionPointAfter(group.back());
  alreadyDistributed.insert(gpu::BarrierOp::create(after, op.getLoc()));
  // The caller walks the block: the later members go when it is done.
  for (linalg::LinalgOp member : ArrayRef(group).drop_front()) {
    alreadyDistributed.insert(member);
    erasedLater.push_back(member);
  }
  op->erase();
}

LogicalResult BlockDistributor::distributeLinalg(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics()) {
    whyNot = "'" + op->getName().getStringRef().str() +
             "' is not on buffers after bufferization";
    return failure();
  }
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, ShapedType::isDynamic)) {
    whyNot = "'" + op->getName().getStringRef().str() + "' has dynamic sizes";
    return failure();
  }
  if (auto copy = dyn_cast<linalg::CopyOp>(op.getOperation());
      copy && haveSameStaticShape(copy.getInputs()[0], copy.getOutputs()[0])) {
    distributeCopy(op, copy.getInputs()[0], copy.getOutputs()[0]);
    return success();
  }
  if (tensorCores)
    if (std::optional<MmaContraction> mma = matchMmaContraction(op)) {
      distributeContractionOnTensorCores(op, *mma);
      ++mmaContractions;
      return success();
    }
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<unsigned> parallel, reduction;
  for (auto [d, kind] : llvm::enumerate(iterators))
    (kind == utils::IteratorType::parallel ? parallel : reduction).push_back(d);
  SmallVector<unsigned> order = getSimtThreadOrder(op, parallel);
  SmallVector<int64_t> extents;
  for (unsigned d : order)
    extents.push_back(ranges[d]);
  SimtMicroTile tile;
  if (isSimtContraction(op, reduction)) {
    ++simtContractions;
    tile = planSimtMicroTile(extents, threads);
    largestMicroTile = std::max(largestMicroTile, tile.lanes());
  }
  if (reduction.empty() && isFusibleElementwise(op)) {
    distributeElementwise(op, order, extents);
    return success();
  }
  Location loc = op.getLoc();
  OpBuilder b(op);
  ThreadIteration iteration(*this, op, order, reduction, ranges);
  SmallVector<int64_t> tileExtents(extents);
  if (tile.lanes() > 1) {
    tileExtents[extents.size() - 2] /= tile.rows;
    tileExtents.back() /= tile.cols;
  }
  buildStridedLoop(
      b, loc, tileExtents, [&](OpBuilder &tb, ArrayRef<Value> tileIndices) {
        iteration.build(tb,
                        microTileLanes(tb, loc, tileIndices, extents, tile));
      });
  gpu::BarrierOp::create(b, loc);
  op->erase();
  return success();
}

/// How many iterations of a thread-strided elementwise loop one trip runs,
/// all loads first: independent loads in flight instead of one per trip.
static constexpr int64_t kElementwiseUnroll = 4;

/// The buffer behind a view: views of one buffer alias.
static Value rootBuffer(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (auto subview = dyn_cast<memref::SubViewOp>(def))
      v = subview.getSource();
    else if (auto cast = dyn_cast<memref::MemorySpaceCastOp>(def))
      v = cast.getSource();
    else if (auto cast = dyn_cast<memref::CastOp>(def))
      v = cast.getSource();
    else
      break;
  }
  return v;
}

namespace {
/// What an elementwise group writes (as values and as buffers), and the
/// buffers it reads, at the element a thread computes or elsewhere.
struct GroupFootprint {
  llvm::SmallPtrSet<Value, 4> written, writtenRoots, readElsewhere, readRoots;

  /// Adds what `op` reads and writes.
  void note(linalg::LinalgOp op);
  /// Whether `op` cannot join `group`: each thread handles the same
  /// elements in every op of the group, so a buffer written by the group
  /// may be read only at those elements, and one read elsewhere by the
  /// group may not be written.
  bool hazard(linalg::LinalgOp op, ArrayRef<linalg::LinalgOp> group) const;
};
} // namespace

void GroupFootprint::note(linalg::LinalgOp op) {
  written.insert(op.getDpsInitOperand(0)->get());
  writtenRoots.insert(rootBuffer(op.getDpsInitOperand(0)->get()));
  for (OpOperand *input : op.getDpsInputOperands()) {
    readRoots.insert(rootBuffer(input->get()));
    if (!op.getMatchingIndexingMap(input).isIdentity())
      readElsewhere.insert(rootBuffer(input->get()));
  }
}

bool GroupFootprint::hazard(linalg::LinalgOp op,
                            ArrayRef<linalg::LinalgOp> group) const {
  Value out = op.getDpsInitOperand(0)->get();
  bool hazard =
      readElsewhere.contains(rootBuffer(out)) ||
      (readRoots.contains(rootBuffer(out)) && !written.contains(out) &&
       llvm::none_of(group, [&](linalg::LinalgOp member) {
         return llvm::is_contained(member.getDpsInputs(), out);
       }));
  for (OpOperand *input : op.getDpsInputOperands()) {
    Value in = input->get();
    // Another view of a written buffer, or a written one read elsewhere.
    hazard |= writtenRoots.contains(rootBuffer(in)) && !written.contains(in);
    hazard |=
        written.contains(in) && !op.getMatchingIndexingMap(input).isIdentity();
  }
  return hazard;
}

SmallVector<linalg::LinalgOp>
BlockDistributor::elementwiseGroup(linalg::LinalgOp first) {
  SmallVector<linalg::LinalgOp> group{first};
  if (!isFusibleElementwise(first))
    return group;
  SmallVector<int64_t> ranges = first.getStaticLoopRanges();
  GroupFootprint footprint;
  footprint.note(first);
  for (Operation *next = first->getNextNode(); next;
       next = next->getNextNode()) {
    if (isPure(next) && next->getNumRegions() == 0)
      continue;
    auto op = dyn_cast<linalg::LinalgOp>(next);
    if (!op || !isFusibleElementwise(op) ||
        op.getStaticLoopRanges() != ranges || alreadyDistributed.contains(op) ||
        footprint.hazard(op, group))
      break;
    group.push_back(op);
    footprint.note(op);
  }
  return group;
}

namespace {
/// One trip of the thread-strided loop of an elementwise group
/// (distributeElementwiseGroup): every load of every iteration (of buffers
/// the group has not written before), then the payloads, then the stores.
class ElementwiseGroupTrip {
public:
  ElementwiseGroupTrip(const BlockDistributor &distributor,
                       ArrayRef<linalg::LinalgOp> group,
                       ArrayRef<unsigned> order, Location loc)
      : distributor(distributor), group(group), order(order), loc(loc) {
    for (linalg::LinalgOp op : group)
      members.insert(op);
  }

  /// The trip of `iterations` (each one's indices in `order`).
  void build(OpBuilder &b, ArrayRef<SmallVector<Value>> iterations);

private:
  /// The loads of the operands of member `g` for every iteration.
  void loadOperands(OpBuilder &b, unsigned g,
                    const llvm::SmallPtrSet<Value, 4> &writtenSoFar);
  /// The payload of member `g` in iteration `u`: it reads the values this
  /// thread computed earlier in the group.
  void computePayload(OpBuilder &b, unsigned u, unsigned g);
  /// Whether member `g` is the last writer of its buffer, which stores it.
  bool isLastWriter(unsigned g) const;
  /// A buffer the group writes needs its final value stored only when it
  /// outlives the group: read after it, or not a block buffer.
  bool storedAtEnd(Value buffer) const;

  const BlockDistributor &distributor;
  ArrayRef<linalg::LinalgOp> group;
  ArrayRef<unsigned> order;
  Location loc;
  llvm::DenseSet<Operation *> members;
  /// Each iteration's indices in loop order.
  SmallVector<SmallVector<Value>> loopIndices;
  /// Per iteration, each written buffer's current value.
  SmallVector<DenseMap<Value, Value>> current;
  /// Per iteration and member, its payload's mapping.
  SmallVector<SmallVector<IRMapping>> mappings;
};
} // namespace

void ElementwiseGroupTrip::build(OpBuilder &b,
                                 ArrayRef<SmallVector<Value>> iterations) {
  linalg::LinalgOp last = group.back();
  unsigned numLoops = last.getNumLoops();
  for (ArrayRef<Value> ordered : iterations) {
    SmallVector<Value> indices(numLoops);
    for (auto [d, index] : llvm::zip(order, ordered))
      indices[d] = index;
    loopIndices.push_back(indices);
  }
  int64_t unroll = iterations.size();
  current.resize(unroll);
  mappings.assign(unroll, SmallVector<IRMapping>(group.size()));
  llvm::SmallPtrSet<Value, 4> writtenSoFar;
  for (unsigned g = 0; g < group.size(); ++g) {
    loadOperands(b, g, writtenSoFar);
    linalg::LinalgOp op = group[g];
    writtenSoFar.insert(op.getDpsInitOperand(0)->get());
  }
  for (unsigned u = 0; u < loopIndices.size(); ++u)
    for (unsigned g = 0; g < group.size(); ++g)
      computePayload(b, u, g);
  for (auto [u, indices] : llvm::enumerate(loopIndices))
    for (unsigned g = 0; g < group.size(); ++g) {
      linalg::LinalgOp op = group[g];
      Value buffer = op.getDpsInitOperand(0)->get();
      if (!isLastWriter(g) || !storedAtEnd(buffer))
        continue;
      memref::StoreOp::create(b, loc, current[u][buffer], buffer, indices);
    }
}

void ElementwiseGroupTrip::loadOperands(
    OpBuilder &b, unsigned g, const llvm::SmallPtrSet<Value, 4> &writtenSoFar) {
  linalg::LinalgOp op = group[g];
  Block *body = op.getBlock();
  for (OpOperand &operand : op->getOpOperands()) {
    Value arg = body->getArgument(operand.getOperandNumber());
    Value buffer = operand.get();
    if (arg.use_empty() || writtenSoFar.contains(buffer))
      continue;
    for (auto [u, indices] : llvm::enumerate(loopIndices)) {
      Value value = buffer;
      if (isa<MemRefType>(buffer.getType()))
        value = memref::LoadOp::create(
            b, loc, buffer,
            applyMap(b, loc, op.getMatchingIndexingMap(&operand), indices));
      mappings[u][g].map(arg, value);
    }
  }
}

void ElementwiseGroupTrip::computePayload(OpBuilder &b, unsigned u,
                                          unsigned g) {
  linalg::LinalgOp op = group[g];
  Block *body = op.getBlock();
  IRMapping &mapping = mappings[u][g];
  for (OpOperand &operand : op->getOpOperands()) {
    auto it = current[u].find(operand.get());
    if (it != current[u].end())
      mapping.map(body->getArgument(operand.getOperandNumber()), it->second);
  }
  for (Operation &payload : body->without_terminator()) {
    if (auto index = dyn_cast<linalg::IndexOp>(payload))
      mapping.map(index.getResult(), loopIndices[u][index.getDim()]);
    else
      distributor.clonePayload(b, payload, mapping);
  }
  current[u][op.getDpsInitOperand(0)->get()] =
      mapping.lookupOrDefault(body->getTerminator()->getOperand(0));
}

bool ElementwiseGroupTrip::isLastWriter(unsigned g) const {
  linalg::LinalgOp op = group[g];
  Value buffer = op.getDpsInitOperand(0)->get();
  return llvm::none_of(group.drop_front(g + 1), [&](linalg::LinalgOp l) {
    return l.getDpsInitOperand(0)->get() == buffer;
  });
}

bool ElementwiseGroupTrip::storedAtEnd(Value buffer) const {
  Operation *def = buffer.getDefiningOp();
  if (!def ||
      !isa<memref::ViewOp, memref::MemorySpaceCastOp, memref::AllocOp>(def))
    return true;
  return llvm::any_of(buffer.getUsers(),
                      [&](Operation *user) { return !members.contains(user); });
}

scf::ForOp BlockDistributor::distributeElementwiseGroup(
    SmallVector<linalg::LinalgOp> group, ArrayRef<unsigned> order,
    ArrayRef<int64_t> extents) {
  int64_t total = 1;
  for (int64_t extent : extents)
    total *= extent;
  int64_t unroll =
      total % (threads * kElementwiseUnroll) == 0 ? kElementwiseUnroll : 1;
  Location loc = group.front().getLoc();
  OpBuilder b(group.back());
  return buildStridedLoop(
      b, loc, extents, unroll,
      [&](OpBuilder &tb, ArrayRef<SmallVector<Value>> iterations) {
        ElementwiseGroupTrip(*this, group, order, loc).build(tb, iterations);
      });
}

/// A 16-bit exp (a half model's softmax) on the hardware exp2 of the
/// extended operand, rounded back: ex2.approx errs by about 2^-22 relative,
/// far below the result's 16-bit rounding, where libdevice's expf, which
/// the extended exp otherwise becomes, spends seven more instructions on
/// range reduction. The operand is the program's (a rounded x - c stays
/// rounded: no fma folds the subtraction in, as for f32). Only where
/// `approxHalfExp` allows it: the shorter code can take more registers.
static Operation *cloneHalfExp(OpBuilder &b, math::ExpOp exp,
                               IRMapping &mapping) {
  Location loc = exp.getLoc();
  auto flags = arith::FastMathFlagsAttr::get(
      b.getContext(), exp.getFastmath() | arith::FastMathFlags::afn);
  Value x = arith::ExtFOp::create(b, loc, b.getF32Type(),
                                  mapping.lookupOrDefault(exp.getOperand()));
  Value log2e = arith::ConstantOp::create(
      b, loc, b.getF32FloatAttr(static_cast<float>(M_LOG2E)));
  auto exp2 = math::Exp2Op::create(
      b, loc, arith::MulFOp::create(b, loc, x, log2e), flags);
  auto result = arith::TruncFOp::create(b, loc, exp.getType(), exp2);
  mapping.map(exp.getResult(), result.getResult());
  return result;
}

Operation *BlockDistributor::clonePayload(OpBuilder &b, Operation &payload,
                                          IRMapping &mapping) const {
  if (auto tanh = dyn_cast<math::TanhOp>(payload);
      tanh && approxMath && approxTanh &&
      isa<Float32Type, Float16Type, BFloat16Type>(tanh.getType())) {
    // The hardware's tanh (MUFU.TANH, sm_75 and later): one instruction
    // instead of libdevice's tanhf (GELU's inner function); its relative
    // error (about 2^-11) is f16's rounding, where a GELU's result goes.
    // A 16-bit tanh (a half model's GELU) runs it on the extended operand
    // and rounds the result, instead of an expansion through exp.
    Location loc = tanh.getLoc();
    Type type = tanh.getType();
    Value x = mapping.lookupOrDefault(tanh.getOperand());
    if (!type.isF32())
      x = arith::ExtFOp::create(b, loc, b.getF32Type(), x);
    Operation *result = LLVM::InlineAsmOp::create(
        b, loc, b.getF32Type(), x, "tanh.approx.f32 $0, $1;", "=f,f",
        /*has_side_effects=*/false,
        /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
        /*asm_dialect=*/nullptr, /*operand_attrs=*/nullptr);
    if (!type.isF32())
      result = arith::TruncFOp::create(b, loc, type, result->getResult(0));
    mapping.map(tanh.getResult(), result->getResult(0));
    return result;
  }
  auto exp = dyn_cast<math::ExpOp>(payload);
  if (exp && approxMath && approxHalfExp &&
      isa<Float16Type, BFloat16Type>(exp.getType()))
    return cloneHalfExp(b, exp, mapping);
  if (!exp || !approxMath || !exp.getType().isF32())
    return b.clone(payload, mapping);
  // f32 exp on the hardware exp2 (ex2.approx), as in the row kernels; the
  // common exp(x - c) becomes exp2(fma(x, log2 e, -c log2 e)): one
  // instruction per element before ex2 instead of two, with -c log2 e
  // shared by every element of a row (FlashAttention's formulation).
  Location loc = exp.getLoc();
  Value x = mapping.lookupOrDefault(exp.getOperand());
  auto flags = arith::FastMathFlagsAttr::get(
      b.getContext(), exp.getFastmath() | arith::FastMathFlags::afn);
  Value log2e = arith::ConstantOp::create(
      b, loc, b.getF32FloatAttr(static_cast<float>(M_LOG2E)));
  Value exponent;
  // (The payload's subtraction, whose clone is then left unused.)
  auto sub = exp.getOperand().getDefiningOp<arith::SubFOp>();
  if (sub && sub->hasOneUse() && sub->getBlock() == exp->getBlock()) {
    Value shift = arith::NegFOp::create(
        b, loc,
        arith::MulFOp::create(b, loc, mapping.lookupOrDefault(sub.getRhs()),
                              log2e));
    exponent = math::FmaOp::create(
        b, loc, mapping.lookupOrDefault(sub.getLhs()), log2e, shift);
  } else {
    exponent = arith::MulFOp::create(b, loc, x, log2e);
  }
  auto exp2 = math::Exp2Op::create(b, loc, exponent, flags);
  mapping.map(exp.getResult(), exp2.getResult());
  return exp2;
}

std::optional<std::pair<linalg::LinalgOp, MmaContraction>>
BlockDistributor::hoistableContraction(scf::ForOp loop) {
  // The last op with effects before the yield: a tensor-core contraction
  // accumulating into a buffer from outside the loop that nothing else in
  // the loop touches (a GEMM's k loop: stage A and B, then accumulate).
  Operation *last = nullptr;
  for (Operation &op : loop.getBody()->without_terminator())
    if (!isPure(&op))
      last = &op;
  auto op = dyn_cast_or_null<linalg::LinalgOp>(last);
  if (!op || !op.hasPureBufferSemantics() || isa<linalg::CopyOp>(last))
    return std::nullopt;
  std::optional<MmaContraction> mma = matchMmaContraction(op);
  if (!mma)
    return std::nullopt;
  Value state = op.getDpsInitOperand(0)->get();
  if (loop->isAncestor(state.getParentRegion()->getParentOp()) ||
      llvm::any_of(state.getUsers(), [&](Operation *user) {
        return user != last && loop->isAncestor(user);
      }))
    return std::nullopt;
  int64_t warps = threads / 32;
  // Every warp owns the same number of tiles, and their accumulators fit
  // in 128 registers per thread.
  if (mma->warpTiles % warps ||
      (mma->warpTiles / warps) * mma->nTiles * 4 > 128)
    return std::nullopt;
  return std::make_pair(op, *mma);
}

LogicalResult BlockDistributor::distributeOverThreads(Operation *op) {
  if (auto copy = dyn_cast<memref::CopyOp>(op)) {
    if (!cast<MemRefType>(copy.getTarget().getType()).hasStaticShape()) {
      whyNot = "a copy has dynamic sizes";
      return failure();
    }
    distributeCopy(copy, copy.getSource(), copy.getTarget());
    return success();
  }
  return distributeLinalg(cast<linalg::LinalgOp>(op));
}

LogicalResult BlockDistributor::distributeTemporalLoop(scf::ForOp loop) {
  auto hoistable = tensorCores ? hoistableContraction(loop) : std::nullopt;
  // The rest of the step first; the contraction becomes register code
  // at the end of the step.
  // Staged operands are loaded a step ahead (before the rest of the
  // step is distributed: the prefetch replaces their copies) and stored
  // at the end of the step, after everything that reads them.
  std::function<void(OpBuilder &)> afterStep = prefetchStagedOperands(loop);
  if (hoistable)
    keepForLater = hoistable->first;
  if (failed(distribute(*loop.getBody())))
    return failure();
  if (!hoistable && afterStep) {
    OpBuilder end(loop.getBody()->getTerminator());
    afterStep(end);
  }
  if (hoistable) {
    keepForLater = nullptr;
    distributeContractionOnTensorCores(hoistable->first, hoistable->second,
                                       loop, afterStep);
    ++mmaContractions;
    ++registerAccumulators;
  }
  return success();
}

LogicalResult BlockDistributor::distribute(Block &block) {
  llvm::scope_exit eraseLater([&] {
    SmallVector<Operation *> kept;
    for (Operation *op : erasedLater) {
      if (op->getBlock() != &block) {
        kept.push_back(op);
        continue;
      }
      alreadyDistributed.erase(op);
      op->erase();
    }
    erasedLater = std::move(kept);
  });
  for (Operation &op : llvm::make_early_inc_range(block)) {
    if (&op == keepForLater || alreadyDistributed.contains(&op))
      continue;
    if (isa<linalg::LinalgOp, memref::CopyOp>(op)) {
      // Only this walk knows to skip the ops a group takes along.
      groupElementwise = true;
      LogicalResult distributed = distributeOverThreads(&op);
      groupElementwise = false;
      if (failed(distributed))
        return failure();
      continue;
    }
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      if (failed(distributeTemporalLoop(loop)))
        return failure();
      continue;
    }
    // Allocations, pure ops, and what the distribution itself emitted
    // (cp.async pipelines, barriers).
    if (isa<memref::AllocOp, memref::AllocaOp, gpu::BarrierOp>(op) ||
        isa<nvgpu::NVGPUDialect>(op.getDialect()) || isPure(&op) ||
        op.hasTrait<OpTrait::IsTerminator>())
      continue;
    whyNot = "'" + op.getName().getStringRef().str() +
             "' inside a block has effects the distribution does not know";
    return failure();
  }
  return success();
}

namespace {
/// Where the buffers of one block live.
struct BufferPlacement {
  int64_t sharedBytes = 0;  // dynamic shared memory per block
  int64_t scratchBytes = 0; // global scratch per block
  /// Copies of each staged tile (cp.async pipeline depth), 1 without.
  int64_t stages = 1;
};
} // namespace

/// The bytes a block buffer takes (see stagedBytes).
static int64_t placedBytes(memref::AllocOp alloc) {
  return stagedBytes(alloc.getType(), alloc->hasAttr(kSwizzledTileAttr));
}

namespace {
/// Where placeBuffers puts each static allocation of a launch's body: the
/// allocations in placement order, whether each goes to shared memory, and
/// the bases (created at the start of the body) their places are offsets
/// from.
class BufferPlacer {
public:
  BufferPlacer(gpu::LaunchOp launch,
               const llvm::DenseSet<Operation *> &stagedTiles)
      : launch(launch), body(launch.getBody().front()),
        stagedTiles(stagedTiles),
        workgroup(gpu::AddressSpaceAttr::get(launch.getContext(),
                                             gpu::AddressSpace::Workgroup)) {}

  /// Collects the allocations not kept in registers, in placement order;
  /// fails (with `why`) when one is not static and identity-laid out.
  LogicalResult collectAllocs(const llvm::DenseSet<Value> &inRegisters,
                              std::string &why);
  /// Decides which allocations fit in `smemLimit` bytes of shared memory
  /// after the `reservedShared` ones, and sizes the placement.
  LogicalResult assignPlaces(int64_t smemLimit, int64_t scheduledStages,
                             int64_t reservedShared, std::string &why);
  /// Creates the bases and replaces each allocation with its view.
  void rewriteAllocs();

  BufferPlacement placement;

private:
  /// The bytes `alloc` takes, each stage of a staged tile included.
  int64_t placedSize(memref::AllocOp alloc) const {
    return placedBytes(alloc) *
           (stagedTiles.contains(alloc) ? placement.stages : 1);
  }
  /// The per-block region of a global scratch buffer allocated around the
  /// launch: its base and this block's offset in it.
  void createScratch(OpBuilder &b);
  /// The offset from the shared base to the first 1024-byte aligned
  /// address, for the swizzled tiles.
  Value createSwizzleBase(OpBuilder &b);
  /// The view of shared memory at `offset` that replaces `alloc`.
  Value sharedView(memref::AllocOp alloc, int64_t offset);
  /// The view of the scratch region at `offset` that replaces `alloc`.
  Value scratchView(memref::AllocOp alloc, int64_t offset);

  gpu::LaunchOp launch;
  Block &body;
  const llvm::DenseSet<Operation *> &stagedTiles;
  gpu::AddressSpaceAttr workgroup;
  /// The allocations, swizzled tiles first, then those inside loops, then
  /// the rest; and with the placement, whether each is in shared memory.
  SmallVector<memref::AllocOp> allocs;
  bool anySwizzled = false;
  SmallVector<std::pair<memref::AllocOp, bool>> placed;
  int64_t reservedShared = 0;
  Value sharedBase, scratchBase, scratchOffset, swizzleBase;
};
} // namespace

LogicalResult
BufferPlacer::collectAllocs(const llvm::DenseSet<Value> &inRegisters,
                            std::string &why) {
  body.walk([&](memref::AllocOp alloc) {
    if (!inRegisters.contains(alloc.getResult()))
      allocs.push_back(alloc);
  });
  for (memref::AllocOp alloc : allocs) {
    MemRefType type = alloc.getType();
    if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
        type.getMemorySpace()) {
      why = "a buffer of the block has dynamic sizes or a non-identity layout";
      return failure();
    }
  }
  // Swizzled tiles first, from a 1024-byte aligned start (their sizes keep
  // it), then the buffers inside loops, then the rest.
  SmallVector<memref::AllocOp> swizzled, inLoops, outside;
  for (memref::AllocOp alloc : allocs)
    (alloc->hasAttr(kSwizzledTileAttr)               ? swizzled
     : alloc->getParentOp() != launch.getOperation() ? inLoops
                                                     : outside)
        .push_back(alloc);
  allocs = llvm::to_vector(
      llvm::concat<memref::AllocOp>(swizzled, inLoops, outside));
  anySwizzled = !swizzled.empty();
  return success();
}

LogicalResult BufferPlacer::assignPlaces(int64_t smemLimit,
                                         int64_t scheduledStages,
                                         int64_t reserved, std::string &why) {
  // The swizzle follows address bits: the base is rounded up at run time,
  // within 1024 bytes of slack.
  reservedShared =
      anySwizzled
          ? static_cast<int64_t>(llvm::alignTo(reserved, kSwizzleAlignment))
          : reserved;
  placement.sharedBytes =
      reservedShared + (anySwizzled ? kSwizzleAlignment : 0);
  // The cp.async pipeline's depth is the schedule's (chooseCpAsyncStages
  // decided it with the tiles).
  int64_t bytesPerStage = 0;
  for (memref::AllocOp alloc : allocs)
    if (stagedTiles.contains(alloc))
      bytesPerStage += placedBytes(alloc);
  placement.stages = scheduledStages;
  if (placement.stages > 1 && !bytesPerStage) {
    why = "the schedule asks for " + std::to_string(placement.stages) +
          " cp.async stages of a block without staged tiles that move";
    return failure();
  }
  for (memref::AllocOp alloc : allocs) {
    bool shared = placement.sharedBytes + placedSize(alloc) <= smemLimit;
    if (!shared && alloc->hasAttr(kSwizzledTileAttr)) {
      why = "a tile wgmma reads does not fit in shared memory";
      return failure();
    }
    (shared ? placement.sharedBytes : placement.scratchBytes) +=
        placedSize(alloc);
    placed.push_back({alloc, shared});
  }
  return success();
}

void BufferPlacer::createScratch(OpBuilder &b) {
  MLIRContext *ctx = launch.getContext();
  Location loc = launch.getLoc();
  int64_t blocks = getConstantIntValue(launch.getGridSizeX()).value_or(1);
  OpBuilder hb(launch);
  auto scratchType = MemRefType::get({blocks * placement.scratchBytes},
                                     IntegerType::get(ctx, 8));
  scratchBase = allocOnDevice(hb, loc, scratchType);
  hb.setInsertionPointAfter(launch);
  freeOnDevice(hb, loc, scratchBase);
  scratchOffset = arith::MulIOp::create(
      b, loc, launch.getBlockIds().x,
      arith::ConstantIndexOp::create(b, loc, placement.scratchBytes));
}

Value BufferPlacer::createSwizzleBase(OpBuilder &b) {
  Location loc = launch.getLoc();
  Value address =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, sharedBase);
  Value align = arith::ConstantIndexOp::create(b, loc, kSwizzleAlignment);
  Value base = arith::RemUIOp::create(
      b, loc,
      arith::SubIOp::create(b, loc, align,
                            arith::RemUIOp::create(b, loc, address, align)),
      align);
  // A multiple of 16 (the base is 16-byte aligned), visibly so for the
  // vector accesses (isVectorAligned).
  Value sixteen = arith::ConstantIndexOp::create(b, loc, 16);
  return arith::MulIOp::create(
      b, loc, arith::DivUIOp::create(b, loc, base, sixteen), sixteen);
}

Value BufferPlacer::sharedView(memref::AllocOp alloc, int64_t at) {
  MemRefType type = alloc.getType();
  OpBuilder ab(alloc);
  Location allocLoc = alloc.getLoc();
  Value offset = arith::ConstantIndexOp::create(ab, allocLoc, at);
  if (swizzleBase)
    offset = arith::AddIOp::create(ab, allocLoc, swizzleBase, offset);
  auto sharedType = MemRefType::get(type.getShape(), type.getElementType(),
                                    AffineMap(), workgroup);
  auto view = memref::ViewOp::create(ab, allocLoc, sharedType, sharedBase,
                                     offset, ValueRange());
  if (alloc->hasAttr(kSwizzledTileAttr))
    view->setAttr(kSwizzledTileAttr, ab.getUnitAttr());
  // Generic pointers keep every user's type; the PTX backend turns
  // accesses through them back into shared-memory ones where it can see
  // the base.
  return memref::MemorySpaceCastOp::create(ab, allocLoc, type, view);
}

Value BufferPlacer::scratchView(memref::AllocOp alloc, int64_t at) {
  OpBuilder ab(alloc);
  Location allocLoc = alloc.getLoc();
  Value offset =
      arith::AddIOp::create(ab, allocLoc, scratchOffset,
                            arith::ConstantIndexOp::create(ab, allocLoc, at));
  return memref::ViewOp::create(ab, allocLoc, alloc.getType(), scratchBase,
                                offset, ValueRange());
}

void BufferPlacer::rewriteAllocs() {
  MLIRContext *ctx = launch.getContext();
  // (One builder: each base goes after the previous one.)
  OpBuilder b = OpBuilder::atBlockBegin(&body);
  if (placement.sharedBytes)
    sharedBase = gpu::DynamicSharedMemoryOp::create(
        b, launch.getLoc(),
        MemRefType::get({ShapedType::kDynamic}, IntegerType::get(ctx, 8),
                        AffineMap(), workgroup));
  if (placement.scratchBytes)
    createScratch(b);
  if (anySwizzled)
    swizzleBase = createSwizzleBase(b);
  int64_t sharedAt = reservedShared, scratchAt = 0;
  for (auto [alloc, shared] : placed) {
    Value replacement =
        shared ? sharedView(alloc, sharedAt) : scratchView(alloc, scratchAt);
    (shared ? sharedAt : scratchAt) += placedSize(alloc);
    alloc.replaceAllUsesWith(replacement);
    alloc.erase();
  }
}

/// Gives each static allocation of `launch`'s body a fixed, 16-byte aligned
/// place: in dynamic shared memory while `smemLimit` allows, buffers inside
/// loops (the temporal step's tiles, read most often) first; the rest in a
/// global scratch buffer with one region per block, allocated around the
/// launch. The first `reservedShared` bytes of shared memory are taken (the
/// wgmma pipeline's stages).
static FailureOr<BufferPlacement>
placeBuffers(gpu::LaunchOp launch, int64_t smemLimit,
             const llvm::DenseSet<Value> &inRegisters,
             const llvm::DenseSet<Operation *> &stagedTiles,
             int64_t scheduledStages, int64_t reservedShared,
             std::string &why) {
  BufferPlacer placer(launch, stagedTiles);
  if (failed(placer.collectAllocs(inRegisters, why)) ||
      failed(
          placer.assignPlaces(smemLimit, scheduledStages, reservedShared, why)))
    return failure();
  placer.rewriteAllocs();
  return placer.placement;
}

/// What the host would have to compute itself: nothing runs there. The
/// error is at the op that kept itself out of every graph, with its reason
/// (an element type, a dynamic shape), when there is one; otherwise at the
/// first op left out (an init whose users were left out).
static LogicalResult emitOutsideGraphsError(ArrayRef<Operation *> left,
                                            func::FuncOp fn) {
  for (Operation *op : left) {
    // (Bufferized linalg ops no longer say why they were left out.)
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (linalgOp && !linalgOp.hasPureTensorSemantics())
      continue;
    std::string why;
    if (failed(getMemberRole(op, why)) && !why.empty())
      return op->emitError("smap-distribute-blocks: '")
             << op->getName() << "'" << describeOrigin(op) << " in @"
             << fn.getName() << " cannot be compiled for the GPU: " << why
             << "; the GPU path compiles fusion graphs only";
  }
  return left.front()->emitError("smap-distribute-blocks: '")
         << left.front()->getName() << "'" << describeOrigin(left.front())
         << " in @" << fn.getName()
         << " is outside every fusion graph (see the smap-form-graphs "
            "remarks); the GPU path compiles fusion graphs only";
}


static SMapDialect *getSMapDialect(MLIRContext *ctx) {
  return ctx->getOrLoadDialect<SMapDialect>();
}

/// Names `fn`'s launches for outlining (getKernelName): what each is by its
/// schedule (or `loops`), numbered by position among all of `fn`'s kernels
/// (the row kernels, outlined already, included) when there are several,
/// with the element type of the function's first argument.
static void nameKernels(func::FuncOp fn) {
  SMapDialect *smap = getSMapDialect(fn.getContext());
  auto schedules = smap->getScheduleAttrHelper();
  // The launches this pass built (those carry their record), by position.
  SmallVector<std::pair<size_t, gpu::LaunchOp>> launches;
  size_t kernels = 0;
  fn.walk([&](Operation *op) {
    if (isa<gpu::LaunchFuncOp>(op))
      ++kernels;
    else if (auto launch = dyn_cast<gpu::LaunchOp>(op);
             launch && smap->getKernelAttrHelper().getAttr(launch))
      launches.emplace_back(kernels++, launch);
  });
  Type elementType = fn.getNumArguments()
                         ? getElementTypeOrSelf(fn.getArgument(0))
                         : Type();
  for (auto [position, launch] : launches) {
    std::optional<size_t> index;
    if (kernels > 1)
      index = position;
    // A loop kernel (LoopKernels.h) has no schedule.
    ScheduleAttr schedule = schedules.getAttr(launch);
    std::string name =
        getKernelName(fn.getName(), index,
                      schedule ? getKernelTag(schedule) : "loops", elementType);
    launch.setFunctionAttr(FlatSymbolRefAttr::get(fn.getContext(), name));
  }
}

/// Lists the records of `fn`'s kernels in launch order on `fn`, since
/// outlining drops the launches' attributes. The row kernels
/// (convert-smap-to-gpu) are outlined already; their records lead the list
/// `fn` holds.
static void recordKernels(func::FuncOp fn) {
  SMapDialect *smap = getSMapDialect(fn.getContext());
  ArrayRef<Attribute> outlined;
  if (ArrayAttr records = smap->getKernelsAttrHelper().getAttr(fn))
    outlined = records.getValue();
  SmallVector<Attribute> kernels;
  fn.walk([&](Operation *op) {
    if (isa<gpu::LaunchFuncOp>(op) && !outlined.empty()) {
      kernels.push_back(outlined.front());
      outlined = outlined.drop_front();
    } else if (KernelAttr kernel = smap->getKernelAttrHelper().getAttr(op)) {
      kernels.push_back(kernel.toDictionary());
    }
  });
  smap->getKernelsAttrHelper().setAttr(
      fn, ArrayAttr::get(fn.getContext(), kernels));
}

namespace {
/// What smap-distribute-blocks builds for one block: the schedule's
/// strategy, with the plan of its tensor-core code checked against the
/// bufferized block.
struct BlockKernelPlan {
  ScheduleAttr schedule;
  KernelStrategy strategy = KernelStrategy::None;
  int64_t blocks = 0, threads = 0, smemLimit = 0;
  std::optional<WgmmaPlan> wgmma;
  std::optional<RowFragmentPlan> rowFragmentPlan;
};

struct DistributeBlocksPass
    : public smap::impl::SMapDistributeBlocksPassBase<DistributeBlocksPass> {
  using Base::Base;

  LogicalResult lowerForall(scf::ForallOp forall);
  /// The schedule's strategy for `forall`, checked against its body;
  /// fails with an error naming why it cannot be built.
  FailureOr<BlockKernelPlan> planBlockKernel(scf::ForallOp forall);
  /// Places the buffers of the launch that replaced the forall and
  /// distributes its ops over the threads, as `plan` says.
  LogicalResult buildBlockKernel(gpu::LaunchOp launch, BlockKernelPlan &plan);
  /// Builds a loop kernel (LoopKernels.h) for every linalg op the fusion
  /// graphs left in `fn`'s body; fails at the first that cannot be one.
  LogicalResult lowerLoopKernels(func::FuncOp fn);
  /// Fails at the first op of `fn` the host side cannot run, else moves
  /// its buffers to the device (HostBuffers.h).
  LogicalResult lowerHostBuffers(func::FuncOp fn);
  LogicalResult lowerFunction(func::FuncOp fn, bool &lowered);

  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool any = false;
    for (func::FuncOp fn : module.getOps<func::FuncOp>())
      if (failed(lowerFunction(fn, any)))
        return signalPassFailure();
    if (any)
      module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                      UnitAttr::get(module.getContext()));
  }
};
} // namespace

LogicalResult DistributeBlocksPass::lowerFunction(func::FuncOp fn,
                                                  bool &lowered) {
  SMapDialect *smap = getSMapDialect(fn.getContext());
  SmallVector<scf::ForallOp> foralls;
  fn.walk([&](scf::ForallOp forall) {
    if (smap->getScheduleAttrHelper().isAttrPresent(forall))
      foralls.push_back(forall);
  });
  // The row kernel's lowering (convert-smap-to-gpu) built this function.
  if (fn.isExternal() || smap->getRowKernelHostAttrHelper().isAttrPresent(fn))
    return success();
  for (scf::ForallOp forall : foralls)
    if (failed(lowerForall(forall)))
      return failure();
  if (failed(lowerLoopKernels(fn)) || failed(lowerHostBuffers(fn)))
    return failure();
  nameKernels(fn);
  recordKernels(fn);
  fn->setAttr("llvm.emit_c_interface", UnitAttr::get(fn.getContext()));
  lowered = true;
  return success();
}

/// The wgmma plan of a block whose schedule says wgmma_tma (or _ws), with
/// its pipeline sized; fails naming why the block cannot be one.
static FailureOr<WgmmaPlan> planWgmmaBlock(scf::ForallOp forall,
                                            ScheduleAttr schedule,
                                            TargetAttr target,
                                            std::string &why) {
  KernelStrategy strategy = schedule.getStrategy();
  int64_t threads = schedule.getThreads();
  bool specialized = strategy == KernelStrategy::WgmmaTmaWarpSpecialized;
  std::optional<WgmmaPlan> plan =
      planWgmma(*forall.getBody(), specialized, why);
  if (!plan) {
    if (why.empty())
      why = "the block has no tensor-core contraction";
    return failure();
  }
  if (plan->warpSpecialized != specialized) {
    why = "its tile needs the other wgmma strategy";
    return failure();
  }
  // The schedule's threads say who produces: the rest after the consumers.
  plan->producerWarps =
      specialized ? (threads - plan->consumerThreads()) / 32 : 4;
  if (specialized && plan->producerWarps != 1 && plan->producerWarps != 4) {
    why = "the schedule's " + std::to_string(threads) +
          " threads leave no producer warp or warpgroup after " +
          std::to_string(plan->consumerThreads()) + " consumer threads";
    return failure();
  }
  planRegisterReallocation(*plan, target.getRegsPerSm());
  // Shared memory left by the block's other buffers.
  int64_t smemLimit = target.getSmemPerBlock();
  int64_t budget = smemLimit;
  forall.getBody()->walk([&](memref::AllocOp alloc) {
    if (alloc != plan->accumulator && alloc != plan->inPlaceEpilogue &&
        !plan->loop->isAncestor(alloc))
      budget -= placedBytes(alloc);
  });
  // The pipeline depth is the schedule's (chooseTmaPipeline decided it).
  int64_t stages = schedule.getStages();
  if (!sizeWgmmaStages(*plan, budget, stages, why))
    return failure();
  if (plan->stages != stages) {
    why = "the schedule's " + std::to_string(stages) +
          " TMA stages do not fit beside the block's other buffers (" +
          std::to_string(plan->stages) + " do)";
    return failure();
  }
  return *plan;
}

/// The row-fragment plan of a block whose schedule says row_fragments (or
/// _wgmma), its swizzled tiles marked; fails naming why.
static FailureOr<RowFragmentPlan> planRowFragmentBlock(scf::ForallOp forall,
                                                       ScheduleAttr schedule,
                                                       int64_t smemLimit,
                                                       std::string &why) {
  bool onWgmma =
      schedule.getStrategy() == KernelStrategy::RowFragmentsWgmma;
  privatizeRunningOutputs(*forall.getBody());
  std::optional<RowFragmentPlan> plan =
      planRowFragments(*forall.getBody(), onWgmma, schedule.getThreads(), why);
  if (!plan)
    return failure();
  if (onWgmma && !plan->wgmma) {
    why = "its contractions cannot run on wgmma: " + plan->whyNotWgmma;
    return failure();
  }
  if (!onWgmma)
    return *plan;
  // The swizzled tiles take 1024-byte multiples and a 1024-byte slack.
  int64_t bytes = kSwizzleAlignment;
  for (Operation *tile : plan->swizzledTiles)
    tile->setAttr(kSwizzledTileAttr, UnitAttr::get(forall.getContext()));
  forall.getBody()->walk([&](memref::AllocOp alloc) {
    if (!plan->promoted.contains(alloc.getResult()))
      bytes += placedBytes(alloc);
  });
  if (bytes > smemLimit) {
    why = "its swizzled tiles need " + std::to_string(bytes) +
          " bytes of shared memory";
    return failure();
  }
  return *plan;
}

static bool isWgmmaStrategy(KernelStrategy s) {
  return s == KernelStrategy::WgmmaTma ||
         s == KernelStrategy::WgmmaTmaWarpSpecialized;
}

static bool isRowFragmentStrategy(KernelStrategy s) {
  return s == KernelStrategy::RowFragments ||
         s == KernelStrategy::RowFragmentsWgmma;
}

/// The features `strategy` needs from the target, if it lacks one.
static std::optional<TargetFeature> missingFeature(KernelStrategy strategy,
                                                   TargetAttr target) {
  SmallVector<TargetFeature> needed;
  if (strategy != KernelStrategy::Simt)
    needed.push_back(TargetFeature::MmaSync);
  if (isWgmmaStrategy(strategy) ||
      strategy == KernelStrategy::RowFragmentsWgmma)
    needed.push_back(TargetFeature::Wgmma);
  if (isWgmmaStrategy(strategy))
    needed.push_back(TargetFeature::Tma);
  for (TargetFeature feature : needed)
    if (!target.hasFeature(feature))
      return feature;
  return std::nullopt;
}

/// The cp.async copies of the staged tiles that move with the temporal
/// step: the schedule's depth (chooseCpAsyncStages decided it with the
/// tiles); a wgmma block loads its operands by TMA, whose depth the
/// schedule's stages are.
static int64_t cpAsyncStages(ScheduleAttr schedule) {
  if (isWgmmaStrategy(schedule.getStrategy()))
    return 1;
  return std::max<int64_t>(1, schedule.getStages());
}

/// The #smap.kernel record of a built block kernel.
static KernelAttr
buildKernelAttr(MLIRContext *ctx, ScheduleAttr schedule,
                KernelStrategy strategy, int64_t blocks, int64_t threads,
                const BufferPlacement &placement,
                const std::optional<WgmmaPlan> &wgmmaPlan,
                const std::optional<RowFragmentPlan> &rowFragmentPlan,
                const BlockDistributor &distributor) {
  Builder b(ctx);
  SmallVector<NamedAttribute> parts;
  auto part = [&](StringRef key, int64_t value) {
    if (value)
      parts.push_back(b.getNamedAttr(key, b.getI64IntegerAttr(value)));
  };
  if (wgmmaPlan) {
    part("tile_m", wgmmaPlan->bm);
    part("tile_n", wgmmaPlan->bn);
    part("tile_k", wgmmaPlan->bk);
    part("stages", wgmmaPlan->stages);
    if (wgmmaPlan->warpSpecialized) {
      part("consumers", wgmmaPlan->consumers());
      part("producer_warps", wgmmaPlan->producerWarps);
    }
    part("regs_entry", wgmmaPlan->entryRegisters);
    part("regs_producer", wgmmaPlan->producerRegisters);
    part("regs_consumer", wgmmaPlan->consumerRegisters);
  }
  // A declared residency: every thread starts with the schedule's count
  // (smap-set-kernel-register-counts makes it the kernel's nvvm.maxnreg).
  if (schedule.getBlocksPerSm()) {
    part("regs_entry", schedule.getRegsPerThread());
    part("blocks_per_sm", schedule.getBlocksPerSm());
  }
  part("wgmma", distributor.wgmmaContractions);
  part("mma_sync", distributor.mmaContractions);
  part("ldmatrix", distributor.ldmatrixOperands);
  if (distributor.registerTiles) {
    part("warp_rows", 16 * rowFragmentPlan->slabs);
    if (rowFragmentPlan->replicas > 1)
      part("row_replicas", rowFragmentPlan->replicas);
    part("register_tiles", distributor.registerTiles);
  }
  part("register_acc", distributor.registerAccumulators);
  part("prefetch", distributor.prefetchedLoops);
  if (distributor.asyncLoops)
    part("cp_async", placement.stages);
  part("fma", distributor.simtContractions);
  if (distributor.largestMicroTile > 1)
    part("fma_lanes", distributor.largestMicroTile);
  return KernelAttr::get(ctx, strategy, blocks, threads, placement.sharedBytes,
                         placement.scratchBytes,
                         parts.empty() ? DictionaryAttr()
                                       : b.getDictionaryAttr(parts),
                         KernelAttr::getPrediction(schedule));
}

/// The number of blocks of `forall`, a bufferized 1-d scf.forall over a
/// static number of them within CUDA's grid; fails with an error otherwise.
static FailureOr<int64_t> staticBlockCount(scf::ForallOp forall) {
  if (forall.getRank() != 1 || !forall.getOutputs().empty() ||
      !forall.getStaticUpperBound()[0] ||
      ShapedType::isDynamic(forall.getStaticUpperBound()[0])) {
    return forall.emitError("smap-distribute-blocks: expected a bufferized "
                            "1-d scf.forall over a static number of blocks");
  }
  int64_t blocks = forall.getStaticUpperBound()[0];
  // CUDA's grid: at most 2^31 - 1 blocks along x.
  if (blocks > std::numeric_limits<int32_t>::max())
    return forall.emitError("smap-distribute-blocks: ")
           << blocks << " blocks exceed CUDA's grid limit of 2^31 - 1";
  return blocks;
}

/// The target of `forall`'s blocks: sm_90a (with a remark) when they have
/// none, as smap-schedule does for a graph without one.
static TargetAttr blockTarget(scf::ForallOp forall) {
  TargetAttr target = getSMapDialect(forall.getContext())
                          ->getTargetAttrHelper()
                          .getAttr(forall);
  if (target)
    return target;
  target = getBuiltinTarget(forall.getContext(), "sm_90a");
  remark::analysis(forall.getLoc(),
                   remarkOpts("distribute-blocks", "default-target", forall))
      << "the blocks have no target; building them for sm_90a";
  return target;
}

/// Checks the plan's strategy against `target` and plans its tensor-core
/// code (`plan.wgmma`, `plan.rowFragmentPlan`) on `forall`'s body; fails
/// naming why it cannot be built.
static LogicalResult planStrategyCode(scf::ForallOp forall, TargetAttr target,
                                      BlockKernelPlan &plan, std::string &why) {
  if (std::optional<TargetFeature> missing =
          missingFeature(plan.strategy, target)) {
    why = ("target '" + target.getName() + "' lacks " +
           stringifyTargetFeature(*missing))
              .str();
    return failure();
  }
  if (isWgmmaStrategy(plan.strategy)) {
    FailureOr<WgmmaPlan> wgmma =
        planWgmmaBlock(forall, plan.schedule, target, why);
    if (failed(wgmma))
      return failure();
    plan.wgmma = *wgmma;
    if (wgmma->entryRegisters && plan.schedule.getBlocksPerSm()) {
      why = "the schedule declares " +
            std::to_string(plan.schedule.getBlocksPerSm()) +
            " blocks per SM, but the warp-specialized block moves registers "
            "between its warpgroups (setmaxnreg) from its own entry count";
      return failure();
    }
  }
  if (isRowFragmentStrategy(plan.strategy)) {
    FailureOr<RowFragmentPlan> rowFragmentPlan =
        planRowFragmentBlock(forall, plan.schedule, plan.smemLimit, why);
    if (failed(rowFragmentPlan))
      return failure();
    plan.rowFragmentPlan = *rowFragmentPlan;
  }
  // The other strategies build the block on the schedule's threads (the
  // row slabs are sized from them); a wgmma tile fixes its warpgroups.
  if (plan.wgmma && plan.wgmma->threads() != plan.threads) {
    why = "it takes " + std::to_string(plan.wgmma->threads()) +
          " threads per block, the schedule " + std::to_string(plan.threads);
    return failure();
  }
  return success();
}

FailureOr<BlockKernelPlan>
DistributeBlocksPass::planBlockKernel(scf::ForallOp forall) {
  FailureOr<int64_t> blocks = staticBlockCount(forall);
  if (failed(blocks))
    return failure();
  BlockKernelPlan plan;
  plan.blocks = *blocks;
  ScheduleAttr schedule = getSMapDialect(forall.getContext())
                              ->getScheduleAttrHelper()
                              .getAttr(forall);
  KernelStrategy strategy =
      schedule ? schedule.getStrategy() : KernelStrategy::None;
  TargetAttr target = blockTarget(forall);
  if (!target.isGPU() || strategy == KernelStrategy::None ||
      strategy == KernelStrategy::Loops || strategy == KernelStrategy::Rows)
    return forall.emitError("smap-distribute-blocks: the blocks need a GPU "
                            "target (smap.target) and a schedule with a "
                            "block strategy (smap.schedule, from "
                            "smap-schedule), got ")
           << target.getName() << " and " << stringifyKernelStrategy(strategy);
  plan.schedule = schedule;
  plan.strategy = strategy;
  plan.threads = schedule.getThreads();
  plan.smemLimit = target.getSmemPerBlock();
  std::string why;
  if (failed(planStrategyCode(forall, target, plan, why)))
    return forall.emitError("smap-distribute-blocks: the schedule's strategy ")
           << stringifyKernelStrategy(strategy) << " cannot be built: " << why;
  return plan;
}

/// A launch of `blocks` blocks of `threads` threads in place of `forall`,
/// the block's body moved into it; its dynamic shared memory size is a
/// placeholder until the buffers are placed.
static gpu::LaunchOp replaceWithLaunch(scf::ForallOp forall, int64_t blocks,
                                       int64_t threads) {
  Location loc = forall.getLoc();
  OpBuilder b(forall);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value grid = arith::ConstantIndexOp::create(b, loc, blocks);
  Value block = arith::ConstantIndexOp::create(b, loc, threads);
  Value smemPlaceholder = arith::ConstantIntOp::create(b, loc, 0, 32);
  auto launch = gpu::LaunchOp::create(b, loc, grid, one, one, block, one, one,
                                      smemPlaceholder);
  Block &kernel = launch.getBody().front();
  Block &forallBody = *forall.getBody();
  forallBody.getTerminator()->erase();
  kernel.getOperations().splice(kernel.end(), forallBody.getOperations());
  forall.getInductionVar(0).replaceAllUsesWith(launch.getBlockIds().x);
  OpBuilder kb = OpBuilder::atBlockEnd(&kernel);
  gpu::TerminatorOp::create(kb, loc);
  forall.erase();
  return launch;
}

/// Sets the dynamic shared memory of `launch` (a placeholder until now) to
/// what its buffers take, and records the kernel it became (#smap.kernel,
/// and a remark).
static void recordBlockKernel(gpu::LaunchOp launch, const BlockKernelPlan &plan,
                              const BufferPlacement &placement,
                              const BlockDistributor &distributor) {
  Location loc = launch.getLoc();
  Value smemPlaceholder = launch.getDynamicSharedMemorySize();
  OpBuilder sb(launch);
  Value smem = arith::ConstantIntOp::create(sb, loc, placement.sharedBytes, 32);
  launch.getDynamicSharedMemorySizeMutable().assign(smem);
  smemPlaceholder.getDefiningOp()->erase();
  KernelAttr record = buildKernelAttr(
      launch.getContext(), plan.schedule, plan.strategy, plan.blocks,
      plan.threads, placement, plan.wgmma, plan.rowFragmentPlan, distributor);
  getSMapDialect(launch.getContext())
      ->getKernelAttrHelper()
      .setAttr(launch, record);
  remark::passed(loc, remarkOpts("distribute-blocks", "block-kernel", launch))
      << ("lowered to one kernel: " + record.describe());
}

/// Whether the block reads 16-bit floats from global memory: a half
/// model's block, whose results are rounded to 16 bits anyway.
static bool readsHalfFloats(gpu::LaunchOp launch) {
  llvm::SetVector<Value> global;
  getUsedValuesDefinedAbove(launch.getBody(), global);
  return llvm::any_of(global, [](Value v) {
    auto type = dyn_cast<MemRefType>(v.getType());
    return type && isa<Float16Type, BFloat16Type>(type.getElementType());
  });
}

LogicalResult DistributeBlocksPass::buildBlockKernel(gpu::LaunchOp launch,
                                                     BlockKernelPlan &plan) {
  Block &kernel = launch.getBody().front();
  ScheduleAttr schedule = plan.schedule;
  SmallVector<Operation *> wgmmaCode;
  if (plan.wgmma)
    wgmmaCode = lowerWgmma(launch, *plan.wgmma);
  // Buffers first, so that the distribution sees which operands live in
  // shared memory (tensor-core fragments load those with ldmatrix).
  std::string why;
  FailureOr<BufferPlacement> placement =
      placeBuffers(launch, plan.smemLimit,
                   plan.rowFragmentPlan ? plan.rowFragmentPlan->promoted
                                        : llvm::DenseSet<Value>(),
                   stagedTileAllocs(kernel), cpAsyncStages(schedule),
                   plan.wgmma ? plan.wgmma->sharedBytes : 0, why);
  if (failed(placement))
    return launch.emitError("smap-distribute-blocks: ") << why;
  // The schedule's shared memory is exact for every strategy but simt,
  // which it bounds (CostModel.h); more means the prediction missed a
  // buffer and the occupancy it ranked by is not the kernel's.
  if (placement->sharedBytes > schedule.getSmemBytes())
    return launch.emitError("smap-distribute-blocks: the block's buffers "
                            "take ")
           << placement->sharedBytes << " bytes of shared memory, more than "
           << "the " << schedule.getSmemBytes() << " its schedule predicted";
  bool tensorCores = plan.strategy != KernelStrategy::Simt;
  BlockDistributor distributor(launch.getThreadIds().x, plan.threads,
                               tensorCores, approxMath);
  distributor.approxTanh = readsHalfFloats(launch);
  distributor.approxHalfExp =
      plan.rowFragmentPlan.has_value() || schedule.getBlocksPerSm() > 0 ||
      residentBySharedMemory(placement->sharedBytes, plan.smemLimit) <= 1;
  distributor.stages = placement->stages;
  distributor.alreadyDistributed.insert(wgmmaCode.begin(), wgmmaCode.end());
  if (failed(plan.rowFragmentPlan ? distributor.distributeRowFragments(
                                        kernel, *plan.rowFragmentPlan)
                                  : distributor.distribute(kernel)))
    return launch.emitError("smap-distribute-blocks: ") << distributor.whyNot;
  // The schedule priced the staged tiles in cp.async stages and placed
  // their copies; a loop built without them would waste that memory and
  // run at another speed than predicted.
  if (!plan.wgmma && cpAsyncStages(schedule) > 1 && !distributor.asyncLoops)
    return launch.emitError("smap-distribute-blocks: the schedule's ")
           << cpAsyncStages(schedule)
           << " cp.async stages cannot be built: the staged tiles that move "
              "with the temporal loop are not copied in 16-byte chunks that "
              "its threads split evenly";
  if (plan.strategy == KernelStrategy::MmaSync &&
      !distributor.mmaContractions)
    return launch.emitError("smap-distribute-blocks: the schedule's strategy "
                            "mma_sync cannot be built: no contraction of the "
                            "block fits mma.sync");
  recordBlockKernel(launch, plan, *placement, distributor);
  return success();
}

LogicalResult DistributeBlocksPass::lowerForall(scf::ForallOp forall) {
  FailureOr<BlockKernelPlan> plan = planBlockKernel(forall);
  if (failed(plan))
    return failure();
  gpu::LaunchOp launch = replaceWithLaunch(forall, plan->blocks, plan->threads);
  // The schedule stays with the launch, for its name (nameKernels) and
  // smap-dump-kernels (outlining drops it with the launch's attributes).
  getSMapDialect(launch.getContext())
      ->getScheduleAttrHelper()
      .setAttr(launch, plan->schedule);
  return buildBlockKernel(launch, *plan);
}

/// Whether `copy` runs as a device memcpy: both buffers contiguous.
static bool isContiguousCopy(memref::CopyOp copy) {
  auto contiguous = [](Value buffer) {
    auto type = dyn_cast<MemRefType>(buffer.getType());
    return type && type.getLayout().isIdentity();
  };
  return contiguous(copy.getSource()) && contiguous(copy.getTarget());
}

LogicalResult DistributeBlocksPass::lowerLoopKernels(func::FuncOp fn) {
  // Code still on tensors was not bufferized (nothing here lowers it).
  SmallVector<Operation *> onTensors;
  fn.walk([&](Operation *op) {
    if (llvm::any_of(op->getResultTypes(), llvm::IsaPred<RankedTensorType>))
      onTensors.push_back(op);
  });
  if (!onTensors.empty())
    return emitOutsideGraphsError(onTensors, fn);
  IRRewriter rewriter(fn.getContext());
  // A copy between strided buffers (a slice of a concatenation) is an
  // elementwise op, not a memcpy.
  for (auto copy : llvm::make_early_inc_range(
           fn.getBody().front().getOps<memref::CopyOp>()))
    if (!isContiguousCopy(copy)) {
      rewriter.setInsertionPoint(copy);
      linalg::makeMemRefCopyOp(rewriter, copy.getLoc(), copy.getSource(),
                               copy.getTarget());
      rewriter.eraseOp(copy);
    }
  SmallVector<linalg::LinalgOp> left;
  for (Operation &op : fn.getBody().front())
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(&op);
        linalgOp && !isDeviceFill(&op))
      left.push_back(linalgOp);
  for (linalg::LinalgOp op : left) {
    if (std::string why = getLoopKernelRefusal(op); !why.empty())
      return op->emitError("smap-distribute-blocks: '")
             << op->getName() << "' in @" << fn.getName()
             << " is outside every fusion graph and cannot run as a loop "
                "kernel: "
             << why;
    Location loc = op.getLoc();
    if (gpu::LaunchOp launch = buildLoopKernel(rewriter, op))
      remark::passed(loc,
                     remarkOpts("distribute-blocks", "loop-kernel", launch))
          << ("outside every fusion graph (see the smap-form-graphs remarks): "
              "lowered to a loop kernel: " +
              getSMapDialect(fn.getContext())
                  ->getKernelAttrHelper()
                  .getAttr(launch)
                  .describe());
  }
  return success();
}

/// Buffers the host code allocates (intermediates between kernels) live on
/// the device; host copies become device copies, constant fills device
/// memsets. Anything else the host would compute cannot run: its operands
/// are device pointers.
LogicalResult DistributeBlocksPass::lowerHostBuffers(func::FuncOp fn) {
  for (Operation &op : fn.getBody().front())
    if (!isa<memref::AllocOp, memref::CopyOp, memref::DeallocOp, func::ReturnOp,
             gpu::LaunchOp, gpu::LaunchFuncOp, gpu::AllocOp, gpu::DeallocOp,
             gpu::WaitOp, nvgpu::TmaCreateDescriptorOp>(op) &&
        !isPure(&op) && !isDeviceFill(&op))
      return emitOutsideGraphsError(&op, fn);
  RewritePatternSet patterns(fn.getContext());
  populateHostBuffersToDevicePatterns(patterns);
  walkAndApplyPatterns(fn, std::move(patterns));
  return success();
}
