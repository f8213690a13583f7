//===- TemporalSlicePlan.cpp - How a dim is sliced temporally -------------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Analysis/TemporalSlicePlan.h"
#include "spacefusion/Analysis/SpaceMappingGraph.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::smap;

StringRef mlir::smap::stringifyReductionUpdate(ReductionUpdate update) {
  switch (update) {
  case ReductionUpdate::Independent:
    return "independent";
  case ReductionUpdate::Rescaled:
    return "rescaled";
  case ReductionUpdate::CenteredSquare:
    return "centered_square";
  }
  llvm_unreachable("unknown reduction update");
}

std::optional<APFloat> mlir::smap::getFillConstant(Value value) {
  auto fill = value.getDefiningOp<linalg::FillOp>();
  FloatAttr scalar;
  if (!fill || !matchPattern(fill.getInputs().front(), m_Constant(&scalar)))
    return std::nullopt;
  return scalar.getValue();
}

OpOperand *mlir::smap::getRaggedSliceMaskedOperand(
    linalg::LinalgOp op, function_ref<bool(OpOperand *)> indexedByT) {
  OpOperand *chosen = nullptr;
  for (OpOperand *input : op.getDpsInputOperands())
    if (indexedByT(input) && (!chosen || isa<BlockArgument>(chosen->get())))
      chosen = input;
  return chosen;
}

bool mlir::smap::addsInitAfterLoop(const ReductionPlan &r) {
  if (r.update != ReductionUpdate::Rescaled)
    return false;
  Value init = cast<linalg::LinalgOp>(r.op).getDpsInitOperand(0)->get();
  std::optional<APFloat> constant = getFillConstant(init);
  return !(constant && constant->isZero());
}

bool TemporalSlicePlan::isReduced(Value v) const {
  Operation *def = v.getDefiningOp();
  if (!def)
    return false;
  auto it = roles.find(def);
  return it != roles.end() &&
         (it->second == SliceRole::Reducing || it->second == SliceRole::Post);
}

std::string TemporalSlicePlan::describe(const SpaceMappingGraph &smg) const {
  std::string out;
  for (auto [i, r] : llvm::enumerate(reductions)) {
    out += (i ? "; " : "") + smg.lookupSpace(r.op)->name + " ";
    switch (r.update) {
    case ReductionUpdate::Independent:
      out += "accumulated (" + stringifyCombiner(r.combiner).str() + ")";
      break;
    case ReductionUpdate::Rescaled:
      out += "rescaled";
      if (!r.info.stripped.empty())
        out += ", with " + std::to_string(r.info.stripped.size()) +
               " factor(s) applied after the loop";
      break;
    case ReductionUpdate::CenteredSquare:
      out += "combined by the shift formula (Chan/Welford)";
      break;
    }
  }
  return out;
}

namespace {
/// Fills a TemporalSlicePlan from the graph's bodies.
class TemporalSlicePlanner {
public:
  TemporalSlicePlanner(const SpaceMappingGraph &smg, TemporalSlicePlan &plan)
      : graph(smg.getGraph()), smg(smg), t(plan.t), members(plan.members),
        roles(plan.roles), infos(plan.infos), reductions(plan.reductions),
        reductionIndex(plan.reductionIndex),
        runningNeeded(plan.runningNeeded), inMainLoop(plan.inMainLoop),
        plan(plan) {}

  /// Plans every member; fails with `whyNot` set.
  LogicalResult run();

