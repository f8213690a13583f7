//===- SplitReduction.cpp - Split a temporal dim across blocks ------------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Dialect/SMap/Transforms/SplitReduction.h"
#include "spacefusion/Dialect/SMap/Transforms/GraphUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace mlir::smap;

namespace {

/// Where a value of the partial graph carries the split dim s. An input
/// indexed by t gets it in place (its expand_shape: s before t' at t's
/// tensor dim); a value the graph computes gets it first, so that a block's
/// tiles keep their rows and columns next to each other (a row tile, with
/// one more unit dim in front).
struct SplitLayout {
  /// The tensor dim s is inserted before.
  int64_t splitAxis = 0;
  /// t's tensor dim (its extent becomes L / P), or -1 for a value computed
  /// from reductions along t.
  int64_t tAxis = -1;
};

static bool isInitOp(Operation *op) {
  std::string unused;
  FailureOr<MemberRole> role = getMemberRole(op, unused);
  return succeeded(role) && *role == MemberRole::Init;
}

/// `type` with s added as `layout` says.
static RankedTensorType splitType(RankedTensorType type, SplitLayout layout,
                                  int64_t parts) {
  SmallVector<int64_t> shape(type.getShape());
  if (layout.tAxis >= 0)
    shape[layout.tAxis] /= parts;
  shape.insert(shape.begin() + layout.splitAxis, parts);
  return RankedTensorType::get(shape, type.getElementType());
}

/// `exprs` (an operand's map results) for the operand with s added as
/// `layout` says; `s` is the new loop.
static SmallVector<AffineExpr> splitExprs(ArrayRef<AffineExpr> exprs,
                                          SplitLayout layout, AffineExpr s) {
  SmallVector<AffineExpr> out(exprs);
  out.insert(out.begin() + layout.splitAxis, s);
  return out;
}

/// One operand of a merge generic: a value per part (s first) or merged,
/// and the map that reads it broadcast onto the merged result.
struct MergeOperand {
  Value value;
  AffineMap map;
};

/// The values and maps of a merge generic's operands, apart.
static std::pair<SmallVector<Value>, SmallVector<AffineMap>>
unzipOperands(ArrayRef<MergeOperand> operands) {
  std::pair<SmallVector<Value>, SmallVector<AffineMap>> out;
  for (const MergeOperand &operand : operands) {
    out.first.push_back(operand.value);
    out.second.push_back(operand.map);
  }
  return out;
}

/// For each postponed factor of a reduction, its leaf's block arguments and
/// their positions among a merge generic's arguments.
using LeafArgs = SmallVector<SmallVector<std::pair<BlockArgument, unsigned>>>;

class ReductionSplitter {
public:
  ReductionSplitter(const SpaceMappingGraph &smg, const TemporalSlicePlan &plan,
                    int64_t parts)
      : smg(smg), plan(plan), parts(parts), graph(smg.getGraph()),
        body(graph.getBody().front()) {
    collectPostReadByParts();
  }

  std::string check();
  ReductionSplit apply();

private:
  // Analysis (no IR change).
  std::optional<unsigned> loopOfT(Operation *op) const;
  std::optional<int64_t> axisOfT(OpOperand &use) const;
  void collectPostReadByParts();
  bool inPartial(Operation *op) const;
  bool isRewritten(Operation *op) const;
  std::string checkOp(Operation *op);
  std::string checkReduction(const ReductionPlan &r);
  bool startsFromAnyConstant(const ReductionPlan &r) const;
  std::string checkInputs();
  std::string fail(Operation *op, const Twine &why) const {
    return (smg.nameOf(op) + " " + why).str();
  }

  // Partial graph.
  Value lookupUnchanged(OpBuilder &b, Value orig, IRMapping &map);
  void mapCaptures(OpBuilder &b, Region &region, IRMapping &map);
  void expandInputs(OpBuilder &b);
  Value buildInit(OpBuilder &b, Value orig, SplitLayout layout, IRMapping &map);
  void rewriteWithParts(OpBuilder &b, linalg::LinalgOp op);
  void cloneUnchanged(OpBuilder &b, Operation *op, IRMapping &map);

