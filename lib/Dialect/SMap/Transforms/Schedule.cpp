//===- Schedule.cpp - Resource-aware slicing of smap.graph ops ------------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Analysis/CostModel.h"
#include "spacefusion/Analysis/LoopKernelLegality.h"
#include "spacefusion/Analysis/Remarks.h"
#include "spacefusion/Analysis/RowKernelPlan.h"
#include "spacefusion/Analysis/Targets.h"
#include "spacefusion/Dialect/SMap/Transforms/GraphUtils.h"
#include "spacefusion/Dialect/SMap/Transforms/Passes.h"
#include "spacefusion/Dialect/SMap/Transforms/SplitReduction.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/Builders.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir {
namespace smap {
#define GEN_PASS_DEF_SMAPSCHEDULEPASS
#include "spacefusion/Dialect/SMap/Transforms/Passes.h.inc"
} // namespace smap
} // namespace mlir

using namespace mlir;
using namespace mlir::smap;

namespace {

/// Parses "dim:size" entries.
static FailureOr<SmallVector<SliceSize>>
parseSliceOption(MLIRContext *ctx, ArrayRef<std::string> entries,
                 std::string &error) {
  SmallVector<SliceSize> sizes;
  for (StringRef entry : entries) {
    auto [dim, size] = entry.split(':');
    int64_t value;
    if (dim.empty() || size.getAsInteger(10, value) || value <= 0) {
      error =
          "expected dim:size with a positive size, got '" + entry.str() + "'";
      return failure();
    }
    sizes.push_back({StringAttr::get(ctx, dim), value});
  }
  return sizes;
}

static std::string describe(const SpaceMappingGraph &smg,
                            const ScheduleCandidate &candidate,
                            const ScheduleEstimate &est) {
  std::string skipped =
      est.visitedSlices < 1
          ? llvm::formatv(", {0:F1}% of the temporal slices visited (a mask "
                          "skips the rest)",
                          est.visitedSlices * 100)
                .str()
          : "";
  // Re-reads L2 serves are the difference between the two traffic figures.
  std::string dram =
      est.dramBytes < est.globalBytes
          ? llvm::formatv(" ({0:F1} MB from DRAM)", est.dramBytes / 1e6).str()
          : "";
  std::string residency =
      est.blocksPerSm
          ? llvm::formatv(" (declared: {0} blocks per SM)", est.blocksPerSm)
                .str()
          : "";
  return llvm::formatv("{0}, strategy {8}, {1} blocks x {2} threads, {3} B "
                       "shared memory, {4} registers/thread{11}; predicted "
                       "{5:F2} us ({6:F1} MB global{10}, {7:F2} GFLOP{9})",
                       formatCandidate(smg, candidate), est.blocks, est.threads,
                       est.smemBytes, est.regsPerThread, est.seconds * 1e6,
                       est.globalBytes / 1e6, est.flops / 1e9,
                       stringifyKernelStrategy(est.strategy), skipped, dram,
                       residency)
      .str();
}

/// The schedule's numbers as remark arguments (machine-readable in the YAML
/// remark format).
static void addScheduleArgs(remark::detail::InFlightRemark &remark,
                            const ScheduleEstimate &est) {
  using Arg = remark::detail::Remark::Arg;
  remark << Arg("strategy", stringifyKernelStrategy(est.strategy).str())
         << Arg("blocks", est.blocks) << Arg("threads", est.threads)
         << Arg("smem", est.smemBytes) << Arg("registers", est.regsPerThread)
         << Arg("predicted_us", est.seconds * 1e6)
         << Arg("visited_slices", est.visitedSlices);
  if (est.blocksPerSm)
    remark << Arg("blocks_per_sm", est.blocksPerSm);
  // Steps that wait for their own tiles: the cost that stages would hide.
  if (est.waitedCopyGroups)
    remark << Arg("waited_copy_groups", est.waitedCopyGroups);
}

/// Why `est` ranks before `next` (isBetterEstimate): its time, or on a tie
/// its smaller footprint.
static std::string rankReason(const ScheduleEstimate &est,
                              const ScheduleEstimate *next) {
  if (!next)
    return "last kept";
  if (est.seconds < next->seconds)
    return llvm::formatv("{0:F3} us faster than the next",
                         (next->seconds - est.seconds) * 1e6)
        .str();
  return llvm::formatv("ties the next on time, {0} B smaller footprint",
                       next->rankingSmemBytes - est.rankingSmemBytes)
      .str();
}

/// What a prediction is made of, in the form estimateTime adds it up.
static std::string predictionFormula(const ScheduleEstimate &est) {
  if (est.barriersOverlapMemory)
    return llvm::formatv("max(memory {0:F2} / wave utilization {2:F2}, "
                         "compute {1:F2} / wave utilization {2:F2} + "
                         "barriers {3:F2}) + waited loads {4:F2}",
                         est.memorySeconds * 1e6, est.computeSeconds * 1e6,
                         est.waveUtilization,
                         (est.stepSeconds - est.waitedLoadSeconds) * 1e6,
                         est.waitedLoadSeconds * 1e6)
        .str();
  return llvm::formatv("max(memory {0:F2}, compute {1:F2}) / wave "
                       "utilization {2:F2} + steps {3:F2}",
                       est.memorySeconds * 1e6, est.computeSeconds * 1e6,
                       est.waveUtilization, est.stepSeconds * 1e6)
      .str();
}

/// One `candidate` remark per kept candidate of `search`, best first: its
/// schedule, what its prediction is made of and why it ranks where it does.
static void remarkCandidates(const SpaceMappingGraph &smg,
                             const ScheduleSearch &search) {
  using Arg = remark::detail::Remark::Arg;
  GraphOp graph = smg.getGraph();
  for (auto [i, entry] : llvm::enumerate(search.top)) {
    const auto &[candidate, est] = entry;
    const ScheduleEstimate *next =
        i + 1 < search.top.size() ? &search.top[i + 1].second : nullptr;
    auto remark = remark::analysis(graph.getLoc(),
                                   remarkOpts("schedule", "candidate", graph));
    remark << llvm::formatv("#{0}: {1}; {2:F2} us = {3}; {4}", i + 1,
                            describe(smg, candidate, est), est.seconds * 1e6,
                            predictionFormula(est), rankReason(est, next))
                  .str();
    addScheduleArgs(remark, est);
    remark << Arg("rank", static_cast<int64_t>(i + 1))
           << Arg("memory_us", est.memorySeconds * 1e6)
           << Arg("dram_mb", est.dramBytes / 1e6)
           << Arg("compute_us", est.computeSeconds * 1e6)
           << Arg("wave_utilization", est.waveUtilization)
           << Arg("steps_us", est.stepSeconds * 1e6);
  }
}

/// How good a cut is: whether both parts have a fitting schedule, and the
/// predicted time of both (which includes the cut intermediate's round trip
/// through global memory).
struct CutQuality {
  bool bothFit = false;
  double seconds = 0;
  double cutBytes = 0;
  /// Every cut point tried and its parts' predicted time, for the remark.
  std::string considered;
};

/// A split of temporal dim `dim` into `parts`, and the predicted time of
/// its partial and merge graphs.
struct SplitChoice {
  unsigned dim = 0;
  int64_t parts = 0;
  double seconds = 0;
  /// Every part count tried and its prediction, for the remark.
  std::string considered;
};

/// A split must be predicted this many times faster than the fused graph:
/// the model over-predicts a split's gain (it prices no second launch), by
/// 1.8x on the decode step and 1.5x on the 16-row GEMM
/// (bench/results/split-default.md).
static constexpr double kSplitGain = 2.0;

/// A fused schedule predicted this many times slower than the graph's ideal
/// time is compared with the best partition.
static constexpr double kPartitionCheckRatio = 3.0;

struct SchedulePass : public smap::impl::SMapSchedulePassBase<SchedulePass> {
  using Base::Base;

