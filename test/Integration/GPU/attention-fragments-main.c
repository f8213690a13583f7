/* Host driver of attention-fragments.mlir: f16 attention (head dims 64 and
 * 128, with and without an additive mask) on device buffers through the
 * runtime's mgpu* functions, checked against a double-precision reference
 * computed from the same f16 inputs. */
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

void *mgpuStreamCreate(void);
void mgpuStreamSynchronize(void *stream);
void *mgpuMemAlloc(uint64_t bytes, void *stream, bool hostShared);
void mgpuMemcpy(void *dst, void *src, size_t bytes, void *stream);
void _mlir_ciface_attention_d64(Memref4D *q, Memref4D *k, Memref4D *v,
                                Memref4D *out);
void _mlir_ciface_attention_d128(Memref4D *q, Memref4D *k, Memref4D *v,
                                 Memref4D *out);
void _mlir_ciface_attention_mask(Memref4D *q, Memref4D *k, Memref4D *v,
                                 Memref4D *mask, Memref4D *out);
void _mlir_ciface_attention_wgmma_d64(Memref4D *q, Memref4D *k, Memref4D *v,
                                      Memref4D *out);
void _mlir_ciface_attention_wgmma_d128(Memref4D *q, Memref4D *k, Memref4D *v,
                                       Memref4D *out);

static Memref4D onDevice(void *stream, const half *host, int64_t b, int64_t h,
                         int64_t r, int64_t c) {
  size_t bytes = (size_t)(b * h * r * c) * sizeof(half);
  half *device = mgpuMemAlloc(bytes, stream, false);
  mgpuMemcpy(device, (void *)host, bytes, stream);
  Memref4D m = {device, device, 0, {b, h, r, c}, {h * r * c, r * c, c, 1}};
  return m;
}

static half *randomHalves(size_t count, float scale) {
  half *x = malloc(count * sizeof(half));
  for (size_t i = 0; i < count; ++i)
    x[i] = (half)(scale * (2.0f * (float)rand() / RAND_MAX - 1.0f));
  return x;
}

/* Runs one variant (mask may be null) and prints its error. */
static void check(void *stream, const char *name, int b, int h, int s, int d,
                  bool masked) {
  size_t n = (size_t)b * h * s * d, nm = (size_t)b * h * s * s;
  half *q = randomHalves(n, 1), *k = randomHalves(n, 1),
       *v = randomHalves(n, 1);
  half *mask = masked ? randomHalves(nm, 2) : NULL;
  half *out = malloc(n * sizeof(half));
  for (size_t i = 0; i < n; ++i)
    out[i] = (half)NAN; /* poisoned */
  Memref4D mq = onDevice(stream, q, b, h, s, d),
           mk = onDevice(stream, k, b, h, s, d);
  Memref4D mv = onDevice(stream, v, b, h, s, d),
           mo = onDevice(stream, out, b, h, s, d);
  Memref4D mm;
  if (masked)
    mm = onDevice(stream, mask, b, h, s, s);
  mgpuStreamSynchronize(stream);
  if (masked)
    _mlir_ciface_attention_mask(&mq, &mk, &mv, &mm, &mo);
  else if (b * h >= 8) /* the shapes that take wgmma */
    (d == 64 ? _mlir_ciface_attention_wgmma_d64
             : _mlir_ciface_attention_wgmma_d128)(&mq, &mk, &mv, &mo);
  else if (d == 64)
    _mlir_ciface_attention_d64(&mq, &mk, &mv, &mo);
  else
    _mlir_ciface_attention_d128(&mq, &mk, &mv, &mo);
  mgpuMemcpy(out, mo.aligned, n * sizeof(half), stream);
  mgpuStreamSynchronize(stream);

  double *ref = malloc(n * sizeof(double)), *p = malloc(s * sizeof(double));
  double scale = 1.0 / sqrt((double)d), refMax = 0;
  for (int bh = 0; bh < b * h; ++bh)
    for (int m = 0; m < s; ++m) {
      const half *qr = q + ((size_t)bh * s + m) * d;
      double mx = -INFINITY, sum = 0;
      for (int l = 0; l < s; ++l) {
        const half *kr = k + ((size_t)bh * s + l) * d;
        double dot = 0;
        for (int j = 0; j < d; ++j)
          dot += (double)qr[j] * (double)kr[j];
        p[l] = dot * scale +
               (masked ? (double)mask[((size_t)bh * s + m) * s + l] : 0.0);
        mx = fmax(mx, p[l]);
      }
      for (int l = 0; l < s; ++l)
        sum += (p[l] = exp(p[l] - mx));
      for (int j = 0; j < d; ++j) {
        double acc = 0;
        for (int l = 0; l < s; ++l)
          acc += p[l] * (double)v[((size_t)bh * s + l) * d + j];
        ref[((size_t)bh * s + m) * d + j] = acc / sum;
        refMax = fmax(refMax, fabs(acc / sum));
      }
    }
  double maxError = 0;
  bool within = true;
  for (size_t i = 0; i < n; ++i) {
    double e = fabs((double)out[i] - ref[i]);
    if (!(e <= 1e-2 * refMax + 1e-2 * fabs(ref[i])))
      within = false;
    if (!(e <= maxError))
      maxError = isnan(e) ? INFINITY : e;
  }
  printf("%s %dx%dx%dx%d: max abs error %g, within tolerance: %s\n", name, b, h,
         s, d, maxError, within ? "yes" : "no");
  free(q), free(k), free(v), free(mask), free(out), free(ref), free(p);
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  printf("device found: %s\n", spacefusionRuntimeHasDevice() ? "yes" : "no");
  void *stream = mgpuStreamCreate();
  srand(11);
  check(stream, "attention_d64", 1, 2, 1024, 64, false);
  check(stream, "attention_d128", 2, 2, 512, 128, false);
  check(stream, "attention_mask", 1, 2, 512, 64, true);
  check(stream, "attention_wgmma_d64", 2, 8, 1024, 64, false);
  check(stream, "attention_wgmma_d128", 2, 4, 1024, 128, false);
  printf("runtime error code %d\n", spacefusionRuntimeGetError());
  return 0;
}
