//===- Pipelines.cpp - The SpaceFusion pass pipeline ----------------------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/Pipelines/Pipelines.h"

#include "spacefusion/Analysis/CostModel.h"
#include "spacefusion/Analysis/Targets.h"
#include "spacefusion/Conversion/Passes.h"
#include "spacefusion/Dialect/SMap/Transforms/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/Pipelines/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/Transforms/OptimizeForNVVM.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/LLVMTranslationInterface.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"

using namespace mlir;
using namespace mlir::spacefusion;

namespace {
/// Fails with `message`: how a pipeline builder, which cannot return an
/// error, rejects options that contradict each other.
struct ReportErrorPass
    : public PassWrapper<ReportErrorPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ReportErrorPass)
  explicit ReportErrorPass(std::string message) : message(std::move(message)) {}
  StringRef getArgument() const override { return "spacefusion-report-error"; }
  void runOnOperation() override {
    getOperation().emitError(message);
    signalPassFailure();
  }
  std::string message;
};
/// Checks that the context holds what gpu-module-to-binary needs from the
/// host's registry (registerGPUPipelineDependencies): without the NVVM
/// target's serialization it crashed with a null interface.
struct CheckGPUDependenciesPass
    : public PassWrapper<CheckGPUDependenciesPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CheckGPUDependenciesPass)
  StringRef getArgument() const override {
    return "spacefusion-check-gpu-dependencies";
  }
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    auto *nvvm = ctx->getOrLoadDialect<NVVM::NVVMDialect>();
    std::string missing;
    if (!isa<gpu::TargetAttrInterface>(NVVM::NVVMTargetAttr::get(ctx)))
      missing = "the NVVM target's serialization (gpu::TargetAttrInterface)";
    else if (!nvvm->getRegisteredInterface<LLVMTranslationDialectInterface>())
      missing = "the NVVM dialect's translation to LLVM IR";
    if (missing.empty())
      return;
    getOperation().emitError("the GPU pipeline needs ")
        << missing
        << ", which the context's registry lacks: call "
           "mlir::spacefusion::registerGPUPipelineDependencies(registry) "
           "before creating the context (from C: "
           "mlirRegisterAllLLVMTranslations(ctx))";
    signalPassFailure();
  }
};
} // namespace

/// Host and kernel code to the LLVM dialect (the first part of
/// buildLowerToNVVM).
static void
addLowerHostAndKernelsToLLVM(OpPassManager &pm,
                             const gpu::GPUToNVVMPipelineOptions &options,
                             bool dependentLaunch) {
  pm.addPass(createConvertNVGPUToNVVMPass());
  pm.addPass(createGpuKernelOutliningPass());
  // Outlining drops the launches' attributes; the host functions' records
  // carry the register counts to the kernels.
  pm.addPass(smap::createSMapSetKernelRegisterCountsPass());
  if (dependentLaunch)
    pm.addPass(smap::createSMapOverlapKernelLaunchesPass());
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertNVVMToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  GpuNVVMAttachTargetOptions target;
  target.triple = options.cubinTriple;
  target.chip = options.cubinChip;
  target.features = options.cubinFeatures;
  target.optLevel = options.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(target));
  pm.addPass(createLowerAffinePass());
  pm.addPass(createArithToLLVMConversionPass());
  ConvertIndexToLLVMPassOptions index;
  index.indexBitwidth = options.indexBitWidth;
  pm.addPass(createConvertIndexToLLVMPass(index));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

/// The GPU modules to NVVM, their locations kept as debug directives with
/// `lineInfo` (the second part of buildLowerToNVVM).
static void
addLowerGPUModulesToNVVM(OpPassManager &pm,
                         const gpu::GPUToNVVMPipelineOptions &options,
                         bool lineInfo) {
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  if (!lineInfo)
    kernels.addPass(createStripDebugInfoPass());
  ConvertGpuOpsToNVVMOpsOptions toNVVM;
  toNVVM.useBarePtrCallConv = options.kernelUseBarePtrCallConv;
  toNVVM.indexBitwidth = options.indexBitWidth;
  kernels.addPass(createConvertGpuOpsToNVVMOps(toNVVM));
  kernels.addPass(LLVM::createNVVMOptimizeForTargetPass());
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
  kernels.addPass(createReconcileUnrealizedCastsPass());
  if (lineInfo) {
    // A module pass: it scopes the kernels' functions (and the host's).
    // Directives only: line tables make NVPTX mark the target `debug`,
    // which ptxas refuses to optimize.
    LLVM::DIScopeForLLVMFuncOpPassOptions scopes;
    scopes.emissionKind = LLVM::DIEmissionKind::DebugDirectivesOnly;
    pm.addPass(LLVM::createDIScopeForLLVMFuncOpPass(scopes));
  }
}

