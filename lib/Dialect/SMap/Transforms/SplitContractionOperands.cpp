//===- SplitContractionOperands.cpp - Unfuse contraction prologues --------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// Upstream elementwise fusion (`--linalg-fuse-elementwise-ops`, common in
// IREE and torch-mlir flows) moves elementwise producers into the bodies
// of their consumers, contractions included: attention's normalization
// P = E / Sum lands in the P.V contraction, which then reads three tensors
// and computes `acc + (e / s) * v`. The dependency structure is unchanged,
// but such a member is no longer a contraction of two matrices, so the
// tensor-core strategies do not apply to it. This pattern materializes a
// multiplicand computed from several inputs as an elementwise generic of
// its own, restoring `acc + x * y` over two operands.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Dialect/SMap/Transforms/Passes.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace smap {
#define GEN_PASS_DEF_SMAPSPLITCONTRACTIONOPERANDSPASS
#include "spacefusion/Dialect/SMap/Transforms/Passes.h.inc"
} // namespace smap
} // namespace mlir

using namespace mlir;

namespace {

/// One multiplicand of a contraction body `acc + x * y`: the body value to
/// materialize (x, or t where x = extf(t)), the ops computing it, and the
/// inputs it reads.
struct Multiplicand {
  Value value;
  llvm::SetVector<Operation *> ops;
  SmallVector<OpOperand *> inputs;
};

/// The loops a multiplicand's inputs use, in order: the domain of the
/// generic that materializes it.
struct MultiplicandDomain {
  /// The contraction's loops in the domain.
  SmallVector<unsigned> loops;
  /// Each contraction loop as a domain dim (0 for a loop outside it).
  SmallVector<AffineExpr> toDomain;
  /// Each domain dim as a contraction loop.
  SmallVector<AffineExpr> projection;
  /// The domain's static extents (dynamic where the loop's is).
  SmallVector<int64_t> shape;
};

struct SplitContractionOperand : public OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override;
};
} // namespace

/// The multiply of `acc + x * y` (either order) yielded by `op`'s body.
static arith::MulFOp matchMultiplyAccumulate(linalg::GenericOp op) {
  if (op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 1)
    return nullptr;
  Block *body = op.getBlock();
  auto add = body->getTerminator()->getOperand(0).getDefiningOp<arith::AddFOp>();
  Value acc = op.getRegionOutputArgs()[0];
  if (!add || (add.getLhs() != acc && add.getRhs() != acc))
    return nullptr;
  Value product = add.getLhs() == acc ? add.getRhs() : add.getLhs();
  return product.getDefiningOp<arith::MulFOp>();
}

/// The multiplicand `x` of `op`'s multiply `mul` when it reads two or more
/// inputs, in ops used by nothing else, with projected-permutation maps.
static std::optional<Multiplicand> splittable(linalg::GenericOp op,
                                              arith::MulFOp mul, Value x) {
  Multiplicand m;
  m.value = x;
  // The op reading the materialized value: the multiply, or the extension.
  Operation *reader = mul;
  if (auto ext = x.getDefiningOp<arith::ExtFOp>()) {
    m.value = ext.getIn();
    reader = ext;
  }
  Block *body = op.getBlock();
  BackwardSliceOptions options;
  options.inclusive = true;
  options.filter = [&](Operation *inner) { return inner->getBlock() == body; };
  if (Operation *def = m.value.getDefiningOp())
    if (failed(getBackwardSlice(def, &m.ops, options)))
      return std::nullopt;
  llvm::SmallSetVector<BlockArgument, 4> args;
  if (auto arg = dyn_cast<BlockArgument>(m.value))
    args.insert(arg);
  for (Operation *inner : m.ops) {
    if (isa<linalg::IndexOp>(inner))
      return std::nullopt;
    for (Value operand : inner->getOperands())
      if (auto arg = dyn_cast<BlockArgument>(operand);
          arg && arg.getOwner() == body)
        args.insert(arg);
    // Used only inside the multiplicand (or by the op reading it).
    for (Operation *user : inner->getUsers())
      if (!m.ops.contains(user) && user != reader)
        return std::nullopt;
  }
  for (BlockArgument arg : args) {
    if (arg.getArgNumber() >= op.getNumDpsInputs())
      return std::nullopt;
    OpOperand *input = op.getDpsInputOperand(arg.getArgNumber());
    if (!op.getMatchingIndexingMap(input).isProjectedPermutation())
      return std::nullopt;
    m.inputs.push_back(input);
  }
  if (m.inputs.size() < 2)
    return std::nullopt;
  return m;
}

/// The domain of `m`, a multiplicand of `op`.
static MultiplicandDomain getMultiplicandDomain(linalg::GenericOp op,
                                                const Multiplicand &m) {
  MultiplicandDomain domain;
  llvm::SmallSetVector<unsigned, 4> used;
  for (OpOperand *input : m.inputs)
    for (AffineExpr e : op.getMatchingIndexingMap(input).getResults())
      used.insert(cast<AffineDimExpr>(e).getPosition());
  domain.loops.assign(used.begin(), used.end());
  llvm::sort(domain.loops);
  MLIRContext *ctx = op.getContext();
  domain.toDomain.assign(op.getNumLoops(), getAffineConstantExpr(0, ctx));
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  for (auto [i, d] : llvm::enumerate(domain.loops)) {
    domain.toDomain[d] = getAffineDimExpr(i, ctx);
    domain.projection.push_back(getAffineDimExpr(d, ctx));
    domain.shape.push_back(ranges[d]);
  }
  return domain;
}