  void runOnOperation() override {
    if (producerWarps != 1 && producerWarps != 4) {
      getOperation()->emitError("smap-schedule: producer-warps=")
          << static_cast<int64_t>(producerWarps)
          << " is neither 1 (a warp) nor 4 (a warpgroup)";
      return signalPassFailure();
    }
    if (rowWarpReplicas != 1 && rowWarpReplicas != kRowWarpReplicas) {
      getOperation()->emitError("smap-schedule: row-warp-replicas=")
          << static_cast<int64_t>(rowWarpReplicas)
          << " is neither 1 (one warp) nor " << kRowWarpReplicas;
      return signalPassFailure();
    }
    if (blocksPerSm < 0 || blocksPerSm > kMaxBlocksPerSm) {
      getOperation()->emitError("smap-schedule: blocks-per-sm=")
          << static_cast<int64_t>(blocksPerSm) << " is not in [0, "
          << kMaxBlocksPerSm << "] (0: not declared)";
      return signalPassFailure();
    }
    if (oneWave < 0 || oneWave > 2) {
      getOperation()->emitError("smap-schedule: one-wave=")
          << static_cast<int64_t>(oneWave)
          << " is not 0 (the block slots), 1 (the busy SMs when "
             "memory-bound) or 2 (the busy SMs)";
      return signalPassFailure();
    }
    SmallVector<GraphOp> graphs;
    getOperation()->walk([&](GraphOp graph) { graphs.push_back(graph); });
    for (GraphOp graph : graphs)
      if (failed(scheduleGraph(graph)))
        return signalPassFailure();
    // Scheduling writes attributes; only a partition changes members.
    if (!partitioned)
      markAnalysesPreserved<SpaceMappingGraphAnalysis>();
  }

  /// Whether a graph was partitioned or split (and so erased).
  bool partitioned = false;

  /// Which graph of a split a graph is: the given tiles (`spatial`,
  /// `temporal`) apply to the partial graph, and the merge is searched.
  enum class SplitPart { None, Partial, Merge };
  /// Schedules `graph`; a graph a split made (`part`) is not split again.
  LogicalResult scheduleGraph(GraphOp graph, SplitPart part = SplitPart::None);
  /// The schedule the `spatial` and `temporal` options give `graph`
  /// (failure, with an error, when they are malformed).
  FailureOr<ScheduleAttr> getScheduleFromOptions(GraphOp graph) const;
  /// Checks the schedule `given` (by the user) against `smg` and records it.
  LogicalResult applyGivenSchedule(const SpaceMappingGraph &smg,
                                   TargetAttr target, ScheduleAttr given,
                                   bool fromOptions);
  /// Searches the schedules of `smg`, then splits, partitions or records the
  /// best one.
  LogicalResult scheduleBySearch(const SpaceMappingGraph &smg,
                                 TargetAttr target, bool maySplit);
  /// Partitions `smg`'s graph (success, `done` set) when the best cut beats
  /// the best fused schedule `fused`; else says why it stays fused.
  LogicalResult
  partitionIfFaster(const SpaceMappingGraph &smg, TargetAttr target,
                    const std::pair<ScheduleCandidate, ScheduleEstimate> &fused,
                    bool &done);
  /// Records the best schedule of `search` on `smg`'s graph, with a remark.
  LogicalResult applyBestSchedule(const SpaceMappingGraph &smg,
                                  TargetAttr target,
                                  const ScheduleSearch &search);
  /// When no schedule fits: partitions the graph if it may, else fails.
  LogicalResult partitionUnfitting(const SpaceMappingGraph &smg,
                                   TargetAttr target,
                                   const ScheduleSearch &search,
                                   unsigned computeOps);
  /// The forced split (`split=dim:parts`) of `smg`'s graph, if it has the
  /// dim: success with `done` set once both parts are scheduled.
  LogicalResult applyForcedSplit(const SpaceMappingGraph &smg,
                                 TargetAttr target, bool &done);
  /// The fastest split of a temporal dim when the fused schedule `fused`
  /// leaves SMs idle and the parts are predicted kSplitGain times faster.
  std::optional<SplitChoice> findBestSplit(const SpaceMappingGraph &smg,
                                           TargetAttr target,
                                           const ScheduleEstimate &fused);
  /// Splits as `choice` says and schedules both graphs.
  LogicalResult applySplit(const SpaceMappingGraph &smg, TargetAttr target,
                           const SplitChoice &choice, const std::string &why);
  /// Schedules `smg` as a row kernel when it is one (success, `scheduled`
  /// set); fails only when the graph is one but the requested layout is
  /// impossible.
  LogicalResult scheduleRows(const SpaceMappingGraph &smg, TargetAttr target,
                             bool &scheduled);
  /// Checks a given `rows` schedule against the row-kernel plan.
  LogicalResult checkGivenRows(const SpaceMappingGraph &smg, TargetAttr target,
                               ScheduleAttr given);
  StrategyOptions strategyOptions() const {
    StrategyOptions options;
    options.tensorCores = tensorCores;
    options.wgmma = wgmma;
    options.rowFragments = rowFragments;
    options.warpSpecialize = warpSpecialize;
    options.producerWarps = producerWarps;
    options.maxStages = asyncStages;
    options.rowWarpReplicas = rowWarpReplicas;
    options.l2Reuse = l2Reuse;
    options.oneWave = oneWave;
    options.waitedLoads = waitedLoads;
    options.overlapSteps = overlapSteps;
    options.blocksPerSm = blocksPerSm;
    return options;
  }
  void
  reportKeptFused(const SpaceMappingGraph &smg, double fusedSeconds,
                  const std::optional<std::pair<unsigned, CutQuality>> &cut);
  LogicalResult partitionGraph(const SpaceMappingGraph &smg, TargetAttr target,
                               const std::string &why);
  /// The cut after which both parts fit and run fastest (or, when none
  /// fits, the one that moves the fewest bytes).
  std::optional<std::pair<unsigned, CutQuality>>
  findBestCut(const SpaceMappingGraph &smg, TargetAttr target);
  LogicalResult splitAtCut(const SpaceMappingGraph &smg, TargetAttr target,
                           unsigned cut, const CutQuality &quality,
                           const std::string &why);
};

} // namespace