  // Merge graph.
  Value buildFilled(OpBuilder &b, Location loc, RankedTensorType type,
                    TypedAttr value);
  LeafArgs addLeafOperands(const ReductionPlan &r,
                           function_ref<MergeOperand(Value)> operandOf,
                           SmallVectorImpl<MergeOperand> &operands);
  Value applyLeaves(OpBuilder &b, Location loc, const ReductionPlan &r,
                    const LeafArgs &leafArgs, ValueRange args, Value value,
                    bool undo);
  MergeOperand getMergeOperand(Value orig, Value result, bool perPart);
  SmallVector<MergeOperand> collectMergeOperands(OpBuilder &b,
                                                 const ReductionPlan &r,
                                                 LeafArgs &leafArgs);
  void buildMergeBody(OpBuilder &b, Location loc, const ReductionPlan &r,
                      const LeafArgs &leafArgs, ValueRange args);
  Value mergeReduction(OpBuilder &b, const ReductionPlan &r);
  Value applyFactors(OpBuilder &b, const ReductionPlan &r, Value raw);

  const SpaceMappingGraph &smg;
  const TemporalSlicePlan &plan;
  int64_t parts;
  GraphOp graph;
  Block &body;
  /// Original values (graph body) to their partial-graph values.
  IRMapping partial;
  /// Original values to their merged (unsplit) values.
  IRMapping merged;
  /// Layouts of the original values that carry s in the partial graph.
  DenseMap<Value, SplitLayout> layouts;
  /// Ops after the reductions that the partial graph computes per part
  /// although the temporal loop does not read them (collectPostReadByParts).
  llvm::SmallPtrSet<Operation *, 8> postReadByParts;
};

} // namespace

std::optional<unsigned> ReductionSplitter::loopOfT(Operation *op) const {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return std::nullopt;
  for (unsigned loop = 0; loop < linalgOp.getNumLoops(); ++loop)
    if (smg.getLoopDim(op, loop) == plan.t)
      return loop;
  return std::nullopt;
}

/// Ops after the reductions that a member of the partial graph reads: the
/// temporal loop strips a postponed factor computed from a reduction (an
/// RMSNorm's 1 / rms, through a scale and an rsqrt) off its reading member,
/// but each part applies its own, which the merge then takes off again.
void ReductionSplitter::collectPostReadByParts() {
  for (Operation &op : llvm::reverse(body.without_terminator())) {
    if (!inPartial(&op))
      continue;
    for (Value operand : op.getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (def && def->getBlock() == &body &&
          plan.roles.lookup(def) == SliceRole::Post &&
          !plan.inMainLoop.contains(def) && !isInitOp(def))
        postReadByParts.insert(def);
    }
  }
}

/// The partial graph computes everything but the ops after the reductions
/// that no part reads (those the merge recomputes).
bool ReductionSplitter::inPartial(Operation *op) const {
  SliceRole role = plan.roles.lookup(op);
  return !isInitOp(op) &&
         (role != SliceRole::Post || plan.inMainLoop.contains(op) ||
          postReadByParts.contains(op));
}

/// Ops of the partial graph that iterate t or read a value that carries s.
bool ReductionSplitter::isRewritten(Operation *op) const {
  SliceRole role = plan.roles.lookup(op);
  return inPartial(op) && role != SliceRole::Pre;
}

