//===- Buffers.cpp - Host buffers of spacefusion-run ----------------------===//
//
// Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with
// LLVM Exceptions. See LICENSE for license information.
//
//===----------------------------------------------------------------------===//

#include "Buffers.h"

#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::spacefusion::run;

std::optional<Dtype> spacefusion::run::getDtype(mlir::Type type) {
  if (type.isF16())
    return Dtype::F16;
  if (type.isBF16())
    return Dtype::BF16;
  if (type.isF32())
    return Dtype::F32;
  if (type.isF64())
    return Dtype::F64;
  if (type.isSignlessInteger(1))
    return Dtype::I1;
  if (type.isSignlessInteger(32))
    return Dtype::I32;
  if (type.isSignlessInteger(64))
    return Dtype::I64;
  return std::nullopt;
}

llvm::StringRef spacefusion::run::getName(Dtype dtype) {
  switch (dtype) {
  case Dtype::F16:
    return "f16";
  case Dtype::BF16:
    return "bf16";
  case Dtype::F32:
    return "f32";
  case Dtype::F64:
    return "f64";
  case Dtype::I1:
    return "i1";
  case Dtype::I32:
    return "i32";
  case Dtype::I64:
    return "i64";
  }
  llvm_unreachable("unknown dtype");
}

unsigned spacefusion::run::getByteWidth(Dtype dtype) {
  switch (dtype) {
  case Dtype::I1: // a byte holding 0 or 1, as LLVM stores an i1
    return 1;
  case Dtype::F16:
  case Dtype::BF16:
    return 2;
  case Dtype::F32:
  case Dtype::I32:
    return 4;
  case Dtype::F64:
  case Dtype::I64:
    return 8;
  }
  llvm_unreachable("unknown dtype");
}

//===----------------------------------------------------------------------===//
// 16-bit floats
//===----------------------------------------------------------------------===//

namespace {
/// A binary interchange format of at most 16 bits: sign, `expBits` of
/// biased exponent, `mantBits` of stored significand.
struct SmallFloat {
  int expBits;
  int mantBits;

  int bias() const { return (1 << (expBits - 1)) - 1; }
  uint32_t expAllOnes() const { return (1u << expBits) - 1; }
  uint32_t signBit() const { return 1u << (expBits + mantBits); }

  uint16_t encode(double value) const;
  double decode(uint16_t bits) const;
};
} // namespace

constexpr SmallFloat kF16{/*expBits=*/5, /*mantBits=*/10};
constexpr SmallFloat kBF16{/*expBits=*/8, /*mantBits=*/7};

uint16_t SmallFloat::encode(double value) const {
  uint32_t sign = std::signbit(value) ? signBit() : 0;
  uint32_t infinity = expAllOnes() << mantBits;
  if (std::isnan(value))
    return sign | infinity | (1u << (mantBits - 1)); // a quiet NaN
  double magnitude = std::fabs(value);
  if (magnitude == 0)
    return sign;
  if (std::isinf(magnitude))
    return sign | infinity;
  // Subnormals share the smallest normal exponent, so one quantum
  // 2^(exponent - mantBits) covers both cases.
  int exponent = std::max(std::ilogb(magnitude), 1 - bias());
  // Exact: a power-of-two scaling of a double far from its range limits.
  double scaled = std::ldexp(magnitude, mantBits - exponent);
  // The default floating-point environment rounds to nearest, ties to even.
  auto significand = static_cast<uint64_t>(std::nearbyint(scaled));
  // Below 2^mantBits the value is subnormal (exponent field 0). Otherwise
  // the implicit bit is dropped; a significand rounded up to 2^(mantBits+1)
  // carries into the exponent field by itself.
  uint64_t bits = significand < (1u << mantBits)
                      ? significand
                      : (uint64_t(exponent + bias()) << mantBits) +
                            (significand - (1u << mantBits));
  if (bits >= infinity)
    return sign | infinity;
  return sign | static_cast<uint32_t>(bits);
}

double SmallFloat::decode(uint16_t bits) const {
  uint32_t exponentField = (bits >> mantBits) & expAllOnes();
  uint32_t mantissa = bits & ((1u << mantBits) - 1);
  double magnitude;
  if (exponentField == expAllOnes())
    magnitude = mantissa ? NAN : INFINITY;
  else if (exponentField == 0)
    magnitude = std::ldexp(double(mantissa), 1 - bias() - mantBits);
  else
    magnitude = std::ldexp(double(mantissa + (1u << mantBits)),
                           int(exponentField) - bias() - mantBits);
  return (bits & signBit()) ? -magnitude : magnitude;
}

uint16_t spacefusion::run::encodeF16(double value) {
  return kF16.encode(value);
}
uint16_t spacefusion::run::encodeBF16(double value) {
  return kBF16.encode(value);
}
double spacefusion::run::decodeF16(uint16_t bits) { return kF16.decode(bits); }
double spacefusion::run::decodeBF16(uint16_t bits) {
  return kBF16.decode(bits);
}

bool spacefusion::run::isInteger(Dtype dtype) {
  return dtype == Dtype::I1 || dtype == Dtype::I32 || dtype == Dtype::I64;
}

double spacefusion::run::roundTo(Dtype dtype, double value) {
  switch (dtype) {
  case Dtype::F16:
    return decodeF16(encodeF16(value));
  case Dtype::BF16:
    return decodeBF16(encodeBF16(value));
  case Dtype::F32:
    return static_cast<float>(value);
  case Dtype::F64:
    return value;
  case Dtype::I1:
    return value != 0 ? 1 : 0;
  case Dtype::I32:
    return static_cast<int32_t>(std::nearbyint(value));
  case Dtype::I64:
    return static_cast<double>(static_cast<int64_t>(std::nearbyint(value)));
  }
  llvm_unreachable("unknown dtype");
}

