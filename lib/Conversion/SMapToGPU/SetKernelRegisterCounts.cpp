//===- SetKernelRegisterCounts.cpp - Entry register counts for ptxas ------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "../PassDetail.h"

#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace smap {
#define GEN_PASS_DEF_SMAPSETKERNELREGISTERCOUNTSPASS
#include "spacefusion/Conversion/Passes.h.inc"
} // namespace smap
} // namespace mlir

using namespace mlir;
using namespace mlir::smap;

/// Whether `fn` moves registers between its warps (`setmaxnreg`).
static bool reallocatesRegisters(gpu::GPUFuncOp fn) {
  return fn.walk([](NVVM::SetMaxRegisterOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

namespace {
struct SetKernelRegisterCountsPass
    : public smap::impl::SMapSetKernelRegisterCountsPassBase<
          SetKernelRegisterCountsPass> {
  using SMapSetKernelRegisterCountsPassBase::
      SMapSetKernelRegisterCountsPassBase;

  void runOnOperation() override {
    SymbolTableCollection symbols;
    for (auto fn : getOperation().getOps<func::FuncOp>())
      if (failed(applyRecords(fn, symbols)))
        return signalPassFailure();
    WalkResult checked = getOperation().walk([](gpu::GPUFuncOp kernel) {
      if (!kernel.isKernel() || !reallocatesRegisters(kernel) ||
          kernel->hasAttr(NVVM::NVVMDialect::getMaxnregAttrName()))
        return WalkResult::advance();
      kernel.emitError("smap-set-kernel-register-counts: @")
          << kernel.getName()
          << " reallocates registers (setmaxnreg) but no #smap.kernel "
             "record of its launch gives its entry count (regs_entry); "
             "ptxas would drop the reallocation";
      return WalkResult::interrupt();
    });
    if (checked.wasInterrupted())
      signalPassFailure();
  }

  /// Gives each kernel `fn` launches the entry count of its record in
  /// `fn`'s `smap.kernels` (the records follow the launches' order).
  LogicalResult applyRecords(func::FuncOp fn, SymbolTableCollection &symbols) {
    auto *smap = getContext().getLoadedDialect<SMapDialect>();
    ArrayAttr records = smap->getKernelsAttrHelper().getAttr(fn);
    if (!records)
      return success();
    SmallVector<gpu::LaunchFuncOp> launches;
    fn.walk([&](gpu::LaunchFuncOp launch) { launches.push_back(launch); });
    if (launches.size() != records.size())
      return fn.emitError("smap-set-kernel-register-counts: @")
             << fn.getName() << " launches " << launches.size()
             << " kernels but records " << records.size();
    for (auto [launch, record] : llvm::zip(launches, records)) {
      FailureOr<KernelAttr> kernel = KernelAttr::fromDictionary(
          cast<DictionaryAttr>(record), [&] { return fn.emitError(); });
      if (failed(kernel))
        return failure();
      if (int64_t registers = kernel->getPart("regs_entry"))
        if (failed(setEntryCount(launch, registers, symbols)))
          return failure();
    }
    return success();
  }

  /// Tells ptxas the register count of the kernel `launch` runs.
  LogicalResult setEntryCount(gpu::LaunchFuncOp launch, int64_t registers,
                              SymbolTableCollection &symbols) {
    auto kernel = symbols.lookupNearestSymbolFrom<gpu::GPUFuncOp>(
        launch, launch.getKernel());
    if (!kernel)
      return launch.emitError("smap-set-kernel-register-counts: the "
                              "launched kernel ")
             << launch.getKernel() << " is not a gpu.func";
    StringRef name = NVVM::NVVMDialect::getMaxnregAttrName();
    auto count = Builder(&getContext()).getI32IntegerAttr(registers);
    if (auto existing = kernel->getAttrOfType<IntegerAttr>(name);
        existing && existing != count)
      return launch.emitError("smap-set-kernel-register-counts: @")
             << kernel.getName() << " is launched with " << registers
             << " registers per thread and with " << existing.getInt();
    kernel->setAttr(name, count);
    return success();
  }
};
} // namespace
