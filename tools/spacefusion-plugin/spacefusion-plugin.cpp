//===- spacefusion-plugin.cpp - SpaceFusion as an mlir-opt plugin ---------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// Lets an unmodified mlir-opt (22) use SpaceFusion:
//
//   mlir-opt --load-dialect-plugin=SpaceFusionPlugin.so \
//            --load-pass-plugin=SpaceFusionPlugin.so \
//            --spacefusion-pipeline input.mlir
//
// The plugin links libMLIR.so, as Debian's mlir-opt does, so both share one
// copy of MLIR's registries and type ids.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "SpaceFusion", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            mlir::spacefusion::registerAllDialects(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "SpaceFusionPasses", LLVM_VERSION_STRING,
          []() { mlir::spacefusion::registerAllPasses(); }};
}
