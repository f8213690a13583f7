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
};
} // namespace

// Datasheet numbers (dense, no sparsity). The H200 and the H100 SXM share
// sm_90a's on-chip limits; the bandwidth is the H200's HBM3e.
static const TargetDescription kTargets[] = {
    // 227 KiB opt-in shared memory per block, 132 SMs, 4.8 TB/s,
    // 989 TFLOP/s f16 tensor cores, 67 TFLOP/s f32.
    {"sm_90a", 232448, 255, 65536, 132, 1024, 4800, 989000, 67000},
    // A100 SXM 80 GB: 163 KiB per block, 108 SMs, 2.0 TB/s, 312 / 19.5 TFLOP/s.
    {"sm_80", 166912, 255, 65536, 108, 1024, 2039, 312000, 19500},
    // A nominal CPU core, for the CPU path: a "block" is one task whose
    // working set should stay in a 1 MiB L2, one thread per block.
    {"cpu", 1048576, 32, 32, 2, 1, 20, 100, 100},
};

ArrayRef<StringRef> mlir::smap::getBuiltinTargetNames() {
  static const StringRef names[] = {"sm_90a", "sm_80", "cpu"};
  return names;
}

TargetAttr mlir::smap::getBuiltinTarget(MLIRContext *ctx, StringRef name) {
  for (const TargetDescription &t : kTargets)
    if (t.name == name)
      return TargetAttr::get(ctx, t.name, t.smemPerBlock, t.regsPerThread,
                             t.regsPerSm, t.smCount, t.maxThreads,
                             t.bandwidthGbps, t.f16Gflops, t.f32Gflops);
  return {};
}
