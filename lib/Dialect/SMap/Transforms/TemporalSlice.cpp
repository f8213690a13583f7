//===- TemporalSlice.cpp - Temporal slicing with Update-then-Aggregate ----===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// Rewrites an SMG block into a serial loop over slices of one dim. The plan
// classifies every member (computed once, per slice, as a reduction along
// the dim, or from finished reductions) and derives, from the scalar bodies,
// how each reduction's partial result depends on earlier reductions: not at
// all, through an exp(+-c) factor (rescaled), through a multiplicative g(c)
// factor (postponed after the loop), or as a sum of squares around a shift
// (shift formula / Chan). The builder then writes the smap.temporal_slice
// ops with the update functions spelled out in their update regions.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Analysis/BlockBuffers.h"
#include "spacefusion/Analysis/MaskPredicate.h"
#include "spacefusion/Analysis/Remarks.h"
#include "spacefusion/Analysis/SpaceMappingGraph.h"
#include "spacefusion/Analysis/TemporalSlicePlan.h"
#include "spacefusion/Analysis/TensorCoreLegality.h"
#include "spacefusion/Dialect/SMap/Transforms/GraphUtils.h"
#include "spacefusion/Dialect/SMap/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace smap {
#define GEN_PASS_DEF_SMAPTEMPORALSLICEPASS
#include "spacefusion/Dialect/SMap/Transforms/Passes.h.inc"
} // namespace smap
} // namespace mlir

using namespace mlir;
using namespace mlir::smap;

namespace {

/// Builds `linalg.generic` ops over the dims of one tensor with inputs
/// broadcast by global dim.
class ElementwiseBuilder {
public:
  ElementwiseBuilder(const SpaceMappingGraph &smg) : smg(smg) {}

  /// Global dims of each tensor dim of `orig` (a value of the graph); a
  /// tensor dim collapsed from several dims has them all, a unit dim none.
  SmallVector<SmallVector<unsigned>> dimsOf(Value orig) const {
    return smg.getValueDims(orig);
  }

  /// The map from `outOrig`'s iteration space to `inOrig`'s dims.
  FailureOr<AffineMap> broadcastMap(Value inOrig, Value outOrig) const {
    return getBroadcastMap(smg, inOrig, outOrig);
  }

  /// A generic producing a tensor like `outValue` (whose graph value is
  /// `outOrig`) from `inputs` (paired with their graph values).
  FailureOr<Value>
  build(OpBuilder &b, Location loc, Value outValue, Value outOrig,
        ArrayRef<std::pair<Value, Value>> inputs,
        function_ref<Value(OpBuilder &, Location, ValueRange)> body) const {
    MLIRContext *ctx = b.getContext();
    auto type = cast<RankedTensorType>(outValue.getType());
    SmallVector<AffineMap> maps;
    SmallVector<Value> ins;
    for (auto [value, orig] : inputs) {
      FailureOr<AffineMap> map = broadcastMap(orig, outOrig);
      if (failed(map))
        return failure();
      maps.push_back(*map);
      ins.push_back(value);
    }
    maps.push_back(AffineMap::getMultiDimIdentityMap(type.getRank(), ctx));
    Value init =
        tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
    SmallVector<utils::IteratorType> iterators(type.getRank(),
                                               utils::IteratorType::parallel);
    auto generic = linalg::GenericOp::create(
        b, loc, TypeRange{type}, ins, ValueRange{init}, maps, iterators,
        [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
          Value result = body(nested, nestedLoc, args.drop_back());
          linalg::YieldOp::create(nested, nestedLoc, result);
        });
    return generic.getResult(0);
  }

private:
  const SpaceMappingGraph &smg;
};

/// Rewrites a graph into temporal slices of dim `plan.t` as `plan` says.
class TemporalSlicer {
public:
  TemporalSlicer(GraphOp graph, const SpaceMappingGraph &smg,
                 const TemporalSlicePlan &plan, int64_t step)
      : graph(graph), smg(smg), t(plan.t), step(step),
        extent(smg.getDims()[plan.t].extent), elementwise(smg),
        members(plan.members), roles(plan.roles), infos(plan.infos),
        reductions(plan.reductions), reductionIndex(plan.reductionIndex),
        runningNeeded(plan.runningNeeded), inMainLoop(plan.inMainLoop),
        plan(plan) {}

  /// Rewrites the graph body; fails with `whyNot` set.
  LogicalResult rewrite();

  std::string whyNot;
  /// The slices the main loop skips, for the remark ("" when none), or why
  /// a mask skips none.
  std::string skipped, notSkipped;
  /// The masks tested only on the slices that cut them.
  SmallVector<UnmaskedSlices, 1> unmasked;

private:
  bool hasT(Value v) const { return smg.isIndexedBy(v, t); }
  /// Values computed from reductions along t (lacking t themselves).
  bool isReduced(Value v) const { return plan.isReduced(v); }
  std::string nameOf(Operation *op) const { return smg.nameOf(op); }

  // Rewriting helpers.
  Type sliceType(Value orig) const;
  /// Offsets, sizes and strides of `orig`'s slice at `offset` along t.
  void sliceGeometry(OpBuilder &b, Value orig, Value offset,
                     RankedTensorType sliceType,
                     SmallVectorImpl<OpFoldResult> &offsets,
                     SmallVectorImpl<OpFoldResult> &sizes,
                     SmallVectorImpl<OpFoldResult> &strides);
  Value extractSlice(OpBuilder &b, Value full, Value orig, Value offset);
  /// The running value of reduction result `orig`: its state, combined
  /// with the slice's partial unless `old`, a sum scaled to the whole dim.
  FailureOr<Value> runningReduction(OpBuilder &b, Value orig, bool old);
  FailureOr<Value> runningValue(OpBuilder &b, Value orig, bool old,
                                Value offset);
  FailureOr<Value> runningShift(OpBuilder &b, Value orig, bool old,
                                Value offset);
  bool isExpShift(Value orig) const;
  /// Whether the slice size leaves a shorter last slice.
  bool isRagged() const { return extent % step != 0; }
  /// Where a slice at nominal offset `offset` is read: `offset`, or for
  /// the ragged last slice the last `step` elements of the dim.
  Value readOffset(OpBuilder &b, Value offset);
  /// `bound` as an index value.
  Value boundValue(OpBuilder &b, Location loc, const SliceBound &bound);
  /// `bound` as an index value: the max (or min) of its parts'.
  Value boundValue(OpBuilder &b, Location loc, const KeyBound &bound);
  /// The one element of `input` (a one-element integer graph input) as an
  /// index, read once at the start of the graph body.
  Value elementValue(Value input);
  /// The main loop's end for keys hidden from `bound` on: whole slices, at
  /// least one, at most the dim.
  Value loopEnd(OpBuilder &b, Location loc, const KeyBound &bound);
  /// The main loop's start for keys hidden below `bound`: the slice that
  /// holds it.
  Value loopStart(OpBuilder &b, Location loc, const KeyBound &bound);
  /// The loop dim of `op` (a member) that iterates over t, if any.
  std::optional<unsigned> loopDimOfT(linalg::LinalgOp op) const;
  /// `x` where `index` (along t, counted from the read offset) is at least
  /// `firstValid`, `zero` elsewhere.
  static Value keepFrom(OpBuilder &b, Location loc, unsigned index,
                        Value firstValid, Value x, Value zero);
  /// Leaves `unmasked`'s test out of `clone` (its copy in the loop, reading
  /// the slice at `at`) on the slices that every row sees whole.
  void testOnlyCutSlices(OpBuilder &b, const UnmaskedSlices &unmasked,
                         linalg::LinalgOp clone, Value at);
  /// Zeroes, in `partial`, the elements of one contraction operand that
  /// earlier slices combined already.
  void maskContractionOperand(OpBuilder &b, linalg::LinalgOp orig,
                              linalg::LinalgOp partial, unsigned tLoop,
                              Value firstValid);
  void maskRepeated(OpBuilder &b, linalg::LinalgOp orig,
                    linalg::LinalgOp partial, Combiner combiner,
                    Value firstValid);
  /// The value in the loop of `v`, an operand computed from reductions: its
  /// running value, or an empty tensor when only removed factors use it.
  FailureOr<Value> runningOperand(OpBuilder &b, Location loc, Value v,
                                  Value offset);
  /// The slice at `offset` of `v`, an operand indexed by t, made once per
  /// slice region.
  Value sliceOperand(OpBuilder &b, Location loc, Value v, Value offset);
  /// Maps the operands of `op` to their values in the loop at `offset`.
  LogicalResult mapOperandsInLoop(OpBuilder &b, Operation *op, Value offset,
                                  IRMapping &mapping);
  /// Shifts the linalg.index ops of `clone` along t by `offset`.
  void shiftIndicesAlongT(linalg::LinalgOp orig, linalg::LinalgOp clone,
                          Value offset);
  /// Replaces by 1 the factors of finished reductions that `orig`'s stream
  /// postpones, in `clone`'s body.
  void stripFinishedFactors(linalg::LinalgOp orig, linalg::LinalgOp clone);
  FailureOr<Value> cloneInLoop(OpBuilder &b, Operation *op, Value offset,
                               bool stripFactors, bool identityInit);
  Value identityFill(OpBuilder &b, Location loc, Type type, Combiner c);
  FailureOr<Value> applyCorrection(OpBuilder &b, Value acc, Value accOrig,
                                   const StrippedFactor &factor,
                                   IRMapping &finals);
  /// Counts the elements seen before and after the slice at `offset`
  /// (seenOld, seenNew); returns where the slice is read, and sets
  /// `firstValid` on a ragged last slice.
  Value startSlice(OpBuilder &sb, Value offset, Value &firstValid);
  /// Clones the slice of every member of the main loop, read at `at`.
  LogicalResult cloneSliceMembers(OpBuilder &sb, Value at, Value firstValid);
  /// Adds the running values of `orig` before and after the slice to the
  /// contributions; returns their positions.
  FailureOr<std::pair<unsigned, unsigned>>
  contributeOldAndNew(OpBuilder &sb, Value orig, Value at);
  /// The slice's sum of the shifted values x - c_new of centered square `r`.
  FailureOr<Value> buildShiftedSum(OpBuilder &sb, const ReductionPlan &r,
                                   Value firstValid);
  /// Contributions: each partial, plus what its update needs.
  LogicalResult collectContributions(OpBuilder &sb, Value offset, Value at,
                                     Value firstValid);
  LogicalResult buildSliceRegion(Block *sliceBlock, Value offset);
  double elementsPerOffset(Operation *reduction) const;

