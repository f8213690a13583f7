//===- LoopKernelLegality.cpp - What a loop kernel can run ----------------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Analysis/LoopKernelLegality.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

/// Why an operand of `type` cannot be read or written by a loop kernel.
static std::string getOperandRefusal(ShapedType type) {
  if (!type.hasStaticShape())
    return "dynamic shape";
  Type element = type.getElementType();
  // index has the host's width in host buffers and may have another in
  // the kernel; 8-bit floats have no arithmetic of their own.
  bool narrowFloat =
      isa<FloatType>(element) && element.getIntOrFloatBitWidth() < 16;
  if (!isa<FloatType, IntegerType>(element) || narrowFloat) {
    std::string why;
    llvm::raw_string_ostream(why)
        << "element type " << element
        << " (only integers, and floats of 16 bits or more)";
    return why;
  }
  return "";
}

std::string mlir::smap::getLoopKernelRefusal(linalg::LinalgOp op) {
  for (Type type :
       llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes()))
    if (auto shaped = dyn_cast<ShapedType>(type))
      if (std::string why = getOperandRefusal(shaped); !why.empty())
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
