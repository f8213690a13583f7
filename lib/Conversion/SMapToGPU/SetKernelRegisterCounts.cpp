//===- SetKernelRegisterCounts.cpp - Entry register counts for ptxas ------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "../PassDetail.h"
#include "spacefusion/Analysis/Targets.h"
#include "spacefusion/Analysis/WgmmaPipeline.h"

namespace mlir {
namespace smap {
#define GEN_PASS_DEF_SMAPSETKERNELREGISTERCOUNTSPASS
#include "spacefusion/Conversion/Passes.h.inc"
} // namespace smap
} // namespace mlir

using namespace mlir;

/// The threads of kernel `fn`'s blocks, if outlining recorded them.
static std::optional<int64_t> blockThreads(gpu::GPUFuncOp fn) {
  std::optional<ArrayRef<int32_t>> size = fn.getKnownBlockSize();
  if (!size)
    return std::nullopt;
  int64_t threads = 1;
  for (int32_t extent : *size)
    threads *= extent;
  return threads;
}

namespace {
struct SetKernelRegisterCountsPass
    : public smap::impl::SMapSetKernelRegisterCountsPassBase<
          SetKernelRegisterCountsPass> {
  using SMapSetKernelRegisterCountsPassBase::
      SMapSetKernelRegisterCountsPassBase;

  void runOnOperation() override {
    Builder b(&getContext());
    for (auto fn : getOperation().getOps<gpu::GPUFuncOp>()) {
      bool reallocates = fn.walk([](NVVM::SetMaxRegisterOp) {
                             return WalkResult::interrupt();
                           }).wasInterrupted();
      if (!fn.isKernel() || !reallocates)
        continue;
      // Only kernels that reallocate need the target (setmaxnreg is
      // sm_90a's; the modules of other chips have none).
      smap::TargetAttr chip = smap::getBuiltinTarget(&getContext(), target);
      if (!chip || chip.getArch() == 0) {
        fn.emitError("smap-set-kernel-register-counts: '")
            << target << "' is not a built-in GPU target";
        return signalPassFailure();
      }
      std::optional<int64_t> threads = blockThreads(fn);
      if (!threads) {
        fn.emitError("smap-set-kernel-register-counts: a kernel that "
                     "reallocates registers needs a known block size");
        return signalPassFailure();
      }
      fn->setAttr(NVVM::NVVMDialect::getMaxnregAttrName(),
                  b.getI32IntegerAttr(
                      smap::registersAtEntry(*threads, chip.getRegsPerSm())));
    }
  }
};
} // namespace
