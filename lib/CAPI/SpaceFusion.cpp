//===- SpaceFusion.cpp - SpaceFusion C API --------------------------------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "spacefusion-c/SpaceFusion.h"

#include "spacefusion/Dialect/SMap/IR/SMap.h"
#include "spacefusion/InitAll.h"
#include "spacefusion/Version.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(SMap, smap, mlir::smap::SMapDialect)

const char *spacefusionGetVersion(void) { return SPACEFUSION_VERSION_STRING; }

void spacefusionRegisterDialects(MlirDialectRegistry registry) {
  spacefusion::registerAllDialects(*unwrap(registry));
}

void spacefusionRegisterAllPasses(void) { spacefusion::registerAllPasses(); }

using PipelineOptions = spacefusion::SpaceFusionPipelineOptions;

/// `options` parsed, or null with the option parser's message in `error`.
static std::unique_ptr<PipelineOptions> parseOptions(StringRef options,
                                                     std::string &error) {
  auto parsed = std::make_unique<PipelineOptions>();
  llvm::raw_string_ostream os(error);
  if (failed(parsed->parseFromString(options, os)))
    return nullptr;
  return parsed;
}

static std::string describeParseError(StringRef options, StringRef error) {
  return ("spacefusion: cannot parse pipeline options '" + options + "': " +
          StringRef(error).trim())
      .str();
}

MlirLogicalResult spacefusionAddPipeline(MlirOpPassManager pm,
                                         MlirStringRef options) {
  std::string error;
  std::unique_ptr<PipelineOptions> parsed =
      parseOptions(unwrap(options), error);
  if (!parsed) {
    // A pass manager has no context to report to.
    llvm::errs() << describeParseError(unwrap(options), error) << "\n";
    return mlirLogicalResultFailure();
  }
  spacefusion::buildSpaceFusionPipeline(*unwrap(pm), *parsed);
  return mlirLogicalResultSuccess();
}

MlirLogicalResult spacefusionRunPipeline(MlirModule module,
                                         MlirStringRef options) {
  ModuleOp op = unwrap(module);
  std::string error;
  std::unique_ptr<PipelineOptions> parsed =
      parseOptions(unwrap(options), error);
  if (!parsed) {
    op.emitError(describeParseError(unwrap(options), error));
    return mlirLogicalResultFailure();
  }
  PassManager pm(op.getContext(), ModuleOp::getOperationName(),
                 OpPassManager::Nesting::Implicit);
  spacefusion::buildSpaceFusionPipeline(pm, *parsed);
  return wrap(pm.run(op));
}
