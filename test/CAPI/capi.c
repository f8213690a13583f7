/*===- capi.c - Exercise the SpaceFusion C API from C ---------------------===*\
|* Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with   *|
|* LLVM Exceptions. See LICENSE for license information.                      *|
\*===----------------------------------------------------------------------===*/

// RUN: spacefusion-capi-test %examples/attention_paper.mlir 2>&1 | FileCheck %s

#include "spacefusion-c/SpaceFusion.h"

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/RegisterEverything.h"

#include <stdio.h>
#include <stdlib.h>

static void printToStdout(MlirStringRef str, void *userData) {
  (void)userData;
  fwrite(str.data, 1, str.length, stdout);
}

static MlirLogicalResult printDiagnostic(MlirDiagnostic diagnostic,
                                         void *userData) {
  (void)userData;
  printf("diagnostic: ");
  mlirDiagnosticPrint(diagnostic, printToStdout, NULL);
  printf("\n");
  return mlirLogicalResultSuccess();
}

static char *readFile(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *data = malloc((size_t)size + 1);
  size_t read = fread(data, 1, (size_t)size, f);
  data[read] = '\0';
  fclose(f);
  return data;
}

static MlirModule parse(MlirContext ctx, const char *source) {
  return mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(source));
}

/* Runs the pipeline with `options` on a fresh module of `source` and says
   whether it succeeded. */
static void runOnFreshModule(MlirContext ctx, const char *source,
                             const char *options, const char *label) {
  MlirModule module = parse(ctx, source);
  MlirLogicalResult result =
      spacefusionRunPipeline(module, mlirStringRefCreateFromCString(options));
  printf("run with %s: %s\n", label,
         mlirLogicalResultIsSuccess(result) ? "success" : "failure");
  mlirModuleDestroy(module);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s input.mlir\n", argv[0]);
    return 2;
  }
  /* Diagnostics go to stderr; keep both streams in program order. */
  setvbuf(stdout, NULL, _IONBF, 0);
  char *source = readFile(argv[1]);
  if (!source) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 2;
  }

  MlirContext ctx = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  spacefusionRegisterDialects(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);

  // CHECK: version: [[VERSION:[0-9]+\.[0-9]+\.[0-9]+]]
  printf("version: %s\n", spacefusionGetVersion());

  // CHECK: dialect: smap
  MlirStringRef ns =
      mlirDialectHandleGetNamespace(mlirGetDialectHandle__smap__());
  printf("dialect: %.*s\n", (int)ns.length, ns.data);

  /* Run the pipeline with options. */
  // CHECK: run with target=sm_80: success
  // CHECK: smap.graph
  // CHECK-SAME: #smap.dim<"l", 512, temporal>
  // CHECK-SAME: target = #smap.target<name = "sm_80"
  MlirModule module = parse(ctx, source);
  MlirLogicalResult result = spacefusionRunPipeline(
      module,
      mlirStringRefCreateFromCString("target=sm_80 lower-to-gpu=false"));
  printf("run with target=sm_80: %s\n",
         mlirLogicalResultIsSuccess(result) ? "success" : "failure");
  mlirOperationPrint(mlirModuleGetOperation(module), printToStdout, NULL);
  printf("\n");
  mlirModuleDestroy(module);

  /* Options that do not parse are a failure, not a crash, reported to the
     context's diagnostic handler. */
  // CHECK: diagnostic: spacefusion: cannot parse pipeline options 'bogus=1': {{.*}}bogus
  // CHECK: run with bogus=1: failure
  MlirDiagnosticHandlerID handler =
      mlirContextAttachDiagnosticHandler(ctx, printDiagnostic, NULL, NULL);
  runOnFreshModule(ctx, source, "bogus=1", "bogus=1");
  mlirContextDetachDiagnosticHandler(ctx, handler);

  /* An unknown target fails in the pass, with a diagnostic. */
  // CHECK: error: smap-set-target: unknown target 'sm_10'
  // CHECK: run with target=sm_10: failure
  runOnFreshModule(ctx, source, "target=sm_10", "target=sm_10");

  /* The textual pipeline is reachable through MLIR's C pass API. */
  // CHECK: parsed textual pipeline: success
  // CHECK: smap.graph
  // CHECK-SAME: allow-uta=false
  spacefusionRegisterAllPasses();
  module = parse(ctx, source);
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  result = mlirParsePassPipeline(
      opm,
      mlirStringRefCreateFromCString(
          "builtin.module(smap-form-graphs,smap-analyze{allow-uta=false})"),
      printToStdout, NULL);
  printf("parsed textual pipeline: %s\n",
         mlirLogicalResultIsSuccess(result) ? "success" : "failure");
  result = mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  mlirOperationPrint(mlirModuleGetOperation(module), printToStdout, NULL);
  printf("\n");
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);

  /* A host that forgot MLIR's LLVM IR translations gets an error naming
     them, not a crash or a failed translation. */
  // CHECK: error: the GPU pipeline needs the NVVM dialect's translation to LLVM IR, which the context's registry lacks: call mlir::spacefusion::registerGPUPipelineDependencies(registry) before creating the context (from C: mlirRegisterAllLLVMTranslations(ctx))
  // CHECK: run with target=sm_90a, no translations: failure
  runOnFreshModule(ctx, source, "target=sm_90a", "target=sm_90a, no translations");

  /* The whole GPU path (the default for sm_90a), appended to a pass manager
     the host owns. gpu-module-to-binary translates to LLVM IR, so the host
     registers MLIR's LLVM IR translations. The kernel is a cubin when ptxas
     is found, PTX otherwise. */
  // CHECK: added the GPU pipeline: success
  // CHECK: ran the GPU pipeline: success
  // CHECK: llvm.func @attention_paper(
  // CHECK: gpu.launch_func @[[K:[a-z_0-9]+]]::@[[K]]
  // CHECK: gpu.binary @[[K]]
  // CHECK-SAME: chip = "sm_90a"
  // CHECK-SAME: {{bin|assembly}} = "
  mlirRegisterAllLLVMTranslations(ctx);
  module = parse(ctx, source);
  pm = mlirPassManagerCreate(ctx);
  result =
      spacefusionAddPipeline(mlirPassManagerGetAsOpPassManager(pm),
                             mlirStringRefCreateFromCString("target=sm_90a"));
  printf("added the GPU pipeline: %s\n",
         mlirLogicalResultIsSuccess(result) ? "success" : "failure");
  result = mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  printf("ran the GPU pipeline: %s\n",
         mlirLogicalResultIsSuccess(result) ? "success" : "failure");
  mlirOperationPrint(mlirModuleGetOperation(module), printToStdout, NULL);
  printf("\n");
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);

  mlirContextDestroy(ctx);
  free(source);
  return 0;
}