std::string ReductionSplitter::checkOp(Operation *op) {
  if (!isRewritten(op))
    return "";
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || op->getNumResults() != 1)
    return fail(op, "is not a linalg op with one result");
  if (!llvm::all_of(linalgOp.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isProjectedPermutation(); }))
    return fail(op, "has an indexing map that is not a projected permutation");
  if (!isa<FloatType>(getElementTypeOrSelf(op->getResult(0).getType())) &&
      plan.roles.lookup(op) == SliceRole::Reducing)
    return fail(op, "reduces integers");
  std::optional<unsigned> tl = loopOfT(op);
  if (plan.roles.lookup(op) != SliceRole::Post && !tl)
    return fail(op, "iterates t through a collapsed group");
  // Every operand carrying t indexes it by t's loop, at one tensor dim.
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = linalgOp.getMatchingIndexingMap(&operand);
    int64_t axes = 0;
    for (AffineExpr e : map.getResults())
      axes += tl && e == getAffineDimExpr(*tl, op->getContext());
    if (axes > 1)
      return fail(op, "reads t on two axes of one operand");
    // What it reads along t is an input or a value the partial graph
    // splits (not a view made outside the loop).
    Operation *def = operand.get().getDefiningOp();
    if (axes && linalgOp.isDpsInput(&operand) && def && !isRewritten(def))
      return fail(op, "reads along t a value computed outside the loop");
  }
  Operation *init = linalgOp.getDpsInitOperand(0)->get().getDefiningOp();
  if (!init || !isa<linalg::FillOp, tensor::EmptyOp>(init))
    return fail(op, "writes into a computed init");
  return "";
}

/// Whether every part of `r` may start from the same constant as the whole:
/// a max or min is idempotent (max(max(c, a), max(c, b)) = max(c, a, b)),
/// unless a rescaled sum shifts by it, whose merge leaves out a part only
/// by its shift being the identity (a masked part's sum 0 and its 0 / 0).
bool ReductionSplitter::startsFromAnyConstant(const ReductionPlan &r) const {
  if (r.combiner != Combiner::Max && r.combiner != Combiner::Min)
    return false;
  return llvm::none_of(plan.reductions, [](const ReductionPlan &other) {
    return other.update != ReductionUpdate::Independent;
  });
}

/// A reduction whose parts can be combined: an update the merge knows, an
/// init every part can start from (the combiner's identity, or any
/// constant of a max or min), f32 (the merge's arithmetic).
std::string ReductionSplitter::checkReduction(const ReductionPlan &r) {
  if (r.update == ReductionUpdate::CenteredSquare)
    return fail(r.op, "is a centered square (its parts would need the shift "
                      "formula across blocks)");
  auto type = cast<RankedTensorType>(r.op->getResult(0).getType());
  auto f32 = dyn_cast<Float32Type>(type.getElementType());
  if (!f32)
    return fail(r.op, "does not reduce in f32");
  auto fill = cast<linalg::LinalgOp>(r.op)
                  .getDpsInitOperand(0)
                  ->get()
                  .getDefiningOp<linalg::FillOp>();
  Attribute value;
  Builder builder(r.op->getContext());
  if (!fill || !matchPattern(fill.value(), m_Constant(&value)))
    return fail(r.op, "does not start from a constant");
  if (value != getCombinerIdentity(builder, r.combiner, f32) &&
      !startsFromAnyConstant(r))
    return fail(r.op, "does not start from its combiner's identity (each "
                      "part would add it)");
  for (const StrippedFactor &factor : r.info.stripped) {
    llvm::SmallSetVector<BlockArgument, 4> args;
    collectArgs(factor.leaf, args);
    for (BlockArgument arg : args) {
      Value operand = factor.op->getOperand(arg.getArgNumber());
      if (failed(getBroadcastMap(smg, operand, r.op->getResult(0))))
        return fail(r.op, "takes a factor that does not broadcast onto it");
    }
  }
  return "";
}

/// The tensor dim of `use`'s operand that its op reads along t, if any.
std::optional<int64_t> ReductionSplitter::axisOfT(OpOperand &use) const {
  Operation *user = use.getOwner();
  auto linalgOp = dyn_cast<linalg::LinalgOp>(user);
  std::optional<unsigned> tl = loopOfT(user);
  if (!linalgOp || !tl)
    return std::nullopt;
  AffineMap map = linalgOp.getMatchingIndexingMap(&use);
  for (auto [i, e] : llvm::enumerate(map.getResults()))
    if (e == getAffineDimExpr(*tl, user->getContext()))
      return i;
  return std::nullopt;
}

