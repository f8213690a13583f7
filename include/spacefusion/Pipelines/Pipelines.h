//===- Pipelines.h - The SpaceFusion pass pipeline --------------*- C++ -*-===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#ifndef SPACEFUSION_PIPELINES_PIPELINES_H
#define SPACEFUSION_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir {
class OpPassManager;

namespace spacefusion {

/// The options of `--spacefusion-pipeline` and `--spacefusion-lower-gpu`
/// (buildSpaceFusionPipeline, buildGPULoweringPipeline): one struct, so that
/// every option applies on every path that has its pass; an option that
/// contradicts another is an error.
struct SpaceFusionPipelineOptions
    : public PassPipelineOptions<SpaceFusionPipelineOptions> {
  PassOptions::Option<std::string> target{
      *this, "target",
      llvm::cl::desc("Built-in target to schedule for: sm_90a, sm_80, cpu "
                     "(default: sm_80 for an sm_8x `chip`, sm_90a otherwise)"),
      llvm::cl::init("")};
  PassOptions::Option<bool> allowUpdateThenAggregate{
      *this, "allow-uta",
      llvm::cl::desc("Allow Update-then-Aggregate rewrites of dependent "
                     "reductions (online softmax, Welford)"),
      llvm::cl::init(true)};
  PassOptions::Option<unsigned> maxGroupSize{
      *this, "max-group-size",
      llvm::cl::desc("Largest number of compute ops in one fusion group "
                     "(0: unbounded)"),
      llvm::cl::init(0)};
  PassOptions::ListOption<std::string> exclude{
      *this, "exclude", llvm::cl::desc("Op names never put in a fusion group")};
  PassOptions::Option<bool> lowerToLoops{
      *this, "lower-to-loops",
      llvm::cl::desc("End with convert-smap-to-scf (the CPU path): linalg, "
                     "tensor and scf on tensors, ready for bufferization"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> lowerToGPU{
      *this, "lower-to-gpu",
      llvm::cl::desc("Go all the way for the GPU `target` (sm_90a, sm_80): "
                     "host LLVM code plus a gpu.binary, as "
                     "--spacefusion-lower-gpu with chip=target (a cubin when "
                     "ptxas is found, PTX otherwise). Default: on for a GPU "
                     "target unless lower-to-loops is set; "
                     "lower-to-gpu=false stops at the sliced graphs"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> widenAccumulators{
      *this, "widen-accumulators",
      llvm::cl::desc("Accumulate contractions and sums of 16-bit storage "
                     "type in f32 and round the result "
                     "(smap-widen-accumulators), as cuBLAS and PyTorch do; "
                     "false keeps the program's 16-bit accumulation"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> tf32{
      *this, "tf32",
      llvm::cl::desc("Let f32 contractions read their operands rounded to "
                     "TF32, on tensor cores (smap-round-contractions-to-tf32), "
                     "as PyTorch's allow_tf32 does; false (the default) keeps "
                     "f32 products, on CUDA cores"),
      llvm::cl::init(false)};

  PassOptions::Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("NVIDIA chip to compile for (default: the GPU `target`, "
                     "else sm_90a)"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("Kernel binary: 'bin' (cubin, needs ptxas), 'isa' (PTX "
                     "text, JIT-compiled by the driver at load) or 'auto' "
                     "(cubin when ptxas is found, PTX otherwise)"),
      llvm::cl::init("auto")};
  PassOptions::Option<int> optLevel{
      *this, "opt-level", llvm::cl::desc("LLVM optimization level of kernels"),
      llvm::cl::init(3)};
  PassOptions::Option<bool> approxMath{
      *this, "approx-math",
      llvm::cl::desc("f32 exp through the fast hardware exp2 (see "
                     "convert-smap-to-gpu)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> rowKernels{
      *this, "row-kernels",
      llvm::cl::desc("Give row graphs the row-kernel strategy (see "
                     "smap-schedule's `rows`); false schedules them as "
                     "blocks like every other graph"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> rowCache{
      *this, "row-cache",
      llvm::cl::desc("Keep a row kernel's row streamed in tiles in shared "
                     "memory when it fits (see smap-schedule's `row-cache`)"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> rowsPerBlock{
      *this, "rows-per-block",
      llvm::cl::desc("Rows per block of warp-per-row kernels (0: automatic; "
                     "see smap-schedule)"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> hoistColumnLoads{
      *this, "hoist-column-loads",
      llvm::cl::desc("Row kernels load per-column parameters first (see "
                     "convert-smap-to-gpu)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> cacheHints{
      *this, "cache-hints",
      llvm::cl::desc("Row kernels load per-column parameters with evict_last "
                     "cache hints on sm_80 and later chips (see "
                     "convert-smap-to-gpu)"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> rowThreads{
      *this, "row-threads",
      llvm::cl::desc("Threads per row of row kernels (0: automatic; see "
                     "smap-schedule)"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> asyncStages{
      *this, "async-stages",
      llvm::cl::desc(
          "cp.async pipeline depth of staged tiles, and the most "
          "TMA stages of a wgmma block (see smap-distribute-blocks)"),
      llvm::cl::init(3)};
  PassOptions::Option<int64_t> rasterGroup{
      *this, "raster-group",
      llvm::cl::desc("Blocks of a wide two-dim grid numbered in groups of "
                     "this many rows (see convert-smap-to-scf); 0: "
                     "row-major"),
      llvm::cl::init(16)};
  PassOptions::Option<int64_t> rowWarpReplicas{
      *this, "row-warp-replicas",
      llvm::cl::desc("Warps that run a row-fragment block of one row warp "
                     "when the grid has at most one block per SM (see "
                     "smap-schedule)"),
      llvm::cl::init(4)};
  PassOptions::Option<int64_t> producerWarps{
      *this, "producer-warps",
      llvm::cl::desc("Warps of a warp-specialized wgmma block's producer: 4 "
                     "or 1 (see smap-schedule)"),
      llvm::cl::init(4)};
  PassOptions::Option<bool> warpSpecialize{
      *this, "warp-specialize",
      llvm::cl::desc("In wgmma blocks, a producer warpgroup issues the TMA "
                     "loads for one consumer warpgroup per 64 rows, with "
                     "setmaxnreg (see smap-schedule)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> wgmma{
      *this, "wgmma",
      llvm::cl::desc("On targets with wgmma and TMA, allow the strategies "
                     "that run GEMM blocks on wgmma with TMA loads and "
                     "row-fragment blocks (attention) on wgmma from "
                     "registers (see smap-schedule)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> reproducible{
      *this, "reproducible",
      llvm::cl::desc("Drop the compile times gpu-module-to-binary records in "
                     "each #gpu.object (smap-drop-binary-timings), so that the "
                     "same input gives byte-identical output"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> dependentLaunch{
      *this, "dependent-launch",
      llvm::cl::desc("On targets with dependent_launch (Hopper), a kernel "
                     "launched after another of its function waits for it "
                     "at its start, so that the runtime may launch it while "
                     "that one finishes (see smap-overlap-kernel-launches)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> lineInfo{
      *this, "line-info",
      llvm::cl::desc("Keep the input's locations in the kernels as line "
                     "tables: `.loc` directives in the PTX and ptxas "
                     "-lineinfo in the cubin, so that profilers (Nsight "
                     "Compute's source view) show the linalg lines; the "
                     "upstream NVVM pipeline strips them"),
      llvm::cl::init(false)};
  PassOptions::Option<std::string> kernelManifest{
      *this, "kernel-manifest",
      llvm::cl::desc("Write the kernels each function launches to this JSON "
                     "file (smap-write-kernel-manifest); empty: none"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> dumpKernelsTo{
      *this, "dump-kernels-to",
      llvm::cl::desc("Write each GPU kernel's sliced smap IR, GPU IR, record "
                     "(JSON) and code to this directory (smap-dump-kernels); "
                     "empty: none"),
      llvm::cl::init("")};
  PassOptions::Option<bool> tensorCores{
      *this, "tensor-cores",
      llvm::cl::desc("Allow the strategies that run contractions on tensor "
                     "cores; false keeps every block on CUDA cores (see "
                     "smap-schedule)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> rowFragments{
      *this, "row-fragments",
      llvm::cl::desc("Allow the row-fragment strategies, which keep a "
                     "block's row tiles in registers (see smap-schedule)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> l2Reuse{
      *this, "l2-reuse",
      llvm::cl::desc("Price re-reads L2 holds at its rate (smap-schedule's "
                     "option)"),
      llvm::cl::init(false)};
  PassOptions::Option<int64_t> oneWave{
      *this, "one-wave",
      llvm::cl::desc("How a grid of one wave or less is priced "
                     "(smap-schedule's option)"),
      llvm::cl::init(2)};
  PassOptions::Option<bool> waitedLoads{
      *this, "waited-loads",
      llvm::cl::desc("Price the load latency of steps whose tiles nothing "
                     "loads ahead (smap-schedule's option)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> overlapSteps{
      *this, "overlap-steps",
      llvm::cl::desc("Price the steps' barriers as overlapping the memory "
                     "traffic (smap-schedule's option)"),
      llvm::cl::init(false)};
  PassOptions::Option<int64_t> blocksPerSm{
      *this, "blocks-per-sm",
      llvm::cl::desc("Build every block kernel for this many blocks per SM, "
                     "its register count capped to fit (smap-schedule's "
                     "option; 0: ptxas chooses)"),
      llvm::cl::init(0)};
  PassOptions::ListOption<std::string> spatial{
      *this, "spatial",
      llvm::cl::desc("Force the spatial tiles of every scheduled graph "
                     "(smap-schedule's option, e.g. m:128,n:256)")};
  PassOptions::ListOption<std::string> temporal{
      *this, "temporal",
      llvm::cl::desc("Force the temporal slice of every scheduled graph "
                     "(smap-schedule's option, e.g. k:64)")};
  PassOptions::ListOption<std::string> split{
      *this, "split",
      llvm::cl::desc("Split a temporal dim of every graph that has it "
                     "into parts run side by side (smap-schedule's "
                     "option, e.g. l:4); spatial and temporal then tile "
                     "the partial graph")};
  PassOptions::Option<bool> splitReductions{
      *this, "split-reductions",
      llvm::cl::desc("Let smap-schedule split a temporal dim across blocks "
                     "when the graph's blocks do not fill the target's SMs "
                     "and the parts are predicted faster (off by default: "
                     "see smap-schedule)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> partition{
      *this, "partition",
      llvm::cl::desc("Partition graphs that no schedule fits or whose parts "
                     "are predicted much faster (smap-schedule's option)"),
      llvm::cl::init(true)};

  PassOptions::Option<unsigned> candidates{
      *this, "candidates",
      llvm::cl::desc("Report each graph's N best schedule candidates as "
                     "remarks (smap-schedule's option)"),
      llvm::cl::init(0)};

  /// The built-in target graphs are scheduled for.
  std::string getTarget() const;
  /// The chip the kernels are compiled for.
  std::string getChip() const;
  /// Whether the pipeline ends in a gpu.binary: `lower-to-gpu` when given,
  /// otherwise for every GPU target that is not sent down the loop path.
  bool lowersToGPU() const;
};

/// The GPU path's options are the pipeline's.
using GPULoweringPipelineOptions = SpaceFusionPipelineOptions;

/// Appends the SpaceFusion pipeline to `pm` (anchored on a module): form
/// fusion groups, attach the target, build and classify each group's
/// Space-Mapping Graph, schedule it, and slice it spatially and temporally;
/// with `lowerToLoops`, lower the sliced graphs to scf loops for the CPU;
/// when `lowersToGPU()` (by default for a GPU target), the whole GPU path
/// (buildGPULoweringPipeline).
void buildSpaceFusionPipeline(OpPassManager &pm,
                              const SpaceFusionPipelineOptions &options);

/// Appends the CPU lowering shared by every CPU consumer (spacefusion-run,
/// the Python package's ahead-of-time shared objects): decompose aggregated
/// ops, request C wrappers (`_mlir_ciface_NAME`, memref descriptors by
/// pointer), bufferize with results as out-parameters, free temporaries, and
/// lower linalg, scf, math, memref, arith and func to the LLVM dialect.
void buildCPULoweringPipeline(OpPassManager &pm);

/// Appends the GPU path: form fusion groups; lower each function whose graph
/// is a row graph to one row kernel (convert-smap-to-gpu, which builds the
/// graph's SMG itself); schedule and slice every other graph, bufferize it
/// and make its spatial blocks thread blocks (smap-distribute-blocks); then
/// upstream's NVVM pipeline to host LLVM code (C wrappers, `mgpu*` runtime
/// calls) plus a `gpu.binary` for `chip`.
void buildGPULoweringPipeline(OpPassManager &pm,
                              const GPULoweringPipelineOptions &options);

/// The binary format `format` resolves to: 'auto' is 'bin' when ptxas is
/// on PATH or under $CUDA_HOME/bin, 'isa' otherwise.
std::string resolveGPUBinaryFormat(llvm::StringRef format);

/// Registers `--spacefusion-pipeline`, `--spacefusion-lower-cpu` and
/// `--spacefusion-lower-gpu` with the global pipeline registry.
void registerSpaceFusionPipeline();

} // namespace spacefusion
} // namespace mlir

#endif // SPACEFUSION_PIPELINES_PIPELINES_H
