/*===- spacefusion-c/SpaceFusion.h - SpaceFusion C API ------------*- C -*-===*\
|*                                                                            *|
|* Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with   *|
|* LLVM Exceptions. See LICENSE for license information.                      *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* Registers the smap dialect and the SpaceFusion passes, and runs the        *|
|* SpaceFusion pipeline, from C (or ctypes, Rust, ...). Built on MLIR's C    *|
|* API types; libSpaceFusion-C.so also exports MLIR's own C API (mlir-c/IR.h, *|
|* mlir-c/Pass.h, mlir-c/RegisterEverything.h), so a host needs one library.  *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef SPACEFUSION_C_SPACEFUSION_H
#define SPACEFUSION_C_SPACEFUSION_H

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// SpaceFusion-MLIR's version, "MAJOR.MINOR.PATCH" (a static string).
MLIR_CAPI_EXPORTED const char *spacefusionGetVersion(void);

/// The smap dialect: mlirGetDialectHandle__smap__().
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(SMap, smap);

/// Inserts the smap dialect into `registry`.
MLIR_CAPI_EXPORTED void spacefusionRegisterDialects(MlirDialectRegistry registry);

/// Registers every SpaceFusion pass and `spacefusion-pipeline` with the global
/// registry, so that textual pipelines (mlirParsePassPipeline) can name them.
MLIR_CAPI_EXPORTED void spacefusionRegisterAllPasses(void);

/// Appends the SpaceFusion pipeline to `pm`. `options` uses the textual
/// syntax of --spacefusion-pipeline, e.g. "target=sm_80 allow-uta=false"
/// (empty: defaults). If the options do not parse, returns failure and
/// passes the option parser's message to `errorCallback` (as
/// mlirParsePassPipeline does: a pass manager has no context to report to);
/// a null callback drops the message.
MLIR_CAPI_EXPORTED MlirLogicalResult
spacefusionAddPipeline(MlirOpPassManager pm, MlirStringRef options,
                       MlirStringCallback errorCallback, void *userData);

/// Runs the SpaceFusion pipeline on `module` in place. Returns failure if the
/// options do not parse or a pass fails; both are reported as diagnostics to
/// the context's handlers (an option error at the module, with the option
/// parser's message).
MLIR_CAPI_EXPORTED MlirLogicalResult spacefusionRunPipeline(MlirModule module,
                                                            MlirStringRef options);

//===----------------------------------------------------------------------===//
// smap attributes
//===----------------------------------------------------------------------===//
//
// What the passes decided is recorded in attributes: `dims` (an array of
// #smap.dim) and `schedule` (#smap.schedule) on each smap.graph, #smap.kernel
// on each gpu.launch the block lowering builds. These read them without
// parsing text. Strings point into the context and live as long as it. As
// in MLIR's own C API, a getter's attribute must be of its kind (check with
// the IsA function first) and `pos` in range.

/// Whether `attr` is a #smap.dim.
MLIR_CAPI_EXPORTED bool spacefusionAttributeIsADim(MlirAttribute attr);
/// The dim's name ("m").
MLIR_CAPI_EXPORTED MlirStringRef spacefusionDimAttrGetName(MlirAttribute attr);
/// The dim's extent.
MLIR_CAPI_EXPORTED int64_t spacefusionDimAttrGetExtent(MlirAttribute attr);
/// The dim's class ("parallel", "parallel_recompute", "temporal",
/// "not_sliceable", "unclassified").
MLIR_CAPI_EXPORTED MlirStringRef spacefusionDimAttrGetClass(MlirAttribute attr);

/// Whether `attr` is a #smap.schedule.
MLIR_CAPI_EXPORTED bool spacefusionAttributeIsASchedule(MlirAttribute attr);
/// The kernel strategy ("wgmma_tma", "row_fragments", "rows", ...; "none"
/// when not decided).
MLIR_CAPI_EXPORTED MlirStringRef
spacefusionScheduleAttrGetStrategy(MlirAttribute attr);
/// Threads per block, shared memory bytes per block, registers per thread,
/// pipeline stages, and rows per block (row kernels; 0 otherwise).
MLIR_CAPI_EXPORTED int64_t
spacefusionScheduleAttrGetThreads(MlirAttribute attr);
MLIR_CAPI_EXPORTED int64_t spacefusionScheduleAttrGetSmem(MlirAttribute attr);
MLIR_CAPI_EXPORTED int64_t
spacefusionScheduleAttrGetRegisters(MlirAttribute attr);
MLIR_CAPI_EXPORTED int64_t spacefusionScheduleAttrGetStages(MlirAttribute attr);
MLIR_CAPI_EXPORTED int64_t
spacefusionScheduleAttrGetRowsPerBlock(MlirAttribute attr);
/// The spatial tiles (`temporal` false) or temporal slices (`temporal`
/// true): how many, and the dim name and size at `pos`.
MLIR_CAPI_EXPORTED intptr_t
spacefusionScheduleAttrGetNumSlices(MlirAttribute attr, bool temporal);
MLIR_CAPI_EXPORTED MlirStringRef spacefusionScheduleAttrGetSliceDim(
    MlirAttribute attr, bool temporal, intptr_t pos);
MLIR_CAPI_EXPORTED int64_t spacefusionScheduleAttrGetSliceSize(
    MlirAttribute attr, bool temporal, intptr_t pos);
/// The launch grid: one entry per spatial tile.
MLIR_CAPI_EXPORTED intptr_t
spacefusionScheduleAttrGetGridRank(MlirAttribute attr);
MLIR_CAPI_EXPORTED int64_t spacefusionScheduleAttrGetGrid(MlirAttribute attr,
                                                          intptr_t pos);

/// Whether `attr` is a #smap.kernel.
MLIR_CAPI_EXPORTED bool spacefusionAttributeIsAKernel(MlirAttribute attr);
/// The strategy built.
MLIR_CAPI_EXPORTED MlirStringRef
spacefusionKernelAttrGetStrategy(MlirAttribute attr);
/// The launch: blocks, threads per block, dynamic shared memory bytes,
/// global scratch bytes.
MLIR_CAPI_EXPORTED int64_t spacefusionKernelAttrGetBlocks(MlirAttribute attr);
MLIR_CAPI_EXPORTED int64_t spacefusionKernelAttrGetThreads(MlirAttribute attr);
MLIR_CAPI_EXPORTED int64_t spacefusionKernelAttrGetSmem(MlirAttribute attr);
MLIR_CAPI_EXPORTED int64_t spacefusionKernelAttrGetScratch(MlirAttribute attr);
/// The count of one part ("wgmma", "tile_m", "stages", ...; 0 when absent).
MLIR_CAPI_EXPORTED int64_t spacefusionKernelAttrGetPart(MlirAttribute attr,
                                                        MlirStringRef key);
/// Passes the record as JSON (the kernel manifest's form) to `callback`.
MLIR_CAPI_EXPORTED void
spacefusionKernelAttrPrintJSON(MlirAttribute attr, MlirStringCallback callback,
                               void *userData);

//===----------------------------------------------------------------------===//
// Remarks
//===----------------------------------------------------------------------===//

/// One optimization remark, valid during the callback only.
typedef struct {
  /// "Passed", "Missed", "Analysis", "Failure".
  MlirStringRef kind;
  /// "smap:<pass>", e.g. "smap:schedule".
  MlirStringRef category;
  /// The remark's name, e.g. "chosen", "dim-class".
  MlirStringRef name;
  /// The function the op it is about is in.
  MlirStringRef function;
  /// The text, as --remark-format=emitRemark prints it.
  MlirStringRef message;
  /// The op it is about.
  MlirLocation location;
  /// The structured arguments ("strategy", "smem", "predicted_us", ...).
  intptr_t numArgs;
  const MlirStringRef *argKeys;
  const MlirStringRef *argValues;
} SpacefusionRemark;

typedef void (*SpacefusionRemarkCallback)(const SpacefusionRemark *remark,
                                          void *userData);

/// Sends every remark whose category (the part before the pass name, "smap"
/// for all of SpaceFusion's) matches the regular expression `categoryFilter`
/// as a whole to `callback`, as
/// it is emitted. Call once per context, before running passes; fails (with
/// a diagnostic at an unknown location) if the callback is null, the filter
/// is not a valid regular expression or the context already has a remark
/// engine. Select one pass's remarks in the callback, by `category`
/// ("smap:schedule"). The callback runs on the thread that emits the
/// remark: a host that runs passes on several functions in parallel must
/// make it thread-safe (or disable multithreading).
MLIR_CAPI_EXPORTED MlirLogicalResult
spacefusionEnableRemarks(MlirContext ctx, MlirStringRef categoryFilter,
                         SpacefusionRemarkCallback callback, void *userData);

#ifdef __cplusplus
}
#endif

#endif // SPACEFUSION_C_SPACEFUSION_H