/// Graph inputs indexed by t are read along t, at one tensor dim, by every
/// user (an input the partial graph splits is split for all of them);
/// records their layouts.
std::string ReductionSplitter::checkInputs() {
  for (BlockArgument arg : body.getArguments()) {
    SmallVector<std::optional<int64_t>> axes;
    for (OpOperand &use : arg.getUses())
      axes.push_back(isRewritten(use.getOwner()) ? axisOfT(use) : std::nullopt);
    if (llvm::none_of(axes, [](auto a) { return a.has_value(); }))
      continue;
    for (auto [use, axis] : llvm::zip(arg.getUses(), axes))
      if (axis != axes.front())
        return fail(use.getOwner(),
                    "reads an input indexed by t other than along t, where "
                    "another op reads it along t");
    layouts[arg] = SplitLayout{*axes.front(), *axes.front()};
  }
  return "";
}

std::string ReductionSplitter::check() {
  const GlobalDim &dim = smg.getDims()[plan.t];
  if (parts < 2 || dim.extent % parts != 0)
    return "dim '" + dim.name + "' (" + std::to_string(dim.extent) +
           ") is not a multiple of " + std::to_string(parts) + " parts";
  for (Value out : body.getTerminator()->getOperands())
    if (Operation *def = out.getDefiningOp())
      if (plan.roles.lookup(def) == SliceRole::Streamed)
        return fail(def, "is a graph output indexed by t");
  for (Operation &op : body.without_terminator()) {
    SliceRole role = plan.roles.lookup(&op);
    if (!isInitOp(&op) && role == SliceRole::Streamed &&
        !plan.inMainLoop.contains(&op))
      return fail(&op, "is indexed by t and read by no reduction");
    if (std::string why = checkOp(&op); !why.empty())
      return why;
  }
  for (const ReductionPlan &r : plan.reductions)
    if (std::string why = checkReduction(r); !why.empty())
      return why;
  return checkInputs();
}

//===----------------------------------------------------------------------===//
// The partial graph
//===----------------------------------------------------------------------===//

/// `orig`'s value in `map`, cloning the init (empty, fill, constant) that
/// defines it when it has none yet.
Value ReductionSplitter::lookupUnchanged(OpBuilder &b, Value orig,
                                         IRMapping &map) {
  if (Value v = map.lookupOrNull(orig))
    return v;
  Operation *def = orig.getDefiningOp();
  assert(def && isInitOp(def) && "a member's value used before it is made");
  for (Value operand : def->getOperands())
    lookupUnchanged(b, operand, map);
  b.clone(*def, map);
  return map.lookup(orig);
}

/// Maps the values `region` reads from the graph body (constants).
void ReductionSplitter::mapCaptures(OpBuilder &b, Region &region,
                                    IRMapping &map) {
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(region, captured);
  for (Value v : captured)
    lookupUnchanged(b, v, map);
}

void ReductionSplitter::expandInputs(OpBuilder &b) {
  for (auto [arg, input] : llvm::zip(body.getArguments(), graph.getInputs())) {
    partial.map(arg, input);
    merged.map(arg, input);
    auto it = layouts.find(arg);
    if (it == layouts.end())
      continue;
    auto type = cast<RankedTensorType>(arg.getType());
    SmallVector<ReassociationIndices> groups;
    for (int64_t i = 0, j = 0; i < type.getRank(); ++i) {
      ReassociationIndices group{j++};
      if (i == it->second.tAxis)
        group.push_back(j++);
      groups.push_back(group);
    }
    Value expanded = tensor::ExpandShapeOp::create(
        b, input.getLoc(), splitType(type, it->second, parts), input, groups);
    partial.map(arg, expanded);
  }
}

