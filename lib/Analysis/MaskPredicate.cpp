//===- MaskPredicate.cpp - Masks from index arithmetic ----------------------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Analysis/MaskPredicate.h"

#include "spacefusion/Analysis/SpaceMappingGraph.h"
#include "spacefusion/Analysis/TemporalSlicePlan.h"
#include "spacefusion/Analysis/TensorCoreLegality.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/MapVector.h"

#include <limits>

using namespace mlir;
using namespace mlir::smap;

namespace {
/// sum_d dims[d] index_d + sum_a inputs[a] a + constant, over the global
/// dims of one op's loops and the graph's inputs: index inputs, and
/// one-element integer tensors standing for their element.
struct IndexForm {
  llvm::SmallMapVector<unsigned, int64_t, 4> dims;
  llvm::SmallMapVector<Value, int64_t, 2> inputs;
  int64_t constant = 0;
};

/// What a value is at the masked elements.
enum class Masked { Finite, Zero, NegInf, Unknown };
} // namespace

/// The value an all-parallel one-result generic yields at each element (an
/// iota, as StableHLO's iota and torch-mlir's arange become, a compare of
/// one with a broadcast length, a copy): its scalar body reads the
/// producer's own operands, which the analysis follows in turn.
static Value elementwiseYield(Value v) {
  auto producer = v.getDefiningOp<linalg::GenericOp>();
  if (!producer || producer.getNumDpsInits() != 1 ||
      producer.getNumReductionLoops() ||
      !producer.getMatchingIndexingMap(producer.getDpsInitOperand(0))
           .isIdentity() ||
      !producer.getBlock()->getArgument(producer.getNumDpsInputs()).use_empty())
    return nullptr;
  return producer.getBlock()->getTerminator()->getOperand(0);
}

/// The value `arg` (a block argument of `op`'s body) reads, as a value of
/// the op that produces it: its yield, with that op as `producer`.
static Value producedValue(linalg::LinalgOp op, BlockArgument arg,
                           linalg::LinalgOp &producer) {
  if (arg.getOwner()->getParentOp() != op.getOperation() ||
      arg.getArgNumber() >= op.getNumDpsInputs())
    return nullptr;
  OpOperand &operand = op->getOpOperand(arg.getArgNumber());
  Value yielded = elementwiseYield(operand.get());
  if (!yielded || !op.getMatchingIndexingMap(&operand).isProjectedPermutation())
    return nullptr;
  producer = operand.get().getDefiningOp<linalg::LinalgOp>();
  return yielded;
}

/// Whether `v` is a graph input holding one integer (a tile of a per-batch
/// length, say): the same value at every element of the block.
static bool isUniformElement(const SpaceMappingGraph &smg, Value v) {
  auto arg = dyn_cast<BlockArgument>(v);
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return arg && arg.getOwner()->getParentOp() == smg.getGraph().getOperation() &&
         type && type.hasStaticShape() && type.getNumElements() == 1 &&
         type.getElementType().isSignlessInteger();
}