  std::string whyNot;

private:
  bool hasT(Value v) const { return smg.isIndexedBy(v, t); }
  bool isReduced(Value v) const { return plan.isReduced(v); }
  /// Whether relayout `op` reads only values computed before the loop and
  /// keeps t as an axis of its own in its operand and result.
  bool isViewBeforeLoop(Operation *op) const {
    auto ownAxis = [&](Value v) {
      int64_t axes = 0;
      for (auto &ids : smg.getValueDims(v)) {
        if (ids.size() > 1 && llvm::is_contained(ids, t))
          return false;
        axes += ids.size() == 1 && ids[0] == t;
      }
      return axes == 1;
    };
    return op->getNumOperands() == 1 && op->getNumResults() == 1 &&
           !isReduced(op->getOperand(0)) &&
           (!op->getOperand(0).getDefiningOp() ||
            roles.lookup(op->getOperand(0).getDefiningOp()) ==
                SliceRole::Pre) &&
           ownAxis(op->getOperand(0)) && ownAxis(op->getResult(0));
  }
  std::string nameOf(Operation *op) const { return smg.nameOf(op); }
  LogicalResult fail(Operation *op, const Twine &why) {
    whyNot = (nameOf(op) + " " + why).str();
    return failure();
  }

  /// What a body argument of a member reads: a value without t (or the
  /// init), a value streamed along t, or one computed from reductions.
  enum class ArgKind { Const, Streamed, Reduced };
  /// The operand of `op` that body argument `arg` stands for.
  static Value operandOf(linalg::LinalgOp op, BlockArgument arg) {
    return op->getOperand(arg.getArgNumber());
  }
  ArgKind kindOf(linalg::LinalgOp op, BlockArgument arg) const;
  /// c's operand when `a - b` in `op`'s body is x - c (x streamed, or its
  /// extension, and carrying nothing; c reduced); null otherwise.
  Value matchShiftedData(linalg::LinalgOp op, Value a, Value b) const;

  LogicalResult analyzeBody(linalg::LinalgOp op, Value yielded,
                            StreamInfo &info);
  bool matchShift(linalg::LinalgOp op, Value yielded, StreamInfo &info);
  bool matchCenteredSquare(linalg::LinalgOp op,
                           ArrayRef<std::pair<Value, bool>> factors,
                           StreamInfo &info);
  LogicalResult analyzeFactor(linalg::LinalgOp op, Value leaf, bool inverted,
                              StreamInfo &info);
  LogicalResult passThroughData(linalg::LinalgOp op, Value leaf, bool inverted,
                                ArrayRef<BlockArgument> args, StreamInfo &info);
  bool matchRescaledExp(linalg::LinalgOp op, Value leaf, bool inverted,
                        StreamInfo &info);
  LogicalResult checkRoundedInLoop(linalg::LinalgOp op, const StreamInfo &info);
  LogicalResult planReduction(linalg::LinalgOp op);
  LogicalResult checkBroadcast(Operation *op, Value in, Value out,
                               const Twine &what);
  LogicalResult checkUpdateBuilds(const ReductionPlan &r);

  LogicalResult assignRole(Operation *op);
  void collectMainLoop();
  LogicalResult analyzeMainLoop();
  LogicalResult checkRunningValues();

  GraphOp graph;
  const SpaceMappingGraph &smg;
  unsigned t;
  SmallVector<Operation *> &members;
  DenseMap<Operation *, SliceRole> &roles;
  DenseMap<Value, StreamInfo> &infos;
  SmallVector<ReductionPlan> &reductions;
  DenseMap<Operation *, unsigned> &reductionIndex;
  llvm::SetVector<Value> &runningNeeded;
  llvm::SmallPtrSet<Operation *, 16> &inMainLoop;
  const TemporalSlicePlan &plan;
};
} // namespace

