//===- FormGraphs.cpp - Group linalg ops into smap.graph ops --------------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Analysis/Remarks.h"
#include "spacefusion/Analysis/SpaceMappingGraph.h"
#include "spacefusion/Dialect/SMap/Transforms/GraphUtils.h"
#include "spacefusion/Dialect/SMap/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

namespace mlir {
namespace smap {
#define GEN_PASS_DEF_SMAPFORMGRAPHSPASS
#include "spacefusion/Dialect/SMap/Transforms/Passes.h.inc"
} // namespace smap
} // namespace mlir

using namespace mlir;
using namespace mlir::smap;

namespace {

using OpSet = llvm::SmallSetVector<Operation *, 16>;

/// Groups the candidate ops of one block and outlines each group.
class BlockGrouper {
public:
  BlockGrouper(Block &block, unsigned maxGroupSize,
               const llvm::StringSet<> &excluded, bool excludedAlone,
               const llvm::SmallPtrSetImpl<Operation *> &leftOut)
      : block(block), maxGroupSize(maxGroupSize), excluded(excluded),
        excludedAlone(excludedAlone), leftOut(leftOut) {}

  void run();

private:
  /// Whether `op` (not in `group`) transitively depends on a member of
  /// `group`; if so, `through` is the first op on that path.
  bool dependsOn(Operation *op, const OpSet &group, Operation *&through);
  /// Whether `group` can become one smap.graph; otherwise `why` says why.
  bool isLegal(const OpSet &group, std::string &why);
  void outline(ArrayRef<Operation *> group);

  bool admit(Operation &op);
  unsigned startGroup(Operation *op);
  llvm::SmallSetVector<unsigned, 4> getProducerGroups(Operation &op);
  bool tryJoin(Operation *op, ArrayRef<unsigned> ids, std::string &why);
  void place(Operation &op);
  void outlineComputeGroups();

  void absorbInitOnlyGroups();

  static bool isCompute(Operation *op) {
    std::string unused;
    FailureOr<MemberRole> role = getMemberRole(op, unused);
    return succeeded(role) && *role == MemberRole::Compute;
  }

  static bool isFree(Operation *op) {
    std::string unused;
    FailureOr<MemberRole> role = getMemberRole(op, unused);
    return succeeded(role) && *role == MemberRole::Init &&
           op->getNumOperands() == 0;
  }

  Block &block;
  unsigned maxGroupSize;
  const llvm::StringSet<> &excluded;
  bool excludedAlone;
  /// Groups of one excluded op, which nothing else joins.
  llvm::DenseSet<unsigned> sealed;
  /// Ops an earlier round's SMG could not describe.
  const llvm::SmallPtrSetImpl<Operation *> &leftOut;
  DenseMap<Operation *, unsigned> groupOf;
  SmallVector<OpSet> groups;
};

} // namespace

bool BlockGrouper::dependsOn(Operation *op, const OpSet &group,
                             Operation *&through) {
  SmallVector<Operation *> worklist{op};
  llvm::SmallPtrSet<Operation *, 32> visited;
  while (!worklist.empty()) {
    Operation *current = worklist.pop_back_val();
    if (!visited.insert(current).second)
      continue;
    for (Value v : getReadValues(current)) {
      Operation *def = v.getDefiningOp();
      if (!def || def->getBlock() != &block)
        continue;
      if (group.contains(def)) {
        through = op;
        return true;
      }
      worklist.push_back(def);
    }
  }
  return false;
}

bool BlockGrouper::isLegal(const OpSet &group, std::string &why) {
  if (maxGroupSize) {
    unsigned compute = 0;
    for (Operation *op : group) {
      std::string unused;
      FailureOr<MemberRole> role = getMemberRole(op, unused);
      compute += succeeded(role) && *role == MemberRole::Compute;
    }
    if (compute > maxGroupSize) {
      why = "the group would exceed max-group-size=" +
            std::to_string(maxGroupSize);
      return false;
    }
  }
  for (Operation *member : group)
    for (Value v : getReadValues(member)) {
      Operation *def = v.getDefiningOp();
      Operation *through = nullptr;
      if (def && def->getBlock() == &block && !group.contains(def) &&
          dependsOn(def, group, through)) {
        why = "fusing would create a cycle through '" +
              through->getName().getStringRef().str() + "'";
        return false;
      }
    }
  for (Operation *op : getDependenciesToHoist(group))
    if (!isMemoryEffectFree(op)) {
      why = "'" + op->getName().getStringRef().str() +
            "' between the members has side effects and cannot move";
      return false;
    }
  return true;
}

