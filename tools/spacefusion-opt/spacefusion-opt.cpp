//===- spacefusion-opt.cpp - SpaceFusion optimizer driver -----------------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// An mlir-opt style driver: every upstream dialect, extension and pass, plus
// the SpaceMapping dialect and the SpaceFusion passes.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::spacefusion::registerVersionPrinter();
  mlir::registerAllPasses();
  mlir::spacefusion::registerAllPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary translates kernels to LLVM IR.
  mlir::registerAllToLLVMIRTranslations(registry);
  mlir::spacefusion::registerAllDialects(registry);

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "SpaceFusion optimizer driver\n", registry));
}
