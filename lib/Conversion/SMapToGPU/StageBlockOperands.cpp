//===- StageBlockOperands.cpp - Stage contraction operands of GPU blocks --===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "../PassDetail.h"
#include "spacefusion/Analysis/TensorCoreLegality.h"
#include "spacefusion/Dialect/SMap/Transforms/GraphUtils.h"

#include "mlir/IR/Builders.h"

namespace mlir {
namespace smap {
#define GEN_PASS_DEF_SMAPSTAGEBLOCKOPERANDSPASS
#include "spacefusion/Conversion/Passes.h.inc"
} // namespace smap
} // namespace mlir

using namespace mlir;
using namespace mlir::smap;

/// Stages the 16-bit operand tiles of a block's contractions in on-chip
/// buffers: each operand sliced from a graph input is first copied into a
/// tile of its own (`linalg.copy` into `tensor.empty`), which bufferization
/// makes a block buffer (shared memory on the GPU). The copy reads global
/// memory once, coalesced, instead of once per warp that needs the element,
/// and the tensor cores' fragments then load from shared memory.
static void stageContractionOperands(scf::ForallOp forall, bool tensorCores) {
  int64_t staged = 0;
  forall.walk([&](linalg::LinalgOp op) {
    for (OpOperand *input : op.getDpsInputOperands()) {
      auto slice = input->get().getDefiningOp<tensor::ExtractSliceOp>();
      auto type = dyn_cast<RankedTensorType>(input->get().getType());
      if (!slice || !type || !type.hasStaticShape())
        continue;
      // An f32 operand the tensor cores read rounded to 16 bits is staged
      // rounded (the same numbers, half the bytes, ldmatrix-able); the
      // contraction then extends it.
      std::optional<Type> stagedType = getStagedTileType(
          op, input, op.getStaticLoopRanges(), tensorCores);
      if (!stagedType)
        continue;
      bool round = *stagedType != type.getElementType();
      // Right after the slice: a tile invariant in the temporal loop is
      // staged once, before it. Rows are padded (getStagedRowPadding) so
      // that the 8 rows an ldmatrix phase reads fall in distinct banks
      // (rows of a multiple of 128 bytes would all hit the same ones).
      OpBuilder b(slice->getContext());
      b.setInsertionPointAfter(slice);
      SmallVector<int64_t> padded(type.getShape());
      padded.back() += getStagedRowPadding(op, input, *stagedType);
      auto buffer =
          tensor::EmptyOp::create(b, op.getLoc(), padded, *stagedType);
      // Distinct, so that cse does not merge two staged tiles into one
      // buffer (which would serialize them and forbid prefetching).
      buffer->setAttr(SMapDialect::StagedAttrHelper::getNameStr(),
                      b.getI64IntegerAttr(staged++));
      SmallVector<OpFoldResult> zeros(type.getRank(), b.getIndexAttr(0)), sizes,
          ones(type.getRank(), b.getIndexAttr(1));
      for (int64_t size : type.getShape())
        sizes.push_back(b.getIndexAttr(size));
      auto tileType = RankedTensorType::get(type.getShape(), *stagedType);
      Value tile = tensor::ExtractSliceOp::create(b, op.getLoc(), tileType,
                                                  buffer, zeros, sizes, ones);
      if (!round) {
        input->set(
            linalg::CopyOp::create(b, op.getLoc(), slice.getResult(), tile)
                .getResult(0));
        continue;
      }
      input->set(createFloatConversion(b, op.getLoc(), slice.getResult(), tile)
                     .getResult(0));
      // The payload reads the operand as f16 (bf16) and extends it.
      Block &payload = op->getRegion(0).front();
      BlockArgument arg = payload.getArgument(input->getOperandNumber());
      arg.setType(*stagedType);
      OpBuilder pb = OpBuilder::atBlockBegin(&payload);
      auto extended =
          arith::ExtFOp::create(pb, op.getLoc(), b.getF32Type(), arg);
      arg.replaceAllUsesExcept(extended.getResult(), extended);
    }
  });
}

/// Keeps a wgmma block's accumulator in a block buffer when the block's
/// result is the accumulator itself (a GEMM into an f32 output, no
/// epilogue): the accumulating loop's result is copied into a fresh tile
/// that the forall inserts. Empty-tensor elimination then writes the copy,
/// not the accumulation, in place into the output; the wgmma lowering
/// accumulates in registers over its stages and stores through that copy,
/// as it stores through any epilogue.
static void keepAccumulatorInBlock(scf::ForallOp forall) {
  for (Operation &op : forall.getTerminator().getYieldingOps()) {
    auto insert = dyn_cast<tensor::ParallelInsertSliceOp>(op);
    auto loop = insert ? insert.getSource().getDefiningOp<scf::ForOp>()
                       : scf::ForOp();
    if (!loop || loop->getParentOp() != forall)
      continue;
    auto result = cast<OpResult>(insert.getSource());
    auto fill = loop.getInitArgs()[result.getResultNumber()]
                    .getDefiningOp<linalg::FillOp>();
    if (!fill || !fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>())
      continue;
    OpBuilder b(insert->getContext());
    b.setInsertionPointAfter(loop);
    auto type = cast<RankedTensorType>(result.getType());
    Value tile = tensor::EmptyOp::create(b, loop.getLoc(), type.getShape(),
                                         type.getElementType());
    Value copied =
        linalg::CopyOp::create(b, loop.getLoc(), result, tile).getResult(0);
    insert.getSourceMutable().assign(copied);
  }
}

namespace {
struct StageBlockOperandsPass
    : public smap::impl::SMapStageBlockOperandsPassBase<
          StageBlockOperandsPass> {
  void runOnOperation() override {
    auto helper =
        getContext().getOrLoadDialect<SMapDialect>()->getScheduleAttrHelper();
    getOperation()->walk([&](scf::ForallOp forall) {
      ScheduleAttr schedule = helper.getAttr(forall);
      if (!schedule)
        return;
      stageContractionOperands(forall,
                               schedule.getStrategy() != KernelStrategy::Simt);
      if (schedule.getStrategy() == KernelStrategy::WgmmaTma ||
          schedule.getStrategy() == KernelStrategy::WgmmaTmaWarpSpecialized)
        keepAccumulatorInBlock(forall);
    });
  }
};
} // namespace