//===----------------------------------------------------------------------===//
// Buffer
//===----------------------------------------------------------------------===//

Buffer::Buffer(Dtype dtype, llvm::ArrayRef<int64_t> shape)
    : dtype(dtype), shape(shape) {
  numElements = 1;
  for (int64_t size : shape)
    numElements *= size;
  storage.resize(numElements * getByteWidth(dtype));
  initDescriptor();
}

void Buffer::initDescriptor() {
  int64_t rank = shape.size();
  descriptor.assign(3 + 2 * rank, 0);
  descriptor[0] = reinterpret_cast<int64_t>(storage.data());
  descriptor[1] = reinterpret_cast<int64_t>(storage.data());
  int64_t stride = 1;
  for (int64_t j = rank - 1; j >= 0; --j) {
    descriptor[3 + j] = shape[j];
    descriptor[3 + rank + j] = stride;
    stride *= shape[j];
  }
}

Buffer Buffer::clone() const {
  Buffer copy(dtype, shape);
  copy.storage = storage;
  copy.initDescriptor();
  return copy;
}

/// The element's bits, as wide as the dtype.
template <typename T>
static T load(const std::vector<char> &storage, int64_t i) {
  T bits;
  std::memcpy(&bits, storage.data() + i * sizeof(T), sizeof(T));
  return bits;
}

template <typename T>
static void store(std::vector<char> &storage, int64_t i, T bits) {
  std::memcpy(storage.data() + i * sizeof(T), &bits, sizeof(T));
}

double Buffer::get(int64_t i) const {
  switch (dtype) {
  case Dtype::F16:
    return decodeF16(load<uint16_t>(storage, i));
  case Dtype::BF16:
    return decodeBF16(load<uint16_t>(storage, i));
  case Dtype::F32:
    return load<float>(storage, i);
  case Dtype::F64:
    return load<double>(storage, i);
  case Dtype::I1:
    return load<uint8_t>(storage, i);
  case Dtype::I32:
    return load<int32_t>(storage, i);
  case Dtype::I64:
    return static_cast<double>(load<int64_t>(storage, i));
  }
  llvm_unreachable("unknown dtype");
}

void Buffer::set(int64_t i, double value) {
  switch (dtype) {
  case Dtype::F16:
    return store(storage, i, encodeF16(value));
  case Dtype::BF16:
    return store(storage, i, encodeBF16(value));
  case Dtype::F32:
    return store(storage, i, static_cast<float>(value));
  case Dtype::F64:
    return store(storage, i, value);
  case Dtype::I1:
    return store(storage, i, static_cast<uint8_t>(value != 0));
  case Dtype::I32:
    return store(storage, i, static_cast<int32_t>(value));
  case Dtype::I64:
    return store(storage, i, static_cast<int64_t>(value));
  }
}

/// Quiet NaNs with a payload of alternating bits, per width.
static constexpr uint16_t kPoisonF16 = 0x7e5a, kPoisonBF16 = 0x7fda;
static constexpr uint32_t kPoisonF32 = 0x7fd5a5a5;
static constexpr uint64_t kPoisonF64 = 0x7ffa5a5a5a5a5a5a;
// Integers have no NaN: a pattern a program is unlikely to compute (for
// i1, a byte that is neither 0 nor 1).
static constexpr uint8_t kPoisonI1 = 0x5a;
static constexpr uint32_t kPoisonI32 = 0x5a5a5a5a;
static constexpr uint64_t kPoisonI64 = 0x5a5a5a5a5a5a5a5a;

void Buffer::fillWithPoison() {
  for (int64_t i = 0; i < numElements; ++i) {
    switch (dtype) {
    case Dtype::F16:
      store(storage, i, kPoisonF16);
      break;
    case Dtype::BF16:
      store(storage, i, kPoisonBF16);
      break;
    case Dtype::F32:
      store(storage, i, kPoisonF32);
      break;
    case Dtype::F64:
      store(storage, i, kPoisonF64);
      break;
    case Dtype::I1:
      store(storage, i, kPoisonI1);
      break;
    case Dtype::I32:
      store(storage, i, kPoisonI32);
      break;
    case Dtype::I64:
      store(storage, i, kPoisonI64);
      break;
    }
  }
}

bool Buffer::isPoison(int64_t i) const {
  switch (dtype) {
  case Dtype::F16:
    return load<uint16_t>(storage, i) == kPoisonF16;
  case Dtype::BF16:
    return load<uint16_t>(storage, i) == kPoisonBF16;
  case Dtype::F32:
    return load<uint32_t>(storage, i) == kPoisonF32;
  case Dtype::F64:
    return load<uint64_t>(storage, i) == kPoisonF64;
  case Dtype::I1:
    return load<uint8_t>(storage, i) == kPoisonI1;
  case Dtype::I32:
    return load<uint32_t>(storage, i) == kPoisonI32;
  case Dtype::I64:
    return load<uint64_t>(storage, i) == kPoisonI64;
  }
  llvm_unreachable("unknown dtype");
}

std::string Buffer::formatIndex(int64_t i) const {
  llvm::SmallVector<int64_t> index(shape.size());
  for (int64_t j = shape.size() - 1; j >= 0; --j) {
    index[j] = i % shape[j];
    i /= shape[j];
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "[";
  llvm::interleaveComma(index, os);
  os << "]";
  return text;
}

void Buffer::appendArgs(llvm::SmallVectorImpl<void *> &args) {
  for (int64_t &field : descriptor)
    args.push_back(&field);
}
