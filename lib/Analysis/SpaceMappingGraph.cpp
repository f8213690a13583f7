//===- SpaceMappingGraph.cpp - Build and classify the SMG -----------------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Analysis/SpaceMappingGraph.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::smap;

//===----------------------------------------------------------------------===//
// Member support
//===----------------------------------------------------------------------===//

std::string mlir::smap::getShortOpName(Operation *op) {
  return op->getName().stripDialect().str();
}

std::string mlir::smap::getShapedTypeRefusal(ShapedType type) {
  if (!type.hasRank() || !type.hasStaticShape())
    return "dynamic shape";
  Type element = type.getElementType();
  bool narrowFloat =
      isa<FloatType>(element) && element.getIntOrFloatBitWidth() < 16;
  if (isa<FloatType, IntegerType>(element) && !narrowFloat)
    return "";
  std::string why;
  llvm::raw_string_ostream(why)
      << "element type " << element
      << " (only integers, and floats of 16 bits or more)";
  return why;
}

/// Whether every tensor `op` reads or writes has a shape and an element
/// type the SMG describes; otherwise `whyNot` says what is not.
static bool hasSupportedTensorTypes(Operation *op, std::string &whyNot) {
  for (Type t : llvm::concat<const Type>(op->getOperandTypes(),
                                         op->getResultTypes())) {
    auto shaped = dyn_cast<ShapedType>(t);
    if (!shaped)
      continue;
    if (!isa<RankedTensorType>(shaped))
      return whyNot = "dynamic shape", false;
    if (whyNot = getShapedTypeRefusal(shaped); !whyNot.empty())
      return false;
    // Nothing to compute, and no extent to slice or divide by.
    if (shaped.getNumElements() == 0)
      return whyNot = "zero-size tensor", false;
  }
  return true;
}

/// `role`, if every tensor `op` reads or writes is one the SMG describes.
static FailureOr<MemberRole> roleIfSupported(Operation *op, MemberRole role,
                                             std::string &whyNot) {
  if (!hasSupportedTensorTypes(op, whyNot))
    return failure();
  return role;
}

/// The role of a static, unit-stride slice: a relayout.
static FailureOr<MemberRole> getExtractSliceRole(tensor::ExtractSliceOp slice,
                                                 std::string &whyNot) {
  auto anyDynamic = [](ArrayRef<int64_t> values) {
    return llvm::any_of(values, ShapedType::isDynamic);
  };
  if (!hasSupportedTensorTypes(slice, whyNot))
    return failure();
  if (anyDynamic(slice.getStaticOffsets()) ||
      anyDynamic(slice.getStaticSizes()) ||
      anyDynamic(slice.getStaticStrides()))
    return whyNot = "dynamic shape or offsets", failure();
  if (!slice.hasUnitStride())
    return whyNot = "strided slice (not a globally ranged mapping)", failure();
  return MemberRole::Relayout;
}

/// Says in `whyNot` why `op`, which is no member, is worth a remark; leaves
/// it empty for ops that are not.
static void explainNonMember(Operation *op, std::string &whyNot) {
  // Only ops that produce tensors are worth a remark (not tensor.dim).
  // (Unregistered ops have no dialect.)
  Dialect *dialect = op->getDialect();
  if (dialect && isa<tensor::TensorDialect, linalg::LinalgDialect>(dialect) &&
      llvm::any_of(op->getResultTypes(),
                   [](Type t) { return isa<RankedTensorType>(t); }))
    whyNot = "'" + op->getName().getStringRef().str() +
             "' is not a structured op with globally ranged mappings";
}

/// Whether the body of `op` computes each element from its operands alone:
/// no gathers (tensor.extract) and no side effects.
static bool hasElementwiseBody(Operation *op, std::string &whyNot) {
  WalkResult walk = op->getRegion(0).walk([&](Operation *inner) {
    if (isa<tensor::ExtractOp>(inner)) {
      whyNot = "gathers with tensor.extract (data-dependent mapping)";
      return WalkResult::interrupt();
    }
    if (!isMemoryEffectFree(inner)) {
      whyNot = "body op '" + inner->getName().getStringRef().str() +
               "' has side effects";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return !walk.wasInterrupted();
}

/// The role of a structured op, if its mappings are globally ranged.
static FailureOr<MemberRole> getLinalgRole(linalg::LinalgOp linalgOp,
                                           std::string &whyNot) {
  Operation *op = linalgOp;
  if (!linalgOp.hasPureTensorSemantics())
    return whyNot = "operates on buffers (side effects)", failure();
  if (!hasSupportedTensorTypes(op, whyNot))
    return failure();
  // Combiners, their identities and the slicers' updates are float ops.
  if (linalgOp.getNumReductionLoops() > 0 &&
      llvm::any_of(linalgOp.getDpsInits(), [](Value init) {
        return !isa<FloatType>(getElementTypeOrSelf(init.getType()));
      }))
    return whyNot = "integer reduction", failure();
  for (AffineMap map : linalgOp.getIndexingMapsArray())
    if (!map.isProjectedPermutation(/*allowZeroInResults=*/true))
      return whyNot = "windowed indexing map (convolution or pooling), not a "
                      "globally ranged mapping",
             failure();
  if (!hasElementwiseBody(op, whyNot))
    return failure();
  if (isa<linalg::FillOp>(op))
    return MemberRole::Init;
  if (isa<linalg::TransposeOp>(op))
    return MemberRole::Relayout;
  return MemberRole::Compute;
}

FailureOr<MemberRole> mlir::smap::getMemberRole(Operation *op,
                                                std::string &whyNot) {
  whyNot.clear();
  if (isa<tensor::EmptyOp, arith::ConstantOp>(op))
    return roleIfSupported(op, MemberRole::Init, whyNot);
  if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(op))
    return roleIfSupported(op, MemberRole::Relayout, whyNot);
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op))
    return getExtractSliceRole(slice, whyNot);
  if (isa<linalg::SoftmaxOp>(op))
    return roleIfSupported(op, MemberRole::Compute, whyNot);
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp) {
    explainNonMember(op, whyNot);
    return failure();
  }
  return getLinalgRole(linalgOp, whyNot);
}

std::optional<Combiner> mlir::smap::matchCombiner(Value yielded, Value acc) {
  Operation *def = yielded.getDefiningOp();
  if (!def || def->getNumOperands() != 2 ||
      !llvm::is_contained(def->getOperands(), acc))
    return std::nullopt;
  if (isa<arith::AddFOp, arith::AddIOp>(def))
    return Combiner::Add;
  if (isa<arith::MulFOp, arith::MulIOp>(def))
    return Combiner::Mul;
  if (isa<arith::MaximumFOp, arith::MaxNumFOp, arith::MaxSIOp, arith::MaxUIOp>(
          def))
    return Combiner::Max;
  if (isa<arith::MinimumFOp, arith::MinNumFOp, arith::MinSIOp, arith::MinUIOp>(
          def))
    return Combiner::Min;
  return std::nullopt;
}

Value mlir::smap::buildCombine(OpBuilder &b, Location loc, Combiner c, Value x,
                               Value y) {
  switch (c) {
  case Combiner::Max:
    return arith::MaximumFOp::create(b, loc, x, y);
  case Combiner::Min:
    return arith::MinimumFOp::create(b, loc, x, y);
  case Combiner::Mul:
    return arith::MulFOp::create(b, loc, x, y);
  case Combiner::Add:
    return arith::AddFOp::create(b, loc, x, y);
  case Combiner::None:
    break;
  }
  llvm_unreachable("a reduction always has a combiner");
}

Value mlir::smap::buildCombineLike(OpBuilder &b, Location loc,
                                   Operation *combineOp, Value x, Value y) {
  OperationState state(loc, combineOp->getName(), ValueRange{x, y},
                       TypeRange{x.getType()}, combineOp->getAttrs());
  return b.create(state)->getResult(0);
}

/// Whether loop result `result` is a fresh tensor each iteration of which
/// inserts one slice written once (the temporal slicer's final pass:
/// `insert_slice %tile into %iterArg`, possibly copied onto %iterArg).
static bool isWrittenOnceBySlices(scf::ForOp loop, OpResult result) {
  unsigned i = result.getResultNumber();
  BlockArgument iterArg = loop.getRegionIterArgs()[i];
  Value yielded = loop.getYieldedValues()[i];
  if (auto copy = yielded.getDefiningOp<linalg::CopyOp>();
      copy && copy.getOutputs()[0] == iterArg)
    yielded = copy.getInputs()[0];
  auto insert = yielded.getDefiningOp<tensor::InsertSliceOp>();
  return loop.getInitArgs()[i].getDefiningOp<tensor::EmptyOp>() && insert &&
         insert.getDest() == iterArg &&
         mlir::smap::isWrittenOnceIntoEmpty(insert.getSource());
}