  /// Where each reduction's update finds its inputs among the slice
  /// region's contributions.
  struct UpdateInputs {
    unsigned partial;
    SmallVector<std::pair<unsigned, unsigned>> terms; // (old, new) per term
    unsigned shiftedPartial = 0, shiftOld = 0, shiftNew = 0;
  };
  /// The update region's arguments, and what every update reads of them.
  struct UpdateArgs {
    SmallVector<Value> states, contributions;
    /// Whether this is the first slice the loop runs.
    Value firstSlice;
    /// The offsets along t before this slice, as f64.
    Value seenBefore;
  };
  /// Sets `args.firstSlice` and `args.seenBefore` from the slice's offset
  /// (the first contribution).
  void startUpdate(OpBuilder &ub, UpdateArgs &args);
  /// The combine of `state` with `partial`, for an independent reduction.
  FailureOr<Value> buildIndependentUpdate(OpBuilder &ub, const ReductionPlan &r,
                                          Value state, Value partial);
  /// The state rescaled to the running shifts, plus the partial.
  FailureOr<Value> buildRescaledUpdate(OpBuilder &ub, const ReductionPlan &r,
                                       const UpdateInputs &in, Value state,
                                       const UpdateArgs &args);
  /// Adds to `newStates` the sum of squares and the shifted sum of centered
  /// square `r`, combined by the shift formula.
  LogicalResult buildCenteredSquareUpdate(OpBuilder &ub, const ReductionPlan &r,
                                          const UpdateInputs &in, Value state,
                                          Value shiftedState,
                                          const UpdateArgs &args,
                                          SmallVectorImpl<Value> &newStates);
  LogicalResult buildUpdateRegion(TemporalSliceOp loop);
  LogicalResult buildEpilogue(OpBuilder &b, TemporalSliceOp loop,
                              IRMapping &finals);
  /// The members that compute the streamed outputs (`outputs[i]` for `i` in
  /// `streamedOutputs`), through streamed members.
  llvm::SmallPtrSet<Operation *, 16>
  getStreamedProducers(ArrayRef<Value> outputs,
                       ArrayRef<unsigned> streamedOutputs) const;
  /// The final pass's slice region: the streamed outputs at one offset,
  /// recomputed from `finals`; returns what it yields.
  FailureOr<SmallVector<Value>>
  buildFinalPassSlice(TemporalSliceOp pass, ArrayRef<Value> outputs,
                      ArrayRef<unsigned> streamedOutputs, ValueRange outInits,
                      const IRMapping &finals);
  /// The final pass's update region: inserts `yieldedSlices` (the slice
  /// region's) into the outputs.
  void buildFinalPassUpdate(TemporalSliceOp pass, ArrayRef<Value> outputs,
                            ArrayRef<unsigned> streamedOutputs,
                            ValueRange outInits, ArrayRef<Value> yieldedSlices);
  LogicalResult buildFinalPass(OpBuilder &b, DimAttr dim, IRMapping &finals,
                               SmallVectorImpl<Value> &finalOutputs);

  /// A slot of the carried state: its reduction, and whether it is the
  /// shifted sum (L) of a centered square.
  using StateSlot = std::pair<Operation *, bool>;
  /// The state `r` starts the loop from, built by `b`.
  Value initialState(OpBuilder &b, const ReductionPlan &r);
  /// The carried state: one partial per reduction (plus the shifted sum of
  /// a centered square), initialized from the reduction's own init.
  void buildInitialStates(OpBuilder &b, SmallVectorImpl<Value> &inits,
                          SmallVectorImpl<StateSlot> &slots);
  /// Sets `lower` and returns the upper bound (null if none) of the main
  /// loop when a mask hides slices.
  Value buildSkipBounds(OpBuilder &b);
  /// The main loop, from `inits`, with its slice block's arguments (the
  /// offset, set in `offset`, and the states); the regions are built later.
  TemporalSliceOp createMainLoop(OpBuilder &b, DimAttr dim, Value upper,
                                 ValueRange inits, ArrayRef<StateSlot> slots,
                                 Value &offset);
  /// Erases the members the loops replace, or fails with `whyNot` set if
  /// one is still used.
  LogicalResult eraseRewrittenMembers();

  GraphOp graph;
  const SpaceMappingGraph &smg;
  unsigned t;
  int64_t step, extent;
  ElementwiseBuilder elementwise;
  // The plan, by name.
  const SmallVector<Operation *> &members;
  const DenseMap<Operation *, SliceRole> &roles;
  const DenseMap<Value, StreamInfo> &infos;
  const SmallVector<ReductionPlan> &reductions;
  const DenseMap<Operation *, unsigned> &reductionIndex;
  const llvm::SetVector<Value> &runningNeeded;
  const llvm::SmallPtrSet<Operation *, 16> &inMainLoop;
  const TemporalSlicePlan &plan;
  /// The elements of one-element inputs that mask bounds read.
  DenseMap<Value, Value> elementValues;

  // State of the rewrite of one slice region.
  IRMapping loopMap;
  DenseMap<std::pair<Value, unsigned>, Value> runningCache, shiftCache;
  DenseMap<Value, Value> sliceCache;
  DenseMap<Operation *, Value> partials;
  DenseMap<Operation *, Value> states, shiftedStates;
  /// Rescaled reductions whose init is a computed value, added after the
  /// loop.
  DenseMap<Operation *, Value> computedInits;
  Value seenOld, seenNew; // f64 counts of the elements seen
  /// Where the main loop starts when a mask hides the first slices.
  Value lower;
  SmallVector<Type> stateTypes;
  SmallVector<Value> contributions;
  SmallVector<UpdateInputs> updateInputs;
};

} // namespace

//===----------------------------------------------------------------------===//
// Rewriting
//===----------------------------------------------------------------------===//

Type TemporalSlicer::sliceType(Value orig) const {
  auto type = cast<RankedTensorType>(orig.getType());
  SmallVector<int64_t> shape(type.getShape());
  for (auto [j, ids] : llvm::enumerate(smg.getValueDims(orig)))
    if (ids.size() == 1 && ids[0] == t)
      shape[j] = step;
  return type.clone(shape);
}

void TemporalSlicer::sliceGeometry(OpBuilder &b, Value orig, Value offset,
                                   RankedTensorType sliceType,
                                   SmallVectorImpl<OpFoldResult> &offsets,
                                   SmallVectorImpl<OpFoldResult> &sizes,
                                   SmallVectorImpl<OpFoldResult> &strides) {
  for (auto [j, ids] : llvm::enumerate(smg.getValueDims(orig))) {
    bool isT = ids.size() == 1 && ids[0] == t;
    offsets.push_back(isT ? OpFoldResult(offset) : b.getIndexAttr(0));
    sizes.push_back(b.getIndexAttr(sliceType.getDimSize(j)));
    strides.push_back(b.getIndexAttr(1));
  }
}

Value TemporalSlicer::extractSlice(OpBuilder &b, Value full, Value orig,
                                   Value offset) {
  auto sliced = cast<RankedTensorType>(sliceType(orig));
  SmallVector<OpFoldResult> offsets, sizes, strides;
  sliceGeometry(b, orig, offset, sliced, offsets, sizes, strides);
  return tensor::ExtractSliceOp::create(b, graph.getLoc(), sliced, full,
                                        offsets, sizes, strides);
}

/// A new tensor of `type` filled with `scalar`.
static Value createFill(OpBuilder &b, Location loc, RankedTensorType type,
                        Value scalar) {
  Value empty = tensor::EmptyOp::create(b, loc, type.getShape(),
                                        type.getElementType());
  return linalg::FillOp::create(b, loc, ValueRange{scalar}, ValueRange{empty})
      .getResult(0);
}

Value TemporalSlicer::identityFill(OpBuilder &b, Location loc, Type type,
                                   Combiner c) {
  auto tensorType = cast<RankedTensorType>(type);
  auto elementType = cast<FloatType>(tensorType.getElementType());
  Value scalar =
      arith::ConstantOp::create(b, loc, getCombinerIdentity(b, c, elementType));
  return createFill(b, loc, tensorType, scalar);
}

/// The scalar `value` is a linalg.fill of an empty tensor with, if it is
/// one.
static std::optional<Value> filledScalar(Value value) {
  auto fill = value.getDefiningOp<linalg::FillOp>();
  if (!fill || !fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>())
    return std::nullopt;
  return fill.getInputs()[0];
}

/// The float `value` converted to the float type `type`.
static Value castFloat(OpBuilder &b, Location loc, Value value, Type type) {
  if (value.getType() == type)
    return value;
  if (cast<FloatType>(value.getType()).getWidth() <
      cast<FloatType>(type).getWidth())
    return arith::ExtFOp::create(b, loc, type, value);
  return arith::TruncFOp::create(b, loc, type, value);
}