/// The host's launches, and the binaries (the last part of
/// buildLowerToNVVM).
static void
addLowerLaunchesAndBinaries(OpPassManager &pm,
                            const gpu::GPUToNVVMPipelineOptions &options,
                            bool lineInfo, StringRef dumpTo) {
  GpuToLLVMConversionPassOptions host;
  host.hostBarePtrCallConv = options.hostUseBarePtrCallConv;
  host.kernelBarePtrCallConv = options.kernelUseBarePtrCallConv;
  pm.addPass(createGpuToLLVMConversionPass(host));
  if (!dumpTo.empty())
    pm.addPass(smap::createSMapDumpKernelsPass({dumpTo.str(), "llvm"}));
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = options.cubinFormat;
  if (lineInfo)
    binary.cmdOptions = "-lineinfo";
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

/// Upstream's gpu-lower-to-nvvm-pipeline (GPUToNVVMPipeline.cpp), pass for
/// pass, plus smap-set-kernel-register-counts after outlining (the kernel
/// records' register counts) and, with `dependentLaunch`,
/// smap-overlap-kernel-launches, with two hooks it lacks: `lineInfo` keeps
/// the GPU modules' locations (upstream strips them) as a debug scope of
/// directives only per function (ensure-debug-info-scope-on-llvm-func),
/// which the NVPTX back end emits as `.file` / `.loc` and ptxas -lineinfo
/// keeps in the cubin, as nvcc -lineinfo does; `dumpTo` writes each
/// kernel's LLVM IR before its serialization (smap-dump-kernels
/// stage=llvm).
static void buildLowerToNVVM(OpPassManager &pm,
                             const gpu::GPUToNVVMPipelineOptions &options,
                             bool lineInfo, StringRef dumpTo,
                             bool dependentLaunch) {
  addLowerHostAndKernelsToLLVM(pm, options, dependentLaunch);
  addLowerGPUModulesToNVVM(pm, options, lineInfo);
  addLowerLaunchesAndBinaries(pm, options, lineInfo, dumpTo);
}

/// The normalizations before grouping that both pipelines run: named ops
/// generalized, softmax decomposed, ops over empty domains folded, index
/// intermediates stored as i64, broadcasts folded into their readers, fills
/// specialized, contraction operands split from their producers, 16-bit
/// accumulators widened, relayouts folded into contractions, fills specialized
/// again, and with `tf32` the f32 contractions' factors rounded to TF32; the
/// ops the user excludes from fusion are left as they are.
static void addNormalization(OpPassManager &pm, bool widenAccumulators,
                             bool tf32, ArrayRef<std::string> exclude) {
  // Named ops as the generics they stand for, so that what follows (and
  // the fusion decision) does not depend on how the frontend spelled them.
  smap::SMapGeneralizeNamedOpsPassOptions generalize;
  generalize.excludeOps.assign(exclude.begin(), exclude.end());
  pm.addPass(smap::createSMapGeneralizeNamedOpsPass(generalize));
  // A softmax as the generics it stands for, so that the reshapes around
  // attention written with the heads collapsed into the batch fold through
  // it (smap-fold-contraction-relayouts) as they do through a generic one.
  if (!llvm::is_contained(exclude, "linalg.softmax"))
    pm.addPass(smap::createSMapDecomposeAggregatesPass());
  // Ops over zero-size tensors as their inits: they compute nothing, and
  // no graph (so no kernel) takes them.
  pm.addPass(smap::createSMapFoldEmptyDomainsPass());
  // Index intermediates stored as i64, which the SMG and the GPU describe.
  pm.addPass(smap::createSMapStoreIndicesAsI64Pass());
  // Broadcast copies (linalg.broadcast, generalized) as the maps of their
  // readers, as generic frontends write them.
  smap::SMapFoldBroadcastsPassOptions broadcasts;
  broadcasts.excludeOps.assign(exclude.begin(), exclude.end());
  pm.addPass(smap::createSMapFoldBroadcastsPass(broadcasts));
  // Fills written as generics (after --linalg-generalize-named-ops).
  pm.addPass(smap::createSMapSpecializeFillsPass());
  // Contractions upstream elementwise fusion merged with their producers
  // become contractions of two operands again, before the widening, which
  // takes only those.
  pm.addPass(smap::createSMapSplitContractionOperandsPass());
  if (widenAccumulators) {
    smap::SMapWidenAccumulatorsPassOptions widen;
    widen.excludeOps.assign(exclude.begin(), exclude.end());
    pm.addPass(smap::createSMapWidenAccumulatorsPass(widen));
  }
  // Reshapes and transposed copies around contractions (torch-mlir's 3-D
  // linear) become their indexing maps.
  smap::SMapFoldContractionRelayoutsPassOptions fold;
  fold.excludeOps.assign(exclude.begin(), exclude.end());
  pm.addPass(smap::createSMapFoldContractionRelayoutsPass(fold));
  // Folding a fill through a reshape, or widening a 16-bit fill, can leave
  // a fill as a generic again (torch-mlir's 3-D linear after upstream
  // fuse-elementwise).
  pm.addPass(smap::createSMapSpecializeFillsPass());
  // Last, on the contractions in their final form (a relayout folded in
  // leaves the same body).
  if (tf32)
    pm.addPass(smap::createSMapRoundContractionsToTF32Pass());
}

std::string mlir::spacefusion::SpaceFusionPipelineOptions::getTarget() const {
  if (!target.empty())
    return target;
  return StringRef(chip).starts_with("sm_8") ? "sm_80" : "sm_90a";
}

std::string mlir::spacefusion::SpaceFusionPipelineOptions::getChip() const {
  if (!chip.empty())
    return chip;
  std::string scheduled = getTarget();
  return smap::isBuiltinGPUTarget(scheduled) ? scheduled : "sm_90a";
}

bool mlir::spacefusion::SpaceFusionPipelineOptions::lowersToGPU() const {
  if (lowerToGPU.hasValue())
    return lowerToGPU;
  return smap::isBuiltinGPUTarget(getTarget()) && !lowerToLoops;
}

/// Groups the ops into graphs, then decides each graph's strategy and
/// slicing for the target: the front both paths share, so that
/// `lower-to-gpu=false` shows the schedules the GPU path builds.
static void addGroupingAndScheduling(OpPassManager &pm,
                                     const SpaceFusionPipelineOptions &options,
                                     bool compilesForGPU) {
  std::string target = options.getTarget();
  bool gpu = smap::isBuiltinGPUTarget(target);
  addNormalization(pm, options.widenAccumulators, options.tf32,
                   options.exclude);
  smap::SMapFormGraphsPassOptions formOptions;
  formOptions.maxGroupSize = options.maxGroupSize;
  formOptions.excludeOps.assign(options.exclude.begin(), options.exclude.end());
  // The GPU path compiles graphs only: an excluded op runs unfused, alone.
  formOptions.excludedAlone = compilesForGPU;
  pm.addPass(smap::createSMapFormGraphsPass(formOptions));
  if (gpu) {
    // A softmax the user excluded (left named by the normalizations) runs
    // alone, as the generics a row kernel evaluates; extensions fold into
    // their readers.
    pm.addPass(smap::createSMapDecomposeAggregatesPass());
    pm.addPass(smap::createSMapFuseConversionsPass());
  }
  smap::SMapSetTargetPassOptions targetOptions;
  targetOptions.target = target;
  pm.addPass(smap::createSMapSetTargetPass(targetOptions));
  smap::SMapAnalyzePassOptions analyzeOptions;
  analyzeOptions.allowUpdateThenAggregate = options.allowUpdateThenAggregate;
  pm.addPass(smap::createSMapAnalyzePass(analyzeOptions));
  // The kernel strategy is decided with the tiles, row kernels included.
  smap::SMapSchedulePassOptions scheduleOptions;
  scheduleOptions.spatial.assign(options.spatial.begin(),
                                 options.spatial.end());
  scheduleOptions.temporal.assign(options.temporal.begin(),
                                  options.temporal.end());
  scheduleOptions.split.assign(options.split.begin(), options.split.end());
  scheduleOptions.splitReductions = options.splitReductions;
  scheduleOptions.candidates = options.candidates;
  scheduleOptions.partition = options.partition;
  scheduleOptions.tensorCores = options.tensorCores;
  scheduleOptions.wgmma = options.wgmma;
  scheduleOptions.rowFragments = options.rowFragments;
  scheduleOptions.l2Reuse = options.l2Reuse;
  scheduleOptions.oneWave = options.oneWave;
  scheduleOptions.waitedLoads = options.waitedLoads;
  scheduleOptions.overlapSteps = options.overlapSteps;
  scheduleOptions.blocksPerSm = options.blocksPerSm;
  scheduleOptions.warpSpecialize = options.warpSpecialize;
  scheduleOptions.producerWarps = options.producerWarps;
  scheduleOptions.asyncStages = options.asyncStages;
  scheduleOptions.rowWarpReplicas = options.rowWarpReplicas;
  scheduleOptions.rows = options.rowKernels;
  scheduleOptions.rowCache = options.rowCache;
  scheduleOptions.rowsPerBlock = options.rowsPerBlock;
  scheduleOptions.rowThreads = options.rowThreads;
  pm.addPass(smap::createSMapSchedulePass(scheduleOptions));
}

void mlir::spacefusion::buildSpaceFusionPipeline(
    OpPassManager &pm, const SpaceFusionPipelineOptions &options) {
  if (options.lowerToLoops && options.lowersToGPU()) {
    pm.addPass(std::make_unique<ReportErrorPass>(
        "--spacefusion-pipeline: lower-to-loops and lower-to-gpu both end "
        "the pipeline; choose one"));
    return;
  }
  if (options.lowersToGPU()) {
    buildGPULoweringPipeline(pm, options);
    return;
  }
  addGroupingAndScheduling(pm, options, /*compilesForGPU=*/false);
  pm.addPass(smap::createSMapSpatialSlicePass());
  pm.addPass(smap::createSMapTemporalSlicePass());
  if (options.lowerToLoops)
    pm.addPass(smap::createConvertSMapToSCFPass());
}

void mlir::spacefusion::buildCPULoweringPipeline(OpPassManager &pm) {
  // Textual, because every pass but two small ones of ours is upstream's and
  // this spelling is the one users can copy into spacefusion-opt.
  const char *pipeline =
      "smap-decompose-aggregates,smap-expand-tf32-rounding,"
      "func.func(llvm-request-c-wrappers,smap-read-only-arguments),"
      "one-shot-bufferize{bufferize-function-boundaries "
      "function-boundary-type-conversion=identity-layout-map "
      "allow-return-allocs-from-loops},"
      "buffer-results-to-out-params{modify-public-functions},"
      "buffer-deallocation-pipeline,convert-linalg-to-loops,"
      "expand-strided-metadata,lower-affine,convert-scf-to-cf,"
      "convert-math-to-llvm,convert-math-to-libm,finalize-memref-to-llvm,"
      "convert-arith-to-llvm,convert-index-to-llvm,convert-func-to-llvm,"
      "convert-cf-to-llvm,reconcile-unrealized-casts";
  if (failed(parsePassPipeline(pipeline, pm)))
    llvm::report_fatal_error("spacefusion: the CPU lowering pipeline does not "
                             "parse");
}

std::string mlir::spacefusion::resolveGPUBinaryFormat(llvm::StringRef format) {
  if (format != "auto")
    return format.str();
  if (llvm::sys::findProgramByName("ptxas"))
    return "bin";
  for (const char *variable : {"CUDA_HOME", "CUDA_ROOT", "CUDA_PATH"})
    if (std::optional<std::string> home =
            llvm::sys::Process::GetEnv(variable)) {
      llvm::SmallString<128> ptxas(*home);
      llvm::sys::path::append(ptxas, "bin", "ptxas");
      if (llvm::sys::fs::can_execute(ptxas))
        return "bin";
    }
  return "isa";
}

/// The compute capability times ten of `chip` (sm_XY, sm_XYa), 0 if it is
/// not one.
static unsigned getChipVersion(StringRef chip) {
  unsigned smVersion = 0;
  if (!chip.consume_front("sm_") || chip.consumeInteger(10, smVersion))
    return 0;
  return smVersion;
}

/// Why `options` cannot be honored, or empty: values no pass would reject
/// before producing output (gpu-module-to-binary reports an unknown format
/// and still exits 0; a row-threads no kernel can use fell back silently).
static std::string checkGPULoweringOptions(
    const GPULoweringPipelineOptions &options) {
  if (!smap::isBuiltinGPUTarget(options.getTarget()))
    return "spacefusion-lower-gpu: the GPU path needs a GPU target (sm_90a, "
           "sm_80), not '" +
           options.getTarget() + "'";
  if (options.lowerToLoops || (options.lowerToGPU.hasValue() &&
                               !options.lowerToGPU))
    return "spacefusion-lower-gpu: lower-to-loops and lower-to-gpu=false are "
           "--spacefusion-pipeline's ways to stop before the GPU lowering";
  StringRef format = options.format;
  if (!llvm::is_contained({"auto", "bin", "isa", "fatbin"}, format))
    return "spacefusion-lower-gpu: format=" + format.str() +
           " is not one of auto, bin, isa, fatbin";
  int64_t threads = options.rowThreads;
  if (threads != 0 &&
      (!llvm::isPowerOf2_64(threads) || threads < 32 || threads > 512))
    return "spacefusion-lower-gpu: row-threads=" + std::to_string(threads) +
           " is neither 0 (automatic) nor a power of two from 32 to 512";
  // The tensor-core strategies emit mma.sync m16n8k16 at least, which
  // ptxas and the NVPTX back end refuse before sm_80 (a crash in LLVM).
  unsigned chipVersion = getChipVersion(options.getChip());
  if (options.tensorCores && chipVersion > 0 && chipVersion < 80)
    return "spacefusion-lower-gpu: chip=" + options.getChip() +
           " has no mma.sync m16n8k16, which the tensor-core strategies "
           "emit: compile for sm_80 or later, or pass tensor-cores=false";
  if (options.rowsPerBlock < 0)
    return "spacefusion-lower-gpu: rows-per-block=" +
           std::to_string(options.rowsPerBlock) + " is negative";
  if (options.blocksPerSm < 0 || options.blocksPerSm > smap::kMaxBlocksPerSm)
    return "spacefusion-lower-gpu: blocks-per-sm=" +
           std::to_string(options.blocksPerSm) + " is not in [0, " +
           std::to_string(smap::kMaxBlocksPerSm) + "] (0: not declared)";
  return "";
}

/// Whether `chip` (sm_XY) is sm_80 or later, which createpolicy and
/// L2::cache_hint need.
static bool isSm80OrLater(StringRef chip) { return getChipVersion(chip) >= 80; }

/// The row kernels, from their unsliced graphs, outlined at once.
static void addRowKernels(OpPassManager &pm,
                          const GPULoweringPipelineOptions &options) {
  smap::ConvertSMapToGPUPassOptions gpuOptions;
  gpuOptions.approxMath = options.approxMath;
  gpuOptions.hoistColumnLoads = options.hoistColumnLoads;
  // createpolicy and L2::cache_hint need sm_80.
  gpuOptions.cacheHints =
      options.cacheHints && isSm80OrLater(options.getChip());
  gpuOptions.otherGraphs = true;
  pm.addPass(smap::createConvertSMapToGPUPass(gpuOptions));
  // Outline the row kernels now: the canonicalization of the general path
  // below would hoist their constants out of the launches, and outlining
  // would then pass them as kernel parameters (row lengths and strides
  // unknown to ptxas: 50% more instructions, 20% slower block-per-row
  // kernels on the H200).
  pm.addPass(createGpuKernelOutliningPass());
}

/// Every other graph: slices, then blocks as loops with staged operands.
static void addSlicedBlocks(OpPassManager &pm,
                            const GPULoweringPipelineOptions &options) {
  pm.addPass(smap::createSMapSpatialSlicePass());
  pm.addPass(smap::createSMapTemporalSlicePass());
  if (!options.dumpKernelsTo.empty())
    pm.addPass(
        smap::createSMapDumpKernelsPass({options.dumpKernelsTo, "smap"}));
  smap::ConvertSMapToSCFPassOptions loopsOptions;
  loopsOptions.blocksAsForall = true;
  loopsOptions.rasterGroup = options.rasterGroup;
  pm.addPass(smap::createConvertSMapToSCFPass(loopsOptions));
  pm.addPass(smap::createSMapStageBlockOperandsPass());
}

/// The blocks' tensors to buffers, results as out-parameters.
static void addBlockBufferization(OpPassManager &pm) {
  // Built from the passes' constructors, not parsed by name, so a host
  // compiler that registered only SpaceFusion's passes (the C API, a plugin)
  // can run the whole GPU path.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(smap::createSMapPrivatizeFillsPass());
  pm.addPass(bufferization::createEmptyTensorEliminationPass());
  pm.addNestedPass<func::FuncOp>(smap::createSMapReadOnlyArgumentsPass());
  pm.addPass(smap::createSMapPlaceBlockBuffersPass());
  bufferization::OneShotBufferizePassOptions bufferizeOptions;
  bufferizeOptions.bufferizeFunctionBoundaries = true;
  bufferizeOptions.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferizeOptions));
  bufferization::BufferResultsToOutParamsPassOptions outParamsOptions;
  outParamsOptions.hoistStaticAllocs = true;
  outParamsOptions.modifyPublicFunctions = true;
  pm.addPass(
      bufferization::createBufferResultsToOutParamsPass(outParamsOptions));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

