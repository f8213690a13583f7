/*===- capi.c - Exercise the SpaceFusion C API from C ---------------------===*\
|* Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with   *|
|* LLVM Exceptions. See LICENSE for license information.                      *|
\*===----------------------------------------------------------------------===*/

// RUN: spacefusion-capi-test %examples/attention_paper.mlir 2>&1 | FileCheck %s

#include "spacefusion-c/SpaceFusion.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/RegisterEverything.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Prints each remark with its structured arguments. */
static void printRemark(const SpacefusionRemark *remark, void *userData) {
  int *count = (int *)userData;
  ++*count;
  printf("remark %.*s %.*s in %.*s:", (int)remark->category.length,
         remark->category.data, (int)remark->name.length, remark->name.data,
         (int)remark->function.length, remark->function.data);
  for (intptr_t i = 0; i < remark->numArgs; ++i)
    if (!(remark->argKeys[i].length == 6 &&
          !strncmp(remark->argKeys[i].data, "Remark", 6)))
      printf(" %.*s=%.*s", (int)remark->argKeys[i].length,
             remark->argKeys[i].data, (int)remark->argValues[i].length,
             remark->argValues[i].data);
  printf("\n");
}

/* Prints what the C accessors read of a graph's dims and schedule. */
static void printGraphDecisions(MlirOperation graph) {
  MlirAttribute dims = mlirOperationGetAttributeByName(
      graph, mlirStringRefCreateFromCString("dims"));
  for (intptr_t i = 0; i < mlirArrayAttrGetNumElements(dims); ++i) {
    MlirAttribute dim = mlirArrayAttrGetElement(dims, i);
    if (!spacefusionAttributeIsADim(dim))
      continue;
    MlirStringRef name = spacefusionDimAttrGetName(dim);
    MlirStringRef cls = spacefusionDimAttrGetClass(dim);
    printf("dim %.*s %lld %.*s\n", (int)name.length, name.data,
           (long long)spacefusionDimAttrGetExtent(dim), (int)cls.length,
           cls.data);
  }
  MlirAttribute schedule = mlirOperationGetAttributeByName(
      graph, mlirStringRefCreateFromCString("schedule"));
  if (mlirAttributeIsNull(schedule) ||
      !spacefusionAttributeIsASchedule(schedule))
    return;
  MlirStringRef strategy = spacefusionScheduleAttrGetStrategy(schedule);
  printf("schedule strategy=%.*s threads=%lld smem=%lld regs=%lld "
         "stages=%lld grid=",
         (int)strategy.length, strategy.data,
         (long long)spacefusionScheduleAttrGetThreads(schedule),
         (long long)spacefusionScheduleAttrGetSmem(schedule),
         (long long)spacefusionScheduleAttrGetRegisters(schedule),
         (long long)spacefusionScheduleAttrGetStages(schedule));
  for (intptr_t i = 0; i < spacefusionScheduleAttrGetGridRank(schedule); ++i)
    printf("%s%lld", i ? "x" : "",
           (long long)spacefusionScheduleAttrGetGrid(schedule, i));
  for (int temporal = 0; temporal < 2; ++temporal) {
    printf(temporal ? " temporal=" : " spatial=");
    for (intptr_t i = 0;
         i < spacefusionScheduleAttrGetNumSlices(schedule, temporal); ++i) {
      MlirStringRef dim =
          spacefusionScheduleAttrGetSliceDim(schedule, temporal, i);
      printf("%s%.*s:%lld", i ? "," : "", (int)dim.length, dim.data,
             (long long)spacefusionScheduleAttrGetSliceSize(schedule, temporal,
                                                            i));
    }
  }
  printf("\n");
}

