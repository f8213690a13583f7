//===- InitAll.h - Register SpaceFusion dialects and passes -----*- C++ -*-===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// The one header a host compiler includes to use SpaceFusion: registers the
// smap dialect and every SpaceFusion pass, and builds the SpaceFusion
// pipeline into the host's own pass manager:
//
//   mlir::DialectRegistry registry;
//   mlir::spacefusion::registerAllDialects(registry);
//   mlir::spacefusion::registerGPUPipelineDependencies(registry);
//   context.appendDialectRegistry(registry);
//   mlir::spacefusion::SpaceFusionPipelineOptions options;
//   options.target = "sm_90a";
//   mlir::spacefusion::buildSpaceFusionPipeline(pm, options);
//
//===----------------------------------------------------------------------===//

#ifndef SPACEFUSION_INITALL_H
#define SPACEFUSION_INITALL_H

#include "spacefusion/Pipelines/Pipelines.h"

namespace mlir {
class DialectRegistry;

namespace spacefusion {

/// Adds the SpaceMapping dialect to `registry`.
void registerAllDialects(DialectRegistry &registry);

/// Adds what the GPU path of the pipeline needs from the host's registry
/// beyond the smap dialect: MLIR's dialects and their interface extensions
/// (bufferization models, the NVVM target attribute) and the translations to
/// LLVM IR that `gpu-module-to-binary` runs. A host that only stops at sliced
/// graphs (`lower-to-gpu=false`) does not need it.
void registerGPUPipelineDependencies(DialectRegistry &registry);

/// Registers every SpaceFusion pass and `--spacefusion-pipeline` with the
/// global pass registry, so that textual pipelines and `-smap-*` flags can
/// name them.
void registerAllPasses();

/// Makes a tool's `--version` name SpaceFusion-MLIR's version after LLVM's
/// (call before parsing the command line).
void registerVersionPrinter();

} // namespace spacefusion
} // namespace mlir

#endif // SPACEFUSION_INITALL_H