/// `graph`'s target; a graph without one is given sm_90a, with a remark.
static TargetAttr getOrSetTarget(GraphOp graph) {
  TargetAttr target = graph.getTargetAttr();
  if (!target) {
    target = getBuiltinTarget(graph.getContext(), "sm_90a");
    graph.setTargetAttr(target);
    remark::analysis(graph.getLoc(),
                     remarkOpts("schedule", "default-target", graph))
        << "graph has no target; scheduling for sm_90a";
  }
  return target;
}

/// Whether every linalg op of `graph` can run as a loop kernel.
static bool runsAsLoopKernels(GraphOp graph) {
  WalkResult result = graph.getBody().walk([](linalg::LinalgOp op) {
    return getLoopKernelRefusal(op).empty() ? WalkResult::advance()
                                            : WalkResult::interrupt();
  });
  return !result.wasInterrupted();
}

/// The number of compute members of `smg`'s graph: a partition needs two.
static unsigned countComputeOps(const SpaceMappingGraph &smg) {
  return llvm::count_if(smg.getSpaces(), [](const Space &s) {
    return s.role == MemberRole::Compute;
  });
}

LogicalResult SchedulePass::scheduleGraph(GraphOp graph, SplitPart part) {
  bool maySplit = part == SplitPart::None;
  TargetAttr target = getOrSetTarget(graph);
  const SpaceMappingGraph *smg = getSMG(graph, getAnalysisManager());
  if (!smg)
    return failure();
  annotateGraph(*smg, /*explain=*/false);

  ScheduleAttr given = graph.getScheduleAttr();
  if (given && given.getStrategy() == KernelStrategy::Rows)
    return checkGivenRows(*smg, target, given);
  if (!given && target.isGPU() && rows) {
    bool scheduled = false;
    if (failed(scheduleRows(*smg, target, scheduled)))
      return failure();
    if (scheduled)
      return success();
  }

  // A split the user asks for comes first: the tiles the user gives are
  // the partial graph's (they would otherwise replace the split silently).
  if (maySplit && !given && !split.empty()) {
    bool done = false;
    if (failed(applyForcedSplit(*smg, target, done)))
      return failure();
    if (done)
      return success();
  }
  // A schedule the user gives replaces the search.
  bool fromOptions =
      part != SplitPart::Merge && (!spatial.empty() || !temporal.empty());
  if (fromOptions) {
    FailureOr<ScheduleAttr> optionSchedule = getScheduleFromOptions(graph);
    if (failed(optionSchedule))
      return failure();
    given = *optionSchedule;
  }
  if (given)
    return applyGivenSchedule(*smg, target, given, fromOptions);
  return scheduleBySearch(*smg, target, maySplit);
}

FailureOr<ScheduleAttr>
SchedulePass::getScheduleFromOptions(GraphOp graph) const {
  std::string error;
  FailureOr<SmallVector<SliceSize>> s =
      parseSliceOption(graph.getContext(), spatial, error);
  if (failed(s))
    return graph.emitError("smap-schedule: ") << error;
  FailureOr<SmallVector<SliceSize>> t =
      parseSliceOption(graph.getContext(), temporal, error);
  if (failed(t))
    return graph.emitError("smap-schedule: ") << error;
  SmallVector<int64_t> grid(s->size(), 1);
  if (failed(ScheduleAttr::verify(
          [&] { return graph.emitError("smap-schedule: "); }, *s, *t, grid,
          /*threads=*/1, /*smemBytes=*/0, /*regsPerThread=*/0,
          KernelStrategy::None, /*stages=*/0, /*rowsPerBlock=*/0,
          /*blocksPerSm=*/0)))
    return failure();
  return ScheduleAttr::get(graph.getContext(), *s, *t, grid, 1, 0, 0);
}

LogicalResult SchedulePass::applyGivenSchedule(const SpaceMappingGraph &smg,
                                               TargetAttr target,
                                               ScheduleAttr given,
                                               bool fromOptions) {
  GraphOp graph = smg.getGraph();
  std::string error;
  FailureOr<ScheduleCandidate> candidate = getCandidate(smg, given, error);
  if (failed(candidate))
    return graph.emitError("invalid schedule: ") << error;
  // Threads come from the attribute when the user wrote one, else from
  // the tiles.
  if (fromOptions || !target.isGPU())
    candidate->threads = chooseThreads(smg, *candidate, target);
  // A residency the given schedule declares is priced and built as asked.
  StrategyOptions options = strategyOptions();
  if (given.getBlocksPerSm())
    options.blocksPerSm = given.getBlocksPerSm();
  ScheduleEstimate est = estimateSchedule(smg, *candidate, target, options);
  KernelStrategy asked = given.getStrategy();
  if (asked != KernelStrategy::None &&
      (asked != est.strategy ||
       (given.getStages() && given.getStages() != est.stages)))
    return graph.emitError("schedule ")
           << formatCandidate(smg, *candidate) << " asks for strategy "
           << stringifyKernelStrategy(asked) << " (" << given.getStages()
           << " stages), but on target '" << target.getName()
           << "' with these options it is built as "
           << stringifyKernelStrategy(est.strategy) << " (" << est.stages
           << " stages)";
  if (!est.fits())
    return graph.emitError("schedule ")
           << formatCandidate(smg, *candidate) << " does not fit target '"
           << target.getName() << "': it " << est.overBudget;
  graph.setScheduleAttr(getScheduleAttr(smg, *candidate, est));
  ++numGraphsScheduled;
  auto remark =
      remark::passed(graph.getLoc(), remarkOpts("schedule", "given", graph));
  remark << ("uses the given schedule on " + target.getName().str() + ": " +
             describe(smg, *candidate, est));
  addScheduleArgs(remark, est);
  return success();
}

