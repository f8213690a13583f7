//===- Buffers.h - Host buffers of spacefusion-run --------------*- C++ -*-===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//
//
// The element types spacefusion-run stores (f16, bf16, f32, f64, i32, i64), their
// conversions to and from double, and a dense buffer with the memref
// descriptor the JIT-compiled code expects.
//
//===----------------------------------------------------------------------===//

#ifndef SPACEFUSION_TOOLS_SPACEFUSION_RUN_BUFFERS_H
#define SPACEFUSION_TOOLS_SPACEFUSION_RUN_BUFFERS_H

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace mlir::spacefusion::run {

/// The element types a checked function may take and return: floats, i1
/// (masks, a byte each), and 32- and 64-bit integers (indices, lengths),
/// held exactly as doubles.
enum class Dtype { F16, BF16, F32, F64, I1, I32, I64 };

/// The dtype of `type`, or nothing when it is not one of those above.
std::optional<Dtype> getDtype(mlir::Type type);
llvm::StringRef getName(Dtype dtype);
unsigned getByteWidth(Dtype dtype);

/// IEEE binary16 and bfloat16 from and to double, rounding to nearest, ties
/// to even, directly from the double (going through float would round
/// twice). Done by hand so that the tool needs no library or CPU support for
/// 16-bit floats.
uint16_t encodeF16(double value);
uint16_t encodeBF16(double value);
double decodeF16(uint16_t bits);
double decodeBF16(uint16_t bits);

/// Whether `dtype` is an integer type.
bool isInteger(Dtype dtype);

/// `value` rounded to the nearest value of `dtype`.
double roundTo(Dtype dtype, double value);

/// A dense row-major buffer of one dtype with the memref descriptor the
/// compiled code expects: allocated and aligned pointers, offset, sizes,
/// strides. The descriptor points into `storage`, so buffers move but are
/// never copied implicitly.
class Buffer {
public:
  Buffer(Dtype dtype, llvm::ArrayRef<int64_t> shape);
  Buffer(Buffer &&) = default;
  Buffer &operator=(Buffer &&) = default;
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;

  /// A copy with its own storage and descriptor.
  Buffer clone() const;

  Dtype getDtype() const { return dtype; }
  llvm::ArrayRef<int64_t> getShape() const { return shape; }
  int64_t size() const { return numElements; }
  /// The elements as the compiled code reads them: row-major, in the dtype.
  llvm::ArrayRef<char> getBytes() const { return storage; }
  double get(int64_t i) const;
  void set(int64_t i, double value);
  /// Whether element `i` holds exactly the bits fillWithPoison wrote.
  bool isPoison(int64_t i) const;
  /// Fills every element with a NaN whose payload arithmetic on NaN-free
  /// inputs does not produce, so that an element the program never writes
  /// is told apart from a NaN it computes.
  void fillWithPoison();
  /// The row-major multi-index of linear index `i`, as "[i0, i1]".
  std::string formatIndex(int64_t i) const;
  void appendArgs(llvm::SmallVectorImpl<void *> &args);

private:
  void initDescriptor();

  Dtype dtype;
  llvm::SmallVector<int64_t> shape;
  int64_t numElements;
  std::vector<char> storage;
  std::vector<int64_t> descriptor;
};

} // namespace mlir::spacefusion::run

#endif // SPACEFUSION_TOOLS_SPACEFUSION_RUN_BUFFERS_H