/// Adds `scale` x `v` to `form`: `v` is linalg.index, an index input of the
/// graph, a constant, an element of an iota tensor read at the op's own
/// indices, or sums, differences and constant multiples of them, through
/// index casts and integer extensions (frontends compare i64 indices).
static bool addIndexForm(const SpaceMappingGraph &smg, linalg::LinalgOp op,
                         Value v, int64_t scale, IndexForm &form) {
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (arg.getOwner()->getParentOp() == op.getOperation()) {
      // An operand computed elementwise, read through a permutation of the
      // op's loops, counts the same global dims in its producer; a
      // one-element input is one value for the whole block.
      if (arg.getArgNumber() >= op.getNumDpsInputs())
        return false;
      Value operand = op->getOperand(arg.getArgNumber());
      if (isUniformElement(smg, operand)) {
        form.inputs[operand] += scale;
        return true;
      }
      linalg::LinalgOp producer;
      Value produced = producedValue(op, arg, producer);
      return produced && addIndexForm(smg, producer, produced, scale, form);
    }
    if (arg.getOwner()->getParentOp() != smg.getGraph().getOperation() ||
        !arg.getType().isIndex())
      return false;
    form.inputs[v] += scale;
    return true;
  }
  Operation *def = v.getDefiningOp();
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
          arith::ExtUIOp>(def))
    return addIndexForm(smg, op, def->getOperand(0), scale, form);
  if (auto constant = dyn_cast<arith::ConstantIntOp>(def)) {
    form.constant += scale * constant.value();
    return true;
  }
  if (auto index = dyn_cast<linalg::IndexOp>(def)) {
    std::optional<unsigned> d = smg.getLoopDim(op, index.getDim());
    if (d) {
      form.dims[*d] += scale;
      return true;
    }
    // A loop of extent 1 (a block's one row, folded away by the SMG) only
    // ever has index 0.
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    return index.getDim() < ranges.size() && ranges[index.getDim()] == 1;
  }
  if (auto constant = dyn_cast<arith::ConstantIndexOp>(def)) {
    form.constant += scale * constant.value();
    return true;
  }
  if (auto add = dyn_cast<arith::AddIOp>(def))
    return addIndexForm(smg, op, add.getLhs(), scale, form) &&
           addIndexForm(smg, op, add.getRhs(), scale, form);
  if (auto sub = dyn_cast<arith::SubIOp>(def))
    return addIndexForm(smg, op, sub.getLhs(), scale, form) &&
           addIndexForm(smg, op, sub.getRhs(), -scale, form);
  if (auto mul = dyn_cast<arith::MulIOp>(def)) {
    auto c = mul.getRhs().getDefiningOp<arith::ConstantIndexOp>();
    return c && addIndexForm(smg, op, mul.getLhs(), scale * c.value(), form);
  }
  return false;
}

/// `hide` (an index compare, true or false where masked as `whenTrue`) as
/// a form that is > 0 exactly where masked. Unsigned compares of forms
/// with a subtraction could wrap: only signed ones then.
static std::optional<IndexForm> hiddenWhere(const SpaceMappingGraph &smg,
                                            linalg::LinalgOp op,
                                            arith::CmpIOp cmp, bool whenTrue) {
  if (!cmp.getLhs().getType().isIntOrIndex())
    return std::nullopt;
  using P = arith::CmpIPredicate;
  P pred = whenTrue ? cmp.getPredicate()
                    : arith::invertPredicate(cmp.getPredicate());
  if (pred == P::eq || pred == P::ne)
    return std::nullopt;
  // x > y: x - y > 0; x >= y: x - y + 1 > 0; x < y, x <= y likewise.
  bool greater = pred == P::ugt || pred == P::sgt || pred == P::uge ||
                 pred == P::sge;
  bool orEqual = pred == P::uge || pred == P::sge || pred == P::ule ||
                 pred == P::sle;
  IndexForm form;
  Value x = greater ? cmp.getLhs() : cmp.getRhs();
  Value y = greater ? cmp.getRhs() : cmp.getLhs();
  if (!addIndexForm(smg, op, x, 1, form) || !addIndexForm(smg, op, y, -1, form))
    return std::nullopt;
  bool isSigned = pred == P::sgt || pred == P::sge || pred == P::slt ||
                  pred == P::sle;
  bool subtracts = llvm::any_of(cmp->getOperands(), [](Value v) {
    return v.getDefiningOp<arith::SubIOp>();
  });
  if (subtracts && !isSigned)
    return std::nullopt;
  if (orEqual)
    form.constant += 1;
  return form;
}

namespace {
/// Forms that are all > 0 where masked (a conjunction of compares).
using Clause = SmallVector<IndexForm, 1>;
} // namespace

/// At most this many clauses (an `andi` of `ori`s multiplies them).
static constexpr size_t kMaxClauses = 8;