FailureOr<Value> TemporalSlicer::runningReduction(OpBuilder &b, Value orig,
                                                  bool old) {
  Operation *def = orig.getDefiningOp();
  Location loc = graph.getLoc();
  const ReductionPlan &r = reductions[reductionIndex.lookup(def)];
  Value state = states.lookup(def);
  Value value = state;
  if (!old) {
    FailureOr<Value> combined = elementwise.build(
        b, loc, state, orig, {{state, orig}, {partials.lookup(def), orig}},
        [&](OpBuilder &nb, Location nl, ValueRange args) {
          return buildCombine(nb, nl, r.combiner, args[0], args[1]);
        });
    if (failed(combined))
      return failure();
    value = *combined;
  }
  // A running sum stands for the whole dim: scale it by extent / seen.
  if (r.combiner != Combiner::Add)
    return value;
  Value seen = old ? seenOld : seenNew;
  return elementwise.build(
      b, loc, value, orig, {{value, orig}},
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        Type et = args[0].getType();
        Value n = arith::ConstantOp::create(
            nb, nl, nb.getFloatAttr(et, static_cast<double>(extent)));
        Value s = castFloat(nb, nl, seen, et);
        Value ratio = arith::DivFOp::create(nb, nl, n, s);
        return arith::MulFOp::create(nb, nl, args[0], ratio);
      });
}

FailureOr<Value> TemporalSlicer::runningValue(OpBuilder &b, Value orig,
                                              bool old, Value offset) {
  auto key = std::make_pair(orig, static_cast<unsigned>(old));
  if (Value cached = runningCache.lookup(key))
    return cached;
  Operation *def = orig.getDefiningOp();
  Value result;
  if (roles.lookup(def) == SliceRole::Reducing) {
    FailureOr<Value> running = runningReduction(b, orig, old);
    if (failed(running))
      return failure();
    result = *running;
  } else if (def && roles.lookup(def) == SliceRole::Post) {
    IRMapping mapping;
    for (Value operand : def->getOperands())
      if (isReduced(operand)) {
        FailureOr<Value> v = runningValue(b, operand, old, offset);
        if (failed(v))
          return failure();
        mapping.map(operand, *v);
      }
    Operation *clone = b.clone(*def, mapping);
    result = clone->getResult(cast<OpResult>(orig).getResultNumber());
  } else {
    result = orig;
  }
  runningCache[key] = result;
  return result;
}

/// `x` where it is finite, 0 where it is +-inf (the guard of an exp shift).
static Value finiteOrZero(OpBuilder &b, Location loc, Value x) {
  auto type = cast<FloatType>(x.getType());
  Value inf = arith::ConstantOp::create(
      b, loc, b.getFloatAttr(type, APFloat::getInf(type.getFloatSemantics())));
  Value zero = arith::ConstantOp::create(b, loc, b.getFloatAttr(type, 0.0));
  Value magnitude = math::AbsFOp::create(b, loc, x);
  Value infinite =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, magnitude, inf);
  return arith::SelectOp::create(b, loc, infinite, zero, x).getResult();
}

bool TemporalSlicer::isExpShift(Value orig) const {
  auto inTerms = [&](const StreamInfo &info) {
    return llvm::any_of(info.expTerms,
                        [&](const ExpTerm &term) { return term.shift == orig; });
  };
  return llvm::any_of(reductions,
                      [&](const ReductionPlan &r) { return inTerms(r.info); }) ||
         llvm::any_of(infos, [&](auto &entry) { return inTerms(entry.second); });
}

/// The running value of an exp shift c, with an infinite c replaced by 0.
/// While every element seen so far is -inf (a masked row whose visible
/// part starts in a later slice), the running max is -inf and both
/// exp(x - c) and the rescale exp(c_old - c_new) would be exp(-inf + inf)
/// = NaN. With the replacement (here for the slice's exp, in the update
/// for the rescale) the state is exactly 0 until a finite element arrives,
/// and the rescale exp(c_old' - c_new') is exact for any finite pair
/// (FlashAttention's guard); one compare and select per row and slice. The
/// finished reduction keeps the true value: a fully masked row is NaN, as
/// in the unfused program.
FailureOr<Value> TemporalSlicer::runningShift(OpBuilder &b, Value orig,
                                              bool old, Value offset) {
  auto key = std::make_pair(orig, static_cast<unsigned>(old));
  if (Value cached = shiftCache.lookup(key))
    return cached;
  FailureOr<Value> running = runningValue(b, orig, old, offset);
  if (failed(running))
    return failure();
  FailureOr<Value> guarded = elementwise.build(
      b, graph.getLoc(), *running, orig, {{*running, orig}},
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        return finiteOrZero(nb, nl, args[0]);
      });
  if (failed(guarded))
    return failure();
  shiftCache[key] = *guarded;
  return *guarded;
}

Value TemporalSlicer::readOffset(OpBuilder &b, Value offset) {
  if (!isRagged())
    return offset;
  Location loc = graph.getLoc();
  Value last = arith::ConstantIndexOp::create(b, loc, extent - step);
  return arith::MinUIOp::create(b, loc, offset, last);
}

Value TemporalSlicer::elementValue(Value input) {
  Value &cached = elementValues[input];
  if (cached)
    return cached;
  auto type = cast<RankedTensorType>(input.getType());
  Location loc = input.getLoc();
  OpBuilder b = OpBuilder::atBlockBegin(&graph.getBody().front());
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  SmallVector<Value> indices(type.getRank(), zero);
  Value element = tensor::ExtractOp::create(b, loc, input, indices);
  cached = arith::IndexCastOp::create(b, loc, b.getIndexType(), element);
  return cached;
}

Value TemporalSlicer::boundValue(OpBuilder &b, Location loc,
                                 const SliceBound &bound) {
  Value v = arith::ConstantIndexOp::create(b, loc, bound.constant);
  auto addTerm = [&](Value term, int64_t coef) {
    v = arith::AddIOp::create(
        b, loc, v,
        arith::MulIOp::create(b, loc, term,
                              arith::ConstantIndexOp::create(b, loc, coef)));
  };
  for (auto [input, coef] : bound.inputs)
    addTerm(isa<RankedTensorType>(input.getType()) ? elementValue(input) : input,
            coef);
  return v;
}

Value TemporalSlicer::boundValue(OpBuilder &b, Location loc,
                                 const KeyBound &bound) {
  Value v;
  for (const SliceBound &part : bound.parts) {
    Value p = boundValue(b, loc, part);
    v = !v            ? p
        : bound.isMax ? arith::MaxSIOp::create(b, loc, v, p).getResult()
                      : arith::MinSIOp::create(b, loc, v, p).getResult();
  }
  return v;
}

Value TemporalSlicer::loopStart(OpBuilder &b, Location loc,
                                const KeyBound &bound) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value stepV = arith::ConstantIndexOp::create(b, loc, step);
  Value start = arith::MaxSIOp::create(b, loc, boundValue(b, loc, bound), zero);
  start = arith::MulIOp::create(
      b, loc, arith::DivUIOp::create(b, loc, start, stepV), stepV);
  Value lastStart = arith::ConstantIndexOp::create(
      b, loc, llvm::divideCeil(extent, step) * step - step);
  return arith::MinUIOp::create(b, loc, start, lastStart);
}

Value TemporalSlicer::loopEnd(OpBuilder &b, Location loc,
                              const KeyBound &bound) {
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value end = boundValue(b, loc, bound);
  end = arith::MaxSIOp::create(b, loc, end, cst(step));
  end = arith::MulIOp::create(
      b, loc,
      arith::DivUIOp::create(b, loc,
                             arith::AddIOp::create(b, loc, end, cst(step - 1)),
                             cst(step)),
      cst(step));
  return arith::MinUIOp::create(b, loc, end, cst(extent));
}

std::optional<unsigned>
TemporalSlicer::loopDimOfT(linalg::LinalgOp op) const {
  for (unsigned loop = 0; loop < op.getNumLoops(); ++loop)
    if (smg.getLoopDim(op, loop) == t)
      return loop;
  return std::nullopt;
}

Value TemporalSlicer::keepFrom(OpBuilder &b, Location loc, unsigned index,
                               Value firstValid, Value x, Value zero) {
  Value at = linalg::IndexOp::create(b, loc, index);
  Value valid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, at,
                                      firstValid);
  return arith::SelectOp::create(b, loc, valid, x, zero);
}

/// A contraction gets one operand zeroed where elements repeat, an
/// intermediate where it has one (so that staged input tiles stay as they
/// are, and the body stays a multiply-accumulate).
void TemporalSlicer::maskContractionOperand(OpBuilder &b, linalg::LinalgOp orig,
                                            linalg::LinalgOp partial,
                                            unsigned tLoop, Value firstValid) {
  Location loc = partial.getLoc();
  OpOperand *chosen = getRaggedSliceMaskedOperand(orig, [&](OpOperand *input) {
    return orig.getMatchingIndexingMap(input).isFunctionOfDim(tLoop);
  });
  OpOperand &operand = partial->getOpOperand(chosen->getOperandNumber());
  auto type = cast<RankedTensorType>(operand.get().getType());
  AffineMap map = orig.getMatchingIndexingMap(chosen);
  unsigned position =
      *map.getResultPosition(getAffineDimExpr(tLoop, b.getContext()));
  OpBuilder ob(partial);
  Value empty =
      tensor::EmptyOp::create(ob, loc, type.getShape(), type.getElementType());
  AffineMap identity =
      AffineMap::getMultiDimIdentityMap(type.getRank(), b.getContext());
  auto masked = linalg::GenericOp::create(
      ob, loc, TypeRange{type}, ValueRange{operand.get()}, ValueRange{empty},
      {identity, identity},
      SmallVector<utils::IteratorType>(type.getRank(),
                                       utils::IteratorType::parallel),
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value zero = arith::ConstantOp::create(
            nb, nl, nb.getFloatAttr(args[0].getType(), 0.0));
        linalg::YieldOp::create(
            nb, nl, keepFrom(nb, nl, position, firstValid, args[0], zero));
      });
  operand.set(masked.getResult(0));
}