bool mlir::smap::isWrittenOnceIntoEmpty(Value result) {
  if (auto loop = result.getDefiningOp<scf::ForOp>())
    return isWrittenOnceBySlices(loop, cast<OpResult>(result));
  auto op = result.getDefiningOp<linalg::LinalgOp>();
  if (!op || op.getNumReductionLoops() != 0)
    return false;
  OpOperand *init =
      op.getDpsInitOperand(cast<OpResult>(result).getResultNumber());
  return init->get().getDefiningOp<tensor::EmptyOp>() &&
         !op.payloadUsesValueFromOperand(init);
}

FloatAttr mlir::smap::getCombineOpIdentity(Builder &b, Operation *combineOp,
                                           Combiner c, FloatType type) {
  if (isa<arith::MaxNumFOp, arith::MinNumFOp>(combineOp))
    return b.getFloatAttr(type, APFloat::getNaN(type.getFloatSemantics()));
  return getCombinerIdentity(b, c, type);
}

FloatAttr mlir::smap::getCombinerIdentity(Builder &b, Combiner c,
                                          FloatType type) {
  const llvm::fltSemantics &semantics = type.getFloatSemantics();
  switch (c) {
  case Combiner::Max:
    return b.getFloatAttr(type, APFloat::getInf(semantics, /*Negative=*/true));
  case Combiner::Min:
    return b.getFloatAttr(type, APFloat::getInf(semantics));
  case Combiner::Mul:
    return b.getFloatAttr(type, APFloat::getOne(semantics));
  case Combiner::Add:
    return b.getFloatAttr(type, APFloat::getZero(semantics));
  case Combiner::None:
    break;
  }
  llvm_unreachable("a reduction always has a combiner");
}

//===----------------------------------------------------------------------===//
// Dim alignment: union-find over atoms that can be split by reshapes
//===----------------------------------------------------------------------===//

namespace {
/// Every tensor dimension and loop is a list of atoms; one-to-one mappings
/// union atoms, and a reshape that splits a dim splits its atom into the
/// finer atoms, so every slot resolves to a list of global dims.
class DimAligner {
public:
  unsigned fresh(int64_t extent) {
    parent.push_back(parent.size());
    extents.push_back(extent);
    return parent.size() - 1;
  }

  unsigned find(unsigned a) {
    while (parent[a] != a)
      a = parent[a] = parent[parent[a]];
    return a;
  }

  int64_t extent(unsigned a) { return extents[find(a)]; }

  SmallVector<unsigned> resolve(ArrayRef<unsigned> atoms) {
    SmallVector<unsigned> out;
    for (unsigned a : atoms)
      flatten(a, out);
    return out;
  }

  /// Aligns two lists of atoms that cover the same elements. Returns false
  /// when they cannot be matched (different factorizations).
  bool unify(ArrayRef<unsigned> lhs, ArrayRef<unsigned> rhs) {
    SmallVector<unsigned> a = withoutUnitAtoms(resolve(lhs));
    SmallVector<unsigned> b = withoutUnitAtoms(resolve(rhs));
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
      SmallVector<unsigned> segA{a[i]}, segB{b[j]};
      int64_t pa = extent(a[i]), pb = extent(b[j]);
      while (pa != pb) {
        if (pa < pb) {
          if (++i == a.size())
            return false;
          segA.push_back(a[i]);
          pa *= extent(a[i]);
        } else {
          if (++j == b.size())
            return false;
          segB.push_back(b[j]);
          pb *= extent(b[j]);
        }
      }
      if (segA.size() == 1 && segB.size() == 1)
        join(segA[0], segB[0]);
      else if (segA.size() == 1)
        splits[find(segA[0])] = segB;
      else if (segB.size() == 1)
        splits[find(segB[0])] = segA;
      else if (segA.size() == segB.size() &&
               llvm::all_of(llvm::zip(segA, segB), [&](auto p) {
                 return extent(std::get<0>(p)) == extent(std::get<1>(p));
               }))
        for (auto [x, y] : llvm::zip(segA, segB))
          join(x, y);
      else
        return false;
      ++i;
      ++j;
    }
    return i == a.size() && j == b.size();
  }

private:
  void flatten(unsigned a, SmallVectorImpl<unsigned> &out) {
    a = find(a);
    auto it = splits.find(a);
    if (it == splits.end()) {
      out.push_back(a);
      return;
    }
    SmallVector<unsigned> parts = it->second;
    for (unsigned p : parts)
      flatten(p, out);
  }

  SmallVector<unsigned> withoutUnitAtoms(SmallVector<unsigned> atoms) {
    llvm::erase_if(atoms, [&](unsigned a) { return extent(a) == 1; });
    return atoms;
  }

  void join(unsigned x, unsigned y) {
    x = find(x);
    y = find(y);
    if (x != y)
      parent[y] = x;
  }

  SmallVector<unsigned> parent;
  SmallVector<int64_t> extents;
  llvm::DenseMap<unsigned, SmallVector<unsigned>> splits;
};

/// How a value varies along one global dim d, as far as slicing d
/// temporally is concerned. The lattice follows broadcast postposition:
/// a value is fine to reduce along d if the factor depending on earlier
/// reductions along d can move after the reduction.
enum class Form {
  /// Does not depend on anything indexed by d.
  Const,
  /// Element i along d depends only on inputs at i.
  Local,
  /// Depends on a completed reduction along d (lacks d itself).
  Reduced,
  /// phi(reduced) * local: a multiplicative factor (exp(x - M), x / S).
  Factored,
  /// local + psi(reduced): an additive shift (x - mean).
  Shifted,
  /// (local - reduced)^2: combined across slices by Chan/Welford.
  CenteredSquare,
  /// Anything else: cannot be reduced along d slice by slice.
  Mixed,
};

/// What classifying one global dim d learns from the members, visited in
/// program order: the form of every tensor along d, and what, if anything,
/// keeps d from being sliced temporally.
struct DimScan {
  explicit DimScan(unsigned d) : d(d) {}

  unsigned d;
  DenseMap<Value, Form> forms;
  /// Why no update function can slice d (empty while one can).
  std::string blocked;
  /// The member `blocked` is about.
  Operation *blocker = nullptr;
  /// Whether some member reduces along d.
  bool anyReduced = false;
};
} // namespace

//===----------------------------------------------------------------------===//
// SMGBuilder
//===----------------------------------------------------------------------===//

namespace mlir {
namespace smap {
class SMGBuilder {
public:
  SMGBuilder(GraphOp graph, const SMGOptions &options)
      : smg(graph), options(options) {}

  FailureOr<SpaceMappingGraph> build();

private:
  using Slots = SmallVector<SmallVector<unsigned>>;

  Slots &slotsOf(Value value);
  LogicalResult addMember(Operation *op, MemberRole role);
  LogicalResult alignLinalg(linalg::LinalgOp op, Space &space,
                            SmallVectorImpl<SmallVector<unsigned>> &loops);
  void alignSoftmax(linalg::SoftmaxOp op,
                    SmallVectorImpl<SmallVector<unsigned>> &loops);
  LogicalResult alignExpandShape(tensor::ExpandShapeOp op,
                                 SmallVectorImpl<SmallVector<unsigned>> &loops);
  void alignCollapseShape(tensor::CollapseShapeOp op,
                          SmallVectorImpl<SmallVector<unsigned>> &loops);
  void alignExtractSlice(tensor::ExtractSliceOp op,
                         SmallVectorImpl<SmallVector<unsigned>> &loops);

  // Global dims, edges and reductions.
  void finalizeDims();
  unsigned getOrCreateGlobalDim(unsigned atom);
  std::optional<unsigned> lookupGlobalDim(unsigned atom);
  SmallVector<unsigned> lookupGlobalDims(unsigned atom);
  void collectSpaceDims();
  void collectValueDims();
  void resolveWindows();
  void connectSpace(unsigned index);
  void addInputEdge(Space &space, Value source, unsigned operandNumber);
  void addLinalgReductions(unsigned index, linalg::LinalgOp op);
  void addSoftmaxReductions(unsigned index, linalg::SoftmaxOp op);

  // Dim names.
  void nameDims();
  std::string takeDimName(StringRef base);
  void nameDim(unsigned d, StringRef base);
  void appendToNamingOrder(unsigned d);
  void nameDimsFromHints();
  std::optional<SmallVector<std::optional<unsigned>>>
  matchHintToLoops(unsigned index, size_t hintSize);
  void nameOutputDims();
  void nameIntermediateDims();
  void nameRemainingDims();
  void renumberDimsInNamingOrder();