void BlockGrouper::run() {
  for (Operation &op : block)
    if (admit(op))
      place(op);
  absorbInitOnlyGroups();
  outlineComputeGroups();
}

/// Whether `op` is grouped by its producers; an op the pass leaves out gets
/// a remark, and an excluded one a sealed group of its own if asked.
bool BlockGrouper::admit(Operation &op) {
  if (leftOut.contains(&op))
    return false;
  std::string whyNot;
  FailureOr<MemberRole> role = getMemberRole(&op, whyNot);
  if (succeeded(role) && excluded.contains(op.getName().getStringRef())) {
    remark::missed(op.getLoc(), remarkOpts("form-graphs", "excluded", &op))
        << ("'" + op.getName().getStringRef().str() +
            (excludedAlone ? "' in a graph of its own" : "' not grouped") +
            ": excluded by the exclude option");
    if (excludedAlone)
      sealed.insert(startGroup(&op));
    return false;
  }
  if (failed(role)) {
    if (!whyNot.empty())
      remark::missed(op.getLoc(), remarkOpts("form-graphs", "unsupported", &op))
          << ("'" + op.getName().getStringRef().str() + "'" +
              describeOrigin(&op) + " left outside any smap.graph: " + whyNot);
    return false;
  }
  return !isFree(&op);
}

/// Puts `op` in a new group of its own; returns the group's id.
unsigned BlockGrouper::startGroup(Operation *op) {
  unsigned id = groups.size();
  groupOf[op] = id;
  groups.push_back(OpSet());
  groups.back().insert(op);
  return id;
}

/// Groups that produce this op's operands, in order of first use.
llvm::SmallSetVector<unsigned, 4>
BlockGrouper::getProducerGroups(Operation &op) {
  llvm::SmallSetVector<unsigned, 4> producers;
  for (Value v : getReadValues(&op))
    if (Operation *def = v.getDefiningOp())
      if (auto it = groupOf.find(def);
          it != groupOf.end() && !sealed.contains(it->second))
        producers.insert(it->second);
  return producers;
}

/// Merges `op` and the groups `ids` into the first of them if that is
/// legal; otherwise `why` says why not.
bool BlockGrouper::tryJoin(Operation *op, ArrayRef<unsigned> ids,
                           std::string &why) {
  OpSet merged;
  for (unsigned id : ids)
    merged.insert(groups[id].begin(), groups[id].end());
  merged.insert(op);
  if (!isLegal(merged, why))
    return false;
  unsigned target = ids.front();
  groups[target] = merged;
  for (Operation *member : merged)
    groupOf[member] = target;
  for (unsigned id : ids.drop_front())
    groups[id].clear();
  return true;
}

/// Joins `op` to all its producers' groups, else to the first one it can
/// join, else starts a new group; remarks on what it could not join.
void BlockGrouper::place(Operation &op) {
  llvm::SmallSetVector<unsigned, 4> producers = getProducerGroups(op);
  std::string why;
  bool joined =
      !producers.empty() && tryJoin(&op, producers.getArrayRef(), why);
  for (unsigned id : producers) {
    if (joined)
      break;
    std::string whyThis;
    joined = tryJoin(&op, {id}, whyThis);
  }
  if (!producers.empty() && !joined)
    remark::analysis(op.getLoc(), remarkOpts("form-graphs", "not-fused", &op))
        << ("'" + op.getName().getStringRef().str() +
            "' starts a new group: " + why);
  else if (!producers.empty() && !why.empty() && producers.size() > 1)
    remark::analysis(op.getLoc(),
                     remarkOpts("form-graphs", "partly-fused", &op))
        << ("'" + op.getName().getStringRef().str() +
            "' joins only some of its producers' groups: " + why);
  if (!joined)
    startGroup(&op);
}