/// The ragged last slice is read at extent - step, so its first elements
/// (local index below `firstValid`) are ones earlier slices combined
/// already; `partial` (the slice's clone of reduction `orig`) must leave
/// them out. A max or min needs nothing: an element seen twice changes
/// neither. A contraction gets one operand zeroed there
/// (maskContractionOperand); any other reduction combines its identity
/// instead of the repeated elements' contributions.
void TemporalSlicer::maskRepeated(OpBuilder &b, linalg::LinalgOp orig,
                                  linalg::LinalgOp partial, Combiner combiner,
                                  Value firstValid) {
  if (combiner == Combiner::Max || combiner == Combiner::Min)
    return;
  std::optional<unsigned> tLoop = loopDimOfT(orig);
  if (!tLoop)
    return;
  Location loc = partial.getLoc();
  if (isMultiplyAccumulate(partial)) {
    maskContractionOperand(b, orig, partial, *tLoop, firstValid);
    return;
  }
  // combine(f, out) becomes combine(valid ? f : identity, out).
  Block *body = partial.getBlock();
  Operation *yield = body->getTerminator();
  Value out = body->getArgument(partial.getNumDpsInputs());
  Operation *combine = yield->getOperand(0).getDefiningOp();
  auto elementType = cast<FloatType>(out.getType());
  if (combine && combine->getNumOperands() == 2 &&
      (combine->getOperand(0) == out) != (combine->getOperand(1) == out)) {
    OpOperand &contribution =
        combine->getOpOperand(combine->getOperand(0) == out ? 1 : 0);
    OpBuilder nb(combine);
    Value identity = arith::ConstantOp::create(
        nb, loc, getCombinerIdentity(nb, combiner, elementType));
    contribution.set(keepFrom(nb, loc, *tLoop, firstValid,
                              contribution.get(), identity));
    return;
  }
  OpBuilder nb(yield);
  yield->setOperand(0, keepFrom(nb, loc, *tLoop, firstValid,
                                yield->getOperand(0), out));
}

void TemporalSlicer::testOnlyCutSlices(OpBuilder &b,
                                       const UnmaskedSlices &unmasked,
                                       linalg::LinalgOp clone, Value at) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(clone);
  Location loc = clone.getLoc();
  // The slice holds keys [at, at + step): it cuts the predicate where it
  // reaches a key at or past a `below`, or starts before a `from`.
  Value end = arith::AddIOp::create(
      b, loc, at, arith::ConstantIndexOp::create(b, loc, step));
  Value cut;
  auto orWith = [&](arith::CmpIPredicate pred, Value x, const KeyBound &y) {
    Value c = arith::CmpIOp::create(b, loc, pred, x, boundValue(b, loc, y));
    cut = cut ? arith::OrIOp::create(b, loc, cut, c).getResult() : c;
  };
  for (const KeyBound &below : unmasked.below)
    orWith(arith::CmpIPredicate::sgt, end, below);
  for (const KeyBound &from : unmasked.from)
    orWith(arith::CmpIPredicate::slt, at, from);
  // The clone's selects are the original's, in the same order.
  auto selects = llvm::to_vector(clone.getBlock()->getOps<arith::SelectOp>());
  for (auto [ordinal, whenTrue] : unmasked.selects) {
    arith::SelectOp copy = selects[ordinal];
    OpBuilder inner(copy->getBlock(), std::next(copy->getIterator()));
    Value unmaskedValue = whenTrue ? copy.getFalseValue() : copy.getTrueValue();
    auto tested = arith::SelectOp::create(inner, loc, cut, copy.getResult(),
                                          unmaskedValue);
    copy.getResult().replaceAllUsesExcept(tested, tested);
  }
}

FailureOr<Value> TemporalSlicer::runningOperand(OpBuilder &b, Location loc,
                                                Value v, Value offset) {
  // Operands used only by removed factors need no running value.
  if (!runningNeeded.contains(v)) {
    auto type = cast<RankedTensorType>(v.getType());
    return tensor::EmptyOp::create(b, loc, type.getShape(),
                                   type.getElementType())
        .getResult();
  }
  return isExpShift(v) ? runningShift(b, v, /*old=*/false, offset)
                       : runningValue(b, v, /*old=*/false, offset);
}

Value TemporalSlicer::sliceOperand(OpBuilder &b, Location loc, Value v,
                                   Value offset) {
  if (Value cached = sliceCache.lookup(v))
    return cached;
  Value sliced;
  auto type = cast<RankedTensorType>(sliceType(v));
  if (auto empty = v.getDefiningOp<tensor::EmptyOp>()) {
    sliced =
        tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  } else if (std::optional<Value> scalar = filledScalar(v)) {
    // A fill is made again per slice: a slice of the whole filled tensor
    // would keep that tensor alive in the block's memory and copy it.
    sliced = createFill(b, loc, type, *scalar);
  } else {
    sliced = extractSlice(b, v, v, offset);
  }
  sliceCache[v] = sliced;
  return sliced;
}

LogicalResult TemporalSlicer::mapOperandsInLoop(OpBuilder &b, Operation *op,
                                                Value offset,
                                                IRMapping &mapping) {
  for (OpOperand &operand : op->getOpOperands()) {
    Value v = operand.get();
    if (mapping.contains(v))
      continue;
    if (isReduced(v)) {
      FailureOr<Value> running = runningOperand(b, op->getLoc(), v, offset);
      if (failed(running))
        return failure();
      mapping.map(v, *running);
      continue;
    }
    if (hasT(v))
      mapping.map(v, sliceOperand(b, op->getLoc(), v, offset));
  }
  return success();
}

void TemporalSlicer::shiftIndicesAlongT(linalg::LinalgOp orig,
                                        linalg::LinalgOp clone, Value offset) {
  SmallVector<linalg::IndexOp> indices;
  clone.getBlock()->walk(
      [&](linalg::IndexOp index) { indices.push_back(index); });
  std::optional<unsigned> tLoop = loopDimOfT(orig);
  for (linalg::IndexOp index : indices) {
    if (index.getDim() != tLoop)
      continue;
    OpBuilder inner(index);
    inner.setInsertionPointAfter(index);
    auto shifted =
        arith::AddIOp::create(inner, orig.getLoc(), index.getResult(), offset);
    index.getResult().replaceAllUsesExcept(shifted, shifted);
  }
}

void TemporalSlicer::stripFinishedFactors(linalg::LinalgOp orig,
                                          linalg::LinalgOp clone) {
  Operation *op = orig;
  const StreamInfo *info = nullptr;
  if (roles.lookup(op) == SliceRole::Reducing)
    info = &reductions[reductionIndex.lookup(op)].info;
  else if (infos.count(op->getResult(0)))
    info = &infos.find(op->getResult(0))->second;
  if (!info)
    return;
  IRMapping bodyMap;
  Block *origBody = orig.getBlock();
  Block *newBody = clone.getBlock();
  for (auto [a, c] :
       llvm::zip(origBody->getArguments(), newBody->getArguments()))
    bodyMap.map(a, c);
  for (auto [o, c] :
       llvm::zip(origBody->without_terminator(), newBody->without_terminator()))
    bodyMap.map(o.getResults(), c.getResults());
  for (const StrippedFactor &factor : info->stripped) {
    if (factor.op != op)
      continue;
    Value leaf = bodyMap.lookup(factor.leaf);
    OpBuilder inner = OpBuilder::atBlockBegin(newBody);
    Value one = arith::ConstantOp::create(
        inner, orig.getLoc(), inner.getFloatAttr(leaf.getType(), 1.0));
    leaf.replaceAllUsesWith(one);
  }
}

FailureOr<Value> TemporalSlicer::cloneInLoop(OpBuilder &b, Operation *op,
                                             Value offset, bool stripFactors,
                                             bool identityInit) {
  Location loc = op->getLoc();
  IRMapping mapping = loopMap;
  auto linalgOp = cast<linalg::LinalgOp>(op);
  if (failed(mapOperandsInLoop(b, op, offset, mapping)))
    return failure();
  if (identityInit) {
    const ReductionPlan &r = reductions[reductionIndex.lookup(op)];
    Value init = linalgOp.getDpsInitOperand(0)->get();
    mapping.map(init, identityFill(b, loc, init.getType(), r.combiner));
  }
  Operation *clone = b.clone(*op, mapping);
  clone->getResult(0).setType(sliceType(op->getResult(0)));

  auto cloned = cast<linalg::LinalgOp>(clone);
  // linalg.index along t counts from the slice's offset.
  shiftIndicesAlongT(linalgOp, cloned, offset);
  // Broadcast postposition: factors of finished reductions become 1.
  if (stripFactors)
    stripFinishedFactors(linalgOp, cloned);
  return clone->getResult(0);
}