/// Flattens a product: `v = prod(leaf^(inverted ? -1 : 1))`, looking
/// through float extensions and roundings (`rounds` says whether a
/// rounding was passed).
static void collectFactors(Value v, bool inverted,
                           SmallVectorImpl<std::pair<Value, bool>> &factors,
                           bool &rounds) {
  Operation *def = v.getDefiningOp();
  if (auto mul = dyn_cast_or_null<arith::MulFOp>(def)) {
    collectFactors(mul.getLhs(), inverted, factors, rounds);
    collectFactors(mul.getRhs(), inverted, factors, rounds);
    return;
  }
  if (auto div = dyn_cast_or_null<arith::DivFOp>(def)) {
    collectFactors(div.getLhs(), inverted, factors, rounds);
    collectFactors(div.getRhs(), !inverted, factors, rounds);
    return;
  }
  if (auto ext = dyn_cast_or_null<arith::ExtFOp>(def))
    return collectFactors(ext.getIn(), inverted, factors, rounds);
  if (auto trunc = dyn_cast_or_null<arith::TruncFOp>(def)) {
    rounds = true;
    return collectFactors(trunc.getIn(), inverted, factors, rounds);
  }
  factors.push_back({v, inverted});
}

/// `v`'s source if `v` is a float extension (exact: the data, wider).
static Value lookThroughExtension(Value v) {
  if (auto ext = v.getDefiningOp<arith::ExtFOp>())
    return ext.getIn();
  return v;
}

void mlir::smap::collectArgs(Value v,
                             llvm::SmallSetVector<BlockArgument, 4> &args) {
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    args.insert(arg);
    return;
  }
  if (Operation *def = v.getDefiningOp())
    for (Value operand : def->getOperands())
      collectArgs(operand, args);
}

FailureOr<AffineMap> mlir::smap::getBroadcastMap(const SpaceMappingGraph &smg,
                                                 Value in, Value out) {
  MLIRContext *ctx = out.getContext();
  SmallVector<SmallVector<unsigned>> outDims = smg.getValueDims(out),
                                     inDims = smg.getValueDims(in);
  // A value the SMG gives no dims for (not one of the graph's) has none.
  auto rankOf = [](Value v) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    return type ? type.getRank() : -1;
  };
  if (rankOf(in) != static_cast<int64_t>(inDims.size()) ||
      rankOf(out) != static_cast<int64_t>(outDims.size()))
    return failure();
  SmallVector<AffineExpr> exprs;
  for (const SmallVector<unsigned> &ids : inDims) {
    if (ids.empty()) {
      exprs.push_back(getAffineConstantExpr(0, ctx));
      continue;
    }
    auto it = llvm::find(outDims, ids);
    if (it == outDims.end() || llvm::count(outDims, ids) > 1)
      return failure();
    for (unsigned d : ids)
      for (const SmallVector<unsigned> &o : outDims)
        if (o != ids && llvm::is_contained(o, d))
          return failure();
    exprs.push_back(getAffineDimExpr(it - outDims.begin(), ctx));
  }
  return AffineMap::get(outDims.size(), 0, exprs, ctx);
}

bool mlir::smap::isRecomputableLeaf(const StrippedFactor &factor) {
  Block *body = cast<linalg::LinalgOp>(factor.op).getBlock();
  llvm::SmallSetVector<BlockArgument, 4> args;
  collectArgs(factor.leaf, args);
  llvm::SmallPtrSet<Value, 8> available(args.begin(), args.end());
  auto isAvailable = [&](Value v) {
    return available.contains(v) || v.getParentRegion() != body->getParent();
  };
  for (Operation &inner : body->without_terminator())
    if (llvm::all_of(inner.getOperands(), isAvailable))
      available.insert(inner.result_begin(), inner.result_end());
  return isAvailable(factor.leaf);
}

/// Classifies body argument `arg` of `op` by the operand it reads.
TemporalSlicePlanner::ArgKind
TemporalSlicePlanner::kindOf(linalg::LinalgOp op, BlockArgument arg) const {
  if (arg.getArgNumber() >= op->getNumOperands())
    return ArgKind::Const;
  Value orig = operandOf(op, arg);
  if (isReduced(orig))
    return ArgKind::Reduced;
  return hasT(orig) ? ArgKind::Streamed : ArgKind::Const;
}