LogicalResult SchedulePass::scheduleBySearch(const SpaceMappingGraph &smg,
                                             TargetAttr target, bool maySplit) {
  ScheduleSearch search =
      searchSchedules(smg, target, strategyOptions(), candidates);
  remarkCandidates(smg, search);
  if (maySplit && splitReductions && search.best && target.isGPU()) {
    if (std::optional<SplitChoice> choice =
            findBestSplit(smg, target, search.best->second)) {
      std::string why = llvm::formatv(
          "the best schedule ({0}) runs {1} blocks on {2} SMs, predicted at "
          "{3:F2} us",
          formatCandidate(smg, search.best->first), search.best->second.blocks,
          target.getSmCount(), search.best->second.seconds * 1e6);
      return applySplit(smg, target, *choice, why);
    }
  }
  unsigned computeOps = countComputeOps(smg);
  // A fused schedule far from the graph's ideal time (one block cannot hold
  // what a fused contraction chain needs, as in a wide MLP) is compared
  // with the best partition.
  if (search.best && partition && computeOps >= 2 &&
      search.best->second.seconds >
          kPartitionCheckRatio * idealSeconds(smg, target)) {
    bool done = false;
    if (failed(partitionIfFaster(smg, target, *search.best, done)))
      return failure();
    if (done)
      return success();
  }
  if (search.best)
    return applyBestSchedule(smg, target, search);
  return partitionUnfitting(smg, target, search, computeOps);
}

LogicalResult SchedulePass::partitionIfFaster(
    const SpaceMappingGraph &smg, TargetAttr target,
    const std::pair<ScheduleCandidate, ScheduleEstimate> &fused, bool &done) {
  std::optional<std::pair<unsigned, CutQuality>> cut = findBestCut(smg, target);
  // The partition wins when predicted twice as fast.
  if (cut && cut->second.bothFit &&
      cut->second.seconds * 2 < fused.second.seconds) {
    std::string why = llvm::formatv(
        "the best fused schedule ({0}) is predicted at {1:F2} us, the "
        "parts at {2:F2} us",
        formatCandidate(smg, fused.first), fused.second.seconds * 1e6,
        cut->second.seconds * 1e6);
    done = true;
    return splitAtCut(smg, target, cut->first, cut->second, why);
  }
  reportKeptFused(smg, fused.second.seconds, cut);
  return success();
}

LogicalResult SchedulePass::applyBestSchedule(const SpaceMappingGraph &smg,
                                              TargetAttr target,
                                              const ScheduleSearch &search) {
  GraphOp graph = smg.getGraph();
  auto &[candidate, est] = *search.best;
  graph.setScheduleAttr(getScheduleAttr(smg, candidate, est));
  ++numGraphsScheduled;
  std::string message = "scheduled for " + target.getName().str() + ": " +
                        describe(smg, candidate, est);
  if (search.runnerUp)
    message += llvm::formatv("; runner-up {0}, predicted {1:F2} us",
                             formatCandidate(smg, search.runnerUp->first),
                             search.runnerUp->second.seconds * 1e6)
                   .str();
  message += "; " + std::to_string(search.tried) + " candidates";
  numCandidates += search.tried;
  auto remark =
      remark::passed(graph.getLoc(), remarkOpts("schedule", "chosen", graph));
  remark << message;
  addScheduleArgs(remark, est);
  if (search.runnerUp)
    remark << remark::detail::Remark::Arg(
                  "runner_up", formatCandidate(smg, search.runnerUp->first))
           << remark::detail::Remark::Arg(
                  "runner_up_us", search.runnerUp->second.seconds * 1e6);
  return success();
}

LogicalResult SchedulePass::partitionUnfitting(const SpaceMappingGraph &smg,
                                               TargetAttr target,
                                               const ScheduleSearch &search,
                                               unsigned computeOps) {
  std::string why = "no schedule fits target '" + target.getName().str() + "'";
  if (search.smallest)
    why += ": the smallest candidate (" +
           formatCandidate(smg, search.smallest->first) + ") " +
           search.smallest->second.overBudget;
  if (partition && computeOps >= 2)
    return partitionGraph(smg, target, why);
  if (!partition || (target.isGPU() && !runsAsLoopKernels(smg.getGraph())))
    return smg.getGraph().emitError(why);
  // A graph no block can hold still runs, unfused: on a GPU its ops become
  // loop kernels of their own (smap-distribute-blocks), on a CPU loops, like
  // those no graph took (a reshape that merges every dim leaves no dim to
  // tile).
  GraphOp graph = smg.getGraph();
  remark::missed(graph.getLoc(), remarkOpts("schedule", "unfused", graph))
      << (why + "; not fused: its ops run as " +
          (target.isGPU() ? "loop kernels" : "loops"));
  forgetSMG(graph, getAnalysisManager());
  partitioned = true;
  inlineGraph(graph);
  return success();
}

/// The `rows` schedule of `plan`, its threads given `registers` each (0:
/// ptxas's choice): every row dim sliced by 1.
static ScheduleAttr getRowsSchedule(const SpaceMappingGraph &smg,
                                    const RowKernelPlan &plan,
                                    int64_t registers, int64_t blocksPerSm) {
  MLIRContext *ctx = smg.getGraph().getContext();
  SmallVector<SliceSize> spatial;
  SmallVector<int64_t> grid;
  for (unsigned d : plan.graph.rowDims) {
    spatial.push_back({StringAttr::get(ctx, smg.getDims()[d].name), 1});
    grid.push_back(smg.getDims()[d].extent);
  }
  return ScheduleAttr::get(ctx, spatial, {}, grid, plan.getBlockThreads(),
                           plan.getSharedMemoryBytes(), registers,
                           KernelStrategy::Rows, /*stages=*/0,
                           plan.layout.rowsPerBlock, blocksPerSm);
}