FailureOr<Value> TemporalSlicer::applyCorrection(OpBuilder &b, Value acc,
                                                 Value accOrig,
                                                 const StrippedFactor &factor,
                                                 IRMapping &finals) {
  auto linalgOp = cast<linalg::LinalgOp>(factor.op);
  Block *body = linalgOp.getBlock();
  // The leaf's operands among the op's reduced and constant operands.
  llvm::SmallSetVector<BlockArgument, 4> args;
  collectArgs(factor.leaf, args);
  SmallVector<std::pair<Value, Value>> inputs{{acc, accOrig}};
  for (BlockArgument arg : args) {
    Value orig = factor.op->getOperand(arg.getArgNumber());
    inputs.push_back({finals.lookupOrDefault(orig), orig});
  }
  // The leaf is recomputed from its operands among the body's arguments
  // and values defined above the body (scalar constants of the graph).
  auto available = [&](Value v, const IRMapping &mapping) {
    return mapping.contains(v) || v.getParentRegion() != body->getParent();
  };
  if (!isRecomputableLeaf(factor))
    return failure();
  return elementwise.build(
      b, factor.op->getLoc(), acc, accOrig, inputs,
      [&](OpBuilder &nb, Location nl, ValueRange newArgs) {
        IRMapping mapping;
        for (auto [arg, newArg] : llvm::zip(args, newArgs.drop_front()))
          mapping.map(arg, newArg);
        // Clone, in body order, the ops computable from the leaf's operands
        // alone; the leaf is among them.
        for (Operation &inner : body->without_terminator())
          if (llvm::all_of(inner.getOperands(),
                           [&](Value v) { return available(v, mapping); }))
            nb.clone(inner, mapping);
        // The factor may be computed in another float type than the
        // accumulator (an f32 sum postponed past a rounding to f16).
        Value leaf = castFloat(nb, nl, mapping.lookup(factor.leaf),
                               newArgs[0].getType());
        return factor.inverted
                   ? arith::DivFOp::create(nb, nl, newArgs[0], leaf).getResult()
                   : arith::MulFOp::create(nb, nl, newArgs[0], leaf)
                         .getResult();
      });
}

Value TemporalSlicer::startSlice(OpBuilder &sb, Value offset,
                                 Value &firstValid) {
  Location loc = graph.getLoc();
  Value seenBefore =
      lower ? arith::SubIOp::create(sb, loc, offset, lower).getResult() : offset;
  Value offsetI64 =
      arith::IndexCastOp::create(sb, loc, sb.getI64Type(), seenBefore);
  seenOld = arith::SIToFPOp::create(sb, loc, sb.getF64Type(), offsetI64);
  Value stepF = arith::ConstantOp::create(
      sb, loc, sb.getF64FloatAttr(static_cast<double>(step)));
  seenNew = arith::AddFOp::create(sb, loc, seenOld, stepF);
  // The slice's data is read at `at`; on the ragged last slice, the
  // elements before local index `firstValid` were combined already.
  Value at = readOffset(sb, offset);
  if (isRagged()) {
    Value extentF = arith::ConstantOp::create(
        sb, loc, sb.getF64FloatAttr(static_cast<double>(extent)));
    seenNew = arith::MinimumFOp::create(sb, loc, seenNew, extentF);
    firstValid = arith::SubIOp::create(sb, loc, offset, at);
  }
  return at;
}

/// The input `op` passes on unchanged once its finished factors became 1
/// (a softmax's division by a sum applied after the loop), or null: an
/// elementwise op yielding, through multiplications and divisions by 1, an
/// identity-indexed input of its result's type.
static Value copiedInput(linalg::LinalgOp op) {
  if (!isElementwise(op) || op->getNumResults() != 1)
    return {};
  Value v = op.getBlock()->getTerminator()->getOperand(0);
  while (Operation *def = v.getDefiningOp()) {
    if (isa<arith::MulFOp>(def) &&
        matchPattern(def->getOperand(0), m_OneFloat()))
      v = def->getOperand(1);
    else if (isa<arith::MulFOp, arith::DivFOp>(def) &&
             matchPattern(def->getOperand(1), m_OneFloat()))
      v = def->getOperand(0);
    else
      return {};
  }
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg || arg.getOwner() != op.getBlock())
    return {};
  OpOperand *operand = op.getMatchingOpOperand(arg);
  if (!op.isDpsInput(operand) ||
      !op.getMatchingIndexingMap(operand).isIdentity() ||
      operand->get().getType() != op->getResult(0).getType())
    return {};
  return operand->get();
}

LogicalResult TemporalSlicer::cloneSliceMembers(OpBuilder &sb, Value at,
                                                Value firstValid) {
  for (Operation *op : members) {
    SliceRole role = roles.lookup(op);
    if (role == SliceRole::Streamed && inMainLoop.contains(op)) {
      FailureOr<Value> v = cloneInLoop(sb, op, at, /*stripFactors=*/true,
                                       /*identityInit=*/false);
      if (failed(v))
        return failure();
      // A copy would be one more buffer and pass over the slice's values.
      bool masks = llvm::any_of(unmasked, [&](const UnmaskedSlices &mask) {
        return mask.mask == op;
      });
      auto cloned = cast<linalg::LinalgOp>(v->getDefiningOp());
      if (Value input = masks ? Value() : copiedInput(cloned)) {
        cloned->erase();
        *v = input;
      }
      for (const UnmaskedSlices &mask : unmasked)
        if (mask.mask == op)
          testOnlyCutSlices(sb, mask,
                            cast<linalg::LinalgOp>(v->getDefiningOp()), at);
      loopMap.map(op->getResult(0), *v);
      sliceCache[op->getResult(0)] = *v;
    } else if (role == SliceRole::Reducing) {
      FailureOr<Value> v = cloneInLoop(sb, op, at, /*stripFactors=*/true,
                                       /*identityInit=*/true);
      if (failed(v))
        return failure();
      if (firstValid)
        maskRepeated(sb, cast<linalg::LinalgOp>(op),
                     cast<linalg::LinalgOp>(v->getDefiningOp()),
                     reductions[reductionIndex.lookup(op)].combiner,
                     firstValid);
      partials[op] = *v;
    }
  }
  return success();
}

FailureOr<std::pair<unsigned, unsigned>>
TemporalSlicer::contributeOldAndNew(OpBuilder &sb, Value orig, Value at) {
  FailureOr<Value> oldV = runningValue(sb, orig, true, at);
  FailureOr<Value> newV = runningValue(sb, orig, false, at);
  if (failed(oldV) || failed(newV))
    return failure();
  unsigned oldIndex = contributions.size();
  contributions.push_back(*oldV);
  contributions.push_back(*newV);
  return std::make_pair(oldIndex, oldIndex + 1);
}

FailureOr<Value> TemporalSlicer::buildShiftedSum(OpBuilder &sb,
                                                 const ReductionPlan &r,
                                                 Value firstValid) {
  Location loc = graph.getLoc();
  Value shifted = sliceCache.lookup(r.info.squareOf);
  Value state = states.lookup(r.op);
  Value orig = r.op->getResult(0);
  auto stateType = cast<RankedTensorType>(state.getType());
  MLIRContext *c = graph.getContext();
  FailureOr<AffineMap> outMap = elementwise.broadcastMap(orig, r.info.squareOf);
  if (failed(outMap)) {
    whyNot = "cannot map the centered sum onto its reduction";
    return failure();
  }
  SmallVector<utils::IteratorType> iterators;
  SmallVector<SmallVector<unsigned>> inDims =
      elementwise.dimsOf(r.info.squareOf);
  SmallVector<SmallVector<unsigned>> outDims = elementwise.dimsOf(orig);
  for (const SmallVector<unsigned> &d : inDims)
    iterators.push_back(llvm::is_contained(outDims, d)
                            ? utils::IteratorType::parallel
                            : utils::IteratorType::reduction);
  Value zero = identityFill(sb, loc, stateType, Combiner::Add);
  auto sum = linalg::GenericOp::create(
      sb, loc, TypeRange{stateType}, ValueRange{shifted}, ValueRange{zero},
      {AffineMap::getMultiDimIdentityMap(inDims.size(), c), *outMap}, iterators,
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value x = args[0];
        if (firstValid) {
          unsigned tPos =
              llvm::find(inDims, SmallVector<unsigned>{t}) - inDims.begin();
          Value zero = arith::ConstantOp::create(
              nb, nl, nb.getFloatAttr(x.getType(), 0.0));
          x = keepFrom(nb, nl, tPos, firstValid, x, zero);
        }
        // Summed in the state's type: the centered values are f16 when the
        // sum of their squares was widened to f32.
        x = castFloat(nb, nl, x, args[1].getType());
        linalg::YieldOp::create(
            nb, nl, arith::AddFOp::create(nb, nl, x, args[1]).getResult());
      });
  return sum.getResult(0);
}

LogicalResult TemporalSlicer::collectContributions(OpBuilder &sb, Value offset,
                                                   Value at, Value firstValid) {
  contributions = {offset};
  updateInputs.clear();
  for (const ReductionPlan &r : reductions) {
    UpdateInputs in;
    in.partial = contributions.size();
    contributions.push_back(partials.lookup(r.op));
    for (const ExpTerm &term : r.info.expTerms) {
      FailureOr<std::pair<unsigned, unsigned>> oldAndNew =
          contributeOldAndNew(sb, term.shift, at);
      if (failed(oldAndNew))
        return failure();
      in.terms.push_back(*oldAndNew);
    }
    if (r.update == ReductionUpdate::CenteredSquare) {
      // The slice's sum of the shifted values x - c_new.
      FailureOr<Value> sum = buildShiftedSum(sb, r, firstValid);
      if (failed(sum))
        return failure();
      in.shiftedPartial = contributions.size();
      contributions.push_back(*sum);
      FailureOr<std::pair<unsigned, unsigned>> oldAndNew =
          contributeOldAndNew(sb, infos.lookup(r.info.squareOf).shift, at);
      if (failed(oldAndNew))
        return failure();
      std::tie(in.shiftOld, in.shiftNew) = *oldAndNew;
    }
    updateInputs.push_back(in);
  }
  return success();
}