Value TemporalSlicePlanner::matchShiftedData(linalg::LinalgOp op, Value a,
                                             Value b) const {
  auto x = dyn_cast<BlockArgument>(lookThroughExtension(a));
  auto c = dyn_cast<BlockArgument>(b);
  if (x && c && kindOf(op, x) == ArgKind::Streamed &&
      kindOf(op, c) == ArgKind::Reduced &&
      infos.lookup(operandOf(op, x)).empty())
    return operandOf(op, c);
  return nullptr;
}

LogicalResult TemporalSlicePlanner::analyzeBody(linalg::LinalgOp op,
                                                Value yielded,
                                                StreamInfo &info) {
  if (matchShift(op, yielded, info))
    return success();

  SmallVector<std::pair<Value, bool>> factors;
  bool rounds = false;
  collectFactors(yielded, /*inverted=*/false, factors, rounds);
  if (matchCenteredSquare(op, factors, info))
    return success();

  for (auto [leaf, inverted] : factors)
    if (failed(analyzeFactor(op, leaf, inverted, info)))
      return failure();
  if (rounds && failed(checkRoundedInLoop(op, info)))
    return failure();
  return success();
}

/// Records in `info` a yielded `x - c`, with x streamed (or its extension)
/// and c a reduced operand: a shift, whose running c the loop needs.
bool TemporalSlicePlanner::matchShift(linalg::LinalgOp op, Value yielded,
                                      StreamInfo &info) {
  auto sub = yielded.getDefiningOp<arith::SubFOp>();
  if (!sub)
    return false;
  Value shift = matchShiftedData(op, sub.getLhs(), sub.getRhs());
  if (!shift)
    return false;
  info.shift = shift;
  runningNeeded.insert(info.shift);
  return true;
}

/// Records in `info` a product of `factors` that is a centered square, or a
/// sum passing one through.
bool TemporalSlicePlanner::matchCenteredSquare(
    linalg::LinalgOp op, ArrayRef<std::pair<Value, bool>> factors,
    StreamInfo &info) {
  // d * d with d a shifted value: a centered square.
  if (factors.size() == 2 && factors[0].first == factors[1].first &&
      !factors[0].second && !factors[1].second) {
    if (auto d = dyn_cast<BlockArgument>(factors[0].first))
      if (kindOf(op, d) == ArgKind::Streamed &&
          infos.lookup(operandOf(op, d)).shift) {
        info.squareOf = operandOf(op, d);
        return true;
      }
  }

  // A sum of a centered square passes it through.
  if (factors.size() == 1 && !factors[0].second)
    if (auto arg = dyn_cast<BlockArgument>(factors[0].first))
      if (kindOf(op, arg) == ArgKind::Streamed &&
          infos.lookup(operandOf(op, arg)).squareOf) {
        info.squareOf = infos.lookup(operandOf(op, arg)).squareOf;
        return true;
      }
  return false;
}

/// Adds to `info` what factor `leaf` (a divisor when `inverted`) of `op`'s
/// yielded product carries; fails when it cannot be postponed.
LogicalResult TemporalSlicePlanner::analyzeFactor(linalg::LinalgOp op,
                                                  Value leaf, bool inverted,
                                                  StreamInfo &info) {
  llvm::SmallSetVector<BlockArgument, 4> args;
  collectArgs(leaf, args);
  bool streamed = false, reduced = false;
  for (BlockArgument arg : args) {
    streamed |= kindOf(op, arg) == ArgKind::Streamed;
    reduced |= kindOf(op, arg) == ArgKind::Reduced;
  }
  if (!reduced)
    return passThroughData(op, leaf, inverted, args.getArrayRef(), info);
  if (!streamed) {
    // g(c): removed in the loop, applied to the finished reduction.
    info.stripped.push_back({op, leaf, inverted});
    return success();
  }
  if (matchRescaledExp(op, leaf, inverted, info))
    return success();
  return fail(op, "mixes an earlier reduction with the data in a form "
                  "that cannot be postponed");
}

