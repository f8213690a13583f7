//===- InitAll.cpp - Register SpaceFusion dialects and passes -------------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/InitAll.h"

#include "spacefusion/Conversion/Passes.h"
#include "spacefusion/Dialect/SMap/IR/SMap.h"
#include "spacefusion/Dialect/SMap/Transforms/Passes.h"
#include "spacefusion/Pipelines/Pipelines.h"
#include "spacefusion/Version.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

void mlir::spacefusion::registerAllDialects(DialectRegistry &registry) {
  registry.insert<smap::SMapDialect>();
}

void mlir::spacefusion::registerGPUPipelineDependencies(
    DialectRegistry &registry) {
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
}

void mlir::spacefusion::registerAllPasses() {
  smap::registerSMapPasses();
  smap::registerSpaceFusionConversionPasses();
  registerSpaceFusionPipeline();
}

void mlir::spacefusion::registerVersionPrinter() {
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "SpaceFusion-MLIR version " SPACEFUSION_VERSION_STRING "\n";
  });
}