/// The slice region: one slice of every member of the main loop along t,
/// one partial per reduction, and what the updates need.
LogicalResult TemporalSlicer::buildSliceRegion(Block *sliceBlock,
                                               Value offset) {
  OpBuilder sb = OpBuilder::atBlockBegin(sliceBlock);
  Value firstValid;
  Value at = startSlice(sb, offset, firstValid);
  if (failed(cloneSliceMembers(sb, at, firstValid)) ||
      failed(collectContributions(sb, offset, at, firstValid)))
    return failure();
  YieldOp::create(sb, graph.getLoc(), contributions);
  return success();
}

/// How many elements `reduction` combines per index along t: the product
/// of the extents of the other dims it reduces.
double TemporalSlicer::elementsPerOffset(Operation *reduction) const {
  llvm::SmallDenseSet<unsigned> others;
  for (auto [d, combiner] : smg.lookupSpace(reduction)->reductions)
    if (d != t)
      others.insert(d);
  double count = 1;
  for (unsigned d : others)
    count *= static_cast<double>(smg.getDims()[d].extent);
  return count;
}

FailureOr<Value> TemporalSlicer::buildIndependentUpdate(OpBuilder &ub,
                                                        const ReductionPlan &r,
                                                        Value state,
                                                        Value partial) {
  Value orig = r.op->getResult(0);
  return elementwise.build(
      ub, graph.getLoc(), state, orig, {{state, orig}, {partial, orig}},
      [&](OpBuilder &nb, Location nl, ValueRange a) {
        return buildCombine(nb, nl, r.combiner, a[0], a[1]);
      });
}

/// exp(sign * (cNew - cOld)) as a float of `stateType`. A state wider than
/// the shifts (a 16-bit score whose contraction accumulates in f32 after
/// smap-widen-accumulators) takes the shifts extended, exactly, so the
/// factor is as accurate as the state it scales; a narrower state takes the
/// factor rounded once.
static Value rescaleFactor(OpBuilder &b, Location loc, Value cOld, Value cNew,
                           int sign, Type stateType) {
  Type shiftType = cOld.getType();
  Type mathType = cast<FloatType>(stateType).getWidth() >
                          cast<FloatType>(shiftType).getWidth()
                      ? stateType
                      : shiftType;
  Value diff = arith::SubFOp::create(
      b, loc, castFloat(b, loc, finiteOrZero(b, loc, cNew), mathType),
      castFloat(b, loc, finiteOrZero(b, loc, cOld), mathType));
  if (sign < 0)
    diff = arith::NegFOp::create(b, loc, diff);
  return castFloat(b, loc, math::ExpOp::create(b, loc, diff), stateType);
}

FailureOr<Value> TemporalSlicer::buildRescaledUpdate(OpBuilder &ub,
                                                     const ReductionPlan &r,
                                                     const UpdateInputs &in,
                                                     Value state,
                                                     const UpdateArgs &args) {
  Value orig = r.op->getResult(0);
  ArrayRef<Value> contribArgs = args.contributions;
  SmallVector<std::pair<Value, Value>> inputs{{state, orig},
                                              {contribArgs[in.partial], orig}};
  for (auto [termIndex, term] : llvm::enumerate(r.info.expTerms)) {
    inputs.push_back({contribArgs[in.terms[termIndex].first], term.shift});
    inputs.push_back({contribArgs[in.terms[termIndex].second], term.shift});
  }
  return elementwise.build(
      ub, graph.getLoc(), state, orig, inputs,
      [&](OpBuilder &nb, Location nl, ValueRange a) {
        // alpha = prod exp(sign * (c_new - c_old)); state*alpha + part.
        Value scaled = a[0];
        for (auto [termIndex, term] : llvm::enumerate(r.info.expTerms)) {
          Value alpha =
              rescaleFactor(nb, nl, a[2 + 2 * termIndex], a[3 + 2 * termIndex],
                            term.sign, scaled.getType());
          Value one = arith::ConstantOp::create(
              nb, nl, nb.getFloatAttr(alpha.getType(), 1.0));
          alpha = arith::SelectOp::create(nb, nl, args.firstSlice, one, alpha);
          scaled = arith::MulFOp::create(nb, nl, scaled, alpha);
        }
        return arith::AddFOp::create(nb, nl, scaled, a[1]).getResult();
      });
}

/// d = c_old - c_new as a float of the state's type, or 0 on the first
/// slice (when there is no old shift). The shifts may be narrower than the
/// state (an f16 mean centering a sum of squares widened to f32); they are
/// extended first, exactly.
static Value shiftDelta(OpBuilder &b, Location loc, Value cOld, Value cNew,
                        Value firstSlice, Type stateType) {
  Value d = arith::SubFOp::create(b, loc, castFloat(b, loc, cOld, stateType),
                                  castFloat(b, loc, cNew, stateType));
  Value zero =
      arith::ConstantOp::create(b, loc, b.getFloatAttr(d.getType(), 0.0));
  return arith::SelectOp::create(b, loc, firstSlice, zero, d).getResult();
}

/// The elements the old state holds, as a float of `type`: the offset along
/// t (`seenBefore`) times the extents of the other dims the reduction
/// covers (`perOffset`; a LayerNorm over two dims sliced along one).
static Value countBefore(OpBuilder &b, Location loc, Value seenBefore,
                         double perOffset, Type type) {
  Value n = castFloat(b, loc, seenBefore, type);
  if (perOffset == 1.0)
    return n;
  Value scale =
      arith::ConstantOp::create(b, loc, b.getFloatAttr(type, perOffset));
  return arith::MulFOp::create(b, loc, n, scale).getResult();
}

LogicalResult TemporalSlicer::buildCenteredSquareUpdate(
    OpBuilder &ub, const ReductionPlan &r, const UpdateInputs &in, Value state,
    Value shiftedState, const UpdateArgs &args,
    SmallVectorImpl<Value> &newStates) {
  Location loc = graph.getLoc();
  Value orig = r.op->getResult(0);
  Value shiftOrig = infos.lookup(r.info.squareOf).shift;
  ArrayRef<Value> contribArgs = args.contributions;
  SmallVector<std::pair<Value, Value>> inputs{
      {state, orig},
      {contribArgs[in.partial], orig},
      {shiftedState, orig},
      {contribArgs[in.shiftedPartial], orig},
      {contribArgs[in.shiftOld], shiftOrig},
      {contribArgs[in.shiftNew], shiftOrig}};
  double perOffset = elementsPerOffset(r.op);
  // Q' = Q + 2 d L + n d^2 + q.
  FailureOr<Value> next = elementwise.build(
      ub, loc, state, orig, inputs,
      [&](OpBuilder &nb, Location nl, ValueRange a) {
        Value d =
            shiftDelta(nb, nl, a[4], a[5], args.firstSlice, a[0].getType());
        Value n = countBefore(nb, nl, args.seenBefore, perOffset, d.getType());
        Value two = arith::ConstantOp::create(
            nb, nl, nb.getFloatAttr(d.getType(), 2.0));
        Value twoDL = arith::MulFOp::create(
            nb, nl, arith::MulFOp::create(nb, nl, two, d), a[2]);
        Value nDD = arith::MulFOp::create(nb, nl, n,
                                          arith::MulFOp::create(nb, nl, d, d));
        Value q = arith::AddFOp::create(nb, nl, a[0], twoDL);
        q = arith::AddFOp::create(nb, nl, q, nDD);
        return arith::AddFOp::create(nb, nl, q, a[1]).getResult();
      });
  if (failed(next))
    return failure();
  newStates.push_back(*next);
  // L' = L + n d + l.
  next = elementwise.build(
      ub, loc, shiftedState, orig, inputs,
      [&](OpBuilder &nb, Location nl, ValueRange a) {
        Value d =
            shiftDelta(nb, nl, a[4], a[5], args.firstSlice, a[2].getType());
        Value n = countBefore(nb, nl, args.seenBefore, perOffset, d.getType());
        Value l = arith::AddFOp::create(nb, nl, a[2],
                                        arith::MulFOp::create(nb, nl, n, d));
        return arith::AddFOp::create(nb, nl, l, a[3]).getResult();
      });
  if (failed(next))
    return failure();
  newStates.push_back(*next);
  return success();
}

void TemporalSlicer::startUpdate(OpBuilder &ub, UpdateArgs &args) {
  Location loc = graph.getLoc();
  Value offsetArg = args.contributions[0];
  // The first slice the loop runs, and the slices before this one.
  Value start = lower ? lower : arith::ConstantIndexOp::create(ub, loc, 0);
  args.firstSlice = arith::CmpIOp::create(ub, loc, arith::CmpIPredicate::eq,
                                          offsetArg, start);
  if (lower)
    offsetArg = arith::SubIOp::create(ub, loc, offsetArg, lower);
  args.seenBefore = arith::SIToFPOp::create(
      ub, loc, ub.getF64Type(),
      arith::IndexCastOp::create(ub, loc, ub.getI64Type(), offsetArg));
}

/// The update region: update the old partials, then aggregate the slice.
LogicalResult TemporalSlicer::buildUpdateRegion(TemporalSliceOp loop) {
  Location loc = graph.getLoc();
  Block *updateBlock = new Block();
  loop.getUpdate().push_back(updateBlock);
  UpdateArgs args;
  for (Type type : stateTypes)
    args.states.push_back(updateBlock->addArgument(type, loc));
  for (Value v : contributions)
    args.contributions.push_back(updateBlock->addArgument(v.getType(), loc));
  OpBuilder ub = OpBuilder::atBlockBegin(updateBlock);
  startUpdate(ub, args);
  SmallVector<Value> newStates;
  unsigned slot = 0;
  for (unsigned ri = 0; ri < reductions.size(); ++ri) {
    const ReductionPlan &r = reductions[ri];
    const UpdateInputs &in = updateInputs[ri];
    Value state = args.states[slot++];
    FailureOr<Value> next;
    if (r.update == ReductionUpdate::Independent) {
      next =
          buildIndependentUpdate(ub, r, state, args.contributions[in.partial]);
    } else if (r.update == ReductionUpdate::Rescaled) {
      next = buildRescaledUpdate(ub, r, in, state, args);
    } else {
      Value shiftedState = args.states[slot++];
      // A failure leaves a state out: reported below.
      if (failed(buildCenteredSquareUpdate(ub, r, in, state, shiftedState, args,
                                           newStates)))
        break;
      continue;
    }
    if (failed(next)) {
      whyNot = "cannot broadcast a factor onto " + nameOf(r.op);
      return failure();
    }
    newStates.push_back(*next);
  }
  if (newStates.size() != stateTypes.size()) {
    whyNot = "cannot build the update of a centered square";
    return failure();
  }
  YieldOp::create(ub, loc, newStates);
  return success();
}

