/* Host driver of attention-masks.mlir: causal and sliding-window f16
 * attention on device buffers through the runtime's mgpu* functions, checked
 * against a double-precision reference computed from the same f16 inputs.
 * Key j is hidden from query i when j > i + (keys - queries) (causal,
 * aligned bottom-right) or, with a window w, when j + w <= i + (keys -
 * queries). */
#include "gpu-test-common.h"

typedef void (*AttentionFn)(Memref4D *, Memref4D *, Memref4D *, Memref4D *);

void _mlir_ciface_causal_wgmma(Memref4D *, Memref4D *, Memref4D *, Memref4D *);
void _mlir_ciface_causal_ragged(Memref4D *, Memref4D *, Memref4D *, Memref4D *);
void _mlir_ciface_causal_prefill(Memref4D *, Memref4D *, Memref4D *,
                                 Memref4D *);
void _mlir_ciface_window(Memref4D *, Memref4D *, Memref4D *, Memref4D *);

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
  half *q = randomHalves(nq, 1), *k = randomHalves(nk, 1),
       *v = randomHalves(nk, 1);
  half *out = malloc(nq * sizeof(half));
  for (size_t i = 0; i < nq; ++i)
    out[i] = (half)NAN; /* poisoned */
  Memref4D mq = onDevice4D(stream, q, b, h, s, d),
           mk = onDevice4D(stream, k, b, h, t, d),
           mv = onDevice4D(stream, v, b, h, t, d),
           mo = onDevice4D(stream, out, b, h, s, d);
  mgpuStreamSynchronize(stream);
  fn(&mq, &mk, &mv, &mo);
  mgpuMemcpy(out, mo.aligned, nq * sizeof(half), stream);
  mgpuStreamSynchronize(stream);

  double *ref = malloc(nq * sizeof(double)), refMax = 0;
  for (int bh = 0; bh < b * h; ++bh)
    refMax =
        fmax(refMax, reference(q + (size_t)bh * s * d, k + (size_t)bh * t * d,
                               v + (size_t)bh * t * d, ref + (size_t)bh * s * d,
                               s, t, d, window));
  double maxError;
  bool within = withinTolerance(out, ref, nq, refMax, &maxError);
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
  check(stream, "causal_wgmma", _mlir_ciface_causal_wgmma, 2, 4, 1024, 1024, 64,
        0);
  check(stream, "causal_ragged", _mlir_ciface_causal_ragged, 1, 2, 197, 197, 64,
        0);
  check(stream, "causal_prefill", _mlir_ciface_causal_prefill, 1, 2, 128, 512,
        64, 0);
  check(stream, "window", _mlir_ciface_window, 1, 2, 1024, 1024, 64, 128);
  printf("runtime error code %d\n", spacefusionRuntimeGetError());
  return 0;
}