  // Classification.
  void classify(unsigned d);
  Form formOf(const DimScan &scan, Value v) const;
  void scanMember(DimScan &scan, Operation *op, MemberRole role);
  void scanSoftmax(DimScan &scan, linalg::SoftmaxOp op, const Space &space,
                   bool reducesD);
  void scanLinalg(DimScan &scan, linalg::LinalgOp op, const Space &space,
                  bool reducesD);
  void scanReduction(DimScan &scan, linalg::LinalgOp op, const Space &space,
                     unsigned r, DenseMap<Value, Form> &scalar);
  bool needsFinalPass(const DimScan &scan) const;
  void classifyReducedDim(DimScan &scan);
  void classifyUnreducedDim(unsigned d);
  bool isBroadcastOfIntermediate(const SpaceEdge &edge, unsigned d) const;
  llvm::SetVector<Operation *>
  collectRecomputed(SmallVector<Operation *> worklist) const;
  void planTemporalDims();
  void keepEarlierNotSliceableDims();
  std::string spaceName(Operation *op, MemberRole role);

  // Form analysis for one dim.
  Form formOfBody(Operation *op, unsigned d, ArrayRef<Form> argForms,
                  Value result, std::string &culprit);
  Form formOfScalar(Value v, unsigned d, DenseMap<Value, Form> &forms,
                    std::string &culprit, const Space &space);

  SpaceMappingGraph smg;
  SMGOptions options;
  DimAligner aligner;
  DenseMap<Value, Slots> atoms;
  /// Atoms of each member's loops, per space index.
  SmallVector<SmallVector<SmallVector<unsigned>>> loopAtoms;
  /// Root atom -> global dim id.
  DenseMap<unsigned, unsigned> dimOfAtom;
  /// Members in program order with their roles.
  SmallVector<std::pair<Operation *, MemberRole>> members;
  /// Members computed from graph inputs alone, element by element
  /// (relayouts, casts such as arith.extf): a block re-reads them like the
  /// inputs themselves, so broadcasting them costs no recomputation, and
  /// their dims are named like the inputs'.
  llvm::SmallPtrSet<Operation *, 8> inputDerived;
  bool isInputDerived(Operation *op) const { return inputDerived.contains(op); }
  bool isDerivedFromInputs(Operation *op, MemberRole role) const;
  unsigned nameCounter = 0;
  /// Dim names taken so far, and the dims in the order they were named.
  llvm::StringSet<> usedDimNames;
  SmallVector<unsigned> namingOrder;
};
} // namespace smap
} // namespace mlir

SMGBuilder::Slots &SMGBuilder::slotsOf(Value value) {
  auto it = atoms.find(value);
  if (it != atoms.end())
    return it->second;
  Slots slots;
  if (auto type = dyn_cast<RankedTensorType>(value.getType()))
    for (int64_t size : type.getShape())
      slots.push_back({aligner.fresh(size)});
  return atoms[value] = std::move(slots);
}

std::string SMGBuilder::spaceName(Operation *op, MemberRole role) {
  std::string kind = getShortOpName(op);
  if (auto generic = dyn_cast<linalg::GenericOp>(op)) {
    Block &body = generic.getRegion().front();
    bool reduces = generic.getNumReductionLoops() > 0;
    std::optional<Combiner> combiner;
    if (reduces && generic.getNumDpsInits() >= 1)
      combiner = matchCombiner(body.getTerminator()->getOperand(0),
                               generic.getRegionOutputArgs()[0]);
    bool multiplies = llvm::any_of(body, [](Operation &inner) {
      return isa<arith::MulFOp, arith::MulIOp>(inner);
    });
    if (reduces && combiner == Combiner::Add && multiplies &&
        generic.getNumDpsInputs() >= 2)
      kind = "contract";
    else if (reduces && combiner)
      kind = "reduce_" + stringifyCombiner(*combiner).str();
    else if (reduces)
      kind = "reduce";
    else if (body.getOperations().size() > 1)
      kind = getShortOpName(&*std::prev(body.getTerminator()->getIterator()));
    else
      kind = "copy";
  }
  // Fills are not spaces of interest; only the others are numbered.
  if (role == MemberRole::Init)
    return kind;
  return kind + std::to_string(nameCounter++);
}

LogicalResult
SMGBuilder::alignLinalg(linalg::LinalgOp op, Space &space,
                        SmallVectorImpl<SmallVector<unsigned>> &loops) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  for (int64_t range : ranges)
    loops.push_back({aligner.fresh(range)});
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<RankedTensorType>(operand.get().getType()))
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    Slots &slots = slotsOf(operand.get());
    for (auto [j, expr] : llvm::enumerate(map.getResults())) {
      auto dimExpr = dyn_cast<AffineDimExpr>(expr);
      if (!dimExpr)
        continue;
      if (!aligner.unify(slots[j], loops[dimExpr.getPosition()]))
        return op->emitOpError("cannot align dimension ")
               << j << " of operand #" << operand.getOperandNumber()
               << " with loop " << dimExpr.getPosition();
    }
  }
  // Results take the dims of their tied inits.
  for (OpResult result : op->getResults()) {
    OpOperand *init = op.getDpsInitOperand(result.getResultNumber());
    AffineMap map = op.getMatchingIndexingMap(init);
    Slots slots;
    for (AffineExpr expr : map.getResults()) {
      if (auto dimExpr = dyn_cast<AffineDimExpr>(expr))
        slots.push_back(loops[dimExpr.getPosition()]);
      else
        slots.push_back({aligner.fresh(1)});
    }
    atoms[result] = slots;
  }
  (void)space;
  return success();
}

/// Softmax iterates over its input's dims; its output and result share them.
void SMGBuilder::alignSoftmax(linalg::SoftmaxOp softmax,
                              SmallVectorImpl<SmallVector<unsigned>> &loops) {
  Slots &in = slotsOf(softmax.getInput());
  for (auto &slot : in)
    loops.push_back(slot);
  Slots &out = slotsOf(softmax.getOutput());
  for (auto [i, slot] : llvm::enumerate(out))
    (void)aligner.unify(slot, loops[i]);
  atoms[softmax.getResult()[0]] = Slots(loops.begin(), loops.end());
}

/// Splits each source dim of `expand` into the result dims of its group.
LogicalResult
SMGBuilder::alignExpandShape(tensor::ExpandShapeOp expand,
                             SmallVectorImpl<SmallVector<unsigned>> &loops) {
  Slots src = slotsOf(expand.getSrc());
  Slots &dst = slotsOf(expand.getResult());
  for (auto [g, group] : llvm::enumerate(expand.getReassociationIndices())) {
    SmallVector<unsigned> fine;
    for (int64_t i : group)
      llvm::append_range(fine, dst[i]);
    if (!aligner.unify(src[g], fine))
      return expand->emitOpError("cannot align the dims of source dimension ")
             << g << " with the expanded dims";
  }
  loops.assign(dst.begin(), dst.end());
  return success();
}

/// Each result dim of `collapse` is the atoms of its group, in order.
void SMGBuilder::alignCollapseShape(
    tensor::CollapseShapeOp collapse,
    SmallVectorImpl<SmallVector<unsigned>> &loops) {
  Slots src = slotsOf(collapse.getSrc());
  Slots dst;
  for (const auto &group : collapse.getReassociationIndices()) {
    SmallVector<unsigned> coarse;
    for (int64_t i : group)
      llvm::append_range(coarse, src[i]);
    dst.push_back(coarse);
  }
  atoms[collapse.getResult()] = dst;
  loops.assign(dst.begin(), dst.end());
}

/// A dim that `slice` takes whole keeps its atoms; a partial one is a new
/// atom, recorded as a window of its source dim.
void SMGBuilder::alignExtractSlice(
    tensor::ExtractSliceOp slice,
    SmallVectorImpl<SmallVector<unsigned>> &loops) {
  Slots src = slotsOf(slice.getSource());
  llvm::SmallBitVector dropped = slice.getDroppedDims();
  ArrayRef<int64_t> sizes = slice.getStaticSizes();
  ArrayRef<int64_t> offsets = slice.getStaticOffsets();
  auto srcType = slice.getSourceType();
  Slots dst;
  for (unsigned i = 0; i < src.size(); ++i) {
    if (dropped.test(i))
      continue;
    if (sizes[i] == srcType.getDimSize(i)) {
      dst.push_back(src[i]);
      continue;
    }
    unsigned window = aligner.fresh(sizes[i]);
    dst.push_back({window});
    if (src[i].size() == 1)
      smg.windows.push_back({src[i][0], window, offsets[i]});
  }
  atoms[slice.getResult()] = dst;
  loops.assign(dst.begin(), dst.end());
}