/// Outlines each group that computes something, its ops in block order.
void BlockGrouper::outlineComputeGroups() {
  for (OpSet &group : groups) {
    if (!llvm::any_of(group, isCompute))
      continue;
    SmallVector<Operation *> ordered(group.begin(), group.end());
    llvm::sort(ordered, [](Operation *a, Operation *b) {
      return a->isBeforeInBlock(b);
    });
    outline(ordered);
  }
}

/// An init (a fill) whose readers all joined other groups is left in a
/// group of its own, which computes nothing and is never outlined: it would
/// stay outside every graph (max-group-size cut the reader away from the
/// group the init first started). It joins each reader's group instead, a
/// copy per group beyond the first; its operands are constants and empty
/// tensors, so this creates no cycle.
void BlockGrouper::absorbInitOnlyGroups() {
  for (unsigned id = 0; id < groups.size(); ++id) {
    if (groups[id].empty() || llvm::any_of(groups[id], isCompute))
      continue;
    SmallVector<Operation *> inits(groups[id].begin(), groups[id].end());
    for (Operation *init : inits) {
      // The computing groups that read it, with their uses.
      llvm::MapVector<unsigned, SmallVector<OpOperand *>> readers;
      for (OpOperand &use : init->getUses()) {
        auto it = groupOf.find(block.findAncestorOpInBlock(*use.getOwner()));
        if (it != groupOf.end() && it->second != id &&
            llvm::any_of(groups[it->second], isCompute))
          readers[it->second].push_back(&use);
      }
      for (auto [index, entry] : llvm::enumerate(readers)) {
        auto &[target, uses] = entry;
        Operation *member = init;
        if (index == 0) {
          groups[id].remove(init);
        } else {
          member = OpBuilder(init).clone(*init);
          for (OpOperand *use : uses)
            use->set(member->getResult(
                cast<OpResult>(use->get()).getResultNumber()));
        }
        groups[target].insert(member);
        groupOf[member] = target;
      }
    }
  }
}

void BlockGrouper::outline(ArrayRef<Operation *> members) {
  std::string names;
  for (Operation *op : members)
    names += (names.empty() ? "" : ", ") + getShortOpName(op);
  GraphOp graph = outlineIntoGraph(members);
  remark::passed(graph.getLoc(), remarkOpts("form-graphs", "formed", graph))
      << ("formed smap.graph of " + std::to_string(members.size()) + " ops (" +
          names + ") with " + std::to_string(graph.getInputs().size()) +
          " inputs and " + std::to_string(graph.getNumResults()) + " outputs");
}

/// Gives each repeated operand of a return its own copy (an identity
/// generic, which joins the producer's graph): every result then has a
/// buffer of its own, and bufferization's out-parameters (which crash on a
/// value returned twice) see distinct values.
static void copyRepeatedResults(FunctionOpInterface fn) {
  fn->walk([](func::ReturnOp ret) {
    llvm::SmallPtrSet<Value, 4> seen;
    OpBuilder b(ret);
    for (OpOperand &operand : ret->getOpOperands()) {
      Value v = operand.get();
      auto type = dyn_cast<RankedTensorType>(v.getType());
      if (seen.insert(v).second || !type || !type.hasStaticShape())
        continue;
      Location loc = ret.getLoc();
      Value init = tensor::EmptyOp::create(b, loc, type.getShape(),
                                           type.getElementType());
      AffineMap identity = b.getMultiDimIdentityMap(type.getRank());
      auto copy = linalg::GenericOp::create(
          b, loc, TypeRange{type}, ValueRange{v}, ValueRange{init},
          ArrayRef<AffineMap>{identity, identity},
          SmallVector<utils::IteratorType>(type.getRank(),
                                           utils::IteratorType::parallel),
          [](OpBuilder &nb, Location nl, ValueRange args) {
            linalg::YieldOp::create(nb, nl, args[0]);
          });
      operand.set(copy.getResult(0));
    }
  });
}

