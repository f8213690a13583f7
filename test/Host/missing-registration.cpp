//===- missing-registration.cpp - A host that forgets a registration ------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// A C++ host that registers the dialects its input uses and SpaceFusion's,
// but not registerGPUPipelineDependencies(), then runs the sm_90a pipeline:
// the pipeline must say what is missing instead of crashing in
// gpu-module-to-binary. With `--with-dependencies` it registers them too.
//
//===----------------------------------------------------------------------===//

#include "spacefusion/InitAll.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <cstring>

static const char *kSoftmax = R"mlir(
func.func @softmax(%x: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %e = tensor.empty() : tensor<64x128xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<64x128xf32>)
      outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %y : tensor<64x128xf32>
}
)mlir";

int main(int argc, char **argv) {
  bool withDependencies = argc > 1 && !strcmp(argv[1], "--with-dependencies");
  mlir::DialectRegistry registry;
  registry.insert<mlir::arith::ArithDialect, mlir::func::FuncDialect,
                  mlir::linalg::LinalgDialect, mlir::tensor::TensorDialect>();
  mlir::spacefusion::registerAllDialects(registry);
  if (withDependencies)
    mlir::spacefusion::registerGPUPipelineDependencies(registry);
  mlir::MLIRContext context(registry);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(kSoftmax, &context);
  if (!module)
    return 2;
  mlir::PassManager pm(&context);
  mlir::spacefusion::SpaceFusionPipelineOptions options;
  options.target = "sm_90a";
  mlir::spacefusion::buildSpaceFusionPipeline(pm, options);
  if (mlir::failed(pm.run(*module)))
    return 1;
  llvm::outs() << "compiled\n";
  return 0;
}