LogicalResult SMGBuilder::addMember(Operation *op, MemberRole role) {
  members.push_back({op, role});
  if (role == MemberRole::Init && !isa<linalg::FillOp>(op)) {
    for (Value result : op->getResults())
      slotsOf(result);
    return success();
  }

  Space space;
  space.op = op;
  space.role = role;
  SmallVector<SmallVector<unsigned>> loops;

  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    if (failed(alignLinalg(linalgOp, space, loops)))
      return failure();
  } else if (auto softmax = dyn_cast<linalg::SoftmaxOp>(op)) {
    alignSoftmax(softmax, loops);
  } else if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op)) {
    if (failed(alignExpandShape(expand, loops)))
      return failure();
  } else if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op)) {
    alignCollapseShape(collapse, loops);
  } else if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op)) {
    alignExtractSlice(slice, loops);
  } else {
    return op->emitOpError("is not a Space-Mapping Graph member");
  }

  space.name = spaceName(op, role);
  smg.spaceIndex[op] = smg.spaces.size();
  smg.spaces.push_back(std::move(space));
  loopAtoms.push_back(std::move(loops));
  return success();
}

/// The global dim of `atom`'s root, created on first use: global dims are
/// the root atoms that some member iterates over.
unsigned SMGBuilder::getOrCreateGlobalDim(unsigned atom) {
  unsigned root = aligner.find(atom);
  auto [it, inserted] = dimOfAtom.try_emplace(root, smg.dims.size());
  if (inserted) {
    GlobalDim dim;
    dim.extent = aligner.extent(root);
    smg.dims.push_back(dim);
  }
  return it->second;
}

/// The global dim of `atom`'s root, if it has one. Atoms of extent 1 never
/// become global dims: a lookup must not turn them into dim 0.
std::optional<unsigned> SMGBuilder::lookupGlobalDim(unsigned atom) {
  auto it = dimOfAtom.find(aligner.find(atom));
  if (it == dimOfAtom.end())
    return std::nullopt;
  return it->second;
}

/// The global dims `atom` resolves to. A window's atoms may have been split
/// by a later reshape: the window covers every global dim they resolve to.
SmallVector<unsigned> SMGBuilder::lookupGlobalDims(unsigned atom) {
  SmallVector<unsigned> ids;
  for (unsigned leaf : aligner.resolve({atom}))
    if (std::optional<unsigned> d = lookupGlobalDim(leaf))
      ids.push_back(*d);
  return ids;
}

/// Gives every space the global dims of its loops, creating them.
void SMGBuilder::collectSpaceDims() {
  for (auto [space, loops] : llvm::zip(smg.spaces, loopAtoms)) {
    SmallVector<unsigned> loopList;
    for (auto &loop : loops)
      llvm::append_range(loopList, loop);
    for (unsigned atom : aligner.resolve(loopList))
      // Unit dims cannot be sliced: they are not global dims.
      if (aligner.extent(atom) != 1)
        space.dims.push_back(getOrCreateGlobalDim(atom));
  }
}

/// Records the global dims of every tensor dimension of every value.
void SMGBuilder::collectValueDims() {
  for (auto &[value, slots] : atoms) {
    SmallVector<SmallVector<unsigned>> dims;
    for (auto &slot : slots) {
      SmallVector<unsigned> ids;
      for (unsigned atom : aligner.resolve(slot))
        if (std::optional<unsigned> d = lookupGlobalDim(atom))
          ids.push_back(*d);
      dims.push_back(ids);
    }
    smg.valueDims[value] = dims;
  }
}

/// Turns the windows, recorded on atoms, into windows of global dims.
void SMGBuilder::resolveWindows() {
  SmallVector<DimWindow> windows;
  for (DimWindow &window : smg.windows) {
    SmallVector<unsigned> sources = lookupGlobalDims(window.source);
    if (sources.empty())
      sources.push_back(DimWindow::kNoDim);
    for (unsigned source : sources)
      for (unsigned slice : lookupGlobalDims(window.slice))
        windows.push_back({source, slice, window.offset});
  }
  smg.windows = std::move(windows);
}

void SMGBuilder::finalizeDims() {
  collectSpaceDims();
  collectValueDims();
  resolveWindows();
  // Edges and reductions of compute and relayout spaces.
  for (unsigned index = 0; index < smg.spaces.size(); ++index)
    connectSpace(index);
}

/// Adds the edge from `source` into `space`, broadcast along the dims of
/// the space that `source` lacks.
void SMGBuilder::addInputEdge(Space &space, Value source,
                              unsigned operandNumber) {
  SpaceEdge edge;
  edge.source = source;
  edge.producer = source.getDefiningOp();
  edge.consumer = space.op;
  edge.operandNumber = operandNumber;
  llvm::SmallDenseSet<unsigned> present;
  for (auto &ids : smg.getValueDims(source))
    present.insert(ids.begin(), ids.end());
  for (unsigned d : space.dims)
    if (!present.contains(d))
      edge.broadcastDims.push_back(d);
  space.inputEdges.push_back(smg.edges.size());
  smg.edges.push_back(std::move(edge));
}

/// Records the global dims that the reduction loops of space `index`
/// reduce, with the combiner of its first output that has one.
void SMGBuilder::addLinalgReductions(unsigned index, linalg::LinalgOp op) {
  Space &space = smg.spaces[index];
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  Block *body = op.getBlock();
  for (auto [loop, iterator] : llvm::enumerate(iterators)) {
    if (iterator != utils::IteratorType::reduction)
      continue;
    Combiner combiner = Combiner::None;
    for (auto [r, acc] : llvm::enumerate(op.getRegionOutputArgs()))
      if (auto c = matchCombiner(body->getTerminator()->getOperand(r), acc)) {
        combiner = *c;
        break;
      }
    for (unsigned atom : aligner.resolve(loopAtoms[index][loop]))
      if (std::optional<unsigned> d = lookupGlobalDim(atom))
        space.reductions.push_back({*d, combiner});
  }
}

/// Softmax reduces its dimension twice: a max, then a sum.
void SMGBuilder::addSoftmaxReductions(unsigned index, linalg::SoftmaxOp op) {
  Space &space = smg.spaces[index];
  for (unsigned atom : aligner.resolve(loopAtoms[index][op.getDimension()])) {
    std::optional<unsigned> d = lookupGlobalDim(atom);
    if (!d)
      continue;
    space.reductions.push_back({*d, Combiner::Max});
    space.reductions.push_back({*d, Combiner::Add});
  }
}

/// Adds the input edges and the reductions of space `index`.
void SMGBuilder::connectSpace(unsigned index) {
  Space &space = smg.spaces[index];
  Operation *op = space.op;
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    for (OpOperand *input : linalgOp.getDpsInputOperands())
      if (isa<RankedTensorType>(input->get().getType()))
        addInputEdge(space, input->get(), input->getOperandNumber());
    addLinalgReductions(index, linalgOp);
  } else if (auto softmax = dyn_cast<linalg::SoftmaxOp>(op)) {
    addInputEdge(space, softmax.getInput(), 0);
    addSoftmaxReductions(index, softmax);
  } else {
    addInputEdge(space, op->getOperand(0), 0);
  }
  // Relayouts map every element to one place (a window, a permutation or
  // a reshape): their dims that the source lacks are not broadcasts.
  if (space.role == MemberRole::Relayout)
    for (unsigned e : space.inputEdges)
      smg.edges[e].broadcastDims.clear();
}

/// `base`, or `base` with the first number that makes it unused.
std::string SMGBuilder::takeDimName(StringRef base) {
  std::string name = base.str();
  for (unsigned k = 1; usedDimNames.contains(name); ++k)
    name = (base + Twine(k)).str();
  usedDimNames.insert(name);
  return name;
}

/// Names dim `d` after `base`, unless it has a name already.
void SMGBuilder::nameDim(unsigned d, StringRef base) {
  if (smg.dims[d].name.empty())
    smg.dims[d].name = takeDimName(base);
}

/// Appends `d` to the naming order, unless it is there already.
void SMGBuilder::appendToNamingOrder(unsigned d) {
  if (!llvm::is_contained(namingOrder, d))
    namingOrder.push_back(d);
}