/// The member of a graph whose SMG cannot be built (a reshape whose
/// factorization does not match its source's, as torch's views write
/// 32x16 -> 512 -> 16x32), with the builder's message; null when it builds.
static Operation *findUndescribableMember(GraphOp graph,
                                          std::string &message) {
  Operation *culprit = nullptr;
  ScopedDiagnosticHandler handler(graph.getContext(), [&](Diagnostic &diag) {
    if (culprit || diag.getSeverity() != DiagnosticSeverity::Error)
      return failure();
    for (Operation &op : graph.getBody().front())
      if (op.getLoc() == diag.getLocation() && !culprit) {
        culprit = &op;
        message = diag.str();
      }
    return success();
  });
  if (succeeded(SpaceMappingGraph::build(graph)))
    return nullptr;
  return culprit;
}

namespace {
struct FormGraphsPass
    : public smap::impl::SMapFormGraphsPassBase<FormGraphsPass> {
  using Base::Base;

  /// Adds the graphs of `block` not in `before` to the statistics.
  void countFormed(Block &block,
                   const llvm::SmallPtrSetImpl<Operation *> &before) {
    for (auto graph : block.getOps<GraphOp>()) {
      if (before.contains(graph))
        continue;
      ++numGraphsFormed;
      numOpsGrouped +=
          llvm::count_if(graph.getBody().front(), [](Operation &op) {
            return isa<linalg::LinalgOp>(op);
          });
    }
  }

  /// Groups `block`; a graph the SMG cannot describe is undone and formed
  /// again without the member that breaks it, which stays outside with a
  /// remark (a failing SMG used to fail the whole pipeline).
  void groupBlock(Block &block, const llvm::StringSet<> &excluded) {
    llvm::SmallPtrSet<Operation *, 4> leftOut;
    for (unsigned round = 0; round <= block.getOperations().size(); ++round) {
      llvm::SmallPtrSet<Operation *, 8> before;
      for (Operation &op : block)
        if (isa<GraphOp>(op))
          before.insert(&op);
      BlockGrouper(block, maxGroupSize, excluded, excludedAlone, leftOut)
          .run();
      GraphOp broken;
      Operation *culprit = nullptr;
      std::string message;
      for (auto graph : block.getOps<GraphOp>())
        if (!before.contains(graph) &&
            (culprit = findUndescribableMember(graph, message))) {
          broken = graph;
          break;
        }
      if (!broken)
        return countFormed(block, before);
      unsigned index = 0;
      for (Operation &op : broken.getBody().front()) {
        if (&op == culprit)
          break;
        ++index;
      }
      Operation *inlinedCulprit = inlineGraph(broken)[index];
      leftOut.insert(inlinedCulprit);
      remark::missed(inlinedCulprit->getLoc(),
                     remarkOpts("form-graphs", "undescribable", inlinedCulprit))
          << ("'" + inlinedCulprit->getName().getStringRef().str() + "'" +
              describeOrigin(inlinedCulprit) +
              " left outside any smap.graph: " + message);
    }
  }

  void runOnOperation() override {
    llvm::StringSet<> excluded;
    for (const std::string &name : excludeOps)
      excluded.insert(name);
    SmallVector<FunctionOpInterface> functions;
    getOperation()->walk(
        [&](FunctionOpInterface fn) { functions.push_back(fn); });
    for (FunctionOpInterface fn : functions) {
      if (fn.isExternal())
        continue;
      copyRepeatedResults(fn);
      // Every block of the function, loop bodies included, but not the
      // bodies of linalg ops or of graphs formed earlier: running the pass
      // twice forms no graph inside a graph.
      SmallVector<Block *> blocks;
      fn->walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (isa<GraphOp, linalg::LinalgOp>(op) && op != fn)
          return WalkResult::skip();
        for (Region &region : op->getRegions())
          for (Block &block : region)
            blocks.push_back(&block);
        return WalkResult::advance();
      });
      for (Block *block : blocks)
        groupBlock(*block, excluded);
    }
  }
};
} // namespace
