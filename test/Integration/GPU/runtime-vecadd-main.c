/* Host driver of runtime-vecadd.mlir: calls the compiled entry points with
 * memref descriptors and checks the result and the runtime's error state. */
#include "spacefusion-runtime/Runtime.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  float *allocated, *aligned;
  int64_t offset, size, stride;
} Memref1D;

void _mlir_ciface_vecadd(Memref1D *a, Memref1D *b, Memref1D *c);
void _mlir_ciface_vecadd_too_much_smem(Memref1D *a);
/* What compiled host code calls for a buffer of its own. */
void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, _Bool isHostShared);
void mgpuMemFree(void *ptr, void *stream);

static Memref1D wrap(float *data, int64_t n) {
  Memref1D m = {data, data, 0, n, 1};
  return m;
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  printf("device found: %s\n", spacefusionRuntimeHasDevice() ? "yes" : "no");
  const int64_t n = 1 << 20;
  float *a = malloc(n * sizeof(float)), *b = malloc(n * sizeof(float)),
        *c = malloc(n * sizeof(float));
  for (int64_t i = 0; i < n; ++i) {
    a[i] = (float)(i % 1000) * 0.5f;
    b[i] = (float)(i % 7) - 3.0f;
    c[i] = NAN; /* poisoned */
  }
  Memref1D ma = wrap(a, n), mb = wrap(b, n), mc = wrap(c, n);
  _mlir_ciface_vecadd(&ma, &mb, &mc);
  double maxError = 0;
  for (int64_t i = 0; i < n; ++i) {
    double e = fabs((double)c[i] - ((double)a[i] + (double)b[i]));
    if (!(e <= maxError))
      maxError = isnan(e) ? INFINITY : e;
  }
  printf("vecadd: %lld elements, max error %g\n", (long long)n, maxError);
  printf("vecadd: runtime error code %d\n", spacefusionRuntimeGetError());

  /* On the caller's stream, a freed buffer serves the next allocation of
   * its size; a buffer still in use is never handed out twice. */
  spacefusionRuntimeSetStream(NULL);
  void *first = mgpuMemAlloc(64 << 20, NULL, 0);
  mgpuMemFree(first, NULL);
  void *again = mgpuMemAlloc(64 << 20, NULL, 0);
  void *other = mgpuMemAlloc(64 << 20, NULL, 0);
  printf("buffer cache: freed buffer reused: %s, live buffers distinct: %s\n",
         first && again == first ? "yes" : "no",
         other && other != again ? "yes" : "no");
  mgpuMemFree(again, NULL);
  mgpuMemFree(other, NULL);
  spacefusionRuntimeReleaseCachedMemory();
  spacefusionRuntimeResetStream();
  printf("buffer cache: runtime error code %d\n", spacefusionRuntimeGetError());

  Memref1D small = wrap(a, 1024);
  _mlir_ciface_vecadd_too_much_smem(&small);
  printf("vecadd_too_much_smem: runtime error: %s\n",
         spacefusionRuntimeGetErrorMessage());
  free(a);
  free(b);
  free(c);
  return spacefusionRuntimeGetError() == 0 ? 1 : 0;
}
