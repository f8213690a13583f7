//===- LoopKernelLegality.cpp - What a loop kernel can run ----------------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Analysis/LoopKernelLegality.h"
#include "spacefusion/Analysis/SpaceMappingGraph.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

std::string mlir::smap::getLoopKernelRefusal(linalg::LinalgOp op) {
  for (Type type :
       llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes()))
    if (auto shaped = dyn_cast<ShapedType>(type))
      if (std::string why = getShapedTypeRefusal(shaped); !why.empty())
        return why;
  std::string why;
  // tensor.extract becomes the memref.load a gather is.
  op.getBlock()->walk([&](Operation *inner) {
    if (isMemoryEffectFree(inner) ||
        isa<tensor::ExtractOp, memref::LoadOp>(inner))
      return WalkResult::advance();
    why = "body op '" + inner->getName().getStringRef().str() +
          "' has side effects";
    return WalkResult::interrupt();
  });
  return why;
}