Value ReductionSplitter::buildInit(OpBuilder &b, Value orig, SplitLayout layout,
                                   IRMapping &map) {
  auto type = splitType(cast<RankedTensorType>(orig.getType()), layout, parts);
  Location loc = orig.getLoc();
  Value empty =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  auto fill = orig.getDefiningOp<linalg::FillOp>();
  if (!fill)
    return empty;
  Value scalar = lookupUnchanged(b, fill.value(), map);
  return linalg::FillOp::create(b, loc, scalar, empty).getResult(0);
}

/// Rebuilds `op` as a generic with one more parallel loop s (the last):
/// operands carrying s read it, t's index is s * (L / P) + t'.
void ReductionSplitter::rewriteWithParts(OpBuilder &b, linalg::LinalgOp op) {
  MLIRContext *ctx = op->getContext();
  unsigned numLoops = op.getNumLoops();
  AffineExpr s = getAffineDimExpr(numLoops, ctx);
  std::optional<unsigned> tl = loopOfT(op);
  SmallVector<AffineMap> maps;
  SmallVector<Value> inputs, inits;
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    SmallVector<AffineExpr> exprs(map.getResults());
    if (op.isDpsInit(&operand)) {
      SplitLayout layout;
      for (auto [i, e] : llvm::enumerate(exprs))
        if (tl && e == getAffineDimExpr(*tl, ctx))
          layout.tAxis = i;
      layout.splitAxis = 0;
      layouts[op->getResult(0)] = layout;
      inits.push_back(buildInit(b, operand.get(), layout, partial));
      exprs = splitExprs(exprs, layout, s);
    } else if (auto it = layouts.find(operand.get()); it != layouts.end()) {
      inputs.push_back(partial.lookup(operand.get()));
      exprs = splitExprs(exprs, it->second, s);
    } else {
      inputs.push_back(lookupUnchanged(b, operand.get(), partial));
    }
    maps.push_back(AffineMap::get(numLoops + 1, 0, exprs, ctx));
  }
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  iterators.push_back(utils::IteratorType::parallel);
  mapCaptures(b, op->getRegion(0), partial);
  auto generic = linalg::GenericOp::create(b, op.getLoc(),
                                           TypeRange{inits.front().getType()},
                                           inputs, inits, maps, iterators);
  op->getRegion(0).cloneInto(&generic.getRegion(), partial);
  if (tl) {
    int64_t perPart = smg.getDims()[plan.t].extent / parts;
    SmallVector<linalg::IndexOp> indices;
    generic.walk([&](linalg::IndexOp index) {
      if (index.getDim() == *tl)
        indices.push_back(index);
    });
    for (linalg::IndexOp index : indices) {
      OpBuilder ib(index->getContext());
      ib.setInsertionPointAfter(index);
      Location loc = index.getLoc();
      Value part = linalg::IndexOp::create(ib, loc, numLoops);
      Value base = arith::MulIOp::create(
          ib, loc, part, arith::ConstantIndexOp::create(ib, loc, perPart));
      auto global = arith::AddIOp::create(ib, loc, base, index);
      index.getResult().replaceAllUsesExcept(global, global);
    }
  }
  partial.map(op->getResult(0), generic.getResult(0));
}

void ReductionSplitter::cloneUnchanged(OpBuilder &b, Operation *op,
                                       IRMapping &map) {
  for (Value operand : op->getOperands())
    lookupUnchanged(b, operand, map);
  for (Region &region : op->getRegions())
    mapCaptures(b, region, map);
  b.clone(*op, map);
}

//===----------------------------------------------------------------------===//
// The merge graph
//===----------------------------------------------------------------------===//

Value ReductionSplitter::buildFilled(OpBuilder &b, Location loc,
                                     RankedTensorType type, TypedAttr value) {
  Value empty =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  Value scalar = arith::ConstantOp::create(b, loc, value);
  return linalg::FillOp::create(b, loc, scalar, empty).getResult(0);
}