/// The clauses whose union is where `hide` masks: a compare; an `ori` of
/// compares when masked if true (an `andi` when masked if false) is their
/// union, an `andi` when masked if true (an `ori` when masked if false, as
/// a prefix-LM mask keeps what is causal or in the prefix) their
/// intersection. Returns false when some part is no index predicate; a
/// union then keeps the clauses of its other parts (each hides no more
/// than the mask does), an intersection adds none.
static bool hiddenClauses(const SpaceMappingGraph &smg, linalg::LinalgOp op,
                          Value hide, bool whenTrue,
                          SmallVectorImpl<Clause> &clauses) {
  if (auto arg = dyn_cast<BlockArgument>(hide)) {
    // A condition computed by another elementwise op (torch-mlir's
    // masked_fill reads a boolean tensor).
    linalg::LinalgOp producer;
    Value produced = producedValue(op, arg, producer);
    return produced &&
           hiddenClauses(smg, producer, produced, whenTrue, clauses);
  }
  Operation *def = hide.getDefiningOp();
  if (auto xori = dyn_cast<arith::XOrIOp>(def)) {
    // x ^ true (a logical not, torch-mlir's bitwise_not) masks where x
    // does not.
    for (unsigned i : {0u, 1u})
      if (matchPattern(xori->getOperand(1 - i), m_One()) &&
          xori.getType().isInteger(1))
        return hiddenClauses(smg, op, xori->getOperand(i), !whenTrue, clauses);
    return false;
  }
  if ((whenTrue && isa_and_nonnull<arith::OrIOp>(def)) ||
      (!whenTrue && isa_and_nonnull<arith::AndIOp>(def))) {
    bool lhs = hiddenClauses(smg, op, def->getOperand(0), whenTrue, clauses);
    bool rhs = hiddenClauses(smg, op, def->getOperand(1), whenTrue, clauses);
    return lhs && rhs;
  }
  if ((whenTrue && isa_and_nonnull<arith::AndIOp>(def)) ||
      (!whenTrue && isa_and_nonnull<arith::OrIOp>(def))) {
    SmallVector<Clause, 2> lhs, rhs;
    if (!hiddenClauses(smg, op, def->getOperand(0), whenTrue, lhs) ||
        !hiddenClauses(smg, op, def->getOperand(1), whenTrue, rhs) ||
        lhs.size() * rhs.size() > kMaxClauses)
      return false;
    for (const Clause &a : lhs)
      for (const Clause &b : rhs) {
        Clause both(a);
        both.append(b.begin(), b.end());
        clauses.push_back(std::move(both));
      }
    return true;
  }
  auto cmp = dyn_cast_or_null<arith::CmpIOp>(def);
  std::optional<IndexForm> form =
      cmp ? hiddenWhere(smg, op, cmp, whenTrue) : std::nullopt;
  if (!form)
    return false;
  clauses.push_back(Clause{*form});
  return true;
}

namespace {
/// Evaluates scalar bodies at the masked elements.
class MaskedEvaluator {
public:
  /// The class of `v` in a body whose block arguments have `args`;
  /// `hide` (if set) is the compare known to say "masked" when `hideValue`.
  Masked eval(Value v) {
    auto it = classes.find(v);
    if (it != classes.end())
      return it->second;
    Masked c = compute(v);
    classes[v] = c;
    return c;
  }
  DenseMap<Value, Masked> classes;
  Value hide;
  bool hideValue = true;

private:
  static bool isPositiveConstant(Value v) {
    auto c = v.getDefiningOp<arith::ConstantFloatOp>();
    return c && c.value().isFinite() && !c.value().isNegative() &&
           !c.value().isZero();
  }
  Masked compute(Value v);
};
} // namespace