static std::string describeRows(const SpaceMappingGraph &smg,
                                const RowKernelPlan &plan, int64_t registers) {
  std::string text =
      llvm::formatv(
          "{0} rows of {1} ('{2}'): {3} threads per row, "
          "rows_per_block {4}, {5}-element vectors, {6} loads "
          "per thread{7}{8}; {9} blocks x {10} threads, {11} B "
          "shared memory",
          plan.graph.rows, plan.graph.n,
          smg.getDims()[plan.graph.reducedDim].name, plan.layout.threadsPerRow,
          plan.layout.rowsPerBlock, plan.graph.vector, plan.chunks,
          plan.tiles > 1 ? " and tile" : "",
          plan.ragged ? " (the last one masked)" : "", plan.getBlocks(),
          plan.getBlockThreads(), plan.getSharedMemoryBytes())
          .str();
  if (plan.tiles > 1)
    text += llvm::formatv(", the row streamed in {0} tiles of {1} (too long "
                          "for registers): one pass per reduction and one "
                          "for the outputs, each element recomputed from the "
                          "inputs in every pass{2}",
                          plan.tiles, plan.getTileElements(),
                          plan.layout.cacheRow
                              ? ", the inputs read from global memory in the "
                                "first pass only, then from a copy of the "
                                "row in shared memory"
                              : "")
                .str();
  if (registers)
    text += ", " + std::to_string(registers) + " registers per thread";
  return text;
}

LogicalResult SchedulePass::scheduleRows(const SpaceMappingGraph &smg,
                                         TargetAttr target, bool &scheduled) {
  GraphOp graph = smg.getGraph();
  std::string whyNot = getRowHostRefusal(graph);
  FailureOr<RowGraph> rowGraph = failure();
  FailureOr<RowKernelPlan> plan = failure();
  if (whyNot.empty())
    rowGraph = analyzeRowGraph(smg, whyNot);
  if (succeeded(rowGraph))
    plan = chooseRowLayout(*rowGraph, {}, whyNot);
  if (failed(plan)) {
    remark::missed(graph.getLoc(), remarkOpts("schedule", "not-rows", graph))
        << ("not a row kernel: " + whyNot);
    return success();
  }
  RowLayoutRequest request{rowThreads, rowsPerBlock};
  if (request.threadsPerRow || request.rowsPerBlock) {
    plan = chooseRowLayout(*rowGraph, request, whyNot);
    if (failed(plan))
      return graph.emitError("smap-schedule: the row kernel cannot be built: ")
             << whyNot;
  }
  if (rowCache)
    chooseRowCache(*plan, target);
  int64_t registers = chooseRowRegisters(*plan, target);
  if (blocksPerSm) {
    std::string why =
        residencyRefusal(target, blocksPerSm, plan->getBlockThreads(),
                         plan->getSharedMemoryBytes());
    if (!why.empty())
      return graph.emitError("smap-schedule: blocks-per-sm=")
             << static_cast<int64_t>(blocksPerSm) << ": the row kernel " << why;
    registers =
        registersForResidency(target, plan->getBlockThreads(), blocksPerSm);
  }
  graph.setScheduleAttr(getRowsSchedule(smg, *plan, registers, blocksPerSm));
  ++numGraphsScheduled;
  using Arg = remark::detail::Remark::Arg;
  remark::passed(graph.getLoc(), remarkOpts("schedule", "rows", graph))
      << ("runs as a row kernel on " + target.getName().str() + ": " +
          describeRows(smg, *plan, registers) +
          (registers ? " (the SM's whole register file: the " +
                           std::to_string(plan->chunks * plan->graph.vector) +
                           " elements of a row each thread holds would not "
                           "fit two blocks per SM)"
                     : ""))
      << Arg("strategy", "rows") << Arg("blocks", plan->getBlocks())
      << Arg("threads", plan->getBlockThreads())
      << Arg("smem", plan->getSharedMemoryBytes()) << Arg("regs", registers)
      << Arg("rows_per_block", plan->layout.rowsPerBlock);
  scheduled = true;
  return success();
}

LogicalResult SchedulePass::checkGivenRows(const SpaceMappingGraph &smg,
                                           TargetAttr target,
                                           ScheduleAttr given) {
  GraphOp graph = smg.getGraph();
  if (!target.isGPU())
    return graph.emitError("invalid schedule: strategy rows needs a GPU "
                           "target, not '")
           << target.getName() << "'";
  std::string whyNot = getRowHostRefusal(graph);
  FailureOr<RowGraph> rowGraph = failure();
  if (whyNot.empty())
    rowGraph = analyzeRowGraph(smg, whyNot);
  FailureOr<RowKernelPlan> plan = failure();
  if (succeeded(rowGraph)) {
    plan = checkRowLayout(*rowGraph, getRowLayout(given), whyNot);
  }
  if (failed(plan))
    return graph.emitError("invalid schedule: strategy rows: ") << whyNot;
  // The graph's verifier bounds the given register count by the target.
  ScheduleAttr recorded = getRowsSchedule(smg, *plan, given.getRegsPerThread(),
                                          given.getBlocksPerSm());
  if (recorded.getSpatial() != given.getSpatial() ||
      !given.getTemporal().empty())
    return graph.emitError("invalid schedule: strategy rows slices every row "
                           "dim by 1 and nothing temporally: ")
           << recorded;
  graph.setScheduleAttr(recorded);
  ++numGraphsScheduled;
  remark::passed(graph.getLoc(), remarkOpts("schedule", "given", graph))
      << ("uses the given row kernel on " + target.getName().str() + ": " +
          describeRows(smg, *plan, given.getRegsPerThread()));
  return success();
}

static bool isInitMember(Operation *op) {
  std::string unused;
  FailureOr<MemberRole> role = getMemberRole(op, unused);
  return failed(role) || *role == MemberRole::Init;
}

/// The positions in `graph`'s body where a partition can cut: before a
/// compute or relayout op that has one before it.
static SmallVector<unsigned> getCutPoints(GraphOp graph) {
  SmallVector<unsigned> cuts;
  bool seenCompute = false;
  for (auto [i, op] :
       llvm::enumerate(graph.getBody().front().without_terminator())) {
    if (isInitMember(&op))
      continue;
    if (seenCompute)
      cuts.push_back(i);
    seenCompute = true;
  }
  return cuts;
}

/// The 16-bit type (f16 or bf16) to which `v`, a tensor of part A (`inA`),
/// can be rounded: every use outside part A is a contraction operand in part
/// B (`inB`) whose other operand has that type. Those uses go to `crossing`;
/// null when there are none or one is not such an operand.
static Type findRoundableUses(Value v,
                              const llvm::SmallPtrSetImpl<Operation *> &inA,
                              const llvm::SmallPtrSetImpl<Operation *> &inB,
                              SmallVectorImpl<OpOperand *> &crossing) {
  // The 16-bit type of the other operands (f16 or bf16).
  Type roundedType;
  for (OpOperand &use : v.getUses()) {
    Operation *user = use.getOwner();
    if (inA.contains(user))
      continue;
    auto contraction = dyn_cast<linalg::LinalgOp>(user);
    if (!inB.contains(user) || !contraction ||
        !linalg::isaContractionOpInterface(contraction) ||
        contraction.getNumDpsInputs() != 2 || !contraction.isDpsInput(&use))
      return Type();
    OpOperand *other = contraction.getDpsInputOperand(
        contraction.getDpsInputOperand(0) == &use ? 1 : 0);
    Type otherType = getElementTypeOrSelf(other->get().getType());
    if (!(otherType.isF16() || otherType.isBF16()) ||
        (roundedType && otherType != roundedType))
      return Type();
    roundedType = otherType;
    crossing.push_back(&use);
  }
  return roundedType;
}