/// Clones the scalar ops of `factor.op`'s body that compute its leaf, with
/// the body's arguments (and captured values) given by `map`.
static Value cloneLeaf(OpBuilder &b, const StrippedFactor &factor,
                       IRMapping &map) {
  Block *block = cast<linalg::LinalgOp>(factor.op).getBlock();
  for (Operation &inner : block->without_terminator()) {
    if (map.contains(factor.leaf))
      break;
    if (llvm::all_of(inner.getOperands(),
                     [&](Value v) { return map.contains(v); }))
      b.clone(inner, map);
  }
  return map.lookup(factor.leaf);
}

/// Adds to `operands`, for each of `r`'s postponed factors, the operands
/// its leaf reads (`operandOf` gives each one's value and map in the merge
/// generic), and returns where each leaf argument is among them.
LeafArgs
ReductionSplitter::addLeafOperands(const ReductionPlan &r,
                                   function_ref<MergeOperand(Value)> operandOf,
                                   SmallVectorImpl<MergeOperand> &operands) {
  LeafArgs leafArgs;
  for (const StrippedFactor &factor : r.info.stripped) {
    llvm::SmallSetVector<BlockArgument, 4> args;
    collectArgs(factor.leaf, args);
    leafArgs.emplace_back();
    for (BlockArgument arg : args) {
      leafArgs.back().push_back({arg, operands.size()});
      operands.push_back(operandOf(factor.op->getOperand(arg.getArgNumber())));
    }
  }
  return leafArgs;
}

/// `value` with `r`'s postponed factors g(leaf) applied, or with `undo`
/// removed, each leaf recomputed in a merge body from its `args`.
Value ReductionSplitter::applyLeaves(OpBuilder &b, Location loc,
                                     const ReductionPlan &r,
                                     const LeafArgs &leafArgs, ValueRange args,
                                     Value value, bool undo) {
  for (auto [factor, leafArgsOfFactor] : llvm::zip(r.info.stripped, leafArgs)) {
    IRMapping leafMap = merged;
    for (auto [arg, index] : leafArgsOfFactor)
      leafMap.map(arg, args[index]);
    Value leaf = cloneLeaf(b, factor, leafMap);
    // g is 1 / leaf for an inverted factor.
    value = factor.inverted != undo
                ? arith::DivFOp::create(b, loc, value, leaf).getResult()
                : arith::MulFOp::create(b, loc, value, leaf).getResult();
  }
  return value;
}

/// `orig` read broadcast onto `result` in a merge generic over `result`'s
/// dims and the parts (the last loop): per part when `perPart` and the
/// partial graph splits it, else merged.
MergeOperand ReductionSplitter::getMergeOperand(Value orig, Value result,
                                                bool perPart) {
  MLIRContext *ctx = result.getContext();
  unsigned rank = cast<RankedTensorType>(result.getType()).getRank();
  AffineExpr s = getAffineDimExpr(rank, ctx);
  AffineMap bcast = *getBroadcastMap(smg, orig, result);
  SmallVector<AffineExpr> exprs;
  for (AffineExpr e : bcast.getResults())
    exprs.push_back(e);
  bool split = perPart && layouts.count(orig);
  if (split)
    exprs.insert(exprs.begin(), s);
  return MergeOperand{split ? partial.lookup(orig) : merged.lookup(orig),
                      AffineMap::get(rank + 1, 0, exprs, ctx)};
}

/// The operands of `r`'s merge generic: its parts, each exp shift per part
/// and merged, and its factors' leaves per part (`leafArgs` says where).
SmallVector<MergeOperand>
ReductionSplitter::collectMergeOperands(OpBuilder &b, const ReductionPlan &r,
                                        LeafArgs &leafArgs) {
  Value result = r.op->getResult(0);
  SmallVector<MergeOperand> operands{
      getMergeOperand(result, result, /*perPart=*/true)};
  for (const ExpTerm &term : r.info.expTerms) {
    operands.push_back(getMergeOperand(term.shift, result, true));
    operands.push_back(getMergeOperand(term.shift, result, false));
  }
  // The factors' leaves, per part.
  for (const StrippedFactor &factor : r.info.stripped)
    mapCaptures(b, factor.op->getRegion(0), merged);
  leafArgs = addLeafOperands(
      r,
      [&](Value orig) {
        return getMergeOperand(orig, result, /*perPart=*/true);
      },
      operands);
  return operands;
}

