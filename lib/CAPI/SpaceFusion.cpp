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

MlirLogicalResult spacefusionAddPipeline(MlirOpPassManager pm,
                                         MlirStringRef options) {
  std::unique_ptr<spacefusion::SpaceFusionPipelineOptions> parsed =
      spacefusion::SpaceFusionPipelineOptions::createFromString(
          unwrap(options));
  if (!parsed) {
    llvm::errs() << "spacefusion: cannot parse pipeline options '"
                 << unwrap(options) << "'\n";
    return mlirLogicalResultFailure();
  }
  spacefusion::buildSpaceFusionPipeline(*unwrap(pm), *parsed);
  return mlirLogicalResultSuccess();
}

MlirLogicalResult spacefusionRunPipeline(MlirModule module,
                                         MlirStringRef options) {
  ModuleOp op = unwrap(module);
  PassManager pm(op.getContext(), ModuleOp::getOperationName(),
                 OpPassManager::Nesting::Implicit);
  if (mlirLogicalResultIsFailure(
          spacefusionAddPipeline(wrap(static_cast<OpPassManager *>(&pm)),
                                 options)))
    return mlirLogicalResultFailure();
  return wrap(pm.run(op));
}
