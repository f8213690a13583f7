//===- SMapDialect.cpp - SpaceMapping dialect -----------------------------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Dialect/SMap/IR/SMap.h"

using namespace mlir;
using namespace mlir::smap;

#include "spacefusion/Dialect/SMap/IR/SMapEnums.cpp.inc"

#include "spacefusion/Dialect/SMap/IR/SMapOpsDialect.cpp.inc"

void SMapDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "spacefusion/Dialect/SMap/IR/SMapOps.cpp.inc"
      >();
  registerAttributes();
}
