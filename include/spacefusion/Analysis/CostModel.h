//===- CostModel.h - Resource and cost model for SMG schedules --*- C++ -*-===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// How a schedule of a Space-Mapping Graph uses a target: the on-chip
// footprint of one block (shared memory, registers) and an analytic time
// (global traffic including re-reads of broadcast inputs, FLOPs at the
// target's rates, wave quantization over the SMs). smap-schedule searches
// candidates with it; later passes read the chosen one back.
//
//===----------------------------------------------------------------------===//

#ifndef SPACEFUSION_ANALYSIS_COSTMODEL_H
#define SPACEFUSION_ANALYSIS_COSTMODEL_H

#include "spacefusion/Analysis/MaskPredicate.h"
#include "spacefusion/Analysis/SpaceMappingGraph.h"

#include <optional>
#include <string>

namespace mlir {
namespace smap {

/// One way to slice a graph: a spatial tile per global dim (the extent when
/// the dim is not sliced) and at most one temporally sliced dim.
struct ScheduleCandidate {
  SmallVector<int64_t> tiles;
  std::optional<unsigned> temporalDim;
  int64_t sliceSize = 0;
  int64_t threads = 1;
};

/// The copies of a row-fragment block's one row warp when it is replicated
/// (StrategyOptions::rowWarpReplicas): with four, 32 rows in two slabs
/// cannot be read as two warps of one slab, which two copies would be.
constexpr int64_t kRowWarpReplicas = 4;

/// The most blocks an SM holds at once (sm_80 and sm_90 alike).
constexpr int64_t kMaxBlocksPerSm = 32;

/// The strategies the scheduler may choose (the GPU pipeline's options);
/// a strategy also needs the target's features.
struct StrategyOptions {
  bool tensorCores = true;
  bool wgmma = true;
  bool rowFragments = true;
  /// Every wgmma GEMM block warp-specialized, not only the 128-row tiles
  /// other than 128 x 128 (which one warpgroup cannot hold).
  bool warpSpecialize = false;
  /// The producer of a warp-specialized block: 1 (a warp) or 4 warps.
  int64_t producerWarps = 4;
  /// The deepest pipeline of a block (TMA stages; cp.async copies, at most
  /// kMaxCpAsyncStages).
  int64_t maxStages = 3;
  /// Warps that run a row-fragment block of one row warp, each computing
  /// the same rows, when the grid leaves every SM at most one block and no
  /// moving tile is shared with other blocks: the staged tiles' copies are
  /// issued by all of them. 1 (one warp) or kRowWarpReplicas.
  int64_t rowWarpReplicas = kRowWarpReplicas;
  /// Price the re-reads of an input that L2 still holds at the target's
  /// `l2_gbps` instead of DRAM bandwidth (rereadsHitL2 in CostModel.cpp).
  /// Off by default: it ranks the measured candidates better, but without
  /// a latency term it picks a decode GEMM's schedule measured 1.52x
  /// slower (bench/results/model-check-h100).
  bool l2Reuse = false;
  /// How a grid of one wave or less is priced: 0 by the share of all block
  /// slots it fills (SMs x resident blocks), 1 by the share of SMs it keeps
  /// busy when memory-bound, 2 by the share of SMs it keeps busy always
  /// (bench/results/one-wave-h100: 2 made the grids it changes 1.36x
  /// faster on geometric mean, 1 1.32x).
  int64_t oneWave = 2;
  /// Whether a temporal step whose moving tiles nothing loads ahead pays
  /// their load latency (ScheduleEstimate::waitedCopyGroups); false prices
  /// its barriers only, as the model did before.
  bool waitedLoads = true;
  /// Whether the steps' barriers overlap the blocks' memory traffic:
  /// max(memory, compute + barriers) + waited loads instead of
  /// max(memory, compute) + barriers + waited loads. Off by default: it
  /// ranks the measured candidates better, but of the 35 benchmark
  /// workloads whose kernels it changes 12 ran more than 3% slower on an
  /// H100, the decode step among them (bench/results/overlap-steps).
  bool overlapSteps = false;
  /// The residency every GPU block kernel is built for (0: undeclared,
  /// ptxas chooses the registers): the block's threads get
  /// registersForResidency, and residency is priced at it.
  int64_t blocksPerSm = 0;
};

/// What a candidate costs on a target.
struct ScheduleEstimate {
  /// How the GPU lowering builds the block (Loops on a CPU target), and the
  /// threads it launches per block for it.
  KernelStrategy strategy = KernelStrategy::None;
  int64_t threads = 1;
  /// The pipeline depth: TMA stages of a wgmma block, cp.async copies of
  /// the staged tiles that move with the temporal step for the others; 0
  /// when nothing moves.
  int64_t stages = 0;
  /// The shared memory the block is built with: exact for every strategy
  /// but simt, for which it bounds the placed bytes from above
  /// (bufferization lets intermediates share buffers).
  int64_t smemBytes = 0;
  /// The footprint the search ranks residency and the budget by. Equal to
  /// smemBytes except for simt and mma_sync blocks, where it counts every
  /// input tile and intermediate of a step: the search was calibrated on
  /// that footprint, and ranking by the placed one (measured on the H200,
  /// bench/results/smem-exact-ranking.md) fuses MLPs into one mma.sync
  /// kernel at 0.04x and drops the cp.async pipeline of the LSTM cell's
  /// GEMMs; the model has no price for either. Re-basing the ranking
  /// belongs with the calibrated cost model.
  int64_t rankingSmemBytes = 0;
  int64_t regsPerThread = 0;
  int64_t blocks = 1;
  /// The bytes blocks read and write in global memory, and the part DRAM
  /// serves (the rest are re-reads L2 still holds, at the target's
  /// `l2_gbps`).
  double globalBytes = 0;
  double dramBytes = 0;
  double flops = 0;
  double seconds = 0;
  /// What `seconds` is made of: max(memorySeconds, computeSeconds) /
  /// waveUtilization + stepSeconds (the fixed cost of each temporal step of
  /// each wave), or with StrategyOptions::overlapSteps the steps' barriers
  /// added to the compute side of the max.
  double memorySeconds = 0;
  double computeSeconds = 0;
  double waveUtilization = 1;
  double stepSeconds = 0;
  /// The part of stepSeconds the steps wait for loads (waitedCopyGroups).
  double waitedLoadSeconds = 0;
  /// Whether `seconds` is max(memorySeconds, computeSeconds + the steps'
  /// barriers) / waveUtilization + waitedLoadSeconds
  /// (StrategyOptions::overlapSteps).
  bool barriersOverlapMemory = false;
  /// The copy groups each thread waits for in every temporal step when
  /// nothing loads the step's moving tiles ahead (no cp.async stages and no
  /// copy through registers); 0 when something does. Their latency is part
  /// of stepSeconds.
  int64_t waitedCopyGroups = 0;
  /// The fraction of its temporal slices a block visits, averaged over the
  /// blocks: below 1 when a mask from index arithmetic lets the temporal
  /// slicer skip slices (causal attention about half); the work and
  /// traffic of the members along the temporal dim and the steps are
  /// counted at it.
  double visitedSlices = 1;
  /// The declared residency (StrategyOptions::blocksPerSm; 0: none):
  /// regsPerThread is then the count every thread starts with.
  int64_t blocksPerSm = 0;
  /// Whether the block's wgmma tile needs two consumer warpgroups
  /// (wgmmaConsumerWarpgroups): the search leaves those to schedules a user
  /// gives, as they measured slower than the one-warpgroup tiles.
  bool warpSpecialized = false;
  /// Empty when the candidate fits the target; otherwise why not.
  std::string overBudget;
  bool fits() const { return overBudget.empty(); }
};

/// Threads per block for a candidate's tiles: one per output element of the
/// block, 32 to 256, on GPUs; one on a CPU target.
int64_t chooseThreads(const SpaceMappingGraph &smg,
                      const ScheduleCandidate &candidate, TargetAttr target);

/// Estimates `candidate` for `smg` on `target`.
ScheduleEstimate estimateSchedule(const SpaceMappingGraph &smg,
                                  const ScheduleCandidate &candidate,
                                  TargetAttr target,
                                  const StrategyOptions &options = {});

/// What slicing one temporal dim adds to the members' own work and
/// buffers, for the cost model (from its TemporalSlicePlan).
struct TemporalSliceFacts {
  /// The slices a mask lets the slicer skip (modelSkippedSlices).
  std::optional<SliceSkipModel> skips;
  /// The exp shifts (a running max): the update keeps each one's new value
  /// and its -inf guard (a row hidden so far shifts by 0) beside the state.
  SmallVector<Value> shifts;
  /// The reductions whose factors are applied after the loop: finishing
  /// one writes a buffer of its own unless the graph yields it in place.
  SmallVector<Value> finishedAfterLoop;
  /// Those whose computed init is added after finishing
  /// (addsInitAfterLoop): the finished value is a buffer of its own even
  /// when the graph yields the sum in place.
  SmallVector<Value> finishedBeforeInit;
  /// Whether a reduction is a sum of squares around a running shift
  /// (ReductionUpdate::CenteredSquare): its update recomputes members from
  /// the old and the new shift in buffers the model does not list, so the
  /// block's members are priced without reusing their operands' buffers.
  bool centeredSquares = false;
};

/// The facts of slicing `t`; empty when the slicer cannot slice it.
TemporalSliceFacts getTemporalSliceFacts(const SpaceMappingGraph &smg,
                                         unsigned t);

/// The same, with the facts of the candidate's temporal dim given (null
/// when none), for a search that estimates many candidates of one dim.
ScheduleEstimate estimateSchedule(const SpaceMappingGraph &smg,
                                  const ScheduleCandidate &candidate,
                                  TargetAttr target,
                                  const StrategyOptions &options,
                                  const TemporalSliceFacts *facts);

/// Whether an m x n x k contraction tile is made of whole tiles of the
/// tensor-core instruction the GPU lowering uses: mma.sync m16n8k16, or
/// m16n8k8 (`tileK` 8) for TF32 operands.
bool fitsMmaSyncTile(int64_t m, int64_t n, int64_t k, int64_t tileK = 16);

/// The k of every wgmma tile: one 128-byte swizzle row of 16-bit elements.
constexpr int64_t kWgmmaTileK = 64;

/// Whether an m x n x k contraction tile (A [m, k], B [k, n]) is one the
/// Hopper lowering (wgmma, 128-byte swizzled k) takes: k = 64 and
/// {64, 128} x {64, 128, 192, 256}.
bool fitsWgmmaTile(int64_t m, int64_t n, int64_t k);

/// The warpgroups that hold a wgmma tile's accumulators: one, except for
/// the 128-row tiles other than 128 x 128, which one warpgroup's wgmma
/// cannot hold and which run warp-specialized on two consumer warpgroups
/// of 64 rows each (strategy wgmma_tma_ws).
int64_t wgmmaConsumerWarpgroups(int64_t bm, int64_t bn);

/// The most per-lane registers the row-fragment lowering gives a block's
/// row tiles (strategy row_fragments); the cost model prices
/// a block as row fragments only within it.
constexpr int64_t kRowFragmentRegisterBudget = 224;

/// Registers per thread of a wgmma GEMM block with a bm x bn tile: one
/// consumer warpgroup's f32 accumulators and the rest.
int64_t wgmmaRegistersPerThread(int64_t bm, int64_t bn);

/// The registers each of `threads` threads may start with so that
/// `blocksPerSm` blocks fit `target`'s SM: the register file's share,
/// rounded down to the allocation granule (8), at most the per-thread cap.
int64_t registersForResidency(TargetAttr target, int64_t threads,
                              int64_t blocksPerSm);

/// Why `blocksPerSm` blocks of `threads` threads and `smemBytes` of shared
/// memory cannot be declared resident on `target`'s SM (their shared memory
/// does not fit, or their register share is below the base count), or
/// empty when they can.
std::string residencyRefusal(TargetAttr target, int64_t blocksPerSm,
                             int64_t threads, int64_t smemBytes);

/// The share of the SMs' block slots (`resident` blocks per SM) that
/// `blocks` blocks keep busy over their waves.
double waveUtilization(int64_t blocks, int64_t sms, int64_t resident);

/// Blocks of `bytes` of shared memory resident per SM (each block also
/// reserves 1 KiB), with `smemPerBlock` the most a block may take.
int64_t residentBySharedMemory(int64_t bytes, int64_t smemPerBlock);

/// The cp.async pipeline depth of a block whose buffers take `totalBytes`
/// with one copy each, `bytesPerStage` of them staged tiles that move with
/// the temporal step: the deepest, up to `maxStages`, that keeps as many
/// blocks per SM as two stages would, up to two (another block hides
/// latency better than a third stage: attention with 128-wide K / V tiles
/// ran 1.15-1.4x faster on two stages than on three,
/// bench/results/attention-v19-variants.md); 1 without staged tiles.
int64_t chooseCpAsyncStages(int64_t totalBytes, int64_t bytesPerStage,
                            int64_t maxStages, int64_t smemPerBlock);

/// The most copies of a staged tile the cp.async pipeline keeps.
constexpr int64_t kMaxCpAsyncStages = 3;

/// A lower bound on the graph's time on `target`: its FLOPs at the peak
/// rates (tensor cores for contractions reading 16-bit floats) or its
/// inputs and outputs moved once at the peak bandwidth, whichever is longer.
double idealSeconds(const SpaceMappingGraph &smg, TargetAttr target);

/// The best and second-best fitting candidates of a search, and how many
/// candidates were tried.
struct ScheduleSearch {
  std::optional<std::pair<ScheduleCandidate, ScheduleEstimate>> best;
  std::optional<std::pair<ScheduleCandidate, ScheduleEstimate>> runnerUp;
  /// The cheapest candidate that did not fit, to explain a failure.
  std::optional<std::pair<ScheduleCandidate, ScheduleEstimate>> smallest;
  /// The best fitting candidates, best first (as many as asked for).
  SmallVector<std::pair<ScheduleCandidate, ScheduleEstimate>, 1> top;
  unsigned tried = 0;
};

/// Enumerates spatial tiles of the parallel dims (powers of two dividing
/// the extent, and the extent) and temporal slices of one temporal dim, and
/// ranks the fitting ones by predicted time.
ScheduleSearch searchSchedules(const SpaceMappingGraph &smg, TargetAttr target,
                               const StrategyOptions &options = {},
                               unsigned keepTop = 0);

/// The order the search ranks fitting candidates by: predicted time, then
/// the smaller ranking footprint.
bool isBetterEstimate(const ScheduleEstimate &a, const ScheduleEstimate &b);

/// The #smap.schedule attribute of a candidate: its tiles, and the
/// estimate's strategy, threads and resources.
ScheduleAttr getScheduleAttr(const SpaceMappingGraph &smg,
                             const ScheduleCandidate &candidate,
                             const ScheduleEstimate &estimate);

/// Why the graph cannot be cut into tiles that do not divide a dim's
/// extent (the last one overlapping its neighbour), or "" when it can.
std::string raggedTileRefusal(const SpaceMappingGraph &smg);

/// Reads a schedule attribute back into a candidate; fails with a message in
/// `error` when it names unknown dims, slices a dim against its class, uses
/// sizes outside [1, extent], or a ragged spatial tile raggedTileRefusal
/// refuses.
FailureOr<ScheduleCandidate> getCandidate(const SpaceMappingGraph &smg,
                                          ScheduleAttr schedule,
                                          std::string &error);

/// "m=64, n=64 | l=64" for remarks.
std::string formatCandidate(const SpaceMappingGraph &smg,
                            const ScheduleCandidate &candidate);

} // namespace smap
} // namespace mlir

#endif // SPACEFUSION_ANALYSIS_COSTMODEL_H