/// After the loop: the members computed from the finished reductions, and
/// the postponed factors applied once. `finals` maps original values to
/// their final ones.
LogicalResult TemporalSlicer::buildEpilogue(OpBuilder &b, TemporalSliceOp loop,
                                            IRMapping &finals) {
  unsigned slot = 0;
  SmallVector<Value> finalStates;
  for (const ReductionPlan &r : reductions) {
    finalStates.push_back(loop.getResult(slot));
    slot += r.update == ReductionUpdate::CenteredSquare ? 2 : 1;
  }
  for (Operation *op : members) {
    SliceRole role = roles.lookup(op);
    if (role == SliceRole::Post) {
      Operation *clone = b.clone(*op, finals);
      finals.map(op->getResults(), clone->getResults());
    } else if (role == SliceRole::Reducing) {
      unsigned index = reductionIndex.lookup(op);
      Value value = finalStates[index];
      for (const StrippedFactor &factor : reductions[index].info.stripped) {
        FailureOr<Value> corrected =
            applyCorrection(b, value, op->getResult(0), factor, finals);
        if (failed(corrected)) {
          whyNot = "cannot apply the postponed factor of " + nameOf(factor.op) +
                   " to " + nameOf(op);
          return failure();
        }
        value = *corrected;
      }
      if (Value init = computedInits.lookup(op)) {
        FailureOr<Value> total = elementwise.build(
            b, op->getLoc(), value, op->getResult(0),
            {{value, op->getResult(0)}, {finals.lookupOrDefault(init), init}},
            [&](OpBuilder &nb, Location nl, ValueRange args) {
              return arith::AddFOp::create(nb, nl, args[1], args[0])
                  .getResult();
            });
        if (failed(total)) {
          whyNot = "cannot add the init of " + nameOf(op) + " after the loop";
          return failure();
        }
        value = *total;
      }
      finals.map(op->getResult(0), value);
    }
  }

  return success();
}

llvm::SmallPtrSet<Operation *, 16>
TemporalSlicer::getStreamedProducers(ArrayRef<Value> outputs,
                                     ArrayRef<unsigned> streamedOutputs) const {
  llvm::SmallPtrSet<Operation *, 16> needed;
  for (unsigned i : streamedOutputs)
    if (Operation *def = outputs[i].getDefiningOp())
      needed.insert(def);
  for (Operation *op : llvm::reverse(members))
    if (needed.contains(op))
      for (Value operand : op->getOperands())
        if (Operation *def = operand.getDefiningOp())
          if (roles.lookup(def) == SliceRole::Streamed)
            needed.insert(def);
  return needed;
}

FailureOr<SmallVector<Value>> TemporalSlicer::buildFinalPassSlice(
    TemporalSliceOp pass, ArrayRef<Value> outputs,
    ArrayRef<unsigned> streamedOutputs, ValueRange outInits,
    const IRMapping &finals) {
  Location loc = graph.getLoc();
  Block *passSlice = new Block();
  pass.getSlice().push_back(passSlice);
  Value passOffset =
      passSlice->addArgument(IndexType::get(graph.getContext()), loc);
  for (Value v : outInits)
    passSlice->addArgument(v.getType(), loc);
  OpBuilder pb = OpBuilder::atBlockBegin(passSlice);
  // The ragged last slice is written where it is read: the elements it
  // shares with the previous one get the same values again.
  passOffset = readOffset(pb, passOffset);
  // Recompute the streamed members exactly, with the final reductions.
  loopMap = finals;
  sliceCache.clear();
  llvm::SmallPtrSet<Operation *, 16> needed =
      getStreamedProducers(outputs, streamedOutputs);
  for (Operation *op : members) {
    if (roles.lookup(op) != SliceRole::Streamed || !needed.contains(op))
      continue;
    FailureOr<Value> v = cloneInLoop(pb, op, passOffset, /*stripFactors=*/false,
                                     /*identityInit=*/false);
    if (failed(v))
      return failure();
    loopMap.map(op->getResult(0), *v);
    sliceCache[op->getResult(0)] = *v;
  }
  SmallVector<Value> passYield{passOffset};
  for (unsigned i : streamedOutputs) {
    Value v = outputs[i];
    Value slice = sliceCache.lookup(v);
    if (!slice)
      slice = extractSlice(pb, finals.lookupOrDefault(v), v, passOffset);
    passYield.push_back(slice);
  }
  YieldOp::create(pb, loc, passYield);
  return passYield;
}

void TemporalSlicer::buildFinalPassUpdate(TemporalSliceOp pass,
                                          ArrayRef<Value> outputs,
                                          ArrayRef<unsigned> streamedOutputs,
                                          ValueRange outInits,
                                          ArrayRef<Value> yieldedSlices) {
  Location loc = graph.getLoc();
  Block *passUpdate = new Block();
  pass.getUpdate().push_back(passUpdate);
  SmallVector<Value> accs;
  for (Value v : outInits)
    accs.push_back(passUpdate->addArgument(v.getType(), loc));
  Value at = passUpdate->addArgument(IndexType::get(graph.getContext()), loc);
  SmallVector<Value> slices;
  for (Value v : yieldedSlices)
    slices.push_back(passUpdate->addArgument(v.getType(), loc));
  OpBuilder qb = OpBuilder::atBlockBegin(passUpdate);
  SmallVector<Value> inserted;
  for (auto [k, i] : llvm::enumerate(streamedOutputs)) {
    SmallVector<OpFoldResult> offsets, sizes, strides;
    sliceGeometry(qb, outputs[i], at,
                  cast<RankedTensorType>(slices[k].getType()), offsets, sizes,
                  strides);
    inserted.push_back(tensor::InsertSliceOp::create(
        qb, loc, slices[k], accs[k], offsets, sizes, strides));
  }
  YieldOp::create(qb, loc, inserted);
}

/// The final pass: outputs indexed by t, recomputed slice by slice from the
/// finished reductions. Fills `finalOutputs` with the graph's outputs.
LogicalResult
TemporalSlicer::buildFinalPass(OpBuilder &b, DimAttr dim, IRMapping &finals,
                               SmallVectorImpl<Value> &finalOutputs) {
  Location loc = graph.getLoc();
  SmallVector<Value> outputs(graph.getYield().getValues());
  SmallVector<unsigned> streamedOutputs;
  for (auto [i, v] : llvm::enumerate(outputs))
    if (isa<RankedTensorType>(v.getType()) && hasT(v))
      streamedOutputs.push_back(i);
  finalOutputs.clear();
  for (Value v : outputs)
    finalOutputs.push_back(finals.lookupOrDefault(v));
  if (streamedOutputs.empty())
    return success();
  SmallVector<Value> outInits;
  for (unsigned i : streamedOutputs) {
    auto type = cast<RankedTensorType>(outputs[i].getType());
    outInits.push_back(tensor::EmptyOp::create(b, loc, type.getShape(),
                                               type.getElementType()));
  }
  auto pass =
      TemporalSliceOp::create(b, loc, TypeRange(ValueRange(outInits)), dim,
                              b.getI64IntegerAttr(step), /*lower=*/Value(),
                              /*upper=*/Value(), outInits);
  pass->setAttr(SMapDialect::FinalPassAttrHelper::getNameStr(),
                b.getUnitAttr());
  FailureOr<SmallVector<Value>> passYield =
      buildFinalPassSlice(pass, outputs, streamedOutputs, outInits, finals);
  if (failed(passYield))
    return failure();
  buildFinalPassUpdate(pass, outputs, streamedOutputs, outInits,
                       ArrayRef<Value>(*passYield).drop_front());
  for (auto [k, i] : llvm::enumerate(streamedOutputs))
    finalOutputs[i] = pass.getResult(k);
  return success();
}

Value TemporalSlicer::initialState(OpBuilder &b, const ReductionPlan &r) {
  Location loc = graph.getLoc();
  auto linalgOp = cast<linalg::LinalgOp>(r.op);
  Value init = linalgOp.getDpsInitOperand(0)->get();
  // A max or min started from NaN (upstream's softmax decomposition:
  // maxnumf from NaN, where NaN is the identity) starts the running state
  // from the combiner's identity instead: the update combines with
  // maximumf and rescales by exp(old - new), which NaN would poison.
  std::optional<APFloat> initConstant = getFillConstant(init);
  if ((r.combiner == Combiner::Max || r.combiner == Combiner::Min) &&
      initConstant && initConstant->isNaN())
    init = identityFill(b, loc, init.getType(), r.combiner);
  // A rescaled sum that starts from a computed value (a contraction
  // accumulating into a bias, c + S * (x . y)) must not rescale that
  // value: the state starts from 0 and the init is added after the
  // corrections.
  if (addsInitAfterLoop(r)) {
    computedInits[r.op] = init;
    init = identityFill(b, loc, init.getType(), r.combiner);
  }
  return init;
}

