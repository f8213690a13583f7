//===- WidenAccumulators.cpp - Accumulate 16-bit sums in f32 --------------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// A contraction whose storage type is its compute type (`linalg.matmul` of
// f16 into f16, as frontends write "storage = compute") accumulates in f16,
// which no tensor-core strategy of this project builds. This pattern
// accumulates it in f32 and rounds the result once: the products of two
// 16-bit values are exact in f32 and the sum is at least as accurate, which
// is what cuBLAS and PyTorch compute for a 16-bit GEMM (docs/Rationale.md,
// "16-bit accumulators"). The contraction is then the frontends' mixed
// precision form, which the tensor-core strategies take.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Dialect/SMap/Transforms/GraphUtils.h"
#include "spacefusion/Dialect/SMap/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace smap {
#define GEN_PASS_DEF_SMAPWIDENACCUMULATORSPASS
#include "spacefusion/Dialect/SMap/Transforms/Passes.h.inc"
} // namespace smap
} // namespace mlir

using namespace mlir;

/// A 16-bit float type.
static bool is16BitFloat(Type type) { return type.isF16() || type.isBF16(); }

/// Whether `inner`, an op of a reduction's body, computes in `type` only
/// and is float arithmetic that can be retyped to f32: add, sub, mul, div,
/// max, min, neg, exp (an exp fused into a softmax's row sum by
/// linalg-fuse-elementwise-ops).
static bool isRetypableArithmetic(Operation &inner, Type type) {
  auto ofType = [&](Type t) { return t == type; };
  return isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
             arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
             arith::MinNumFOp, arith::NegFOp, math::ExpOp, math::Exp2Op>(
             inner) &&
         llvm::all_of(inner.getResultTypes(), ofType) &&
         llvm::all_of(inner.getOperandTypes(), ofType);
}

/// Whether `op` is a contraction or a sum accumulating in a 16-bit float:
/// one 16-bit result, reduction loops, inputs of that type, and a body of
/// float arithmetic on them only (isRetypableArithmetic), whose accumulator
/// is combined by addition. A sum (a softmax's row sum, an RMSNorm's sum of
/// squares) is widened for the reason a contraction is: an f16 sum of n
/// terms errs by up to n/2 units in its last place and overflows at 65504,
/// while the f32 sum rounded once errs by half a unit. Max and min
/// reductions are exact in any type and stay as written.
static bool accumulatesIn16Bits(linalg::LinalgOp op) {
  if (op->getNumResults() != 1 || op.getNumReductionLoops() == 0 ||
      op.getNumDpsInputs() < 1 || !op.hasPureTensorSemantics())
    return false;
  Type type = getElementTypeOrSelf(op->getResult(0).getType());
  if (!is16BitFloat(type) ||
      llvm::any_of(op.getDpsInputs(), [&](Value input) {
        return getElementTypeOrSelf(input.getType()) != type;
      }))
    return false;
  Block *body = op.getBlock();
  auto add = body->getTerminator()->getOperand(0).getDefiningOp<arith::AddFOp>();
  Value acc = op.getRegionOutputArgs()[0];
  if (!add || (add.getLhs() != acc && add.getRhs() != acc) ||
      !acc.hasOneUse())
    return false;
  return llvm::all_of(body->without_terminator(), [&](Operation &inner) {
    return isRetypableArithmetic(inner, type);
  });
}

namespace {
/// Rewrites a 16-bit-accumulating contraction (a named one generalized
/// first) into an f32-accumulating generic over the same operands, its init
/// extended, and an elementwise rounding of its result.
struct WidenAccumulator : public OpInterfaceRewritePattern<linalg::LinalgOp> {
  WidenAccumulator(MLIRContext *ctx, ArrayRef<std::string> excludedOps)
      : OpInterfaceRewritePattern(ctx), excludedOps(excludedOps) {}

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (llvm::is_contained(excludedOps, op->getName().getStringRef()))
      return rewriter.notifyMatchFailure(op, "excluded");
    if (!accumulatesIn16Bits(op))
      return rewriter.notifyMatchFailure(op, "not a 16-bit accumulation");
    linalg::GenericOp generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!generic) {
      FailureOr<linalg::GenericOp> generalized =
          linalg::generalizeNamedOp(rewriter, op);
      if (failed(generalized))
        return rewriter.notifyMatchFailure(op, "cannot be generalized");
      generic = *generalized;
    }
    Location loc = generic.getLoc();
    auto resultType = cast<RankedTensorType>(generic.getResultTypes()[0]);
    Type narrow = resultType.getElementType();
    Type f32 = rewriter.getF32Type();
    Value init = convert(rewriter, loc, generic.getDpsInits()[0], f32);
    SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
    auto wide = linalg::GenericOp::create(
        rewriter, loc, TypeRange{init.getType()}, generic.getDpsInputs(), init,
        maps, generic.getIteratorTypesArray(),
        [&](OpBuilder &b, Location l, ValueRange args) {
          IRMapping mapping;
          Block *body = generic.getBlock();
          for (auto [old, arg] : llvm::zip(body->getArguments(), args))
            mapping.map(old, arg.getType() == f32
                                 ? arg
                                 : arith::ExtFOp::create(b, l, f32, arg));
          for (Operation &inner : body->without_terminator()) {
            // A scalar captured from above (a scale) is extended in place.
            for (Value operand : inner.getOperands())
              if (!mapping.contains(operand))
                mapping.map(operand, arith::ExtFOp::create(b, l, f32, operand));
            Operation *clone = b.clone(inner, mapping);
            clone->getResult(0).setType(f32);
          }
          linalg::YieldOp::create(
              b, l, mapping.lookup(body->getTerminator()->getOperand(0)));
        });
    rewriter.replaceOp(generic,
                       convert(rewriter, loc, wide.getResult(0), narrow));
    return success();
  }

private:
  SmallVector<std::string> excludedOps;

  /// `value` with its elements converted to `type` (createFloatConversion);
  /// a fill of a tensor.empty becomes a fill of the new type.
  static Value convert(PatternRewriter &rewriter, Location loc, Value value,
                       Type type) {
    auto tensorType = cast<RankedTensorType>(value.getType());
    Value empty = tensor::EmptyOp::create(rewriter, loc, tensorType.getShape(),
                                          type);
    if (auto fill = value.getDefiningOp<linalg::FillOp>();
        fill && fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>()) {
      Value scalar = arith::ExtFOp::create(rewriter, loc, type,
                                           fill.getInputs()[0]);
      return linalg::FillOp::create(rewriter, loc, scalar, empty).getResult(0);
    }
    return smap::createFloatConversion(rewriter, loc, value, empty)
        .getResult(0);
  }
};
} // namespace

void mlir::smap::populateWidenAccumulatorsPatterns(
    RewritePatternSet &patterns, ArrayRef<std::string> excludedOps) {
  patterns.add<WidenAccumulator>(patterns.getContext(), excludedOps);
}

namespace {
struct WidenAccumulatorsPass
    : public smap::impl::SMapWidenAccumulatorsPassBase<WidenAccumulatorsPass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    smap::populateWidenAccumulatorsPatterns(patterns, excludeOps);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