Masked MaskedEvaluator::compute(Value v) {
  Operation *def = v.getDefiningOp();
  if (!def)
    return Masked::Finite; // not a tracked argument: data
  if (auto c = dyn_cast<arith::ConstantFloatOp>(def)) {
    APFloat f = c.value();
    if (f.isZero())
      return Masked::Zero;
    if (f.isInfinity() && f.isNegative())
      return Masked::NegInf;
    return f.isFinite() ? Masked::Finite : Masked::Unknown;
  }
  if (!isa<FloatType>(v.getType()))
    return Masked::Finite;
  if (auto select = dyn_cast<arith::SelectOp>(def)) {
    if (hide && select.getCondition() == hide)
      return eval(hideValue ? select.getTrueValue() : select.getFalseValue());
    Masked a = eval(select.getTrueValue()), b = eval(select.getFalseValue());
    return a == b ? a : Masked::Unknown;
  }
  if (isa<arith::ExtFOp, arith::TruncFOp>(def))
    return eval(def->getOperand(0));
  if (isa<math::ExpOp, math::Exp2Op>(def)) {
    Masked a = eval(def->getOperand(0));
    return a == Masked::NegInf ? Masked::Zero
           : a == Masked::Unknown ? Masked::Unknown
                                  : Masked::Finite;
  }
  if (def->getNumOperands() != 2)
    return Masked::Unknown;
  Value x = def->getOperand(0), y = def->getOperand(1);
  Masked a = eval(x), b = eval(y);
  auto finiteOr = [](Masked m) { return m == Masked::Finite || m == Masked::Zero; };
  if (isa<arith::AddFOp, arith::SubFOp>(def)) {
    // -inf plus or minus a finite value stays -inf (only on the left of a
    // difference); finite values and zeros give finite values and zeros.
    bool commutes = isa<arith::AddFOp>(def);
    if ((a == Masked::NegInf && finiteOr(b)) ||
        (commutes && b == Masked::NegInf && finiteOr(a)))
      return Masked::NegInf;
    if (finiteOr(a) && finiteOr(b))
      return a == Masked::Zero && b == Masked::Zero ? Masked::Zero
                                                    : Masked::Finite;
    return Masked::Unknown;
  }
  if (isa<arith::MulFOp>(def)) {
    if ((a == Masked::Zero && finiteOr(b)) || (b == Masked::Zero && finiteOr(a)))
      return Masked::Zero;
    if ((a == Masked::NegInf && isPositiveConstant(y)) ||
        (b == Masked::NegInf && isPositiveConstant(x)))
      return Masked::NegInf;
    return finiteOr(a) && finiteOr(b) ? Masked::Finite : Masked::Unknown;
  }
  if (isa<arith::DivFOp>(def)) {
    if (a == Masked::Zero && finiteOr(b))
      return Masked::Zero;
    if (a == Masked::NegInf && isPositiveConstant(y))
      return Masked::NegInf;
    return finiteOr(a) && finiteOr(b) ? Masked::Finite : Masked::Unknown;
  }
  if (isa<arith::MaximumFOp, arith::MaxNumFOp>(def)) {
    if (a == Masked::NegInf)
      return b;
    if (b == Masked::NegInf)
      return a;
    return finiteOr(a) && finiteOr(b) ? Masked::Finite : Masked::Unknown;
  }
  return Masked::Unknown;
}

/// The class of `op`'s (first) yielded value at masked elements, its inputs
/// having `inputs`; for a reduction, that of its contribution instead (what
/// it combines with the accumulator).
static Masked yieldedClass(linalg::LinalgOp op, ArrayRef<Masked> inputs,
                           MaskedEvaluator &evaluator, bool contribution) {
  Block *body = op.getBlock();
  for (auto [arg, c] : llvm::zip(body->getArguments(), inputs))
    evaluator.classes[arg] = c;
  for (BlockArgument out : body->getArguments().drop_front(inputs.size()))
    evaluator.classes[out] = Masked::Finite;
  Value yielded = body->getTerminator()->getOperand(0);
  if (!contribution)
    return evaluator.eval(yielded);
  if (isMultiplyAccumulate(op)) {
    auto add = yielded.getDefiningOp<arith::AddFOp>();
    Value acc = body->getArgument(op.getNumDpsInputs());
    return evaluator.eval(add.getLhs() == acc ? add.getRhs() : add.getLhs());
  }
  Operation *combine = yielded.getDefiningOp();
  Value acc = body->getArgument(op.getNumDpsInputs());
  if (!combine || combine->getNumOperands() != 2 ||
      (combine->getOperand(0) == acc) == (combine->getOperand(1) == acc))
    return Masked::Unknown;
  return evaluator.eval(combine->getOperand(combine->getOperand(0) == acc));
}

