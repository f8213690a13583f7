//===- TensorCoreLegality.cpp - When a contraction runs on tensor cores ---===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Analysis/TensorCoreLegality.h"

#include "spacefusion/Analysis/CostModel.h"
#include "spacefusion/Analysis/TF32.h"

using namespace mlir;
using namespace mlir::smap;

bool mlir::smap::isContraction(linalg::LinalgOp op) {
  if (op.getNumReductionLoops() == 0 || op.getNumDpsInputs() < 2)
    return false;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  return llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *input) {
    AffineMap map = op.getMatchingIndexingMap(input);
    bool spansReduced = false, missesParallel = false;
    for (unsigned d = 0; d < map.getNumDims(); ++d) {
      bool used = map.isFunctionOfDim(d);
      if (iterators[d] == utils::IteratorType::reduction)
        spansReduced |= used;
      else
        missesParallel |= !used;
    }
    return spansReduced && missesParallel;
  });
}

arith::MulFOp mlir::smap::getAccumulatedProduct(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1)
    return nullptr;
  Block *body = op.getBlock();
  auto add =
      body->getTerminator()->getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add)
    return nullptr;
  Value acc = body->getArgument(2);
  Value product = add.getLhs() == acc   ? add.getRhs()
                  : add.getRhs() == acc ? add.getLhs()
                                        : Value();
  return product ? product.getDefiningOp<arith::MulFOp>() : nullptr;
}

bool mlir::smap::isMultiplyAccumulate(linalg::LinalgOp op) {
  arith::MulFOp mul = getAccumulatedProduct(op);
  Block *body = op.getBlock();
  // acc + x * y, each factor extended, rounded to TF32, or both (3 ops).
  if (!mul || std::distance(body->begin(), body->end()) > 9)
    return false;
  // A TF32 rounding of a 16-bit extension (a separate conversion fused in
  // after smap-round-contractions-to-tf32) is exact, so it strips too.
  auto strip = [](Value v) {
    if (Value source = getTF32RoundedSource(v))
      v = source;
    if (auto ext = v.getDefiningOp<arith::ExtFOp>())
      return ext.getIn();
    return v;
  };
  Value x = strip(mul.getLhs()), y = strip(mul.getRhs());
  Value arg0 = body->getArgument(0), arg1 = body->getArgument(1);
  return (x == arg0 && y == arg1) || (x == arg1 && y == arg0);
}

/// Whether both factors of multiply-accumulate `op`'s product are its f32
/// inputs rounded to TF32 (smap-round-contractions-to-tf32).
static bool roundsFactorsToTF32(linalg::LinalgOp op) {
  return llvm::all_of(getAccumulatedProduct(op)->getOperands(),
                      [&](Value factor) {
                        Value source = getTF32RoundedSource(factor);
                        return source && isa<BlockArgument>(source) &&
                               cast<BlockArgument>(source).getArgNumber() < 2;
                      });
}

std::optional<Type> mlir::smap::getMmaOperandType(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1)
    return std::nullopt;
  auto elementType = [](Value v) { return getElementTypeOrSelf(v.getType()); };
  Type ta = elementType(op.getDpsInputs()[0]);
  Type tb = elementType(op.getDpsInputs()[1]);
  if (!elementType(op.getDpsInits()[0]).isF32())
    return std::nullopt;
  if (ta.isF32() && tb.isF32() && isMultiplyAccumulate(op) &&
      roundsFactorsToTF32(op))
    return Type(FloatTF32Type::get(op.getContext()));
  Type half = ta.isF32() ? tb : ta;
  if (!(half.isF16() || half.isBF16()) || !(ta == half || ta.isF32()) ||
      !(tb == half || tb.isF32()))
    return std::nullopt;
  return half;
}

