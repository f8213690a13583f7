//===- Targets.h - Built-in hardware descriptions ---------------*- C++ -*-===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// The #smap.target descriptions the resource and cost models use when the
// user names a target instead of spelling one out.
//
//===----------------------------------------------------------------------===//

#ifndef SPACEFUSION_ANALYSIS_TARGETS_H
#define SPACEFUSION_ANALYSIS_TARGETS_H

#include "spacefusion/Dialect/SMap/IR/SMap.h"

namespace mlir {
namespace smap {

/// The names getBuiltinTarget knows, in the order the docs list them.
ArrayRef<StringRef> getBuiltinTargetNames();

/// Whether `name` is a built-in target that runs GPU kernels (arch > 0).
bool isBuiltinGPUTarget(StringRef name);

/// Whether the built-in target `name` has `feature` (false for a name that
/// is not built in), for pipelines that choose passes before any IR exists.
bool builtinTargetHasFeature(StringRef name, TargetFeature feature);

/// The built-in description of `name` ("sm_90a": H100/H200, "sm_80": A100,
/// "cpu"), or null if there is none.
TargetAttr getBuiltinTarget(MLIRContext *ctx, StringRef name);

} // namespace smap
} // namespace mlir

#endif // SPACEFUSION_ANALYSIS_TARGETS_H