/// The masked class of each member result reachable from `mask` (whose
/// result is -inf where masked); false if a reduction along t would
/// combine anything but its identity there.
static bool masksEveryReduction(const SpaceMappingGraph &smg,
                                const TemporalSlicePlan &plan, Operation *mask,
                                std::string &whyNot) {
  DenseMap<Value, Masked> classes;
  classes[mask->getResult(0)] = Masked::NegInf;
  for (Operation *op : plan.members) {
    if (op == mask || !llvm::any_of(op->getOperands(), [&](Value v) {
          return classes.count(v);
        }))
      continue;
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (!linalgOp || linalgOp.getNumDpsInits() != 1) {
      whyNot = smg.nameOf(op) + " reads the masked value and is not a "
                                "one-result linalg op";
      return false;
    }
    // Values the mask does not reach are data: finite.
    SmallVector<Masked> inputs;
    for (Value in : linalgOp.getDpsInputs())
      inputs.push_back(classes.lookup(in));
    MaskedEvaluator evaluator;
    auto it = plan.reductionIndex.find(op);
    if (it != plan.reductionIndex.end()) {
      Combiner combiner = plan.reductions[it->second].combiner;
      Masked c = yieldedClass(linalgOp, inputs, evaluator, true);
      bool identity = (combiner == Combiner::Max && c == Masked::NegInf) ||
                      (combiner == Combiner::Add && c == Masked::Zero);
      if (!identity) {
        whyNot = smg.nameOf(op) +
                 " would combine more than its identity at masked elements";
        return false;
      }
      continue; // its result is reduced along t: no masked elements
    }
    classes[op->getResult(0)] = yieldedClass(linalgOp, inputs, evaluator, false);
  }
  // Every reduction along t must have seen the mask.
  for (const ReductionPlan &r : plan.reductions)
    if (llvm::none_of(r.op->getOperands(),
                      [&](Value v) { return classes.count(v); })) {
      whyNot = smg.nameOf(r.op) + " reduces values the mask does not reach";
      return false;
    }
  return true;
}

namespace {
/// A select in a mask's body that alone makes the result -inf: masked where
/// its condition is `whenTrue`, that is where all forms of one of `clauses`
/// are > 0 (`complete`: the clauses describe the whole condition; otherwise
/// some part of it is no index predicate, and `clauses` only a part of it).
struct MaskSelect {
  /// The select's position among the selects of the body.
  unsigned ordinal = 0;
  bool whenTrue = true;
  SmallVector<Clause, 1> clauses;
  bool complete = false;
};
} // namespace

/// The selects by which `op` (a one-result elementwise op) makes its result
/// -inf where an index predicate holds; empty when none. `opaque` is set
/// when a select makes it -inf by a condition that is no such predicate.
static SmallVector<MaskSelect, 1> findMaskSelects(const SpaceMappingGraph &smg,
                                                  linalg::LinalgOp op,
                                                  bool *opaque = nullptr) {
  SmallVector<MaskSelect, 1> found;
  if (op.getNumDpsInits() != 1 || op.getNumReductionLoops())
    return found;
  Block *body = op.getBlock();
  for (auto [ordinal, select] :
       llvm::enumerate(body->getOps<arith::SelectOp>())) {
    for (bool whenTrue : {true, false}) {
      MaskedEvaluator evaluator;
      for (BlockArgument arg : body->getArguments())
        evaluator.classes[arg] = Masked::Finite;
      evaluator.hide = select.getCondition();
      evaluator.hideValue = whenTrue;
      if (evaluator.eval(body->getTerminator()->getOperand(0)) !=
          Masked::NegInf)
        continue;
      // Each select that alone makes the result -inf is a mask (nested
      // selects of -inf give one each).
      MaskSelect mask{static_cast<unsigned>(ordinal), whenTrue, {}, false};
      mask.complete =
          hiddenClauses(smg, op, select.getCondition(), whenTrue, mask.clauses);
      if (!mask.clauses.empty())
        found.push_back(std::move(mask));
      else if (opaque)
        *opaque = true;
    }
  }
  return found;
}

/// Whether `op` makes its result -inf where an index predicate holds:
/// fills `where` with clauses each of which holds only where masked.
static bool isIndexMask(const SpaceMappingGraph &smg, linalg::LinalgOp op,
                        SmallVectorImpl<Clause> &where, bool &opaque) {
  for (MaskSelect &mask : findMaskSelects(smg, op, &opaque))
    llvm::append_range(where, mask.clauses);
  return !where.empty();
}

