//===- PassDetail.h - What the conversion passes' definitions need -*- C++ -*-===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// The dialects the conversion passes load (their dependentDialects), for
// the generated pass bases; the public Conversion/Passes.h declares the
// passes without them.
//
//===----------------------------------------------------------------------===//

#ifndef SPACEFUSION_LIB_CONVERSION_PASSDETAIL_H
#define SPACEFUSION_LIB_CONVERSION_PASSDETAIL_H

#include "spacefusion/Conversion/Passes.h"
#include "spacefusion/Dialect/SMap/IR/SMap.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#endif // SPACEFUSION_LIB_CONVERSION_PASSDETAIL_H