/// Data: what its streamed operands `args` carry passes through a product,
/// as long as each is a factor of it.
LogicalResult TemporalSlicePlanner::passThroughData(
    linalg::LinalgOp op, Value leaf, bool inverted,
    ArrayRef<BlockArgument> args, StreamInfo &info) {
  for (BlockArgument arg : args) {
    if (kindOf(op, arg) != ArgKind::Streamed)
      continue;
    const StreamInfo &in = infos.lookup(operandOf(op, arg));
    if (in.empty())
      continue;
    if (leaf != arg || inverted || in.shift || in.squareOf)
      return fail(op, "uses a value rescaled by an earlier reduction "
                      "other than as a factor");
    llvm::append_range(info.expTerms, in.expTerms);
    llvm::append_range(info.stripped, in.stripped);
  }
  return success();
}

/// Records in `info` a factor exp(x - c) or exp(x + c): rescaled.
bool TemporalSlicePlanner::matchRescaledExp(linalg::LinalgOp op, Value leaf,
                                            bool inverted, StreamInfo &info) {
  auto exp = leaf.getDefiningOp<math::ExpOp>();
  Operation *exponent = exp ? exp.getOperand().getDefiningOp() : nullptr;
  if (!exp || inverted ||
      !isa_and_nonnull<arith::SubFOp, arith::AddFOp>(exponent))
    return false;
  Value shift =
      matchShiftedData(op, exponent->getOperand(0), exponent->getOperand(1));
  if (!shift)
    return false;
  info.expTerms.push_back({shift, isa<arith::SubFOp>(exponent) ? -1 : 1});
  runningNeeded.insert(shift);
  return true;
}

/// In the loop, a rounded value is rounded without its postponed factors
/// and with exp(x - c) taken at the running c. That changes the rounding
/// error by at most one rounding per element (see docs/Rationale.md), as
/// long as the in-loop value is no larger than the data: every exp factor
/// must be exp(x - max), at most 1; an exp(x + c) or a shift by a sum
/// could overflow the narrower type where the unfused value does not.
LogicalResult TemporalSlicePlanner::checkRoundedInLoop(linalg::LinalgOp op,
                                                 const StreamInfo &info) {
  if (info.shift || info.squareOf)
    return fail(op, "rounds a value shifted by an earlier reduction");
  for (const ExpTerm &term : info.expTerms) {
    Operation *def = term.shift.getDefiningOp();
    bool byMax = roles.lookup(def) == SliceRole::Reducing &&
                 reductionIndex.count(def) &&
                 reductions[reductionIndex.lookup(def)].combiner ==
                     Combiner::Max;
    if (term.sign != -1 || !byMax)
      return fail(op, "rounds exp(x + c) or exp(x - c) with c not a running "
                      "maximum, whose unnormalized value is unbounded");
  }
  return success();
}

LogicalResult TemporalSlicePlanner::planReduction(linalg::LinalgOp op) {
  if (op->getNumResults() != 1)
    return fail(op, "has several results");
  Block *body = op.getBlock();
  Value yielded = body->getTerminator()->getOperand(0);
  Value acc = op.getRegionOutputArgs()[0];
  std::optional<Combiner> combiner = matchCombiner(yielded, acc);
  if (!combiner)
    return fail(op, "does not reduce with a recognized combiner");
  if (!isa<FloatType>(getElementTypeOrSelf(op->getResult(0).getType())))
    return fail(op, "reduces integers");
  Operation *combine = yielded.getDefiningOp();
  Value contribution = combine->getOperand(0) == acc ? combine->getOperand(1)
                                                     : combine->getOperand(0);
  ReductionPlan reduction{op, *combiner, ReductionUpdate::Independent, {}};
  if (failed(analyzeBody(op, contribution, reduction.info)))
    return failure();
  if (reduction.info.shift)
    return fail(op, "reduces a shifted value directly; only its square is "
                    "supported");
  if (reduction.info.squareOf) {
    if (*combiner != Combiner::Add)
      return fail(op, "reduces a centered square with a combiner other "
                      "than add");
    reduction.update = ReductionUpdate::CenteredSquare;
  } else if (!reduction.info.expTerms.empty() || !reduction.info.stripped.empty()) {
    if (*combiner != Combiner::Add)
      return fail(op, "reduces a rescaled value with a combiner other than "
                      "add");
    reduction.update = ReductionUpdate::Rescaled;
  }
  reductionIndex[op] = reductions.size();
  reductions.push_back(reduction);
  return success();
}