/// The blocks over their threads, and the entry points' checks.
static void addBlockDistribution(OpPassManager &pm,
                                 const GPULoweringPipelineOptions &options) {
  smap::SMapDistributeBlocksPassOptions distributeOptions;
  distributeOptions.approxMath = options.approxMath;
  pm.addPass(smap::createSMapDistributeBlocksPass(distributeOptions));
  // TF32 roundings no tensor core consumed, as integer arithmetic.
  pm.addPass(smap::createSMapExpandTF32RoundingPass());
  // Entry points reject descriptors of other sizes before launching.
  pm.addPass(smap::createSMapCheckEntryShapesPass());
  // Constants the blocks use stay constants in the kernels (loop bounds,
  // strides, fill values), instead of becoming kernel parameters.
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  if (!options.dumpKernelsTo.empty())
    pm.addPass(smap::createSMapDumpKernelsPass({options.dumpKernelsTo, "gpu"}));
}

/// The kernels to binaries through NVVM, then the optional outputs.
static void addBinaries(OpPassManager &pm,
                        const GPULoweringPipelineOptions &options) {
  // Before NVVM's serialization, which needs the host's registrations.
  pm.addPass(std::make_unique<CheckGPUDependenciesPass>());
  gpu::GPUToNVVMPipelineOptions nvvm;
  nvvm.cubinChip = options.getChip();
  // PTX 8.0 is the first with sm_90a.
  nvvm.cubinFeatures = "+ptx80";
  nvvm.cubinFormat = resolveGPUBinaryFormat(options.format);
  nvvm.optLevel = options.optLevel;
  // The scheduled target has the feature, and the chip compiled for has
  // griddepcontrol (sm_90): a chip=sm_75 build scheduled for sm_90a has not.
  bool dependentLaunch =
      options.dependentLaunch &&
      smap::builtinTargetHasFeature(options.getTarget(),
                                    smap::TargetFeature::DependentLaunch) &&
      getChipVersion(options.getChip()) >= 90;
  buildLowerToNVVM(pm, nvvm, options.lineInfo, options.dumpKernelsTo,
                   dependentLaunch);
  if (options.reproducible)
    pm.addPass(smap::createSMapDropBinaryTimingsPass());
  if (!options.dumpKernelsTo.empty())
    pm.addPass(
        smap::createSMapDumpKernelsPass({options.dumpKernelsTo, "binary"}));
  if (!options.kernelManifest.empty()) {
    smap::SMapWriteKernelManifestPassOptions manifest;
    manifest.output = options.kernelManifest;
    pm.addPass(smap::createSMapWriteKernelManifestPass(manifest));
  }
}