/// The dims of the loops of space `index`, to match by position against a
/// hint of `hintSize` dims: one per loop, or one per loop that is not a unit
/// loop, whichever has the hint's length. A loop that a reshape split into
/// several dims has no single dim of its own, so the per-loop match only
/// applies when no loop was split: std::nullopt otherwise.
std::optional<SmallVector<std::optional<unsigned>>>
SMGBuilder::matchHintToLoops(unsigned index, size_t hintSize) {
  SmallVector<std::optional<unsigned>> perLoop, nonUnitLoops;
  SmallVector<int64_t> ranges;
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(smg.spaces[index].op))
    ranges = linalgOp.getStaticLoopRanges();
  bool split = false;
  for (auto [l, loop] : llvm::enumerate(loopAtoms[index])) {
    SmallVector<unsigned> resolved = aligner.resolve(loop);
    split |= resolved.size() > 1;
    std::optional<unsigned> dim;
    if (resolved.size() == 1)
      dim = lookupGlobalDim(resolved.front());
    perLoop.push_back(dim);
    if (!resolved.empty() && !(l < ranges.size() && ranges[l] == 1))
      nonUnitLoops.push_back(dim);
  }
  if (split)
    return std::nullopt;
  return hintSize == perLoop.size() ? perLoop : nonUnitLoops;
}

/// Names an earlier analysis wrote on the members (smap.space) are kept, so
/// that a graph derived from another (a block of a spatially sliced graph,
/// a part of a partition) names its dims as its origin did.
void SMGBuilder::nameDimsFromHints() {
  for (auto [index, space] : llvm::enumerate(smg.spaces)) {
    auto hint = space.op->getAttrOfType<SpaceAttr>("smap.space");
    if (!hint)
      continue;
    // The hint lists the dims of the space it was written for: one per loop,
    // or one per loop that is not a unit loop (a block's unit batch or row
    // dim). Match it by position against whichever has its length.
    // The hint was written from the space's dims (its loops flattened
    // through reshapes, unit atoms dropped): match those first.
    SmallVector<std::optional<unsigned>> loopDims(space.dims.begin(),
                                                  space.dims.end());
    if (hint.getDims().size() != loopDims.size()) {
      std::optional<SmallVector<std::optional<unsigned>>> perLoop =
          matchHintToLoops(index, hint.getDims().size());
      if (!perLoop)
        continue;
      loopDims = std::move(*perLoop);
    }
    if (hint.getDims().size() != loopDims.size())
      continue;
    for (auto [dim, name] : llvm::zip(loopDims, hint.getDims()))
      if (dim && !usedDimNames.contains(cast<StringAttr>(name)))
        nameDim(*dim, cast<StringAttr>(name).getValue());
  }
}

/// Output dims, by position: rows m and columns n, batch dims before them.
void SMGBuilder::nameOutputDims() {
  static const char *batchNames[] = {"b", "h", "g"};
  // Positions count unit dims too, so that a batch of one does not rename
  // the heads.
  for (Value output : smg.graph.getYield().getValues()) {
    SmallVector<std::optional<unsigned>> flat;
    for (auto &ids : smg.getValueDims(output)) {
      if (ids.empty())
        flat.push_back(std::nullopt);
      for (unsigned d : ids)
        flat.push_back(d);
    }
    for (auto [pos, d] : llvm::enumerate(flat)) {
      if (!d || smg.dims[*d].extent == 1)
        continue;
      size_t fromEnd = flat.size() - 1 - pos;
      if (flat.size() == 1 || fromEnd == 1)
        nameDim(*d, "m");
      else if (fromEnd == 0)
        nameDim(*d, "n");
      else
        nameDim(*d, pos < 3 ? batchNames[pos] : "b");
      appendToNamingOrder(*d);
    }
  }
}

/// Dims of intermediates only: l.
void SMGBuilder::nameIntermediateDims() {
  for (auto &[op, role] : members) {
    if (role == MemberRole::Init || isInputDerived(op))
      continue;
    for (Value result : op->getResults())
      for (auto &ids : smg.getValueDims(result))
        for (unsigned d : ids)
          if (smg.dims[d].name.empty() && smg.dims[d].extent != 1) {
            nameDim(d, "l");
            appendToNamingOrder(d);
          }
  }
}

/// Dims of graph inputs only: k; unit dims: u.
void SMGBuilder::nameRemainingDims() {
  for (const Space &space : smg.spaces)
    for (unsigned d : space.dims) {
      nameDim(d, smg.dims[d].extent == 1 ? "u" : "k");
      appendToNamingOrder(d);
    }
  for (unsigned d = 0; d < smg.dims.size(); ++d) {
    nameDim(d, "u");
    appendToNamingOrder(d);
  }
}

/// Renumbers dims in naming order so the attribute reads outputs first.
void SMGBuilder::renumberDimsInNamingOrder() {
  SmallVector<unsigned> newId(smg.dims.size());
  SmallVector<GlobalDim, 4> sorted;
  for (auto [i, d] : llvm::enumerate(namingOrder)) {
    newId[d] = i;
    sorted.push_back(smg.dims[d]);
  }
  smg.dims = std::move(sorted);
  for (Space &space : smg.spaces) {
    for (unsigned &d : space.dims)
      d = newId[d];
    for (auto &r : space.reductions)
      r.first = newId[r.first];
  }
  for (SpaceEdge &edge : smg.edges)
    for (unsigned &d : edge.broadcastDims)
      d = newId[d];
  for (auto &[value, dims] : smg.valueDims)
    for (auto &ids : dims)
      for (unsigned &d : ids)
        d = newId[d];
  for (DimWindow &window : smg.windows) {
    if (window.source != DimWindow::kNoDim)
      window.source = newId[window.source];
    window.slice = newId[window.slice];
  }
}

void SMGBuilder::nameDims() {
  nameDimsFromHints();
  nameOutputDims();
  nameIntermediateDims();
  nameRemainingDims();
  renumberDimsInNamingOrder();
}

//===----------------------------------------------------------------------===//
// Classification
//===----------------------------------------------------------------------===//

static bool isPure(Form f) {
  return f == Form::Const || f == Form::Local || f == Form::Reduced;
}

/// The form of an arbitrary op's result from its operands' forms, when no
/// postposition rule applies: forms that do not mix stay, others are Mixed.
static Form joinPure(ArrayRef<Form> forms) {
  bool local = false, reduced = false;
  for (Form f : forms) {
    if (!isPure(f))
      return Form::Mixed;
    local |= f == Form::Local;
    reduced |= f == Form::Reduced;
  }
  if (local && reduced)
    return Form::Mixed;
  return local ? Form::Local : reduced ? Form::Reduced : Form::Const;
}

static Form combineBinary(Operation *op, Value lhs, Value rhs, Form a, Form b) {
  auto either = [&](Form x, Form y) {
    return (a == x && b == y) || (a == y && b == x);
  };
  auto oneOf = [](Form f, std::initializer_list<Form> set) {
    return llvm::is_contained(set, f);
  };
  if (isa<arith::AddFOp, arith::SubFOp, arith::AddIOp, arith::SubIOp>(op)) {
    if (either(Form::Local, Form::Reduced) ||
        either(Form::Shifted, Form::Reduced) ||
        either(Form::Shifted, Form::Const))
      return Form::Shifted;
    return joinPure({a, b});
  }
  if (isa<arith::MulFOp, arith::MulIOp>(op)) {
    if (lhs == rhs && a == Form::Shifted)
      return Form::CenteredSquare;
    if (either(Form::Local, Form::Reduced) ||
        (oneOf(a, {Form::Factored}) &&
         oneOf(b, {Form::Reduced, Form::Local, Form::Const, Form::Factored})) ||
        (oneOf(b, {Form::Factored}) &&
         oneOf(a, {Form::Reduced, Form::Local, Form::Const})))
      return Form::Factored;
    if (either(Form::Shifted, Form::Const))
      return Form::Shifted;
    if (either(Form::CenteredSquare, Form::Const))
      return Form::CenteredSquare;
    return joinPure({a, b});
  }
  if (isa<arith::DivFOp>(op)) {
    if ((oneOf(a, {Form::Local, Form::Factored}) && b == Form::Reduced) ||
        (a == Form::Factored && oneOf(b, {Form::Local, Form::Const})) ||
        (a == Form::Reduced && b == Form::Local))
      return Form::Factored;
    if (a == Form::Shifted && b == Form::Const)
      return Form::Shifted;
    if (a == Form::CenteredSquare && b == Form::Const)
      return Form::CenteredSquare;
    return joinPure({a, b});
  }
  return joinPure({a, b});
}