LogicalResult TemporalSlicePlanner::run() {
  for (Operation &op : graph.getBody().front().without_terminator())
    members.push_back(&op);

  // Roles, in program order (a role depends on the producers' roles).
  for (Operation *op : members)
    if (failed(assignRole(op)))
      return failure();

  collectMainLoop();
  if (failed(analyzeMainLoop()) || failed(checkRunningValues()))
    return failure();
  if (reductions.empty()) {
    whyNot = "no member reduces along the dim";
    return failure();
  }
  for (const ReductionPlan &r : reductions)
    if (failed(checkUpdateBuilds(r)))
      return failure();
  return success();
}

/// Sets `op`'s role from its space and its producers' roles; fails when the
/// slicer cannot place it.
LogicalResult TemporalSlicePlanner::assignRole(Operation *op) {
  const Space *space = smg.lookupSpace(op);
  bool dependsOnReduction =
      llvm::any_of(op->getOperands(), [&](Value v) { return isReduced(v); });
  bool iteratesT = space && llvm::is_contained(space->dims, t);
  bool reducesT = space && llvm::any_of(space->reductions,
                                        [&](auto r) { return r.first == t; });
  if (!space || space->role == MemberRole::Init) {
    roles[op] = SliceRole::Pre;
    if (dependsOnReduction)
      return fail(op, "initializes from a reduction along the sliced dim");
    return success();
  }
  if (!iteratesT) {
    roles[op] = dependsOnReduction ? SliceRole::Post : SliceRole::Pre;
    return success();
  }
  if (!isa<linalg::LinalgOp>(op)) {
    // A relayout of data the loop does not compute (a collapse of an
    // input's leading dims) is a view: made once before the loop, and
    // sliced by its users like an input, when t stays one axis of it.
    if (isViewBeforeLoop(op)) {
      roles[op] = SliceRole::Pre;
      return success();
    }
    return fail(op, "is a relayout along the sliced dim of a value the "
                    "loop computes, or merges the dim with others");
  }
  if (op->getNumResults() != 1)
    return fail(op, "has several results");
  roles[op] = reducesT ? SliceRole::Reducing : SliceRole::Streamed;
  return success();
}

/// The main loop computes the reductions and the streamed members they
/// read; streamed members that only feed outputs wait for the final pass.
void TemporalSlicePlanner::collectMainLoop() {
  for (Operation *op : llvm::reverse(members)) {
    SliceRole role = roles.lookup(op);
    if (role == SliceRole::Reducing) {
      inMainLoop.insert(op);
    } else if (role == SliceRole::Streamed &&
               llvm::any_of(op->getUsers(), [&](Operation *user) {
                 return inMainLoop.contains(user);
               })) {
      inMainLoop.insert(op);
    }
  }
}

/// Plans the main loop's reductions and what its streamed members carry,
/// in program order.
LogicalResult TemporalSlicePlanner::analyzeMainLoop() {
  for (Operation *op : members) {
    if (!inMainLoop.contains(op))
      continue;
    auto linalgOp = cast<linalg::LinalgOp>(op);
    if (roles.lookup(op) == SliceRole::Reducing) {
      if (failed(planReduction(linalgOp)))
        return failure();
      continue;
    }
    StreamInfo info;
    if (failed(analyzeBody(linalgOp,
                           linalgOp.getBlock()->getTerminator()->getOperand(0),
                           info)))
      return failure();
    infos[op->getResult(0)] = info;
  }
  return success();
}