/// Creates the generic computing multiplicand `m` of `op`, elementwise over
/// its `domain`.
static linalg::GenericOp createMultiplicand(PatternRewriter &rewriter,
                                            linalg::GenericOp op,
                                            const Multiplicand &m,
                                            const MultiplicandDomain &domain) {
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  unsigned rank = domain.loops.size();
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (OpOperand *input : m.inputs) {
    inputs.push_back(input->get());
    maps.push_back(op.getMatchingIndexingMap(input).replaceDimsAndSymbols(
        domain.toDomain, {}, rank, 0));
  }
  maps.push_back(AffineMap::getMultiDimIdentityMap(rank, ctx));
  Value init =
      tensor::EmptyOp::create(rewriter, loc, domain.shape, m.value.getType());
  SmallVector<utils::IteratorType> parallel(rank,
                                            utils::IteratorType::parallel);
  return linalg::GenericOp::create(
      rewriter, loc, init.getType(), inputs, init, maps, parallel,
      [&](OpBuilder &b, Location l, ValueRange args) {
        IRMapping mapping;
        for (auto [input, arg] : llvm::zip(m.inputs, args))
          mapping.map(op.getMatchingBlockArgument(input), arg);
        for (Operation *inner : m.ops)
          b.clone(*inner, mapping);
        linalg::YieldOp::create(b, l, mapping.lookupOrDefault(m.value));
      });
}

/// Creates `op` reading `multiplicand` (the materialized `m`, through
/// `projection`) in place of `m`'s inputs.
static linalg::GenericOp createContractionOf(PatternRewriter &rewriter,
                                             linalg::GenericOp op,
                                             const Multiplicand &m,
                                             Value multiplicand,
                                             AffineMap projection) {
  SmallVector<Value> newInputs{multiplicand};
  SmallVector<AffineMap> newMaps{projection};
  SmallVector<OpOperand *> kept;
  for (OpOperand *input : op.getDpsInputOperands())
    if (!llvm::is_contained(m.inputs, input)) {
      kept.push_back(input);
      newInputs.push_back(input->get());
      newMaps.push_back(op.getMatchingIndexingMap(input));
    }
  OpOperand *initOperand = op.getDpsInitOperand(0);
  newMaps.push_back(op.getMatchingIndexingMap(initOperand));
  return linalg::GenericOp::create(
      rewriter, op.getLoc(), op.getResultTypes(), newInputs, initOperand->get(),
      newMaps, op.getIteratorTypesArray(),
      [&](OpBuilder &b, Location l, ValueRange args) {
        IRMapping mapping;
        mapping.map(m.value, args[0]);
        for (auto [input, arg] : llvm::zip(kept, args.drop_front()))
          mapping.map(op.getMatchingBlockArgument(input), arg);
        mapping.map(op.getMatchingBlockArgument(initOperand), args.back());
        for (Operation &inner : op.getBlock()->without_terminator())
          if (!m.ops.contains(&inner))
            b.clone(inner, mapping);
        linalg::YieldOp::create(
            b, l,
            mapping.lookup(op.getBlock()->getTerminator()->getOperand(0)));
      });
}

LogicalResult
SplitContractionOperand::matchAndRewrite(linalg::GenericOp op,
                                         PatternRewriter &rewriter) const {
  arith::MulFOp mul = matchMultiplyAccumulate(op);
  if (!mul || !op.hasPureTensorSemantics())
    return rewriter.notifyMatchFailure(op, "not acc + x * y on tensors");
  std::optional<Multiplicand> m = splittable(op, mul, mul.getLhs());
  if (!m)
    m = splittable(op, mul, mul.getRhs());
  if (!m)
    return rewriter.notifyMatchFailure(op, "no multiplicand of several inputs");

  MultiplicandDomain domain = getMultiplicandDomain(op, *m);
  if (llvm::any_of(domain.shape, ShapedType::isDynamic))
    return rewriter.notifyMatchFailure(op, "dynamic loop range");

  linalg::GenericOp producer = createMultiplicand(rewriter, op, *m, domain);
  AffineMap projection =
      AffineMap::get(op.getNumLoops(), 0, domain.projection, op.getContext());
  linalg::GenericOp contraction =
      createContractionOf(rewriter, op, *m, producer.getResult(0), projection);
  rewriter.replaceOp(op, contraction.getResults());
  return success();
}

void mlir::smap::populateSplitContractionOperandsPatterns(
    RewritePatternSet &patterns) {
  patterns.add<SplitContractionOperand>(patterns.getContext());
}

namespace {
struct SplitContractionOperandsPass
    : public smap::impl::SMapSplitContractionOperandsPassBase<
          SplitContractionOperandsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    smap::populateSplitContractionOperandsPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
