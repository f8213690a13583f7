/* Host driver of attention-masks.mlir: causal and sliding-window f16
 * attention on device buffers through the runtime's mgpu* functions, checked
 * against a double-precision reference computed from the same f16 inputs.
 * Key j is hidden from query i when j > i + (keys - queries) (causal,
 * aligned bottom-right) or, with a window w, when j + w <= i + (keys -
 * queries). */
#include "spacefusion-runtime/Runtime.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef _Float16 half;
typedef struct {
  half *allocated, *aligned;
  int64_t offset, sizes[4], strides[4];
} Memref4D;
typedef void (*AttentionFn)(Memref4D *, Memref4D *, Memref4D *, Memref4D *);

void *mgpuStreamCreate(void);
void mgpuStreamSynchronize(void *stream);
void *mgpuMemAlloc(uint64_t bytes, void *stream, bool hostShared);
void mgpuMemcpy(void *dst, void *src, size_t bytes, void *stream);
void _mlir_ciface_causal_wgmma(Memref4D *, Memref4D *, Memref4D *, Memref4D *);
void _mlir_ciface_causal_ragged(Memref4D *, Memref4D *, Memref4D *, Memref4D *);
void _mlir_ciface_causal_prefill(Memref4D *, Memref4D *, Memref4D *,
                                 Memref4D *);
void _mlir_ciface_window(Memref4D *, Memref4D *, Memref4D *, Memref4D *);

static Memref4D onDevice(void *stream, const half *host, int64_t b, int64_t h,
                         int64_t r, int64_t c) {
  size_t bytes = (size_t)(b * h * r * c) * sizeof(half);
  half *device = mgpuMemAlloc(bytes, stream, false);
  mgpuMemcpy(device, (void *)host, bytes, stream);
  Memref4D m = {device, device, 0, {b, h, r, c}, {h * r * c, r * c, c, 1}};
  return m;
}

static half *randomHalves(size_t count) {
  half *x = malloc(count * sizeof(half));
  for (size_t i = 0; i < count; ++i)
    x[i] = (half)(2.0f * (float)rand() / RAND_MAX - 1.0f);
  return x;
}

static bool hidden(int i, int j, int s, int t, int window) {
  int last = i + (t - s);
  return j > last || (window > 0 && j + window <= last);
}

/* The reference output of one head into `ref`; returns max |ref|. */
static double reference(const half *q, const half *k, const half *v,
                        double *ref, int s, int t, int d, int window) {
  double *p = malloc((size_t)t * sizeof(double)), refMax = 0;
  double scale = 1.0 / sqrt((double)d);
  for (int i = 0; i < s; ++i) {
    double mx = -INFINITY, sum = 0;
    for (int j = 0; j < t; ++j) {
      double dot = 0;
      for (int c = 0; c < d; ++c)
        dot += (double)q[(size_t)i * d + c] * (double)k[(size_t)j * d + c];
      p[j] = hidden(i, j, s, t, window) ? -INFINITY : dot * scale;
      mx = fmax(mx, p[j]);
    }
    for (int j = 0; j < t; ++j)
      sum += (p[j] = exp(p[j] - mx));
    for (int c = 0; c < d; ++c) {
      double acc = 0;
      for (int j = 0; j < t; ++j)
        acc += p[j] * (double)v[(size_t)j * d + c];
      ref[(size_t)i * d + c] = acc / sum;
      refMax = fmax(refMax, fabs(acc / sum));
    }
  }
  free(p);
  return refMax;
}

/* Runs `fn` on random inputs and prints its error. */
static void check(void *stream, const char *name, AttentionFn fn, int b, int h,
                  int s, int t, int d, int window) {
  size_t nq = (size_t)b * h * s * d, nk = (size_t)b * h * t * d;
  half *q = randomHalves(nq), *k = randomHalves(nk), *v = randomHalves(nk);
  half *out = malloc(nq * sizeof(half));
  for (size_t i = 0; i < nq; ++i)
    out[i] = (half)NAN; /* poisoned */
  Memref4D mq = onDevice(stream, q, b, h, s, d),
           mk = onDevice(stream, k, b, h, t, d),
           mv = onDevice(stream, v, b, h, t, d),
           mo = onDevice(stream, out, b, h, s, d);
  mgpuStreamSynchronize(stream);
  fn(&mq, &mk, &mv, &mo);
  mgpuMemcpy(out, mo.aligned, nq * sizeof(half), stream);
  mgpuStreamSynchronize(stream);

  double *ref = malloc(nq * sizeof(double)), refMax = 0;
  for (int bh = 0; bh < b * h; ++bh)
    refMax = fmax(refMax, reference(q + (size_t)bh * s * d,
                                    k + (size_t)bh * t * d,
                                    v + (size_t)bh * t * d,
                                    ref + (size_t)bh * s * d, s, t, d, window));
  double maxError = 0;
  bool within = true;
  for (size_t i = 0; i < nq; ++i) {
    double e = fabs((double)out[i] - ref[i]);
    if (!(e <= 1e-2 * refMax + 1e-2 * fabs(ref[i])))
      within = false;
    if (!(e <= maxError))
      maxError = isnan(e) ? INFINITY : e;
  }
  printf("%s %dx%dx%dx%dx%d", name, b, h, s, t, d);
  if (window > 0)
    printf(" window %d", window);
  printf(": max abs error %g, within tolerance: %s\n", maxError,
         within ? "yes" : "no");
  free(q), free(k), free(v), free(out), free(ref);
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  printf("device found: %s\n", spacefusionRuntimeHasDevice() ? "yes" : "no");
  void *stream = mgpuStreamCreate();
  srand(7);
  check(stream, "causal_wgmma", _mlir_ciface_causal_wgmma, 2, 4, 1024, 1024,
        64, 0);
  check(stream, "causal_ragged", _mlir_ciface_causal_ragged, 1, 2, 197, 197,
        64, 0);
  check(stream, "causal_prefill", _mlir_ciface_causal_prefill, 1, 2, 128, 512,
        64, 0);
  check(stream, "window", _mlir_ciface_window, 1, 2, 1024, 1024, 64, 128);
  printf("runtime error code %d\n", spacefusionRuntimeGetError());
  return 0;
}
