//===- GraphUtils.cpp - Creating and rewriting smap.graph ops -------------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Dialect/SMap/Transforms/GraphUtils.h"

#include "spacefusion/Analysis/Remarks.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace mlir::smap;

SmallVector<Value> mlir::smap::getReadValues(Operation *op) {
  SmallVector<Value> values(op->getOperands());
  if (op->getNumRegions() > 0) {
    llvm::SetVector<Value> captured;
    getUsedValuesDefinedAbove(op->getRegions(), captured);
    llvm::append_range(values, captured);
  }
  return values;
}

SmallVector<Operation *> mlir::smap::getDependenciesToHoist(
    const llvm::SmallSetVector<Operation *, 16> &group) {
  Operation *first = *llvm::min_element(
      group, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  Block *block = first->getBlock();
  llvm::SmallPtrSet<Operation *, 16> hoist;
  SmallVector<Operation *> worklist(group.begin(), group.end());
  while (!worklist.empty()) {
    Operation *current = worklist.pop_back_val();
    for (Value v : getReadValues(current)) {
      Operation *def = v.getDefiningOp();
      if (!def || def->getBlock() != block || group.contains(def) ||
          !first->isBeforeInBlock(def) || !hoist.insert(def).second)
        continue;
      worklist.push_back(def);
    }
  }
  SmallVector<Operation *> ordered(hoist.begin(), hoist.end());
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return ordered;
}

/// Zero-operand inits are cheap to duplicate into every graph that reads
/// them, which keeps graphs self-contained.
static bool isClonedInit(Operation *op) {
  std::string unused;
  FailureOr<MemberRole> role = getMemberRole(op, unused);
  return succeeded(role) && *role == MemberRole::Init &&
         op->getNumOperands() == 0;
}

linalg::GenericOp mlir::smap::createFloatConversion(OpBuilder &b, Location loc,
                                                    Value from, Value into) {
  auto type = cast<RankedTensorType>(into.getType());
  Type to = type.getElementType();
  AffineMap identity = b.getMultiDimIdentityMap(type.getRank());
  return linalg::GenericOp::create(
      b, loc, TypeRange{type}, ValueRange{from}, ValueRange{into},
      ArrayRef<AffineMap>{identity, identity},
      SmallVector<utils::IteratorType>(type.getRank(),
                                       utils::IteratorType::parallel),
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value converted =
            to.getIntOrFloatBitWidth() <
                    args[0].getType().getIntOrFloatBitWidth()
                ? arith::TruncFOp::create(nb, nl, to, args[0]).getResult()
                : arith::ExtFOp::create(nb, nl, to, args[0]).getResult();
        linalg::YieldOp::create(nb, nl, converted);
      });
}

GraphOp mlir::smap::outlineIntoGraph(ArrayRef<Operation *> members) {
  llvm::SmallSetVector<Operation *, 16> group(members.begin(), members.end());
  Operation *first = members.front();
  Block &block = *first->getBlock();
  for (Operation *op : getDependenciesToHoist(group))
    op->moveBefore(first);

  llvm::SetVector<Value> inputs;
  llvm::SetVector<Operation *> clonedInits;
  for (Operation *op : members)
    for (Value v : getReadValues(op)) {
      Operation *def = v.getDefiningOp();
      if (def && group.contains(def))
        continue;
      if (def && isClonedInit(def))
        clonedInits.insert(def);
      else
        inputs.insert(v);
    }
  SmallVector<Value> outputs;
  for (Operation *op : members)
    for (Value result : op->getResults())
      if (llvm::any_of(result.getUsers(), [&](Operation *user) {
            return !group.contains(block.findAncestorOpInBlock(*user));
          }))
        outputs.push_back(result);

  // The graph reports at its first compute op, the one a user looks for.
  Location loc = first->getLoc();
  for (Operation *op : members) {
    std::string unused;
    FailureOr<MemberRole> role = getMemberRole(op, unused);
    if (succeeded(role) && *role == MemberRole::Compute) {
      loc = op->getLoc();
      break;
    }
  }
  OpBuilder builder(first);
  SmallVector<Type> resultTypes;
  for (Value v : outputs)
    resultTypes.push_back(v.getType());
  auto graph = GraphOp::create(builder, loc, resultTypes, inputs.getArrayRef());
  Block &body = graph.getBody().front();
  IRMapping mapping;
  for (auto [input, arg] : llvm::zip(inputs, body.getArguments()))
    mapping.map(input, arg);
  OpBuilder inner = OpBuilder::atBlockBegin(&body);
  for (Operation *op : clonedInits)
    inner.clone(*op, mapping);
  for (Operation *op : members)
    inner.clone(*op, mapping);
  SmallVector<Value> yielded;
  for (Value v : outputs)
    yielded.push_back(mapping.lookup(v));
  YieldOp::create(inner, loc, yielded);
  privatizeInits(graph);

  for (auto [output, result] : llvm::zip(outputs, graph.getResults()))
    output.replaceAllUsesWith(result);
  for (Operation *op : llvm::reverse(members))
    op->erase();
  for (Operation *op : clonedInits)
    if (op->use_empty())
      op->erase();
  return graph;
}

/// Whether `op` only produces a destination value: it reads no tensor that
/// the graph computes, so copying it changes nothing but value identity.
static bool isDestinationOp(Operation *op) {
  std::string unused;
  FailureOr<MemberRole> role = getMemberRole(op, unused);
  return succeeded(role) && *role == MemberRole::Init &&
         op->getNumResults() == 1 && op->getNumRegions() <= 1 &&
         isa<RankedTensorType>(op->getResult(0).getType());
}