/// Values the loop needs while running must come from independent
/// reductions: their running value is known at every slice.
LogicalResult TemporalSlicePlanner::checkRunningValues() {
  llvm::SetVector<Value> worklist(runningNeeded.begin(), runningNeeded.end());
  for (unsigned i = 0; i < worklist.size(); ++i) {
    Operation *def = worklist[i].getDefiningOp();
    if (roles.lookup(def) == SliceRole::Reducing) {
      const ReductionPlan &r = reductions[reductionIndex.lookup(def)];
      if (r.update != ReductionUpdate::Independent)
        return fail(def, "is needed inside the loop but is itself a "
                         "dependent reduction");
      if (r.combiner == Combiner::Mul)
        return fail(def, "is a product needed inside the loop");
      continue;
    }
    for (Value operand : def->getOperands())
      if (isReduced(operand))
        worklist.insert(operand);
  }
  return success();
}

LogicalResult TemporalSlicePlanner::checkBroadcast(Operation *op, Value in,
                                                   Value out,
                                                   const Twine &what) {
  if (succeeded(getBroadcastMap(smg, in, out)))
    return success();
  return fail(op, "cannot be updated across slices: " + what +
                      " does not broadcast onto its result");
}

/// Every value the slicer combines into `r`'s state, or applies to it
/// after the loop, is read broadcast over `r`'s result: the state itself
/// (no dim on two axes), the exp shifts, the shift of a centered square,
/// the operands of a postponed factor (a factor that varies along a dim
/// the reduction sums cannot be postponed), and a computed init.
LogicalResult
TemporalSlicePlanner::checkUpdateBuilds(const ReductionPlan &r) {
  Value result = r.op->getResult(0);
  if (failed(getBroadcastMap(smg, result, result)))
    return fail(r.op, "has one dim on two axes of its result (a diagonal), "
                      "along which its running state cannot be combined");
  for (const ExpTerm &term : r.info.expTerms)
    if (failed(checkBroadcast(r.op, term.shift, result,
                              "the exp shift " +
                                  nameOf(term.shift.getDefiningOp()))))
      return failure();
  if (r.update == ReductionUpdate::CenteredSquare) {
    Value shift = infos.lookup(r.info.squareOf).shift;
    if (failed(checkBroadcast(r.op, shift, result, "the shift")) ||
        failed(getBroadcastMap(smg, result, r.info.squareOf)))
      return fail(r.op, "cannot be combined by the shift formula: its "
                        "shift does not broadcast onto the centered values");
  }
  for (const StrippedFactor &factor : r.info.stripped) {
    if (!isRecomputableLeaf(factor))
      return fail(r.op, "cannot apply the factor of " + nameOf(factor.op) +
                            " after the loop: it is not a function of the "
                            "op's operands");
    llvm::SmallSetVector<BlockArgument, 4> args;
    collectArgs(factor.leaf, args);
    for (BlockArgument arg : args)
      if (failed(getBroadcastMap(
              smg, factor.op->getOperand(arg.getArgNumber()), result)))
        return fail(r.op, "cannot take the factor of " + nameOf(factor.op) +
                              " after the loop: it varies along a dim the "
                              "reduction combines");
  }
  if (r.update == ReductionUpdate::Rescaled) {
    Value init = cast<linalg::LinalgOp>(r.op).getDpsInitOperand(0)->get();
    if (failed(checkBroadcast(r.op, init, result, "its init")))
      return failure();
  }
  return success();
}


FailureOr<TemporalSlicePlan>
mlir::smap::planTemporalSlice(const SpaceMappingGraph &smg, unsigned t,
                              std::string &whyNot) {
  TemporalSlicePlan plan;
  plan.t = t;
  TemporalSlicePlanner planner(smg, plan);
  if (failed(planner.run())) {
    whyNot = planner.whyNot;
    return failure();
  }
  return plan;
}
