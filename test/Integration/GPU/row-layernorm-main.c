/* Host driver of row-layernorm.mlir: device buffers through the runtime's
 * mgpu* functions, the compiled entry point on memref descriptors of device
 * pointers, and a double-precision reference on the host. */
#include "spacefusion-runtime/Runtime.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { ROWS = 301, COLS = 1000 };

typedef struct {
  float *allocated, *aligned;
  int64_t offset, size, stride;
} Memref1D;
typedef struct {
  float *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
} Memref2D;

void *mgpuStreamCreate(void);
void mgpuStreamSynchronize(void *stream);
void *mgpuMemAlloc(uint64_t bytes, void *stream, bool hostShared);
void mgpuMemFree(void *ptr, void *stream);
void mgpuMemcpy(void *dst, void *src, size_t bytes, void *stream);
void _mlir_ciface_layernorm(Memref2D *x, Memref1D *gamma, Memref1D *beta,
                            Memref2D *y);

static float *toDevice(void *stream, const float *host, size_t count) {
  float *device = mgpuMemAlloc(count * sizeof(float), stream, false);
  mgpuMemcpy(device, (void *)host, count * sizeof(float), stream);
  return device;
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  printf("device found: %s\n", spacefusionRuntimeHasDevice() ? "yes" : "no");
  void *stream = mgpuStreamCreate();
  static float x[ROWS * COLS], y[ROWS * COLS], gamma[COLS], beta[COLS];
  srand(7);
  for (int i = 0; i < ROWS * COLS; ++i)
    x[i] = 4.0f * ((float)rand() / RAND_MAX - 0.5f) + (float)(i / COLS % 5);
  for (int j = 0; j < COLS; ++j) {
    gamma[j] = 0.5f + (float)rand() / RAND_MAX;
    beta[j] = (float)rand() / RAND_MAX - 0.5f;
  }
  float *dx = toDevice(stream, x, ROWS * COLS);
  float *dg = toDevice(stream, gamma, COLS), *db = toDevice(stream, beta, COLS);
  float *dy = mgpuMemAlloc(sizeof(y), stream, false);
  for (int i = 0; i < ROWS * COLS; ++i)
    y[i] = NAN; /* poisoned */
  mgpuMemcpy(dy, y, sizeof(y), stream);
  mgpuStreamSynchronize(stream);

  Memref2D mx = {dx, dx, 0, {ROWS, COLS}, {COLS, 1}};
  Memref2D my = {dy, dy, 0, {ROWS, COLS}, {COLS, 1}};
  Memref1D mg = {dg, dg, 0, COLS, 1}, mb = {db, db, 0, COLS, 1};
  _mlir_ciface_layernorm(&mx, &mg, &mb, &my);
  mgpuMemcpy(y, dy, sizeof(y), stream);
  mgpuStreamSynchronize(stream);

  double maxError = 0;
  for (int r = 0; r < ROWS; ++r) {
    double mean = 0, var = 0;
    for (int j = 0; j < COLS; ++j)
      mean += x[r * COLS + j];
    mean /= COLS;
    for (int j = 0; j < COLS; ++j)
      var += (x[r * COLS + j] - mean) * (x[r * COLS + j] - mean);
    var /= COLS;
    for (int j = 0; j < COLS; ++j) {
      double ref =
          (x[r * COLS + j] - mean) / sqrt(var + 1e-5) * gamma[j] + beta[j];
      double e = fabs((double)y[r * COLS + j] - ref);
      if (!(e <= maxError))
        maxError = isnan(e) ? INFINITY : e;
    }
  }
  printf("layernorm %dx%d: max abs error %g, within 1e-4: %s\n", ROWS, COLS,
         maxError, maxError <= 1e-4 ? "yes" : "no");
  int goodRunError = spacefusionRuntimeGetError();

  /* A descriptor of another size is rejected before anything is launched:
     the poisoned output stays poisoned. */
  for (int i = 0; i < ROWS * COLS; ++i)
    y[i] = NAN;
  mgpuMemcpy(dy, y, sizeof(y), stream);
  Memref2D shortX = {dx, dx, 0, {ROWS - 1, COLS}, {COLS, 1}};
  _mlir_ciface_layernorm(&shortX, &mg, &mb, &my);
  mgpuMemcpy(y, dy, sizeof(y), stream);
  mgpuStreamSynchronize(stream);
  int untouched = 1;
  for (int i = 0; i < ROWS * COLS; ++i)
    untouched &= isnan(y[i]) != 0;
  printf("wrong shape: error %d: %s; output untouched: %s\n",
         spacefusionRuntimeGetError(), spacefusionRuntimeGetErrorMessage(),
         untouched ? "yes" : "no");
  int rejected = spacefusionRuntimeGetError() == -2 && untouched;
  spacefusionRuntimeClearError();

  printf("runtime error code %d\n", goodRunError);
  mgpuMemFree(dx, stream);
  mgpuMemFree(dg, stream);
  mgpuMemFree(db, stream);
  mgpuMemFree(dy, stream);
  return maxError <= 1e-4 && goodRunError == 0 && rejected ? 0 : 1;
}