Form SMGBuilder::formOfScalar(Value v, unsigned d, DenseMap<Value, Form> &forms,
                              std::string &culprit, const Space &space) {
  auto it = forms.find(v);
  if (it != forms.end())
    return it->second;
  Operation *def = v.getDefiningOp();
  Form form = Form::Const;
  if (!def) {
    form = Form::Const;
  } else if (auto index = dyn_cast<linalg::IndexOp>(def)) {
    SmallVector<unsigned> loopDims = aligner.resolve(
        loopAtoms[smg.spaceIndex.lookup(space.op)][index.getDim()]);
    form = llvm::any_of(loopDims,
                        [&](unsigned atom) {
                          auto it = dimOfAtom.find(aligner.find(atom));
                          return it != dimOfAtom.end() && it->second == d;
                        })
               ? Form::Local
               : Form::Const;
  } else if (def->getNumOperands() == 0) {
    form = Form::Const;
  } else {
    SmallVector<Form> operandForms;
    for (Value operand : def->getOperands())
      operandForms.push_back(formOfScalar(operand, d, forms, culprit, space));
    if (isa<math::ExpOp, math::Exp2Op>(def)) {
      Form a = operandForms[0];
      form = a == Form::Shifted ? Form::Factored : joinPure({a});
    } else if (isa<arith::NegFOp, arith::ExtFOp>(def)) {
      form = operandForms[0];
    } else if (isa<arith::TruncFOp>(def)) {
      // Rounding commutes with the postponed factor up to one rounding
      // error per element (the slicer rounds the unnormalized value); it
      // does not commute with a shift or a square, which the updates
      // expand algebraically.
      Form a = operandForms[0];
      form = a == Form::Factored ? a : joinPure({a});
    } else if (def->getNumOperands() == 2) {
      form = combineBinary(def, def->getOperand(0), def->getOperand(1),
                           operandForms[0], operandForms[1]);
    } else {
      form = joinPure(operandForms);
    }
    if (form == Form::Mixed && culprit.empty() &&
        llvm::none_of(operandForms, [](Form f) { return f == Form::Mixed; }))
      culprit = def->getName().getStringRef().str();
  }
  forms[v] = form;
  return form;
}

/// "add(sum0) -> max(max1)": the reductions along a dim.
static std::string describeChain(const SpaceMappingGraph &smg,
                                 const GlobalDim &dim) {
  std::string chain;
  for (auto [i, r] : llvm::enumerate(dim.reductions))
    chain += (i ? " -> " : "") + stringifyCombiner(r.second).str() + "(" +
             smg.lookupSpace(r.first)->name + ")";
  return chain;
}

/// A member that indexes two dimensions of one tensor by the same global
/// dim d (x[i, j] read with x[j, i] elsewhere makes i and j one dim) reads
/// a diagonal of d: a block along d would need elements outside its tile.
static Operation *findDiagonalUse(const SpaceMappingGraph &smg, unsigned d) {
  for (const SpaceEdge &edge : smg.getEdges()) {
    unsigned count = 0;
    for (auto &ids : smg.getValueDims(edge.source))
      count += llvm::count(ids, d);
    if (count > 1)
      return edge.consumer;
  }
  return nullptr;
}

/// What a value of form `f` is, in words, for the reasons of a dim.
static StringRef describeForm(Form f) {
  switch (f) {
  case Form::Factored:
    return "a value scaled by an earlier reduction";
  case Form::Shifted:
    return "a value shifted by an earlier reduction";
  case Form::CenteredSquare:
    return "a centered square";
  case Form::Mixed:
    return "a value that mixes an earlier reduction with the data";
  default:
    return "the data";
  }
}

/// Whether an update function can correct, slice by slice, a reduction by
/// `combiner` of contributions of form `f`.
static bool canUpdateContribution(Form f, Combiner combiner) {
  switch (f) {
  case Form::Const:
  case Form::Local:
  case Form::Reduced:
  case Form::Factored:
    return true;
  case Form::Shifted:
    return combiner != Combiner::Mul;
  case Form::CenteredSquare:
    return combiner == Combiner::Add;
  case Form::Mixed:
    return false;
  }
  return false;
}

/// Whether contributions of form `f` depend on an earlier reduction along
/// the dim, which makes the chain of reductions dependent.
static bool dependsOnEarlierReduction(Form f) {
  return f == Form::Factored || f == Form::Shifted || f == Form::CenteredSquare;
}

/// The form of `v` along the scanned dim. Graph inputs and init-like values
/// vary along it or do not.
Form SMGBuilder::formOf(const DimScan &scan, Value v) const {
  auto it = scan.forms.find(v);
  if (it != scan.forms.end())
    return it->second;
  return smg.isIndexedBy(v, scan.d) ? Form::Local : Form::Const;
}

/// Records the forms of the results of member `op` along the scanned dim,
/// and the reductions along it.
void SMGBuilder::scanMember(DimScan &scan, Operation *op, MemberRole role) {
  if (role == MemberRole::Init) {
    for (Value r : op->getResults())
      scan.forms[r] = Form::Const;
    return;
  }
  const Space &space = smg.spaces[smg.spaceIndex.lookup(op)];
  if (role == MemberRole::Relayout) {
    scan.forms[op->getResult(0)] = formOf(scan, op->getOperand(0));
    return;
  }
  bool reducesD =
      llvm::any_of(space.reductions, [&](auto r) { return r.first == scan.d; });
  if (auto softmax = dyn_cast<linalg::SoftmaxOp>(op))
    scanSoftmax(scan, softmax, space, reducesD);
  else
    scanLinalg(scan, cast<linalg::LinalgOp>(op), space, reducesD);
  scan.anyReduced |= reducesD;
}

/// A softmax along the dim is a dependent chain (max, then sum of the
/// exponentials scaled by the max); it normalizes only local data.
void SMGBuilder::scanSoftmax(DimScan &scan, linalg::SoftmaxOp softmax,
                             const Space &space, bool reducesD) {
  Form in = formOf(scan, softmax.getInput());
  if (!reducesD) {
    scan.forms[softmax.getResult()[0]] = joinPure({in});
    return;
  }
  GlobalDim &dim = smg.dims[scan.d];
  dim.reductions.push_back({softmax, Combiner::Max});
  dim.reductions.push_back({softmax, Combiner::Add});
  dim.dependentChain = true;
  if (in != Form::Local && in != Form::Const && scan.blocked.empty()) {
    scan.blocked = space.name + " (softmax) normalizes " +
                   describeForm(in).str() + " along the dim";
    scan.blocker = softmax;
  }
  scan.forms[softmax.getResult()[0]] = Form::Factored;
}

/// The forms of the results of a structured op, from the forms of its body.
void SMGBuilder::scanLinalg(DimScan &scan, linalg::LinalgOp linalgOp,
                            const Space &space, bool reducesD) {
  Operation *op = linalgOp;
  Block *body = linalgOp.getBlock();
  DenseMap<Value, Form> scalar;
  for (OpOperand &operand : op->getOpOperands())
    scalar[linalgOp.getMatchingBlockArgument(&operand)] =
        formOf(scan, operand.get());
  for (auto [r, result] : llvm::enumerate(op->getResults())) {
    if (!reducesD) {
      std::string culprit;
      Value yielded = body->getTerminator()->getOperand(r);
      scan.forms[result] =
          formOfScalar(yielded, scan.d, scalar, culprit, space);
      continue;
    }
    scan.forms[result] = Form::Reduced;
    scanReduction(scan, linalgOp, space, r, scalar);
  }
}

/// Records the reduction of result `r` of `op` along the scanned dim, and
/// blocks the dim unless an update function can correct it slice by slice.
void SMGBuilder::scanReduction(DimScan &scan, linalg::LinalgOp op,
                               const Space &space, unsigned r,
                               DenseMap<Value, Form> &scalar) {
  Value yielded = op.getBlock()->getTerminator()->getOperand(r);
  Value acc = op.getRegionOutputArgs()[r];
  std::optional<Combiner> combiner = matchCombiner(yielded, acc);
  if (!combiner) {
    if (scan.blocked.empty()) {
      scan.blocked = space.name + " reduces with a body that is not an add, "
                                  "max, min or mul combiner";
      scan.blocker = op;
    }
    return;
  }
  GlobalDim &dim = smg.dims[scan.d];
  dim.reductions.push_back({op, *combiner});
  Operation *combine = yielded.getDefiningOp();
  Value contribution = combine->getOperand(0) == acc ? combine->getOperand(1)
                                                     : combine->getOperand(0);
  std::string culprit;
  Form c = formOfScalar(contribution, scan.d, scalar, culprit, space);
  if (dependsOnEarlierReduction(c))
    dim.dependentChain = true;
  if (canUpdateContribution(c, *combiner) || !scan.blocked.empty())
    return;
  scan.blocker = op;
  scan.blocked = space.name + " reduces (" +
                 stringifyCombiner(*combiner).str() + ") " +
                 describeForm(c).str();
  if (!culprit.empty())
    scan.blocked += " (mixed by " + culprit + ")";
  scan.blocked += ", which no update function can correct slice by slice";
}

