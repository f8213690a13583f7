/* What the GPU integration tests' host drivers share: f16 and f32 memref
 * descriptors, the runtime's mgpu* functions, random inputs, and the check
 * of a result against its double-precision reference. */
#ifndef SPACEFUSION_TEST_INTEGRATION_GPU_COMMON_H
#define SPACEFUSION_TEST_INTEGRATION_GPU_COMMON_H

#include "spacefusion-runtime/Runtime.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef _Float16 half;

/* The descriptor of a ranked memref of `Element` (MLIR's C interface). */
#define GPU_TEST_MEMREF(Name, Element, Rank)                                   \
  typedef struct {                                                             \
    Element *allocated, *aligned;                                              \
    int64_t offset, sizes[Rank], strides[Rank];                                \
  } Name
GPU_TEST_MEMREF(Memref1D, half, 1);
GPU_TEST_MEMREF(Memref2D, half, 2);
GPU_TEST_MEMREF(Memref4D, half, 4);
GPU_TEST_MEMREF(FloatMemref1D, float, 1);
GPU_TEST_MEMREF(FloatMemref2D, float, 2);

void *mgpuStreamCreate(void);
void mgpuStreamSynchronize(void *stream);
void *mgpuMemAlloc(uint64_t bytes, void *stream, bool hostShared);
void mgpuMemFree(void *ptr, void *stream);
void mgpuMemcpy(void *dst, void *src, size_t bytes, void *stream);

/* `count` halves uniform in [-scale, scale]. */
static inline half *randomHalves(size_t count, float scale) {
  half *x = malloc(count * sizeof(half));
  for (size_t i = 0; i < count; ++i)
    x[i] = (half)(scale * (2.0f * (float)rand() / RAND_MAX - 1.0f));
  return x;
}

/* `count` halves as doubles, for host references whose inner loops should
   not convert. */
static inline double *toDoubles(const half *x, size_t count) {
  double *y = malloc(count * sizeof(double));
  for (size_t i = 0; i < count; ++i)
    y[i] = (double)x[i];
  return y;
}

/* A copy of `host` ([b, h, r, c], row-major) in device memory. */
static inline Memref4D onDevice4D(void *stream, const half *host, int64_t b,
                                  int64_t h, int64_t r, int64_t c) {
  size_t bytes = (size_t)(b * h * r * c) * sizeof(half);
  half *device = mgpuMemAlloc(bytes, stream, false);
  mgpuMemcpy(device, (void *)host, bytes, stream);
  Memref4D m = {device, device, 0, {b, h, r, c}, {h * r * c, r * c, c, 1}};
  return m;
}

/* Whether every |out - ref| <= 1e-2 max|ref| + 1e-2 |ref|; sets the largest
 * error (infinite when one is NaN: the poisoned output was not written). */
static inline bool withinTolerance(const half *out, const double *ref, size_t n,
                                   double refMax, double *maxError) {
  bool within = true;
  *maxError = 0;
  for (size_t i = 0; i < n; ++i) {
    double e = fabs((double)out[i] - ref[i]);
    if (!(e <= 1e-2 * refMax + 1e-2 * fabs(ref[i])))
      within = false;
    if (!(e <= *maxError))
      *maxError = isnan(e) ? INFINITY : e;
  }
  return within;
}

#endif
