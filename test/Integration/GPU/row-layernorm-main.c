/* Host driver of row-layernorm.mlir: device buffers through the runtime's
 * mgpu* functions, the compiled entry point on memref descriptors of device
 * pointers, and a double-precision reference on the host. */
#include "gpu-test-common.h"

enum { ROWS = 301, COLS = 1000 };

void _mlir_ciface_layernorm(FloatMemref2D *x, FloatMemref1D *gamma,
                            FloatMemref1D *beta, FloatMemref2D *y);

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

  FloatMemref2D mx = {dx, dx, 0, {ROWS, COLS}, {COLS, 1}};
  FloatMemref2D my = {dy, dy, 0, {ROWS, COLS}, {COLS, 1}};
  FloatMemref1D mg = {dg, dg, 0, {COLS}, {1}}, mb = {db, db, 0, {COLS}, {1}};
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
  FloatMemref2D shortX = {dx, dx, 0, {ROWS - 1, COLS}, {COLS, 1}};
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