/// Rounds `v`, a result of `producer`, to `roundedType` after it (the
/// truncf joins `partA`) and extends it back before the first of the
/// `crossing` uses, which read the extension (the extf joins `partB`).
static void roundCrossingUses(Operation *producer, Value v,
                              ArrayRef<OpOperand *> crossing, Type roundedType,
                              SmallVector<Operation *> &partA,
                              SmallVector<Operation *> &partB) {
  auto convert = [&](OpBuilder &b, Value from, Type to) {
    Value into = tensor::EmptyOp::create(
        b, from.getLoc(), cast<RankedTensorType>(from.getType()).getShape(),
        to);
    return createFloatConversion(b, from.getLoc(), from, into);
  };
  OpBuilder b(producer->getContext());
  b.setInsertionPointAfter(producer);
  linalg::GenericOp trunc = convert(b, v, roundedType);
  Operation *firstUser = crossing.front()->getOwner();
  for (OpOperand *use : crossing)
    if (use->getOwner()->isBeforeInBlock(firstUser))
      firstUser = use->getOwner();
  b.setInsertionPoint(firstUser);
  linalg::GenericOp ext = convert(b, trunc.getResult(0), b.getF32Type());
  for (OpOperand *use : crossing)
    use->set(ext.getResult(0));
  partA.push_back(trunc);
  partB.insert(llvm::find(partB, firstUser), ext);
}

/// Rounds to f16 (bf16) the f32 tensors that go from `partA` to `partB` only
/// as operands of contractions with an f16 (bf16) other operand: on tensor
/// cores those operands are rounded to that type anyway (smap-distribute-blocks), so the
/// cut moves half the bytes and the second part reads a 16-bit matrix
/// (which Hopper's wgmma lowering takes from memory). `partA` gains the
/// truncf, `partB` the extf, which the caller fuses into its readers.
static void roundTensorCoreCuts(SmallVector<Operation *> &partA,
                                SmallVector<Operation *> &partB) {
  llvm::SmallPtrSet<Operation *, 16> inA(partA.begin(), partA.end()),
      inB(partB.begin(), partB.end());
  SmallVector<Operation *> producers(partA);
  for (Operation *producer : producers) {
    for (Value v : producer->getResults()) {
      auto type = dyn_cast<RankedTensorType>(v.getType());
      if (!type || !type.getElementType().isF32())
        continue;
      SmallVector<OpOperand *> crossing;
      if (Type roundedType = findRoundableUses(v, inA, inB, crossing))
        roundCrossingUses(producer, v, crossing, roundedType, partA, partB);
    }
  }
}

/// For each member of `body`, whether it goes to the second part of a cut
/// before member `cut`: compute ops by position, an init with its users (to
/// the first part if any user is there).
static SmallVector<bool> getCutSides(Block &body, unsigned cut) {
  SmallVector<Operation *> ops;
  for (Operation &op : body.without_terminator())
    ops.push_back(&op);
  DenseMap<Operation *, bool> inB;
  for (auto [i, op] : llvm::enumerate(ops))
    if (!isInitMember(op))
      inB[op] = i >= cut;
  for (Operation *op : llvm::reverse(ops)) {
    if (!isInitMember(op))
      continue;
    bool b = true;
    for (Operation *user : op->getUsers()) {
      Operation *member = body.findAncestorOpInBlock(*user);
      if (inB.count(member) && !inB[member])
        b = false;
    }
    inB[op] = b;
  }
  SmallVector<bool> sides;
  for (Operation *op : ops)
    sides.push_back(inB[op]);
  return sides;
}

/// Splits `graph` before body op `cut` into two graphs for `target`.
/// Compute ops go by position; an init goes with its users (to the first
/// part if any user is there); zero-operand inits are cloned into the parts
/// that read them.
static std::pair<GraphOp, GraphOp> splitGraph(GraphOp graph, unsigned cut,
                                              TargetAttr target) {
  auto noUta = graph->getContext()
                   ->getOrLoadDialect<SMapDialect>()
                   ->getNoUtaAttrHelper();
  bool withoutUta = noUta.isAttrPresent(graph);
  SmallVector<bool> sides = getCutSides(graph.getBody().front(), cut);
  SmallVector<Operation *> inlined = inlineGraph(graph);
  SmallVector<Operation *> partA, partB;
  for (auto [op, b] : llvm::zip(inlined, sides))
    if (op->getNumOperands() != 0 || !isInitMember(op))
      (b ? partB : partA).push_back(op);
  if (target && target.getMaxThreads() > 1)
    roundTensorCoreCuts(partA, partB);
  // Inits of the second part move next to its first compute op so that the
  // second graph can be placed after the first.
  Operation *firstCompute =
      *llvm::find_if(partB, [](Operation *op) { return !isInitMember(op); });
  for (Operation *op : partB)
    if (isInitMember(op) && op->isBeforeInBlock(firstCompute))
      op->moveBefore(firstCompute);
  GraphOp a = outlineIntoGraph(partA);
  GraphOp b = outlineIntoGraph(partB);
  // The extensions of rounded cuts fold into the contractions.
  RewritePatternSet patterns(b.getContext());
  populateFuseConversionsPatterns(patterns);
  (void)applyPatternsGreedily(b, std::move(patterns));
  a.setTargetAttr(target);
  b.setTargetAttr(target);
  // The parts are analyzed as the graph was.
  if (withoutUta)
    for (GraphOp part : {a, b})
      noUta.setAttr(part, UnitAttr::get(part->getContext()));
  return {a, b};
}

namespace {
/// A copy of a graph placed after it, whose results stay alive as the
/// original's are, to price a rewrite of the graph: everything created in
/// the graph's block while the trial lives is erased when it ends.
class TrialGraph {
public:
  explicit TrialGraph(GraphOp graph) : block(graph->getBlock()) {
    for (Operation &op : *block)
      before.insert(&op);
    OpBuilder builder(graph);
    builder.setInsertionPointAfter(graph);
    trial = cast<GraphOp>(builder.clone(*graph));
    UnrealizedConversionCastOp::create(
        builder, graph.getLoc(), trial.getResultTypes(), trial.getResults());
  }
  ~TrialGraph() {
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(*block)))
      if (!before.contains(&op))
        op.erase();
  }
  GraphOp get() const { return trial; }