void mlir::spacefusion::buildGPULoweringPipeline(
    OpPassManager &pm, const GPULoweringPipelineOptions &options) {
  if (std::string error = checkGPULoweringOptions(options); !error.empty()) {
    pm.addPass(std::make_unique<ReportErrorPass>(error));
    return;
  }
  addGroupingAndScheduling(pm, options, /*compilesForGPU=*/true);
  addRowKernels(pm, options);
  addSlicedBlocks(pm, options);
  addBlockBufferization(pm);
  addBlockDistribution(pm, options);
  addBinaries(pm, options);
}

void mlir::spacefusion::registerSpaceFusionPipeline() {
  PassPipelineRegistration<GPULoweringPipelineOptions>(
      "spacefusion-lower-gpu",
      "The SpaceFusion pipeline for a GPU, to the end: from linalg on tensors "
      "to host LLVM code calling the mgpu* runtime plus a gpu.binary (cubin, "
      "or PTX without ptxas); the options are --spacefusion-pipeline's",
      buildGPULoweringPipeline);
  PassPipelineRegistration<>(
      "spacefusion-lower-cpu",
      "Lower linalg/scf on tensors to the LLVM dialect for the CPU, with C "
      "wrappers and results as out-parameters",
      buildCPULoweringPipeline);
  PassPipelineRegistration<SpaceFusionPipelineOptions>(
      "spacefusion-pipeline",
      "The SpaceFusion pipeline: fusion groups, target, Space-Mapping Graph, "
      "schedule, spatial and temporal slicing; for a GPU target on to the "
      "gpu.binary (as --spacefusion-lower-gpu)",
      buildSpaceFusionPipeline);
}