/// The sign (+1 or -1) of index_t in every form of `clause`, if it is the
/// same one of these in all: a clause whose forms bound t from one side.
static std::optional<int64_t> keySign(const Clause &clause, unsigned t) {
  std::optional<int64_t> sign;
  for (const IndexForm &form : clause) {
    auto coef = form.dims.find(t);
    if (coef == form.dims.end() || std::abs(coef->second) != 1 ||
        (sign && *sign != coef->second))
      return std::nullopt;
    sign = coef->second;
  }
  return sign;
}

/// The key bound of `form` (coefficient +-1 on `t`), R being the part
/// after index_t taken over the block's other dims: 1 - R for +1, R for -1.
/// With R minimized, the keys hidden in every row start there (+1) or end
/// there (-1); with R maximized, the keys visible in every row end (+1) or
/// start (-1) there.
static SliceBound boundOf(const SpaceMappingGraph &smg, const IndexForm &form,
                          unsigned t, int64_t sign, bool maximizeRest = false) {
  int64_t rest = form.constant;
  for (auto [d, coef] : form.dims)
    if (d != t && (coef > 0) == maximizeRest)
      rest += coef * (smg.getDims()[d].extent - 1);
  SliceBound bound;
  bound.constant = sign > 0 ? 1 - rest : rest;
  for (auto [input, coef] : form.inputs)
    bound.inputs.push_back({input, sign > 0 ? -coef : coef});
  return bound;
}

/// "64 + input #5", "the element of input #2": the constant is left out
/// when it is 0 and inputs follow.
static std::string describeBound(const SliceBound &bound) {
  std::string text;
  for (auto [input, coef] : bound.inputs) {
    std::string term =
        (std::abs(coef) == 1 ? "" : std::to_string(std::abs(coef)) + " x ") +
        (isa<RankedTensorType>(input.getType()) ? "the element of " : "") +
        "input #" + std::to_string(cast<BlockArgument>(input).getArgNumber());
    text += text.empty() ? (coef < 0 ? "-" : "") + term
                         : (coef < 0 ? " - " : " + ") + term;
  }
  if (bound.constant || text.empty())
    text = std::to_string(bound.constant) + (text.empty() ? "" : " + " + text);
  return text;
}

/// The key bound of `clause` (its forms' index_t all of `sign`): where
/// all its forms hold, with +1 the keys from the largest of their bounds
/// on, with -1 those below the smallest (see boundOf).
static KeyBound keyBoundOf(const SpaceMappingGraph &smg, const Clause &clause,
                           unsigned t, int64_t sign,
                           bool maximizeRest = false) {
  KeyBound bound;
  bound.isMax = sign > 0;
  for (const IndexForm &form : clause)
    bound.parts.push_back(boundOf(smg, form, t, sign, maximizeRest));
  return bound;
}

/// "64 + input #5", or "max(64 + input #5, input #6)".
static std::string describeBound(const KeyBound &bound) {
  if (bound.parts.size() == 1)
    return describeBound(bound.parts.front());
  std::string text = bound.isMax ? "max(" : "min(";
  for (auto [i, part] : llvm::enumerate(bound.parts))
    text += (i ? ", " : "") + describeBound(part);
  return text + ")";
}

namespace {
/// The mask findSkippedSlices skips by, and its clauses of each side.
struct SkipClauses {
  Operation *mask = nullptr;
  std::optional<Clause> from, below;
};
} // namespace

/// The first main-loop member that masks every reduction along t by an
/// index predicate that bounds the keys of a block (see findSkippedSlices).
static std::optional<SkipClauses> findSkipClauses(const SpaceMappingGraph &smg,
                                                  const TemporalSlicePlan &plan,
                                                  std::string &whyNot) {
  whyNot.clear();
  if (plan.reductions.empty())
    return std::nullopt;
  for (Operation *op : plan.members) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    SmallVector<Clause, 2> where;
    bool opaque = false;
    if (!linalgOp || !plan.inMainLoop.contains(op))
      continue;
    if (!isIndexMask(smg, linalgOp, where, opaque)) {
      if (opaque && whyNot.empty())
        whyNot = "the mask " + smg.nameOf(op) +
                 " skips nothing: its condition is no compare of indices with "
                 "constants, index inputs or a length the whole block shares "
                 "(a length tensor is shared when its block tile is one "
                 "element)";
      continue;
    }
    std::string why;
    if (!masksEveryReduction(smg, plan, op, why)) {
      whyNot = "the mask " + smg.nameOf(op) + " skips nothing: " + why;
      continue;
    }
    SkipClauses skip;
    skip.mask = op;
    // Each clause hides no more than the mask: one of each side will do.
    for (const Clause &clause : where) {
      std::optional<int64_t> sign = keySign(clause, plan.t);
      if (sign == 1 && !skip.from)
        skip.from = clause;
      else if (sign == -1 && !skip.below)
        skip.below = clause;
    }
    if (!skip.from && !skip.below) {
      whyNot = "the mask " + smg.nameOf(op) +
               " skips nothing: its predicate bounds no key range of a block";
      continue;
    }
    return skip;
  }
  return std::nullopt;
}

