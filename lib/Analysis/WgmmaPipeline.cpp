//===- WgmmaPipeline.cpp - The TMA pipeline of a wgmma GEMM block ---------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Analysis/WgmmaPipeline.h"

#include "spacefusion/Analysis/CostModel.h"

using namespace mlir;
using namespace mlir::smap;

/// What the producer warpgroup keeps of its registers when it gives the
/// rest to the consumers: its one loading thread needs its loop's indices,
/// the stage addresses and the TMA coordinates (CUTLASS keeps 40 as well).
static constexpr int64_t kProducerRegisters = 40;
/// The most registers a thread may have on sm_90.
static constexpr int64_t kMaxThreadRegisters = 255;
/// Utilizations within this share of each other tie.
static constexpr double kWaveUtilizationTie = 0.01;

int64_t mlir::smap::registersAtEntry(int64_t threads, int64_t regsPerSm) {
  return std::min<int64_t>(256, regsPerSm / threads / 8 * 8);
}

RegisterSplit mlir::smap::planRegisterSplit(const WgmmaBlockShape &block,
                                            int64_t regsPerSm) {
  // setmaxnreg takes whole warpgroups.
  if (!block.warpSpecialized || block.producerWarps != 4)
    return {};
  // setmaxnreg counts go in steps of 8, from 24 to 256.
  auto roundDown = [](int64_t registers) {
    return std::min<int64_t>(256, registers / 8 * 8);
  };
  // The producer's registers beyond its own needs are idle otherwise: the
  // consumers take them whenever that raises their cap (with one consumer
  // warpgroup the cap is already the most a thread may have).
  int64_t entry = registersAtEntry(block.threads(), regsPerSm);
  int64_t consumer = roundDown(
      entry + (entry - kProducerRegisters) * 128 / block.consumerThreads());
  if (entry <= kProducerRegisters || consumer <= entry ||
      entry >= roundDown(kMaxThreadRegisters))
    return {};
  return {entry, kProducerRegisters, consumer};
}

std::optional<TmaPipeline>
mlir::smap::sizeTmaPipeline(const WgmmaBlockShape &block, int64_t smemBudget,
                            int64_t maxStages, std::string &why) {
  int64_t stageBytes = block.stageBytes();
  // At least two stages (step i + S - 1 is issued after step i is read),
  // at most as many as there are steps, when two fit.
  TmaPipeline pipeline;
  pipeline.stages = std::min<int64_t>(
      {kMaxTmaStages, std::max<int64_t>(2, maxStages),
       std::max<int64_t>(2, block.steps),
       (smemBudget - kWgmmaSwizzleAlignment) / stageBytes});
  pipeline.sharedBytes =
      kWgmmaSwizzleAlignment +
      std::max(pipeline.stages * stageBytes, block.accumulatorBytes());
  if (pipeline.stages < 2 || pipeline.sharedBytes > smemBudget) {
    why = "two TMA stages of " + std::to_string(stageBytes) +
          " bytes and the accumulator tile (" +
          std::to_string(block.accumulatorBytes()) +
          " bytes) do not fit in the " + std::to_string(smemBudget) +
          " bytes of shared memory the block's other buffers leave";
    return std::nullopt;
  }
  return pipeline;
}

std::optional<TmaPipeline>
mlir::smap::chooseTmaPipeline(const WgmmaBlockShape &block, int64_t otherBytes,
                              int64_t blocks, TargetAttr target,
                              int64_t maxStages, std::string &why) {
  int64_t smemLimit = target.getSmemPerBlock();
  int64_t budget = smemLimit - otherBytes;
  // A reallocating block takes every register its threads may have.
  RegisterSplit split = planRegisterSplit(block, target.getRegsPerSm());
  int64_t registers =
      split.entry ? split.entry
                  : wgmmaRegistersPerThread(block.consumerRows(), block.bn);
  int64_t byRegisters = target.getRegsPerSm() / (block.threads() * registers);
  std::optional<TmaPipeline> best;
  double bestUtilization = -1;
  int64_t bestResident = 1;
  for (int64_t stages = std::max<int64_t>(2, maxStages); stages >= 2;
       --stages) {
    std::string whyNot;
    std::optional<TmaPipeline> trial =
        sizeTmaPipeline(block, budget, stages, whyNot);
    if (!trial) {
      if (!best)
        why = whyNot;
      continue;
    }
    int64_t resident = std::min(
        residentBySharedMemory(trial->sharedBytes + otherBytes, smemLimit),
        byRegisters);
    double utilization = waveUtilization(blocks, target.getSmCount(), resident);
    // A grid of one wave or less has no second block to overlap, and a
    // deeper pipeline hides more load latency.
    bool overlapped = blocks >= 2 * target.getSmCount() * bestResident;
    if (utilization > bestUtilization + kWaveUtilizationTie ||
        (overlapped && utilization > bestUtilization - kWaveUtilizationTie)) {
      best = trial;
      bestUtilization = utilization;
      bestResident = resident;
    }
  }
  return best;
}

int64_t mlir::smap::swizzledTileBytes(int64_t rows, int64_t bufferColumns) {
  // Padding is under 8 elements, so the operand's columns round up to the
  // blocks the swizzle needs.
  int64_t blocked = static_cast<int64_t>(
      llvm::alignTo(std::max<int64_t>(bufferColumns - 8, 1),
                    kWgmmaSwizzleColumns));
  return static_cast<int64_t>(llvm::alignTo(
      rows * std::max(bufferColumns, blocked) * 2, kWgmmaSwizzleAlignment));
}
