//===- Passes.h - SpaceMapping transformation passes ------------*- C++ -*-===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#ifndef SPACEFUSION_DIALECT_SMAP_TRANSFORMS_PASSES_H
#define SPACEFUSION_DIALECT_SMAP_TRANSFORMS_PASSES_H

#include "spacefusion/Dialect/SMap/IR/SMap.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace smap {

#define GEN_PASS_DECL
#include "spacefusion/Dialect/SMap/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "spacefusion/Dialect/SMap/Transforms/Passes.h.inc"

/// The rewrites of smap-fuse-conversions: float extensions fused into the
/// ops that read them.
void populateFuseConversionsPatterns(RewritePatternSet &patterns);

/// Replaces linalg ops with an empty iteration domain by their inits
/// (smap-fold-empty-domains).
void populateFoldEmptyDomainsPatterns(RewritePatternSet &patterns);

/// Turns fill-like generics back into linalg.fill (smap-specialize-fills).
void populateSpecializeFillsPatterns(RewritePatternSet &patterns);

/// Gives every write of a shared fill of an empty tensor its own fill
/// (smap-privatize-fills).
void populatePrivatizeFillsPatterns(RewritePatternSet &patterns);

/// Accumulates 16-bit contractions in f32 and rounds their results
/// (smap-widen-accumulators).
void populateWidenAccumulatorsPatterns(RewritePatternSet &patterns,
                                       ArrayRef<std::string> excludedOps = {});

/// Folds reshapes and permutation copies next to contractions into their
/// indexing maps (smap-fold-contraction-relayouts).
void populateFoldContractionRelayoutsPatterns(
    RewritePatternSet &patterns, ArrayRef<std::string> excludedOps = {});

/// Materializes contraction multiplicands computed from several inputs
/// (smap-split-contraction-operands).
void populateSplitContractionOperandsPatterns(RewritePatternSet &patterns);

} // namespace smap
} // namespace mlir

#endif // SPACEFUSION_DIALECT_SMAP_TRANSFORMS_PASSES_H