std::optional<SkippedSlices>
mlir::smap::findSkippedSlices(const SpaceMappingGraph &smg,
                              const TemporalSlicePlan &plan,
                              std::string &whyNot) {
  std::optional<SkipClauses> clauses = findSkipClauses(smg, plan, whyNot);
  if (!clauses)
    return std::nullopt;
  SkippedSlices skip;
  skip.mask = clauses->mask;
  std::string text;
  if (clauses->from) {
    skip.from = keyBoundOf(smg, *clauses->from, plan.t, 1);
    text = "keys from " + describeBound(*skip.from) + " on";
  }
  if (clauses->below) {
    skip.below = keyBoundOf(smg, *clauses->below, plan.t, -1);
    text += (text.empty() ? "keys below " : " and below ") +
            describeBound(*skip.below);
  }
  skip.describe =
      text + " are masked in every row (" + smg.nameOf(skip.mask) + ")";
  return skip;
}

/// R of `form` (the part after index_t) as a SliceSkipModel form; none
/// when it reads a graph input.
static std::optional<SliceSkipModel::Form> restForm(const IndexForm &form,
                                                    unsigned t) {
  if (!form.inputs.empty())
    return std::nullopt;
  SliceSkipModel::Form rest;
  rest.constant = form.constant;
  for (auto [d, coef] : form.dims)
    if (d != t)
      rest.dims.push_back({d, coef});
  return rest;
}

std::optional<SliceSkipModel>
mlir::smap::modelSkippedSlices(const SpaceMappingGraph &smg,
                               const TemporalSlicePlan &plan) {
  std::string unused;
  std::optional<SkipClauses> clauses = findSkipClauses(smg, plan, unused);
  if (!clauses)
    return std::nullopt;
  SliceSkipModel model;
  auto addForms = [&](const std::optional<Clause> &clause,
                      SmallVectorImpl<SliceSkipModel::Form> &forms) {
    for (const IndexForm &form : clause ? *clause : Clause()) {
      std::optional<SliceSkipModel::Form> rest = restForm(form, plan.t);
      if (!rest)
        return false;
      forms.push_back(*rest);
    }
    return true;
  };
  if (!addForms(clauses->from, model.from) ||
      !addForms(clauses->below, model.below))
    return std::nullopt;
  return model;
}

namespace {
/// The blocks along the dims a skip model's bounds read, one at a time.
class BlockRanges {
public:
  BlockRanges(const SliceSkipModel &model, ArrayRef<int64_t> extents,
              function_ref<int64_t(unsigned)> tile)
      : extents(extents), tile(tile) {
    for (const auto *forms : {&model.from, &model.below})
      for (const SliceSkipModel::Form &form : *forms)
        for (auto [d, coef] : form.dims)
          if (!llvm::is_contained(dims, d))
            dims.push_back(d);
    index.assign(dims.size(), 0);
  }
  /// The blocks along those dims.
  int64_t count() const {
    int64_t n = 1;
    for (unsigned d : dims)
      n *= blocksAlong(d);
    return n;
  }
  /// min of `form` over the current block.
  int64_t minimum(const SliceSkipModel::Form &form) const {
    int64_t value = form.constant;
    for (auto [d, coef] : form.dims) {
      auto [first, last] = range(d);
      value += coef * (coef > 0 ? first : last);
    }
    return value;
  }
  /// Moves to the next block; false after the last one.
  bool next() {
    for (unsigned i = 0; i < dims.size(); ++i) {
      if (++index[i] < blocksAlong(dims[i]))
        return true;
      index[i] = 0;
    }
    return false;
  }

private:
  int64_t blocksAlong(unsigned d) const {
    return llvm::divideCeilSigned(extents[d], tile(d));
  }
  /// The current block's first and last index along `d` (a ragged last
  /// block ends at the extent).
  std::pair<int64_t, int64_t> range(unsigned d) const {
    unsigned i = llvm::find(dims, d) - dims.begin();
    int64_t first = std::min(index[i] * tile(d), extents[d] - tile(d));
    return {first, first + tile(d) - 1};
  }

