//===- Pipelines.cpp - The SpaceFusion pass pipeline ----------------------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Pipelines/Pipelines.h"

#include "spacefusion/Conversion/Passes.h"
#include "spacefusion/Dialect/SMap/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::spacefusion;

void mlir::spacefusion::buildSpaceFusionPipeline(
    OpPassManager &pm, const SpaceFusionPipelineOptions &options) {
  smap::SMapFormGraphsOptions formOptions;
  formOptions.maxGroupSize = options.maxGroupSize;
  formOptions.excludeOps.assign(options.exclude.begin(), options.exclude.end());
  pm.addPass(smap::createSMapFormGraphs(formOptions));

  smap::SMapSetTargetOptions targetOptions;
  targetOptions.target = options.target;
  pm.addPass(smap::createSMapSetTarget(targetOptions));

  smap::SMapAnalyzeOptions analyzeOptions;
  analyzeOptions.allowUpdateThenAggregate = options.allowOnlineSoftmax;
  pm.addPass(smap::createSMapAnalyze(analyzeOptions));

  pm.addPass(smap::createSMapSchedule());
  pm.addPass(smap::createSMapSpatialSlice());
  pm.addPass(smap::createSMapTemporalSlice());
  if (options.lowerToLoops)
    pm.addPass(smap::createSMapLowerToLoops());
}

void mlir::spacefusion::registerSpaceFusionPipeline() {
  PassPipelineRegistration<SpaceFusionPipelineOptions>(
      "spacefusion-pipeline",
      "The SpaceFusion pipeline: fusion groups, target, Space-Mapping Graph, "
      "schedule, spatial and temporal slicing",
      buildSpaceFusionPipeline);
}