private:
  Block *block;
  llvm::SmallPtrSet<Operation *, 32> before;
  GraphOp trial;
};
} // namespace

/// The predicted time of `graph`'s best schedule, if one fits.
static std::optional<double> bestSeconds(GraphOp graph, TargetAttr target,
                                         const StrategyOptions &strategies) {
  FailureOr<SpaceMappingGraph> smg = buildSMG(graph);
  if (failed(smg))
    return std::nullopt;
  ScheduleSearch search = searchSchedules(*smg, target, strategies);
  if (!search.best)
    return std::nullopt;
  return search.best->second.seconds;
}

/// The index of the dim named `name`, if `smg` has one.
static std::optional<unsigned> findDim(const SpaceMappingGraph &smg,
                                       StringRef name) {
  for (auto [i, dim] : llvm::enumerate(smg.getDims()))
    if (dim.name == name)
      return i;
  return std::nullopt;
}

static CutQuality evaluateCut(GraphOp graph, unsigned cut, TargetAttr target,
                              const StrategyOptions &strategies) {
  TrialGraph trial(graph);
  auto [a, b] = splitGraph(trial.get(), cut, target);
  Operation *second = b.getOperation();

  CutQuality quality;
  for (Value r : a.getResults())
    if (llvm::any_of(r.getUsers(),
                     [&](Operation *user) { return user == second; }))
      if (auto type = dyn_cast<RankedTensorType>(r.getType()))
        quality.cutBytes += 2.0 * type.getNumElements() *
                            std::max(1u, type.getElementTypeBitWidth() / 8);
  quality.bothFit = true;
  for (GraphOp part : {a, b}) {
    std::optional<double> seconds = bestSeconds(part, target, strategies);
    quality.bothFit &= seconds.has_value();
    quality.seconds += seconds.value_or(0);
  }
  return quality;
}

std::optional<std::pair<unsigned, CutQuality>>
SchedulePass::findBestCut(const SpaceMappingGraph &smg, TargetAttr target) {
  GraphOp graph = smg.getGraph();
  // Prefer cuts after which both parts fit, then the fastest pair.
  std::optional<std::pair<unsigned, CutQuality>> best;
  SmallVector<Operation *> ops;
  for (Operation &op : graph.getBody().front().without_terminator())
    ops.push_back(&op);
  SmallVector<std::string> considered;
  for (unsigned cut : getCutPoints(graph)) {
    CutQuality q = evaluateCut(graph, cut, target, strategyOptions());
    considered.push_back(
        smg.lookupSpace(ops[cut])->name + " " +
        (q.bothFit ? llvm::formatv("{0:F2} us", q.seconds * 1e6).str()
                   : std::string("(does not fit)")));
    bool better = !best || (q.bothFit && !best->second.bothFit) ||
                  (q.bothFit == best->second.bothFit &&
                   (q.bothFit ? q.seconds < best->second.seconds
                              : q.cutBytes < best->second.cutBytes));
    if (better)
      best = {cut, q};
  }
  if (best)
    best->second.considered = llvm::join(considered, ", ");
  return best;
}

LogicalResult SchedulePass::splitAtCut(const SpaceMappingGraph &smg,
                                       TargetAttr target, unsigned cut,
                                       const CutQuality &quality,
                                       const std::string &why) {
  GraphOp graph = smg.getGraph();
  SmallVector<Operation *> ops;
  for (Operation &op : graph.getBody().front().without_terminator())
    ops.push_back(&op);
  remark::analysis(graph.getLoc(), remarkOpts("schedule", "partition", graph))
      << (why + "; partitioned before " + smg.lookupSpace(ops[cut])->name +
          ", the cut moves " +
          std::to_string(static_cast<int64_t>(quality.cutBytes)) +
          " bytes through global memory; cuts tried: " + quality.considered);
  // The graph is erased: a part created at its address must not get its SMG
  // (this ends `smg`; nothing below reads it).
  forgetSMG(graph, getAnalysisManager());
  partitioned = true;
  ++numPartitions;
  auto [a, b] = splitGraph(graph, cut, target);
  if (failed(scheduleGraph(a)) || failed(scheduleGraph(b)))
    return failure();
  return success();
}

/// Says why a partition that was considered lost to the fused schedule, so
/// that the check is not silent.
void SchedulePass::reportKeptFused(
    const SpaceMappingGraph &smg, double fusedSeconds,
    const std::optional<std::pair<unsigned, CutQuality>> &cut) {
  GraphOp graph = smg.getGraph();
  std::string why;
  if (!cut)
    why = "no cut point splits the graph";
  else if (!cut->second.bothFit)
    why = "the best cut's parts do not both fit the target";
  else
    why = llvm::formatv("the best cut ({0:F2} us) is not predicted twice as "
                        "fast as the fused schedule ({1:F2} us)",
                        cut->second.seconds * 1e6, fusedSeconds * 1e6)
              .str();
  auto remark = remark::analysis(graph.getLoc(),
                                 remarkOpts("schedule", "no-partition", graph));
  remark << ("kept fused: " + why +
             (cut ? "; cuts tried: " + cut->second.considered : ""));
  remark << remark::detail::Remark::Arg("fused_us", fusedSeconds * 1e6);
  if (cut && cut->second.bothFit)
    remark << remark::detail::Remark::Arg("partitioned_us",
                                          cut->second.seconds * 1e6);
}

LogicalResult SchedulePass::partitionGraph(const SpaceMappingGraph &smg,
                                           TargetAttr target,
                                           const std::string &why) {
  std::optional<std::pair<unsigned, CutQuality>> cut = findBestCut(smg, target);
  if (!cut)
    return smg.getGraph().emitError(why);
  return splitAtCut(smg, target, cut->first, cut->second, why);
}

//===----------------------------------------------------------------------===//
// Splitting a temporal dim across blocks
//===----------------------------------------------------------------------===//