  ArrayRef<int64_t> extents;
  function_ref<int64_t(unsigned)> tile;
  SmallVector<unsigned, 2> dims;
  SmallVector<int64_t, 2> index;
};
} // namespace

double SliceSkipModel::visitedFraction(ArrayRef<int64_t> extents,
                                       function_ref<int64_t(unsigned)> tile,
                                       unsigned t, int64_t step) const {
  constexpr int64_t kMaxBlocks = 1 << 16;
  BlockRanges blocks(*this, extents, tile);
  int64_t extent = extents[t];
  int64_t slices = llvm::divideCeilSigned(extent, step);
  if (blocks.count() > kMaxBlocks)
    return 1.0;
  int64_t visited = 0;
  do {
    // As TemporalSlicer::loopEnd and loopStart build them.
    int64_t end = extent, start = 0;
    if (!from.empty()) {
      end = std::numeric_limits<int64_t>::min();
      for (const Form &form : from)
        end = std::max(end, 1 - blocks.minimum(form));
      end = std::min(llvm::divideCeilSigned(std::max(end, step), step) * step,
                     extent);
    }
    if (!below.empty()) {
      start = std::numeric_limits<int64_t>::max();
      for (const Form &form : below)
        start = std::min(start, blocks.minimum(form));
      start = std::min(std::max<int64_t>(start, 0) / step * step,
                       slices * step - step);
    }
    if (end > start)
      visited += llvm::divideCeilSigned(end - start, step);
  } while (blocks.next());
  return static_cast<double>(visited) /
         static_cast<double>(slices * blocks.count());
}

SmallVector<UnmaskedSlices, 1>
mlir::smap::findUnmaskedSlices(const SpaceMappingGraph &smg,
                               const TemporalSlicePlan &plan) {
  SmallVector<UnmaskedSlices, 1> found;
  for (Operation *op : plan.members) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (!linalgOp || !plan.inMainLoop.contains(op))
      continue;
    SmallVector<MaskSelect, 1> masks = findMaskSelects(smg, linalgOp);
    UnmaskedSlices unmasked;
    unmasked.mask = op;
    // Every part of every predicate must bound the key index, or some
    // slice could need the test everywhere.
    auto addBounds = [&](const MaskSelect &mask) {
      if (!mask.complete)
        return false;
      for (const Clause &clause : mask.clauses) {
        // A row sees what one form of the clause leaves visible: with +1
        // the keys below the largest bound, with -1 those from the
        // smallest on (a clause bounding t from both sides hides a band).
        std::optional<int64_t> sign = keySign(clause, plan.t);
        if (!sign)
          return false;
        (*sign > 0 ? unmasked.below : unmasked.from)
            .push_back(keyBoundOf(smg, clause, plan.t, *sign,
                                  /*maximizeRest=*/true));
      }
      unmasked.selects.push_back({mask.ordinal, mask.whenTrue});
      return true;
    };
    if (masks.empty() || !llvm::all_of(masks, addBounds))
      continue;
    std::string text;
    for (const KeyBound &below : unmasked.below)
      text += (text.empty() ? "" : ", ") + ("below " + describeBound(below));
    for (const KeyBound &from : unmasked.from)
      text += (text.empty() ? "" : ", ") + ("from " + describeBound(from));
    unmasked.describe = smg.nameOf(op) + " tests only the slices that reach "
                        "beyond the keys visible in every row (" +
                        text + ")";
    found.push_back(std::move(unmasked));
  }
  return found;
}