/// Whether an output is indexed by the scanned dim: the temporal slicer
/// writes such outputs in a final pass over the dim, recomputed from the
/// finished reductions (TemporalSlicer::buildFinalPass). One that is its
/// data itself (Form::Local) could be written in the main loop, but is not
/// (fuzz seed 1934: a GEMM's output along the temporal dim of a chain after
/// it, recomputed in a second loop the cost model did not price).
bool SMGBuilder::needsFinalPass(const DimScan &scan) const {
  return llvm::any_of(smg.graph.getYield().getValues(), [&](Value output) {
    return isa<RankedTensorType>(output.getType()) &&
           smg.isIndexedBy(output, scan.d);
  });
}

/// A dim some member reduces along is temporal, unless the scan or the
/// options block slicing it.
void SMGBuilder::classifyReducedDim(DimScan &scan) {
  GlobalDim &dim = smg.dims[scan.d];
  if (needsFinalPass(scan))
    dim.needsFinalPass = true;
  std::string chain = describeChain(smg, dim);
  if (scan.blocked.empty() && dim.dependentChain &&
      !options.allowUpdateThenAggregate)
    scan.blocked = "the chain needs Update-then-Aggregate, which is disabled "
                   "(allow-uta=false)";
  dim.subject =
      scan.blocker
          ? scan.blocker
          : (dim.reductions.empty() ? nullptr : dim.reductions.front().first);
  if (!scan.blocked.empty()) {
    dim.dimClass = DimClass::NotSliceable;
    dim.reason = (chain.empty() ? "" : "reduced by " + chain + "; ") +
                 "not sliceable: " + scan.blocked;
    return;
  }
  dim.dimClass = DimClass::Temporal;
  dim.reason = (dim.dependentChain ? "dependent reductions " + chain +
                                         ", rewritten by Update-then-Aggregate"
                                   : "independent reduction " + chain +
                                         ", accumulated across slices");
  if (dim.needsFinalPass)
    dim.reason += "; outputs along it are written in a final pass";
}

/// Whether `edge` broadcasts along `d` an intermediate (a compute or
/// relayout space) that the graph computes, not one it re-reads.
bool SMGBuilder::isBroadcastOfIntermediate(const SpaceEdge &edge,
                                           unsigned d) const {
  if (!edge.producer || !smg.lookupSpace(edge.producer) ||
      isInputDerived(edge.producer) ||
      !llvm::is_contained(edge.broadcastDims, d))
    return false;
  MemberRole role = smg.lookupSpace(edge.producer)->role;
  return role == MemberRole::Compute || role == MemberRole::Relayout;
}

/// The members in `worklist` and every computed member they depend on:
/// what a block must recompute to have them.
llvm::SetVector<Operation *>
SMGBuilder::collectRecomputed(SmallVector<Operation *> worklist) const {
  llvm::SetVector<Operation *> recompute;
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (!recompute.insert(op))
      continue;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        if (const Space *s = smg.lookupSpace(def);
            s && s->role != MemberRole::Init && !isInputDerived(def))
          worklist.push_back(def);
  }
  return recompute;
}

/// No reduction along d: blocks along d are independent unless an
/// intermediate the graph computes is broadcast along d.
void SMGBuilder::classifyUnreducedDim(unsigned d) {
  GlobalDim &dim = smg.dims[d];
  SmallVector<Operation *> worklist;
  std::string broadcast;
  for (const SpaceEdge &edge : smg.edges) {
    if (!isBroadcastOfIntermediate(edge, d))
      continue;
    if (broadcast.empty()) {
      broadcast = smg.lookupSpace(edge.producer)->name + " is broadcast into " +
                  smg.lookupSpace(edge.consumer)->name;
      dim.subject = edge.consumer;
    }
    worklist.push_back(edge.producer);
  }
  llvm::SetVector<Operation *> recompute =
      collectRecomputed(std::move(worklist));
  if (recompute.empty()) {
    dim.dimClass = DimClass::Parallel;
    dim.reason = "no member reduces along it and no intermediate is "
                 "broadcast along it";
    for (const DimWindow &window : smg.windows)
      if (window.slice == d && window.source != DimWindow::kNoDim) {
        dim.reason += "; it indexes windows of " +
                      smg.dims[window.source].name + ", which slice with it";
        break;
      }
    return;
  }
  dim.dimClass = DimClass::ParallelRecompute;
  for (auto &[op, role] : members)
    if (recompute.contains(op))
      dim.recompute.push_back(op);
  std::string names;
  for (auto [i, op] : llvm::enumerate(dim.recompute))
    names += (i ? ", " : "") + smg.lookupSpace(op)->name;
  dim.reason = broadcast + " along it; every block recomputes " + names;
}

void SMGBuilder::classify(unsigned d) {
  GlobalDim &dim = smg.dims[d];
  if (Operation *user = findDiagonalUse(smg, d)) {
    dim.dimClass = DimClass::NotSliceable;
    dim.subject = user;
    dim.reason = "'" + user->getName().getStringRef().str() +
                 "' reads a tensor indexed by the dim along two of its "
                 "dimensions (a transpose of itself), so a block would "
                 "need elements outside its tile";
    return;
  }
  DimScan scan(d);
  for (auto &[op, role] : members)
    scanMember(scan, op, role);
  if (scan.anyReduced)
    classifyReducedDim(scan);
  else
    classifyUnreducedDim(d);
}

bool SMGBuilder::isDerivedFromInputs(Operation *op, MemberRole role) const {
  auto fromInputs = [&](Value v) {
    Operation *def = v.getDefiningOp();
    std::string unused;
    FailureOr<MemberRole> defRole =
        def ? getMemberRole(def, unused) : FailureOr<MemberRole>();
    return !def || inputDerived.contains(def) ||
           (succeeded(defRole) && *defRole == MemberRole::Init) ||
           !isa<RankedTensorType>(v.getType());
  };
  if (role == MemberRole::Relayout)
    return llvm::all_of(op->getOperands(), fromInputs);
  // An element-by-element function of one input, possibly read permuted
  // (a transposed weight, as torch-mlir writes `aten.t`): the output map
  // is the identity, the input's a permutation, no reduction. A block
  // recomputes only its own tile of it.
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (role != MemberRole::Compute || !linalgOp ||
      linalgOp.getNumReductionLoops() != 0 || linalgOp.getNumDpsInputs() != 1 ||
      linalgOp.getNumDpsInits() != 1 ||
      !linalgOp.getMatchingIndexingMap(linalgOp.getDpsInitOperand(0))
           .isIdentity() ||
      !linalgOp.getMatchingIndexingMap(linalgOp.getDpsInputOperand(0))
           .isPermutation())
    return false;
  return llvm::all_of(op->getOperands(), fromInputs);
}

/// A dim is temporal only if the temporal slicer can rewrite it, so the
/// slicer's plan is made here, once: it fixes each reduction's update, and
/// a dim it refuses is not sliceable (the lattice above admits forms the
/// rewrite does not, e.g. rounding an unbounded exp(x + c)).
void SMGBuilder::planTemporalDims() {
  for (auto [d, dim] : llvm::enumerate(smg.dims)) {
    if (dim.dimClass != DimClass::Temporal)
      continue;
    // smap-temporal-slice decomposes aggregated ops first, into the
    // generics of the same chain.
    if (llvm::any_of(dim.reductions, [](auto r) {
          return isa<linalg::AggregatedOpInterface>(r.first);
        }))
      continue;
    std::string whyNot;
    FailureOr<TemporalSlicePlan> plan = planTemporalSlice(smg, d, whyNot);
    if (succeeded(plan)) {
      for (const ReductionPlan &r : plan->reductions)
        dim.updates.push_back({r.op, r.update});
      continue;
    }
    dim.dimClass = DimClass::NotSliceable;
    dim.reason = "reduced by " + describeChain(smg, dim) +
                 "; not sliceable: the temporal slicer cannot rewrite it (" +
                 whyNot + ")";
  }
}