/// The predicted time of `graph` with dim `dimName` split into `parts`: both
/// graphs' best schedules, on a trial copy that is removed again. Infinite
/// when a part has no fitting schedule.
static double evaluateSplit(GraphOp graph, StringRef dimName, int64_t parts,
                            TargetAttr target,
                            const StrategyOptions &strategies) {
  constexpr double kNever = std::numeric_limits<double>::infinity();
  TrialGraph trial(graph);
  FailureOr<SpaceMappingGraph> smg = buildSMG(trial.get());
  std::optional<unsigned> dim =
      succeeded(smg) ? findDim(*smg, dimName) : std::nullopt;
  std::string unused;
  FailureOr<TemporalSlicePlan> plan =
      dim ? planTemporalSlice(*smg, *dim, unused)
          : FailureOr<TemporalSlicePlan>(failure());
  if (failed(plan))
    return kNever;
  ReductionSplit split = splitReduction(*smg, *plan, parts);
  std::optional<double> partial =
      bestSeconds(split.partial, target, strategies);
  std::optional<double> merge = bestSeconds(split.merge, target, strategies);
  return partial && merge ? *partial + *merge : kNever;
}

std::optional<SplitChoice>
SchedulePass::findBestSplit(const SpaceMappingGraph &smg, TargetAttr target,
                            const ScheduleEstimate &fused) {
  int64_t sms = target.getSmCount();
  if (fused.blocks >= sms)
    return std::nullopt;
  std::optional<SplitChoice> best;
  SmallVector<std::string> considered;
  for (auto [d, dim] : llvm::enumerate(smg.getDims())) {
    if (dim.dimClass != DimClass::Temporal)
      continue;
    std::string unused;
    FailureOr<TemporalSlicePlan> plan = planTemporalSlice(smg, d, unused);
    if (failed(plan))
      continue;
    // Powers of two up to 32 parts of 64 or more elements each.
    for (int64_t parts = 2; parts <= 32 && dim.extent / parts >= 64;
         parts *= 2) {
      if (!whyNotSplittable(smg, *plan, parts).empty())
        continue;
      double seconds = evaluateSplit(smg.getGraph(), dim.name, parts, target,
                                     strategyOptions());
      considered.push_back(
          llvm::formatv("{0}:{1} {2:F2} us", dim.name, parts, seconds * 1e6));
      if (!best || seconds < best->seconds)
        best = SplitChoice{static_cast<unsigned>(d), parts, seconds, ""};
    }
  }
  if (best && best->seconds * kSplitGain > fused.seconds)
    remark::missed(smg.getGraph().getLoc(),
                   remarkOpts("schedule", "no-split", smg.getGraph()))
        << llvm::formatv("not split: {0} blocks on {1} SMs predicted at "
                         "{2:F2} us, the best split at {3:F2} us (a split "
                         "must be {4}x faster); splits tried: {5}",
                         fused.blocks, sms, fused.seconds * 1e6,
                         best->seconds * 1e6, kSplitGain,
                         llvm::join(considered, ", "))
               .str();
  if (!best || best->seconds * kSplitGain > fused.seconds)
    return std::nullopt;
  best->considered = llvm::join(considered, ", ");
  return best;
}

LogicalResult SchedulePass::applyForcedSplit(const SpaceMappingGraph &smg,
                                             TargetAttr target, bool &done) {
  GraphOp graph = smg.getGraph();
  std::string error;
  FailureOr<SmallVector<SliceSize>> sizes =
      parseSliceOption(graph.getContext(), split, error);
  if (failed(sizes))
    return graph.emitError("smap-schedule: split: ") << error;
  if (sizes->size() != 1)
    return graph.emitError("smap-schedule: split takes one dim:parts entry");
  StringRef name = sizes->front().dim.getValue();
  std::optional<unsigned> d = findDim(smg, name);
  if (!d) {
    // The option applies to every graph that has the dim; say so for the
    // others, so that a misspelt dim does not pass unnoticed.
    std::string dims;
    for (const GlobalDim &dim : smg.getDims())
      dims += " " + dim.name;
    remark::missed(graph.getLoc(), remarkOpts("schedule", "no-split", graph))
        << llvm::formatv("not split: the graph has no dim '{0}' (its dims "
                         "are{1}; dims of extent 1 are folded away)",
                         name, dims)
               .str();
    return success();
  }
  const GlobalDim &dim = smg.getDims()[*d];
  std::string whyNot;
  FailureOr<TemporalSlicePlan> plan =
      dim.dimClass == DimClass::Temporal
          ? planTemporalSlice(smg, *d, whyNot)
          : FailureOr<TemporalSlicePlan>(failure());
  if (failed(plan))
    return graph.emitError("smap-schedule: cannot split dim '")
           << name << "': it is " << stringifyDimClass(dim.dimClass)
           << (whyNot.empty() ? "" : " (") << whyNot
           << (whyNot.empty() ? "" : ")");
  if (std::string why = whyNotSplittable(smg, *plan, sizes->front().size);
      !why.empty())
    return graph.emitError("smap-schedule: cannot split dim '")
           << name << "' into " << sizes->front().size << " parts: " << why;
  SplitChoice choice{*d, sizes->front().size, 0, ""};
  done = true;
  return applySplit(smg, target, choice, "the split option asks for it");
}

LogicalResult SchedulePass::applySplit(const SpaceMappingGraph &smg,
                                       TargetAttr target,
                                       const SplitChoice &choice,
                                       const std::string &why) {
  GraphOp graph = smg.getGraph();
  const GlobalDim &dim = smg.getDims()[choice.dim];
  auto remark =
      remark::passed(graph.getLoc(), remarkOpts("schedule", "split", graph));
  remark << llvm::formatv(
                "split dim '{0}' ({1}) into {2} parts run side by side and a "
                "merge: {3}",
                dim.name, dim.extent, choice.parts, why)
                .str();
  if (!choice.considered.empty())
    remark << llvm::formatv("; the partial and merge graphs predicted at "
                            "{0:F2} us; splits tried: {1}",
                            choice.seconds * 1e6, choice.considered)
                  .str();
  remark << remark::detail::Remark::Arg("split_dim", dim.name)
         << remark::detail::Remark::Arg("split_parts", choice.parts);
  // The graph is erased: the analysis manager forgets its SMG (this ends
  // `smg`), the split reads a copy.
  SpaceMappingGraph copy = smg;
  forgetSMG(graph, getAnalysisManager());
  partitioned = true;
  ++numSplits;
  std::string unused;
  FailureOr<TemporalSlicePlan> plan =
      planTemporalSlice(copy, choice.dim, unused);
  ReductionSplit split = splitReduction(copy, *plan, choice.parts);
  if (failed(scheduleGraph(split.partial, SplitPart::Partial)) ||
      failed(scheduleGraph(split.merge, SplitPart::Merge)))
    return failure();
  return success();
}
