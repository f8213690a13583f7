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
/// syntax of --spacefusion-pipeline, e.g. "target=sm_80
/// allow-online-softmax=false" (empty: defaults). Returns failure, with a
/// message on stderr (a pass manager has no context to report to), if the
/// options do not parse.
MLIR_CAPI_EXPORTED MlirLogicalResult
spacefusionAddPipeline(MlirOpPassManager pm, MlirStringRef options);

/// Runs the SpaceFusion pipeline on `module` in place. Returns failure if the
/// options do not parse or a pass fails; both are reported as diagnostics to
/// the context's handlers (an option error at the module, with the option
/// parser's message).
MLIR_CAPI_EXPORTED MlirLogicalResult spacefusionRunPipeline(MlirModule module,
                                                            MlirStringRef options);

#ifdef __cplusplus
}
#endif

#endif // SPACEFUSION_C_SPACEFUSION_H