unsigned mlir::smap::privatizeInits(GraphOp graph) {
  Block &body = graph.getBody().front();
  SmallVector<Operation *> inits;
  // Not without_terminator(): a body being built has no terminator yet.
  for (Operation &op : body)
    if (isDestinationOp(&op))
      inits.push_back(&op);
  // Last first: copying a fill adds uses of its tensor.empty, which is
  // visited afterwards and copied in turn.
  unsigned copies = 0;
  for (Operation *init : llvm::reverse(inits)) {
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : init->getResult(0).getUses())
      uses.push_back(&use);
    for (OpOperand *use : llvm::drop_begin(uses)) {
      OpBuilder builder(use->getOwner());
      use->set(builder.clone(*init)->getResult(0));
      ++copies;
    }
  }
  return copies;
}

bool mlir::smap::isSliced(GraphOp graph) {
  return llvm::any_of(graph.getBody().front(), [](Operation &op) {
    return isa<SpatialSliceOp, TemporalSliceOp>(op);
  });
}

void mlir::smap::remarkUnscheduled(GraphOp graph, llvm::StringLiteral pass) {
  remark::missed(graph.getLoc(), remarkOpts(pass, "unscheduled", graph))
      << "graph has no schedule; run smap-schedule first";
}

static void emitSlicedError(GraphOp graph) {
  graph.emitError("the graph is sliced already; its Space-Mapping Graph is "
                  "built before smap-spatial-slice and smap-temporal-slice "
                  "(smap-dump-graph prints what a sliced graph records)");
}

FailureOr<SpaceMappingGraph> mlir::smap::buildSMG(GraphOp graph,
                                                  const SMGOptions &options) {
  if (isSliced(graph)) {
    emitSlicedError(graph);
    return failure();
  }
  privatizeInits(graph);
  return SpaceMappingGraph::build(graph, options);
}

const SpaceMappingGraph *mlir::smap::getSMG(GraphOp graph, AnalysisManager am,
                                             bool *reused) {
  if (isSliced(graph)) {
    emitSlicedError(graph);
    return nullptr;
  }
  AnalysisManager graphAm = am.nest(graph);
  privatizeInits(graph);
  auto cached = graphAm.getCachedAnalysis<SpaceMappingGraphAnalysis>();
  // A cached SMG of another body (privatized just now, rewritten by a pass
  // that preserved it) is dropped.
  if (cached && !cached->get().describes(graph)) {
    graphAm.clear();
    cached.reset();
  }
  if (reused)
    *reused = cached.has_value();
  return graphAm.getAnalysis<SpaceMappingGraphAnalysis>().get();
}

void mlir::smap::forgetSMG(GraphOp graph, AnalysisManager am) {
  am.nest(graph).clear();
}

SmallVector<Operation *> mlir::smap::inlineGraph(GraphOp graph) {
  OpBuilder builder(graph);
  IRMapping mapping;
  for (auto [arg, input] :
       llvm::zip(graph.getBody().getArguments(), graph.getInputs()))
    mapping.map(arg, input);
  SmallVector<Operation *> inlined;
  for (Operation &op : graph.getBody().front().without_terminator())
    inlined.push_back(builder.clone(op, mapping));
  for (auto [result, yielded] :
       llvm::zip(graph.getResults(), graph.getYield().getValues()))
    result.replaceAllUsesWith(mapping.lookupOrDefault(yielded));
  graph.erase();
  return inlined;
}

void mlir::smap::annotateGraph(const SpaceMappingGraph &smg, bool explain) {
  GraphOp graph = smg.getGraph();
  MLIRContext *ctx = graph.getContext();
  Builder b(ctx);
  graph.setDimsAttr(smg.getDimsAttr(ctx));
  for (const Space &space : smg.getSpaces())
    if (space.role != MemberRole::Init)
      space.op->setAttr("smap.space", smg.getSpaceAttr(space));

  SmallVector<NamedAttribute> chains, recompute, reasons;
  for (const GlobalDim &dim : smg.getDims()) {
    StringAttr name = b.getStringAttr(dim.name);
    switch (dim.dimClass) {
    case DimClass::Temporal:
      chains.push_back(b.getNamedAttr(name, b.getStringAttr(dim.reason)));
      break;
    case DimClass::ParallelRecompute: {
      SmallVector<Attribute> names;
      for (Operation *op : dim.recompute)
        names.push_back(b.getStringAttr(smg.lookupSpace(op)->name));
      recompute.push_back(b.getNamedAttr(name, b.getArrayAttr(names)));
      break;
    }
    case DimClass::NotSliceable:
      reasons.push_back(b.getNamedAttr(name, b.getStringAttr(dim.reason)));
      break;
    default:
      break;
    }
    // Reported at the op the class is about (the reduction, the blocker),
    // so the remark points at the line a user would change.
    Operation *subject = dim.subject ? dim.subject : graph.getOperation();
    if (explain)
      remark::analysis(subject->getLoc(),
                       remarkOpts("analyze", "dim-class", subject))
          << ("dim '" + dim.name + "' (" + std::to_string(dim.extent) +
              ") is " + stringifyDimClass(dim.dimClass).str() + ": " +
              dim.reason)
          << remark::detail::Remark::Arg("dim", dim.name)
          << remark::detail::Remark::Arg("class",
                                         stringifyDimClass(dim.dimClass));
  }
  auto setOrRemove = [&](StringRef attrName, ArrayRef<NamedAttribute> attrs) {
    if (attrs.empty())
      graph->removeAttr(attrName);
    else
      graph->setAttr(attrName, b.getDictionaryAttr(attrs));
  };
  setOrRemove(SMapDialect::ChainsAttrHelper::getNameStr(), chains);
  setOrRemove(SMapDialect::RecomputeAttrHelper::getNameStr(), recompute);
  setOrRemove(SMapDialect::NotSliceableAttrHelper::getNameStr(), reasons);
}