/* Visits the first smap.graph of a module. */
static MlirOperation findFirst(MlirOperation op, const char *name) {
  MlirIdentifier opName = mlirOperationGetName(op);
  MlirStringRef str = mlirIdentifierStr(opName);
  if (str.length == strlen(name) && !strncmp(str.data, name, str.length))
    return op;
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); ++r) {
    MlirRegion region = mlirOperationGetRegion(op, r);
    for (MlirBlock block = mlirRegionGetFirstBlock(region);
         !mlirBlockIsNull(block); block = mlirBlockGetNextInRegion(block))
      for (MlirOperation child = mlirBlockGetFirstOperation(block);
           !mlirOperationIsNull(child);
           child = mlirOperationGetNextInBlock(child)) {
        MlirOperation found = findFirst(child, name);
        if (!mlirOperationIsNull(found))
          return found;
      }
  }
  MlirOperation none = {NULL};
  return none;
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
  result = spacefusionAddPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      mlirStringRefCreateFromCString("target=sm_90a"), printToStdout, NULL);
  printf("added the GPU pipeline: %s\n",
         mlirLogicalResultIsSuccess(result) ? "success" : "failure");
  result = mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  printf("ran the GPU pipeline: %s\n",
         mlirLogicalResultIsSuccess(result) ? "success" : "failure");
  mlirOperationPrint(mlirModuleGetOperation(module), printToStdout, NULL);
  printf("\n");
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);

  /* A bad option appended to a host's pass manager goes to the error
     callback, like mlirParsePassPipeline's. */
  // clang-format off
  // CHECK: spacefusion: cannot parse pipeline options 'chip=sm_1 nonsense=2': {{.*}}nonsense
  // CHECK-NEXT: added bad options: failure
  // clang-format on
  pm = mlirPassManagerCreate(ctx);
  result = spacefusionAddPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      mlirStringRefCreateFromCString("chip=sm_1 nonsense=2"), printToStdout,
      NULL);
  printf("\nadded bad options: %s\n",
         mlirLogicalResultIsSuccess(result) ? "success" : "failure");
  mlirPassManagerDestroy(pm);
  mlirContextDestroy(ctx);

  /* Remarks reach a C callback with their structured arguments, and the
     decisions are read from the attributes with the accessors. */
  // clang-format off
  // CHECK: enabled remarks: success
  // CHECK: remark smap:analyze dim-class in attention_paper: dim=m class=parallel
  // CHECK: remark smap:analyze dim-class in attention_paper: dim=l class=temporal
  // CHECK: remark smap:schedule chosen in attention_paper: strategy=[[STRATEGY:[a-z_]+]] blocks={{[0-9]+}} threads=[[THREADS:[0-9]+]] smem=[[SMEM:[0-9]+]]
  // CHECK: dim m 512 parallel
  // CHECK: dim l 512 temporal
  // CHECK: schedule strategy=[[STRATEGY]] threads=[[THREADS]] smem=[[SMEM]] regs={{[0-9]+}} stages={{[0-9]+}} grid={{[0-9]+x[0-9]+}} spatial=m:{{[0-9]+}},n:{{[0-9]+}} temporal=k:{{[0-9]+}}
  // CHECK: a second engine: failure
  // clang-format on
  ctx = mlirContextCreate();
  registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  spacefusionRegisterDialects(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  int remarks = 0;
  result = spacefusionEnableRemarks(ctx, mlirStringRefCreateFromCString("smap"),
                                    printRemark, &remarks);
  printf("enabled remarks: %s\n",
         mlirLogicalResultIsSuccess(result) ? "success" : "failure");
  module = parse(ctx, source);
  spacefusionRunPipeline(module, mlirStringRefCreateFromCString(
                                     "target=sm_90a lower-to-gpu=false"));
  MlirOperation graph = findFirst(mlirModuleGetOperation(module), "smap.graph");
  if (!mlirOperationIsNull(graph))
    printGraphDecisions(graph);
  mlirModuleDestroy(module);
  handler =
      mlirContextAttachDiagnosticHandler(ctx, printDiagnostic, NULL, NULL);
  result = spacefusionEnableRemarks(ctx, mlirStringRefCreateFromCString("smap"),
                                    printRemark, &remarks);
  printf("a second engine: %s\n",
         mlirLogicalResultIsSuccess(result) ? "success" : "failure");

  /* A filter that is not a regular expression, and no callback: errors. */
  // CHECK: diagnostic: spacefusion: invalid remark category filter 'smap(':
  // CHECK: diagnostic: spacefusion: spacefusionEnableRemarks needs a callback
  MlirContext other = mlirContextCreate();
  mlirContextAttachDiagnosticHandler(other, printDiagnostic, NULL, NULL);
  spacefusionEnableRemarks(other, mlirStringRefCreateFromCString("smap("),
                           printRemark, &remarks);
  spacefusionEnableRemarks(other, mlirStringRefCreateFromCString("smap"), NULL,
                           NULL);
  mlirContextDestroy(other);

  /* The kernel record's accessors and JSON. */
  // clang-format off
  // CHECK: kernel wgmma_tma blocks=1024 threads=128 smem=99328 scratch=0 stages=3 tile_m=128 wgmma=0
  // CHECK-NEXT: {"blocks":1024,"parts":{"stages":3,"tile_m":128},"scratch":0,"smem":99328,"strategy":"wgmma_tma","threads":128}
  // clang-format on
  MlirAttribute kernel = mlirAttributeParseGet(
      ctx, mlirStringRefCreateFromCString(
               "#smap.kernel<strategy = wgmma_tma, blocks = 1024, threads = "
               "128, smem = 99328, parts = {stages = 3 : i64, tile_m = 128 : "
               "i64}>"));
  if (spacefusionAttributeIsAKernel(kernel) &&
      !spacefusionAttributeIsASchedule(kernel)) {
    MlirStringRef kernelStrategy = spacefusionKernelAttrGetStrategy(kernel);
    printf("kernel %.*s blocks=%lld threads=%lld smem=%lld scratch=%lld "
           "stages=%lld tile_m=%lld wgmma=%lld\n",
           (int)kernelStrategy.length, kernelStrategy.data,
           (long long)spacefusionKernelAttrGetBlocks(kernel),
           (long long)spacefusionKernelAttrGetThreads(kernel),
           (long long)spacefusionKernelAttrGetSmem(kernel),
           (long long)spacefusionKernelAttrGetScratch(kernel),
           (long long)spacefusionKernelAttrGetPart(
               kernel, mlirStringRefCreateFromCString("stages")),
           (long long)spacefusionKernelAttrGetPart(
               kernel, mlirStringRefCreateFromCString("tile_m")),
           (long long)spacefusionKernelAttrGetPart(
               kernel, mlirStringRefCreateFromCString("wgmma")));
    spacefusionKernelAttrPrintJSON(kernel, printToStdout, NULL);
    printf("\n");
  }
  mlirContextDetachDiagnosticHandler(ctx, handler);
  mlirContextDestroy(ctx);
  free(source);
  return 0;
}
