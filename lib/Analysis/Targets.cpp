//===- Targets.cpp - Built-in hardware descriptions -----------------------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Analysis/Targets.h"

using namespace mlir;
using namespace mlir::smap;

namespace {
struct TargetDescription {
  StringRef name;
  int64_t smemPerBlock, regsPerThread, regsPerSm, smCount, maxThreads;
  int64_t bandwidthGbps, f16Gflops, f32Gflops;
  int64_t arch;
  ArrayRef<TargetFeature> features;
  int64_t smemPerSm, l2Bytes, mmaSyncGflops, l2Gbps;
};
} // namespace

static const TargetFeature kHopperFeatures[] = {
    TargetFeature::MmaSync,    TargetFeature::Wgmma,
    TargetFeature::Tma,        TargetFeature::Setmaxnreg,
    TargetFeature::CpAsync,    TargetFeature::Clusters,
    TargetFeature::CacheHints, TargetFeature::DependentLaunch};
static const TargetFeature kAmpereFeatures[] = {
    TargetFeature::MmaSync, TargetFeature::CpAsync, TargetFeature::CacheHints};

// Datasheet numbers (dense, no sparsity). The H200 and the H100 SXM share
// sm_90a's on-chip limits; the bandwidth is the H200's HBM3e.
static const TargetDescription kTargets[] = {
    // 227 KiB opt-in shared memory per block (228 per SM), 132 SMs, 50 MiB
    // L2, 4.8 TB/s, 989 TFLOP/s f16 tensor cores (wgmma), 67 TFLOP/s f32.
    // mma.sync reaches 45% of the wgmma peak: 307 against cuBLAS's 683
    // TFLOP/s on 8192x4096x4096 (bench/results/wgmma-v17-variants.md).
    // L2 serves at least 9.4 TB/s: the 128 x 128 tiles of that GEMM read
    // 4.2 GB from it in 447 us (bench/results/model-check-h100).
    {"sm_90a", 232448, 255, 65536, 132, 1024, 4800, 989000, 67000, 90,
     kHopperFeatures, 233472, 52428800, 445000, 9400},
    // A100 SXM 80 GB: 163 KiB per block (164 per SM), 108 SMs, 40 MiB L2,
    // 2.0 TB/s, 312 / 19.5 TFLOP/s; mma.sync is its tensor-core peak.
    {"sm_80", 166912, 255, 65536, 108, 1024, 2039, 312000, 19500, 80,
     kAmpereFeatures, 167936, 41943040, 0, 0},
    // A nominal CPU core, for the CPU path: a "block" is one task whose
    // working set should stay in a 1 MiB L2, one thread per block.
    {"cpu", 1048576, 32, 32, 2, 1, 20, 100, 100, 0, {}, 0, 1048576, 0, 0},
};

ArrayRef<StringRef> mlir::smap::getBuiltinTargetNames() {
  static const StringRef names[] = {"sm_90a", "sm_80", "cpu"};
  return names;
}

bool mlir::smap::isBuiltinGPUTarget(StringRef name) {
  return llvm::any_of(kTargets, [&](const TargetDescription &t) {
    return t.name == name && t.arch > 0;
  });
}

bool mlir::smap::builtinTargetHasFeature(StringRef name,
                                         TargetFeature feature) {
  return llvm::any_of(kTargets, [&](const TargetDescription &t) {
    return t.name == name && llvm::is_contained(t.features, feature);
  });
}

TargetAttr mlir::smap::getBuiltinTarget(MLIRContext *ctx, StringRef name) {
  for (const TargetDescription &t : kTargets) {
    if (t.name != name)
      continue;
    SmallVector<Attribute> features;
    for (TargetFeature f : t.features)
      features.push_back(StringAttr::get(ctx, stringifyTargetFeature(f)));
    return TargetAttr::get(
        ctx, t.name, t.smemPerBlock, t.regsPerThread, t.regsPerSm, t.smCount,
        t.maxThreads, t.bandwidthGbps, t.f16Gflops, t.f32Gflops, t.arch,
        features.empty() ? ArrayAttr() : ArrayAttr::get(ctx, features),
        t.smemPerSm, t.l2Bytes, t.mmaSyncGflops, t.l2Gbps);
  }
  return {};
}