/// A dim an earlier analysis declared not sliceable (e.g. with UTA
/// disabled) stays so: rebuilding the SMG never loosens a decision.
void SMGBuilder::keepEarlierNotSliceableDims() {
  ArrayAttr annotated = smg.graph.getDimsAttr();
  if (!annotated)
    return;
  auto reasons = smg.graph->getAttrOfType<DictionaryAttr>(
      SMapDialect::NotSliceableAttrHelper::getNameStr());
  for (Attribute attr : annotated) {
    auto dimAttr = cast<DimAttr>(attr);
    if (dimAttr.getDimClass() != DimClass::NotSliceable)
      continue;
    for (GlobalDim &dim : smg.dims) {
      if (dim.name != dimAttr.getName().getValue() ||
          dim.dimClass == DimClass::NotSliceable)
        continue;
      dim.dimClass = DimClass::NotSliceable;
      auto reason =
          reasons ? reasons.getAs<StringAttr>(dim.name) : StringAttr();
      dim.reason = reason ? reason.str()
                          : "declared not sliceable by an earlier analysis";
    }
  }
}

FailureOr<SpaceMappingGraph> SMGBuilder::build() {
  GraphOp graph = smg.graph;
  for (Operation &op : graph.getBody().front().without_terminator()) {
    std::string whyNot;
    FailureOr<MemberRole> role = getMemberRole(&op, whyNot);
    if (failed(role)) {
      // Scalar arithmetic next to the members (e.g. a scale computed
      // outside any linalg op) is harmless; anything else is not.
      if (isMemoryEffectFree(&op) && op.getNumRegions() == 0 &&
          llvm::none_of(op.getResultTypes(),
                        [](Type t) { return isa<ShapedType>(t); })) {
        members.push_back({&op, MemberRole::Init});
        continue;
      }
      return op.emitOpError("cannot be described by the Space-Mapping Graph")
             << (whyNot.empty() ? "" : ": ") << whyNot;
    }
    if (*role == MemberRole::Init && isa<RankedTensorType>(op.getResultTypes().front()) &&
        !op.getResult(0).hasOneUse() && !op.getResult(0).use_empty())
      return op.emitOpError("initializes several members' tensors (as `cse` "
                            "leaves it): each needs its own init, which "
                            "smap-analyze gives it");
    if (isDerivedFromInputs(&op, *role))
      inputDerived.insert(&op);
    if (failed(addMember(&op, *role)))
      return failure();
  }
  for (Value output : graph.getYield().getValues())
    slotsOf(output);
  finalizeDims();
  nameDims();
  for (unsigned d = 0; d < smg.dims.size(); ++d)
    classify(d);
  planTemporalDims();
  keepEarlierNotSliceableDims();
  return std::move(smg);
}

//===----------------------------------------------------------------------===//
// SpaceMappingGraph
//===----------------------------------------------------------------------===//

bool SpaceMappingGraph::isIndexedBy(Value value, unsigned dim) const {
  return llvm::any_of(getValueDims(value), [&](ArrayRef<unsigned> ids) {
    return llvm::is_contained(ids, dim);
  });
}

std::optional<unsigned> SpaceMappingGraph::getLoopDim(Operation *op,
                                                      unsigned loop) const {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return std::nullopt;
  auto find = [&](AffineMap map, Value v) -> std::optional<unsigned> {
    SmallVector<SmallVector<unsigned>> dims = getValueDims(v);
    for (auto [j, expr] : llvm::enumerate(map.getResults()))
      if (auto dim = dyn_cast<AffineDimExpr>(expr))
        if (dim.getPosition() == loop && j < dims.size() &&
            dims[j].size() == 1)
          return dims[j][0];
    return std::nullopt;
  };
  for (OpOperand &operand : op->getOpOperands())
    if (std::optional<unsigned> d =
            find(linalgOp.getMatchingIndexingMap(&operand), operand.get()))
      return d;
  // An op that reads nothing (an iota) has its dims on its results.
  for (OpOperand &init : linalgOp.getDpsInitsMutable())
    if (std::optional<unsigned> d = find(linalgOp.getMatchingIndexingMap(&init),
                                         linalgOp.getTiedOpResult(&init)))
      return d;
  return std::nullopt;
}

std::string SpaceMappingGraph::nameOf(Operation *op) const {
  const Space *space = lookupSpace(op);
  return space ? space->name : getShortOpName(op);
}

/// The identity of `graph`'s body: its ops, in order, and what they read.
static llvm::hash_code hashBody(GraphOp graph) {
  llvm::hash_code hash = llvm::hash_value(graph.getOperation());
  graph.getBody().walk([&](Operation *op) {
    hash = llvm::hash_combine(hash, op, op->getName().getAsOpaquePointer());
    for (Value operand : op->getOperands())
      hash = llvm::hash_combine(hash, operand.getAsOpaquePointer());
  });
  return hash;
}

SpaceMappingGraphAnalysis::SpaceMappingGraphAnalysis(Operation *op)
    : bodyHash(hashBody(cast<GraphOp>(op))) {
  FailureOr<SpaceMappingGraph> built =
      SpaceMappingGraph::build(cast<GraphOp>(op));
  if (succeeded(built))
    smg = std::move(*built);
}

bool SpaceMappingGraphAnalysis::describes(GraphOp graph) const {
  return hashBody(graph) == bodyHash;
}

FailureOr<SpaceMappingGraph>
SpaceMappingGraph::build(GraphOp graph, const SMGOptions &options) {
  // A graph analyzed without UTA, and every graph cut or sliced from it,
  // stays without it.
  SMGOptions effective = options;
  if (graph->getContext()
          ->getOrLoadDialect<SMapDialect>()
          ->getNoUtaAttrHelper()
          .isAttrPresent(graph))
    effective.allowUpdateThenAggregate = false;
  return SMGBuilder(graph, effective).build();
}

SmallVector<SmallVector<unsigned>>
SpaceMappingGraph::getValueDims(Value value) const {
  auto it = valueDims.find(value);
  if (it == valueDims.end())
    return {};
  return it->second;
}

const Space *SpaceMappingGraph::lookupSpace(Operation *op) const {
  auto it = spaceIndex.find(op);
  return it == spaceIndex.end() ? nullptr : &spaces[it->second];
}

unsigned SpaceMappingGraph::countBroadcasts() const {
  unsigned count = 0;
  for (const SpaceEdge &edge : edges)
    if (lookupSpace(edge.consumer)->role == MemberRole::Compute)
      count += edge.broadcastDims.size();
  return count;
}

unsigned SpaceMappingGraph::countReductions() const {
  unsigned count = 0;
  for (const Space &space : spaces) {
    llvm::SmallDenseSet<unsigned> reduced;
    for (auto [d, combiner] : space.reductions)
      reduced.insert(d);
    count += reduced.size();
  }
  return count;
}

std::string SpaceMappingGraph::formatDims(ArrayRef<unsigned> dimIds) const {
  std::string out;
  for (auto [i, d] : llvm::enumerate(dimIds))
    out += (i ? ", " : "") + dims[d].name;
  return out;
}

ArrayAttr SpaceMappingGraph::getDimsAttr(MLIRContext *ctx) const {
  SmallVector<Attribute> attrs;
  for (const GlobalDim &dim : dims)
    attrs.push_back(DimAttr::get(ctx, StringAttr::get(ctx, dim.name),
                                 dim.extent, dim.dimClass));
  return ArrayAttr::get(ctx, attrs);
}

SpaceAttr SpaceMappingGraph::getSpaceAttr(const Space &space) const {
  MLIRContext *ctx = graph.getContext();
  auto name = [&](unsigned d) { return StringAttr::get(ctx, dims[d].name); };
  SmallVector<Attribute> dimNames, operands, reductions;
  for (unsigned d : space.dims)
    dimNames.push_back(name(d));
  for (unsigned e : space.inputEdges) {
    SmallVector<Attribute> mappings;
    for (unsigned d : edges[e].broadcastDims)
      mappings.push_back(
          MappingAttr::get(ctx, name(d), MappingKind::O2A, Combiner::None));
    operands.push_back(ArrayAttr::get(ctx, mappings));
  }
  // A reduction with an unknown combiner has no a2o mapping to show; the
  // dim's not_sliceable reason says why.
  for (auto [d, combiner] : space.reductions)
    if (combiner != Combiner::None)
      reductions.push_back(
          MappingAttr::get(ctx, name(d), MappingKind::A2O, combiner));
  return SpaceAttr::get(
      ctx, StringAttr::get(ctx, space.name), ArrayAttr::get(ctx, dimNames),
      ArrayAttr::get(ctx, operands), ArrayAttr::get(ctx, reductions));
}