/// The weight exp(sign * (C - c_s)) that takes a part of `r` back to the
/// merged exp shifts, from a merge body's `args`.
static Value buildPartWeight(OpBuilder &b, Location loc, const ReductionPlan &r,
                             ValueRange args) {
  Value weight = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(1));
  for (auto [i, term] : llvm::enumerate(r.info.expTerms)) {
    Value delta =
        arith::SubFOp::create(b, loc, args[2 + 2 * i], args[1 + 2 * i]);
    if (term.sign < 0)
      delta = arith::NegFOp::create(b, loc, delta);
    weight = arith::MulFOp::create(b, loc, weight,
                                   math::ExpOp::create(b, loc, delta));
  }
  return weight;
}

/// Builds the body of `r`'s merge generic, which adds each part (its
/// `args[0]`) into the accumulator.
void ReductionSplitter::buildMergeBody(OpBuilder &b, Location loc,
                                       const ReductionPlan &r,
                                       const LeafArgs &leafArgs,
                                       ValueRange args) {
  Value acc = args.back();
  Value part = args[0];
  if (r.update == ReductionUpdate::Independent) {
    Value combined = buildCombine(b, loc, r.combiner, acc, part);
    linalg::YieldOp::create(b, loc, combined);
    return;
  }
  // Each part back to the merged shifts (exp(sign * (C - c_s)))...
  Value weight = buildPartWeight(b, loc, r, args);
  // ...without the factors applied to it (g(c_s)).
  Value term = applyLeaves(b, loc, r, leafArgs, args,
                           arith::MulFOp::create(b, loc, part, weight),
                           /*undo=*/true);
  // A part with a zero weight (its shift -inf: every key masked)
  // adds nothing, even when its own result is NaN.
  if (!r.info.expTerms.empty()) {
    Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
    Value none =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, weight, zero);
    term = arith::SelectOp::create(b, loc, none, zero, term);
  }
  Value sum = arith::AddFOp::create(b, loc, acc, term);
  linalg::YieldOp::create(b, loc, sum);
}

/// The merged value of reduction `r`: its parts combined, with its
/// postponed factors applied.
Value ReductionSplitter::mergeReduction(OpBuilder &b, const ReductionPlan &r) {
  MLIRContext *ctx = b.getContext();
  auto type = cast<RankedTensorType>(r.op->getResult(0).getType());
  unsigned rank = type.getRank();
  Location loc = r.op->getLoc();
  LeafArgs leafArgs;
  SmallVector<MergeOperand> operands = collectMergeOperands(b, r, leafArgs);
  auto [inputs, maps] = unzipOperands(operands);
  maps.push_back(
      AffineMap::getMultiDimIdentityMap(rank + 1, ctx).getMajorSubMap(rank));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  iterators.push_back(utils::IteratorType::reduction);
  auto f32 = cast<FloatType>(type.getElementType());
  Value init =
      buildFilled(b, loc, type, getCombinerIdentity(b, r.combiner, f32));
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{type}, inputs, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        buildMergeBody(nb, nl, r, leafArgs, args);
      });
  return applyFactors(b, r, generic.getResult(0));
}