void TemporalSlicer::buildInitialStates(OpBuilder &b,
                                        SmallVectorImpl<Value> &inits,
                                        SmallVectorImpl<StateSlot> &slots) {
  for (const ReductionPlan &r : reductions) {
    inits.push_back(initialState(b, r));
    slots.push_back({r.op, false});
    if (r.update == ReductionUpdate::CenteredSquare) {
      inits.push_back(identityFill(
          b, graph.getLoc(), r.op->getResult(0).getType(), Combiner::Add));
      slots.push_back({r.op, true});
    }
  }
}

Value TemporalSlicer::buildSkipBounds(OpBuilder &b) {
  Location loc = graph.getLoc();
  Value upper;
  if (std::optional<SkippedSlices> skip =
          findSkippedSlices(smg, plan, notSkipped)) {
    if (skip->from)
      upper = loopEnd(b, loc, *skip->from);
    if (skip->below)
      lower = loopStart(b, loc, *skip->below);
    skipped = skip->describe;
  }
  return upper;
}

TemporalSliceOp TemporalSlicer::createMainLoop(OpBuilder &b, DimAttr dim,
                                               Value upper, ValueRange inits,
                                               ArrayRef<StateSlot> slots,
                                               Value &offset) {
  Location loc = graph.getLoc();
  auto loop =
      TemporalSliceOp::create(b, loc, stateTypes, dim, b.getI64IntegerAttr(step),
                              lower, upper, inits);
  Block *sliceBlock = new Block();
  loop.getSlice().push_back(sliceBlock);
  offset = sliceBlock->addArgument(b.getIndexType(), loc);
  for (auto [i, type] : llvm::enumerate(stateTypes)) {
    Value arg = sliceBlock->addArgument(type, loc);
    auto [op, isL] = slots[i];
    (isL ? shiftedStates : states)[op] = arg;
  }
  return loop;
}

LogicalResult TemporalSlicer::eraseRewrittenMembers() {
  // The members indexed by t and the reductions now live in the loops.
  // Users come after their producers: erasing in reverse leaves none. A
  // member still used from the new loops (a value the rewrite failed to
  // remap) would dangle: fail instead, and the caller drops this copy.
  llvm::SmallPtrSet<Operation *, 16> erased;
  for (Operation *op : members)
    if (roles.lookup(op) != SliceRole::Pre)
      erased.insert(op);
  Block &body = graph.getBody().front();
  for (Operation *op : erased)
    op->walk([&](Operation *inner) {
      for (Operation *user : inner->getUsers())
        if (!erased.contains(body.findAncestorOpInBlock(*user)))
          whyNot = nameOf(op) + " would still be used after the rewrite";
    });
  if (!whyNot.empty())
    return failure();
  for (Operation *op : llvm::reverse(members))
    if (roles.lookup(op) != SliceRole::Pre)
      op->erase();
  return success();
}

/// Rewrites the graph body into the loops.
LogicalResult TemporalSlicer::rewrite() {
  MLIRContext *ctx = graph.getContext();
  YieldOp yield = graph.getYield();
  OpBuilder b(yield);
  DimAttr dim = DimAttr::get(ctx, StringAttr::get(ctx, smg.getDims()[t].name),
                             extent, DimClass::Temporal);

  // Pre members stay where they are; everything else is rebuilt below.
  SmallVector<Value> inits;
  SmallVector<StateSlot> slots;
  buildInitialStates(b, inits, slots);
  stateTypes.clear();
  for (Value v : inits)
    stateTypes.push_back(v.getType());

  // Slices a mask hides entirely contribute nothing: the loop stops before
  // them.
  Value upper = buildSkipBounds(b);
  unmasked = findUnmaskedSlices(smg, plan);
  Value offset;
  TemporalSliceOp loop = createMainLoop(b, dim, upper, inits, slots, offset);
  if (failed(buildSliceRegion(&loop.getSlice().front(), offset)) ||
      failed(buildUpdateRegion(loop)))
    return failure();
  b.setInsertionPoint(yield);
  IRMapping finals;
  SmallVector<Value> finalOutputs;
  if (failed(buildEpilogue(b, loop, finals)) ||
      failed(buildFinalPass(b, dim, finals, finalOutputs)))
    return failure();
  yield->setOperands(finalOutputs);
  return eraseRewrittenMembers();
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

/// Decomposes the aggregated ops of `graph`'s body (linalg.softmax) into
/// the generics the slicer rewrites: a temporal slice through one would
/// otherwise be dropped, while the schedule still claims it.
static LogicalResult decomposeAggregates(GraphOp graph) {
  SmallVector<linalg::AggregatedOpInterface> ops;
  for (Operation &op : graph.getBody().front())
    if (auto aggregated = dyn_cast<linalg::AggregatedOpInterface>(op))
      ops.push_back(aggregated);
  for (linalg::AggregatedOpInterface op : ops) {
    OpBuilder builder(op);
    FailureOr<SmallVector<Value>> results = op.decomposeOperation(builder);
    if (failed(results))
      return op->emitOpError("could not be decomposed for temporal slicing");
    op->replaceAllUsesWith(*results);
    op->erase();
  }
  return success();
}

/// Whether `graph` is to be sliced temporally here: it has a schedule (a
/// remark says so when not) with a temporal part, and no slices yet.
static bool isToBeSliced(GraphOp graph) {
  ScheduleAttr schedule = graph.getScheduleAttr();
  if (!schedule) {
    remarkUnscheduled(graph, "temporal-slice");
    return false;
  }
  if (schedule.getTemporal().empty())
    return false;
  // A spatially sliced graph is sliced temporally in its blocks.
  if (llvm::any_of(graph.getBody().front(),
                   [](Operation &op) { return isa<SpatialSliceOp>(op); }))
    return false;
  return !llvm::any_of(graph.getBody().front(),
                       [](Operation &op) { return isa<TemporalSliceOp>(op); });
}

/// What the remark adds about skipped slices and masks tested only on the
/// slices that cut them ("" when nothing).
static std::string describeSkips(const TemporalSlicer &slicer) {
  std::string skipped =
      slicer.skipped.empty()
          ? (slicer.notSkipped.empty() ? "" : "; " + slicer.notSkipped)
          : "; skips the slices a mask hides: " + slicer.skipped;
  for (const UnmaskedSlices &mask : slicer.unmasked)
    skipped += "; " + mask.describe;
  return skipped;
}

static LogicalResult sliceGraph(GraphOp graph, AnalysisManager am) {
  if (!isToBeSliced(graph))
    return success();
  ScheduleAttr schedule = graph.getScheduleAttr();
  if (failed(decomposeAggregates(graph)))
    return failure();
  const SpaceMappingGraph *smg = getSMG(graph, am);
  if (!smg)
    return failure();
  const SliceSize &slice = schedule.getTemporal().front();
  auto it = llvm::find_if(smg->getDims(), [&](const GlobalDim &d) {
    return d.name == slice.dim.getValue();
  });
  if (it == smg->getDims().end())
    return graph.emitError("smap-temporal-slice: schedule slices unknown dim '")
           << slice.dim.getValue() << "'";
  unsigned t = it - smg->getDims().begin();

  // The SMG planned the dim when it classified it: a dim that is not
  // temporal is one a user-given schedule slices anyway.
  if (it->dimClass != DimClass::Temporal) {
    remark::missed(graph.getLoc(),
                   remarkOpts("temporal-slice", "not-sliced", graph))
        << ("dim '" + it->name + "' not sliced temporally: " + it->reason);
    return success();
  }
  // The plan the SMG made when it classified the dim checked everything
  // the rewrite needs, so the graph is rewritten in place and a failure
  // here is a bug in that check, reported as an error.
  std::string whyNot;
  FailureOr<TemporalSlicePlan> plan = planTemporalSlice(*smg, t, whyNot);
  if (failed(plan))
    return graph.emitError("smap-temporal-slice: dim '")
           << it->name << "' is temporal but its plan fails: " << whyNot;
  TemporalSlicer slicer(graph, *smg, *plan, slice.size);
  std::string described = plan->describe(*smg);
  if (failed(slicer.rewrite()))
    return graph.emitError("smap-temporal-slice: the rewrite of dim '")
           << it->name << "' failed after its plan accepted it: "
           << (slicer.whyNot.empty() ? "a member could not be rewritten"
                                     : slicer.whyNot);
  // The remark reads the SMG (the dim's name, the skipped slices), so it is
  // written before the SMG of the rewritten body is dropped.
  std::string remark = "dim '" + it->name + "' sliced temporally by " +
                       std::to_string(slice.size) + ": " + described +
                       describeSkips(slicer);
  forgetSMG(graph, am);
  remark::passed(graph.getLoc(), remarkOpts("temporal-slice", "sliced", graph))
      << remark;
  return success();
}

namespace {
struct TemporalSlicePass
    : public smap::impl::SMapTemporalSlicePassBase<TemporalSlicePass> {
  void runOnOperation() override {
    SmallVector<GraphOp> graphs;
    getOperation()->walk([&](GraphOp graph) { graphs.push_back(graph); });
    for (GraphOp graph : graphs) {
      bool sliced = holdsTemporalSlice(graph);
      if (failed(sliceGraph(graph, getAnalysisManager())))
        return signalPassFailure();
      if (!sliced)
        countSliced(graph);
    }
  }

  static bool holdsTemporalSlice(GraphOp graph) {
    return !graph.getBody().front().getOps<TemporalSliceOp>().empty();
  }

  void countSliced(GraphOp graph) {
    for (TemporalSliceOp slice :
         graph.getBody().front().getOps<TemporalSliceOp>()) {
      ++numSliced;
      if (slice.getLower() || slice.getUpper())
        ++numMaskBounded;
    }
  }
};
} // namespace
