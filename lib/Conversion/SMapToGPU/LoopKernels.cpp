//===- LoopKernels.cpp - Ops outside every graph as loop kernels ----------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "LoopKernels.h"

#include "spacefusion/Dialect/SMap/IR/SMap.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::smap;

/// Threads of a loop kernel's block (one element of the parallel loops
/// each).
static constexpr int64_t kLoopKernelThreads = 256;

namespace {
/// Builds the kernel of one op: a thread per element of its parallel loops,
/// its reduction loops in order inside.
class LoopKernelBuilder {
public:
  LoopKernelBuilder(RewriterBase &rewriter, linalg::LinalgOp op)
      : b(rewriter), op(op), loc(op.getLoc()),
        ranges(op.getStaticLoopRanges()) {
    for (auto [dim, type] : llvm::enumerate(op.getIteratorTypesArray()))
      (type == utils::IteratorType::parallel ? parallelDims : reductionDims)
          .push_back(dim);
  }

  gpu::LaunchOp build();
  int64_t blocks = 0, threads = 0;

private:
  int64_t countElements() const;
  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }
  /// The parallel loops' indices of the element `linear` (the last
  /// parallel loop fastest, so that neighbouring threads read neighbouring
  /// elements).
  void delinearize(Value linear);
  /// The reduction loops, then the body, at the current point.
  void emitReductionLoops(unsigned depth);
  void emitBody();
  SmallVector<Value> getIndices(OpOperand &operand);

  RewriterBase &b;
  linalg::LinalgOp op;
  Location loc;
  SmallVector<int64_t> ranges;
  SmallVector<unsigned> parallelDims, reductionDims;
  SmallVector<Value> ivs;
};
} // namespace

int64_t LoopKernelBuilder::countElements() const {
  int64_t elements = 1;
  for (unsigned dim : parallelDims)
    elements *= ranges[dim];
  return elements;
}

void LoopKernelBuilder::delinearize(Value linear) {
  ivs.assign(ranges.size(), Value());
  for (unsigned dim : llvm::reverse(parallelDims)) {
    Value extent = index(ranges[dim]);
    ivs[dim] = arith::RemUIOp::create(b, loc, linear, extent);
    linear = arith::DivUIOp::create(b, loc, linear, extent);
  }
}

SmallVector<Value> LoopKernelBuilder::getIndices(OpOperand &operand) {
  AffineMap map = op.getMatchingIndexingMap(&operand);
  return *affine::expandAffineMap(b, loc, map, ivs);
}

void LoopKernelBuilder::emitBody() {
  Block *body = op.getBlock();
  IRMapping mapping;
  for (OpOperand &operand : op->getOpOperands()) {
    BlockArgument arg = op.getMatchingBlockArgument(&operand);
    if (arg.use_empty())
      continue; // an output the body only writes (a copy) is not read
    if (!isa<MemRefType>(operand.get().getType())) {
      mapping.map(arg, operand.get());
      continue;
    }
    mapping.map(arg, memref::LoadOp::create(b, loc, operand.get(),
                                            getIndices(operand)));
  }
  for (Operation &inner : body->without_terminator()) {
    if (auto indexOp = dyn_cast<linalg::IndexOp>(inner)) {
      mapping.map(indexOp.getResult(), ivs[indexOp.getDim()]);
      continue;
    }
    b.clone(inner, mapping);
  }
  for (auto [init, yielded] :
       llvm::zip(op.getDpsInitsMutable(), body->getTerminator()->getOperands()))
    memref::StoreOp::create(b, loc, mapping.lookupOrDefault(yielded),
                            init.get(), getIndices(init));
}

void LoopKernelBuilder::emitReductionLoops(unsigned depth) {
  if (depth == reductionDims.size())
    return emitBody();
  unsigned dim = reductionDims[depth];
  auto loop =
      scf::ForOp::create(b, loc, index(0), index(ranges[dim]), index(1));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  ivs[dim] = loop.getInductionVar();
  emitReductionLoops(depth + 1);
}

gpu::LaunchOp LoopKernelBuilder::build() {
  int64_t elements = countElements();
  threads = std::min(kLoopKernelThreads, elements);
  blocks = llvm::divideCeil(elements, threads);
  b.setInsertionPoint(op);
  Value one = index(1);
  auto launch = gpu::LaunchOp::create(b, loc, index(blocks), one, one,
                                      index(threads), one, one);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(&launch.getBody().front());
  gpu::TerminatorOp::create(b, loc);
  b.setInsertionPointToStart(&launch.getBody().front());
  Value linear = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, launch.getBlockIds().x, index(threads)),
      launch.getThreadIds().x);
  Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                        linear, index(elements));
  auto guardIf = scf::IfOp::create(b, loc, inRange);
  b.setInsertionPointToStart(guardIf.thenBlock());
  delinearize(linear);
  emitReductionLoops(0);
  return launch;
}

gpu::LaunchOp mlir::smap::buildLoopKernel(RewriterBase &rewriter,
                                          linalg::LinalgOp op) {
  if (llvm::is_contained(op.getStaticLoopRanges(), 0)) {
    // The body never runs (smap-fold-empty-domains folds such ops on
    // tensors; this one came from elsewhere).
    rewriter.eraseOp(op);
    return gpu::LaunchOp();
  }
  LoopKernelBuilder builder(rewriter, op);
  gpu::LaunchOp launch = builder.build();
  KernelAttr record =
      KernelAttr::get(rewriter.getContext(), KernelStrategy::Loops,
                      builder.blocks, builder.threads, /*smem=*/0,
                      /*scratch=*/0, DictionaryAttr(), DictionaryAttr());
  rewriter.getContext()
      ->getOrLoadDialect<SMapDialect>()
      ->getKernelAttrHelper()
      .setAttr(launch, record);
  rewriter.eraseOp(op);
  return launch;
}