/// The merged factors g(C) applied to the merged sum `raw`.
Value ReductionSplitter::applyFactors(OpBuilder &b, const ReductionPlan &r,
                                      Value raw) {
  if (r.info.stripped.empty())
    return raw;
  Value result = r.op->getResult(0);
  auto type = cast<RankedTensorType>(result.getType());
  AffineMap identity = b.getMultiDimIdentityMap(type.getRank());
  SmallVector<MergeOperand> operands{{raw, identity}};
  LeafArgs leafArgs = addLeafOperands(
      r,
      [&](Value orig) {
        return MergeOperand{merged.lookup(orig),
                            *getBroadcastMap(smg, orig, result)};
      },
      operands);
  auto [inputs, maps] = unzipOperands(operands);
  maps.push_back(identity);
  Value init = tensor::EmptyOp::create(b, r.op->getLoc(), type.getShape(),
                                       type.getElementType());
  SmallVector<utils::IteratorType> iterators(type.getRank(),
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, r.op->getLoc(), TypeRange{type}, inputs, ValueRange{init}, maps,
      iterators, [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value value = applyLeaves(nb, nl, r, leafArgs, args, args[0],
                                  /*undo=*/false);
        linalg::YieldOp::create(nb, nl, value);
      });
  return generic.getResult(0);
}

/// The ops between `after` (exclusive; null: the block's start) and
/// `before` (exclusive), in order.
static SmallVector<Operation *> opsBetween(Block &block, Operation *after,
                                           Operation *before) {
  SmallVector<Operation *> ops;
  auto it = after ? std::next(after->getIterator()) : block.begin();
  for (; &*it != before; ++it)
    ops.push_back(&*it);
  return ops;
}

ReductionSplit ReductionSplitter::apply() {
  (void)checkInputs(); // the layouts of the inputs split in place
  Block &parent = *graph->getBlock();
  OpBuilder b(graph);
  expandInputs(b);
  Operation *expandsEnd = graph->getPrevNode();
  for (Operation &op : body.without_terminator()) {
    if (!inPartial(&op))
      continue;
    if (isRewritten(&op))
      rewriteWithParts(b, cast<linalg::LinalgOp>(op));
    else
      cloneUnchanged(b, &op, partial);
  }
  Operation *partialEnd = graph->getPrevNode();

  for (Operation &op : body.without_terminator()) {
    SliceRole role = plan.roles.lookup(&op);
    if (isInitOp(&op) || role == SliceRole::Streamed)
      continue;
    if (role == SliceRole::Pre) {
      for (Value v : op.getResults())
        merged.map(v, partial.lookup(v));
    } else if (role == SliceRole::Reducing) {
      const ReductionPlan &r = plan.reductions[plan.reductionIndex.lookup(&op)];
      merged.map(op.getResult(0), mergeReduction(b, r));
    } else {
      cloneUnchanged(b, &op, merged);
    }
  }
  for (auto [result, out] :
       llvm::zip(graph.getResults(), body.getTerminator()->getOperands()))
    result.replaceAllUsesWith(lookupUnchanged(b, out, merged));

  SmallVector<Operation *> partialOps =
      opsBetween(parent, expandsEnd, partialEnd->getNextNode());
  SmallVector<Operation *> mergeOps =
      opsBetween(parent, partialEnd, graph.getOperation());
  TargetAttr target = graph.getTargetAttr();
  auto noUta = graph->getContext()
                   ->getOrLoadDialect<SMapDialect>()
                   ->getNoUtaAttrHelper();
  bool withoutUta = noUta.isAttrPresent(graph);
  graph.erase();
  // The merge first: it clones the constants it reads from the partial ops.
  ReductionSplit split;
  split.merge = outlineIntoGraph(mergeOps);
  split.partial = outlineIntoGraph(partialOps);
  for (GraphOp part : {split.partial, split.merge}) {
    part.setTargetAttr(target);
    if (withoutUta)
      noUta.setAttr(part, UnitAttr::get(part->getContext()));
  }
  return split;
}

std::string mlir::smap::whyNotSplittable(const SpaceMappingGraph &smg,
                                         const TemporalSlicePlan &plan,
                                         int64_t parts) {
  return ReductionSplitter(smg, plan, parts).check();
}

ReductionSplit mlir::smap::splitReduction(const SpaceMappingGraph &smg,
                                          const TemporalSlicePlan &plan,
                                          int64_t parts) {
  return ReductionSplitter(smg, plan, parts).apply();
}