std::optional<MmaShape>
mlir::smap::matchMmaSyncShape(linalg::LinalgOp op,
                              ArrayRef<int64_t> loopExtents) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      loopExtents.size() != op.getNumLoops())
    return std::nullopt;
  SmallVector<unsigned> reductions, parallel;
  for (auto [d, kind] : llvm::enumerate(op.getIteratorTypesArray())) {
    if (kind == utils::IteratorType::reduction)
      reductions.push_back(d);
    else if (loopExtents[d] != 1)
      parallel.push_back(d);
  }
  if (reductions.size() != 1 || parallel.size() != 2)
    return std::nullopt;
  OpOperand *in0 = op.getDpsInputOperand(0), *in1 = op.getDpsInputOperand(1);
  auto uses = [&](OpOperand *operand, unsigned d) {
    return op.getMatchingIndexingMap(operand).isFunctionOfDim(d);
  };
  MmaShape shape;
  shape.k = reductions[0];
  unsigned p0 = parallel[0], p1 = parallel[1];
  if (!uses(in0, shape.k) || !uses(in1, shape.k))
    return std::nullopt;
  if (uses(in0, p0) && !uses(in0, p1) && uses(in1, p1) && !uses(in1, p0)) {
    shape.m = p0;
    shape.n = p1;
  } else if (uses(in0, p1) && !uses(in0, p0) && uses(in1, p0) &&
             !uses(in1, p1)) {
    shape.m = p1;
    shape.n = p0;
  } else {
    return std::nullopt;
  }
  shape.extentM = loopExtents[shape.m];
  shape.extentN = loopExtents[shape.n];
  shape.extentK = loopExtents[shape.k];
  std::optional<Type> operandType = getMmaOperandType(op);
  if (!operandType || !isMultiplyAccumulate(op) ||
      !fitsMmaSyncTile(shape.extentM, shape.extentN, shape.extentK,
                       getMmaSyncTileK(*operandType)))
    return std::nullopt;
  shape.operandType = *operandType;
  return shape;
}

/// Whether `input`'s innermost dim is a reduced loop of `op` (k-major).
static bool readsKMajor(linalg::LinalgOp op, OpOperand *input) {
  AffineMap map = op.getMatchingIndexingMap(input);
  if (map.getNumResults() == 0)
    return false;
  auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
  return last && op.getIteratorTypesArray()[last.getPosition()] ==
                     utils::IteratorType::reduction;
}

bool mlir::smap::readsBothOperandsKMajor(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumReductionLoops() != 1)
    return false;
  return llvm::all_of(op.getDpsInputOperands(),
                      [&](OpOperand *input) { return readsKMajor(op, input); });
}

std::optional<Type> mlir::smap::getStagedTileType(linalg::LinalgOp op,
                                                  OpOperand *input,
                                                  ArrayRef<int64_t> loopExtents,
                                                  bool tensorCores) {
  if (op.getNumReductionLoops() == 0 || op.getNumDpsInputs() != 2 ||
      isa<linalg::CopyOp>(op.getOperation()))
    return std::nullopt;
  Type element = getElementTypeOrSelf(input->get().getType());
  if (element.isIntOrFloat() && element.getIntOrFloatBitWidth() == 16)
    return element;
  if (!tensorCores && element.isF32() && isMultiplyAccumulate(op))
    return element;
  if (!tensorCores || !element.isF32() ||
      !isa<linalg::GenericOp>(op.getOperation()) ||
      op.getNumReductionLoops() != 1)
    return std::nullopt;
  std::optional<MmaShape> shape = matchMmaSyncShape(op, loopExtents);
  if (!shape)
    return std::nullopt;
  // TF32 operands stay f32 in memory; they are rounded as they are loaded.
  return shape->operandType.isTF32() ? element : shape->operandType;
}

int64_t mlir::smap::getMmaSyncTileK(Type operandType) {
  return operandType.isTF32() ? 8 : 16;
}

int64_t mlir::smap::getMmaRegisterElements(Type operandType) {
  return operandType.isTF32() ? 1 : 2;
}

int64_t mlir::smap::getStagedRowPadding(Type stagedType) {
  return 16 / std::max<int64_t>(1, stagedType.getIntOrFloatBitWidth() / 8);
}

int64_t mlir::smap::getStagedRowPadding(linalg::LinalgOp op, OpOperand *input,
                                        Type stagedType) {
  std::optional<Type> operandType = getMmaOperandType(op);
  bool tf32ElementByElement = operandType && operandType->isTF32() &&
                              op.getNumReductionLoops() == 1 &&
                              !readsKMajor(op, input);
  return tf32ElementByElement ? 8 : getStagedRowPadding(stagedType);
}

bool mlir::smap::splitsEvenly(int64_t chunks, int64_t threads,
                              int64_t maxPerThread) {
  return threads > 0 && chunks > 0 && chunks % threads == 0 &&
         chunks / threads <= maxPerThread;
}
