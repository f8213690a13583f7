/* Host driver of attention-masks.mlir: causal, sliding-window and padded f16
 * attention on device buffers through the runtime's mgpu* functions, checked
 * against a double-precision reference computed from the same f16 inputs.
 * Key j is hidden from query i when j > i + (keys - queries) (causal,
 * aligned bottom-right) or, with a window w, when j + w <= i + (keys -
 * queries), or, with per-batch lengths, when j >= lens[b]. */
#include "gpu-test-common.h"

typedef void (*AttentionFn)(Memref4D *, Memref4D *, Memref4D *, Memref4D *);
GPU_TEST_MEMREF(LengthMemref, int64_t, 1);
typedef void (*PaddedFn)(Memref4D *, Memref4D *, Memref4D *, LengthMemref *,
                         Memref4D *);

void _mlir_ciface_causal_wgmma(Memref4D *, Memref4D *, Memref4D *, Memref4D *);
void _mlir_ciface_causal_ragged(Memref4D *, Memref4D *, Memref4D *, Memref4D *);
void _mlir_ciface_causal_prefill(Memref4D *, Memref4D *, Memref4D *,
                                 Memref4D *);
void _mlir_ciface_window(Memref4D *, Memref4D *, Memref4D *, Memref4D *);
void _mlir_ciface_padded(Memref4D *, Memref4D *, Memref4D *, LengthMemref *,
                         Memref4D *);

/* The mask: causal (window 0) or a sliding window, or, when `length` is
 * not negative, the keys from `length` on. */
static bool hidden(int i, int j, int s, int t, int window, int64_t length) {
  if (length >= 0)
    return j >= length;
  int last = i + (t - s);
  return j > last || (window > 0 && j + window <= last);
}

/* The reference output of one head into `ref`; returns max |ref|. */
static double reference(const half *q, const half *k, const half *v,
                        double *ref, int s, int t, int d, int window,
                        int64_t length) {
  double *p = malloc((size_t)t * sizeof(double)), refMax = 0;
  double scale = 1.0 / sqrt((double)d);
  for (int i = 0; i < s; ++i) {
    double mx = -INFINITY, sum = 0;
    for (int j = 0; j < t; ++j) {
      double dot = 0;
      for (int c = 0; c < d; ++c)
        dot += (double)q[(size_t)i * d + c] * (double)k[(size_t)j * d + c];
      p[j] = hidden(i, j, s, t, window, length) ? -INFINITY : dot * scale;
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

/* Runs `fn` (or `padded`, with the per-batch `lens`) on random inputs and
 * prints its error. */
static void check(void *stream, const char *name, AttentionFn fn,
                  PaddedFn padded, const int64_t *lens, int b, int h, int s,
                  int t, int d, int window) {
  size_t nq = (size_t)b * h * s * d, nk = (size_t)b * h * t * d;
  half *q = randomHalves(nq, 1), *k = randomHalves(nk, 1),
       *v = randomHalves(nk, 1);
  half *out = malloc(nq * sizeof(half));
  for (size_t i = 0; i < nq; ++i)
    out[i] = (half)NAN; /* poisoned */
  Memref4D mq = onDevice4D(stream, q, b, h, s, d),
           mk = onDevice4D(stream, k, b, h, t, d),
           mv = onDevice4D(stream, v, b, h, t, d),
           mo = onDevice4D(stream, out, b, h, s, d);
  LengthMemref ml = {0};
  if (lens) {
    int64_t *device = mgpuMemAlloc(b * sizeof(int64_t), stream, false);
    mgpuMemcpy(device, (void *)lens, b * sizeof(int64_t), stream);
    ml = (LengthMemref){device, device, 0, {b}, {1}};
  }
  mgpuStreamSynchronize(stream);
  if (lens)
    padded(&mq, &mk, &mv, &ml, &mo);
  else
    fn(&mq, &mk, &mv, &mo);
  mgpuMemcpy(out, mo.aligned, nq * sizeof(half), stream);
  mgpuStreamSynchronize(stream);

  double *ref = malloc(nq * sizeof(double)), refMax = 0;
  for (int bh = 0; bh < b * h; ++bh)
    refMax =
        fmax(refMax, reference(q + (size_t)bh * s * d, k + (size_t)bh * t * d,
                               v + (size_t)bh * t * d, ref + (size_t)bh * s * d,
                               s, t, d, window, lens ? lens[bh / h] : -1));
  double maxError;
  bool within = withinTolerance(out, ref, nq, refMax, &maxError);
  printf("%s %dx%dx%dx%dx%d", name, b, h, s, t, d);
  if (window > 0)
    printf(" window %d", window);
  for (int i = 0; lens && i < b; ++i)
    printf("%s %lld", i ? "" : " lengths", (long long)lens[i]);
  printf(": max abs error %g, within tolerance: %s\n", maxError,
         within ? "yes" : "no");
  free(q), free(k), free(v), free(out), free(ref);
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  printf("device found: %s\n", spacefusionRuntimeHasDevice() ? "yes" : "no");
  void *stream = mgpuStreamCreate();
  srand(7);
  check(stream, "causal_wgmma", _mlir_ciface_causal_wgmma, NULL, NULL, 2, 4,
        1024, 1024, 64, 0);
  check(stream, "causal_ragged", _mlir_ciface_causal_ragged, NULL, NULL, 1, 2,
        197, 197, 64, 0);
  check(stream, "causal_prefill", _mlir_ciface_causal_prefill, NULL, NULL, 1, 2,
        128, 512, 64, 0);
  check(stream, "window", _mlir_ciface_window, NULL, NULL, 1, 2, 1024, 1024, 64,
        128);
  /* Lengths that end a slice exactly, inside one, just past one, and one
   * key. */
  const int64_t lens[4] = {1024, 700, 129, 1};
  check(stream, "padded", NULL, _mlir_ciface_padded, lens, 4, 2, 1024, 1024, 64,
        0);
  printf("runtime error code %d\n", spacefusionRuntimeGetError());
  return 0;
}
