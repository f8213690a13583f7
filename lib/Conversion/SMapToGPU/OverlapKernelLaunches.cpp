//===- OverlapKernelLaunches.cpp - Programmatic dependent launch ----------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// Makes every launched kernel let the grid after it launch where its blocks
// return (griddepcontrol.launch_dependents), and every kernel launched after
// another of its host function wait for that one before touching memory
// (griddepcontrol.wait), marked so that the runtime launches it early.
//
//===----------------------------------------------------------------------===//

#include "../PassDetail.h"

#include "spacefusion-runtime/Runtime.h"

#include "llvm/ADT/MapVector.h"

namespace mlir {
namespace smap {
#define GEN_PASS_DEF_SMAPOVERLAPKERNELLAUNCHESPASS
#include "spacefusion/Conversion/Passes.h.inc"
} // namespace smap
} // namespace mlir

using namespace mlir;
using namespace mlir::smap;

/// Whether `op` is a griddepcontrol of `kind`.
static bool isGriddepcontrol(Operation *op, NVVM::GridDepActionKind kind) {
  auto control = dyn_cast_or_null<NVVM::GriddepcontrolOp>(op);
  return control && control.getKind() == kind;
}

/// Makes `kernel` wait for the grid before it before anything else it does.
static void waitOnPredecessor(gpu::GPUFuncOp kernel) {
  Block &entry = kernel.getBody().front();
  if (isGriddepcontrol(&entry.front(), NVVM::GridDepActionKind::wait))
    return;
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  NVVM::GriddepcontrolOp::create(b, kernel.getLoc(),
                                 NVVM::GridDepActionKind::wait);
}

/// Lets the grid after `kernel` be launched where each of its blocks
/// returns: launched at its start, the next grid's blocks waited on the SMs
/// beside this grid's for all of its run, which measured slower
/// (bench/results/dependent-launch-h100).
static void triggerSuccessor(gpu::GPUFuncOp kernel) {
  kernel.walk([&](gpu::ReturnOp ret) {
    if (isGriddepcontrol(ret->getPrevNode(),
                         NVVM::GridDepActionKind::launch_dependents))
      return;
    OpBuilder b(ret);
    NVVM::GriddepcontrolOp::create(b, kernel.getLoc(),
                                   NVVM::GridDepActionKind::launch_dependents);
  });
}

/// Declares to the runtime that `kernel` waits (a global named
/// SPACEFUSION_DEPENDENT_LAUNCH_PREFIX + its name, in global memory so that
/// it is a symbol of the binary the driver can look up).
static void markKernel(gpu::GPUFuncOp kernel) {
  auto module = kernel->getParentOfType<gpu::GPUModuleOp>();
  std::string name =
      (SPACEFUSION_DEPENDENT_LAUNCH_PREFIX + kernel.getName()).str();
  if (module.lookupSymbol(name))
    return;
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  LLVM::GlobalOp::create(b, module.getLoc(), b.getI32Type(),
                         /*isConstant=*/true, LLVM::Linkage::External, name,
                         b.getI32IntegerAttr(1), /*alignment=*/4,
                         /*addrSpace=*/1);
}

/// The kernels the host functions of `module` launch, each with whether
/// it always follows another launch of its function: the grid before it is
/// then one of these kernels, which lets it launch early. A function's
/// first kernel follows the caller's work, which does not; launched early
/// anyway, it measured slower (bench/results/dependent-launch-h100).
static llvm::MapVector<gpu::GPUFuncOp, bool>
findLaunchedKernels(ModuleOp module) {
  SymbolTableCollection symbols;
  llvm::MapVector<gpu::GPUFuncOp, bool> follows;
  module.walk([&](func::FuncOp fn) {
    bool first = true;
    fn.walk([&](gpu::LaunchFuncOp launch) {
      auto kernel = symbols.lookupNearestSymbolFrom<gpu::GPUFuncOp>(
          launch, launch.getKernel());
      if (!kernel || kernel.getBody().empty())
        return;
      auto [entry, inserted] = follows.try_emplace(kernel, !first);
      entry->second = entry->second && !first;
      first = false;
    });
  });
  return follows;
}

namespace {
struct OverlapKernelLaunchesPass
    : public smap::impl::SMapOverlapKernelLaunchesPassBase<
          OverlapKernelLaunchesPass> {
  void runOnOperation() override {
    for (auto [kernel, follows] : findLaunchedKernels(getOperation())) {
      triggerSuccessor(kernel);
      if (!follows)
        continue;
      waitOnPredecessor(kernel);
      markKernel(kernel);
    }
  }
};
} // namespace
