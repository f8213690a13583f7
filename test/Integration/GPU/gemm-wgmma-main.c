/* Host driver of gemm-wgmma.mlir: f16 GEMMs (C = A . B, and GELU(A . W + b))
 * on device buffers through the runtime's mgpu* functions, checked against a
 * double-precision reference computed from the same f16 inputs. */
#include "gpu-test-common.h"

void _mlir_ciface_gemm_wgmma(Memref2D *a, Memref2D *b, Memref2D *out);
void _mlir_ciface_gemm_ragged(Memref2D *a, Memref2D *b, Memref2D *out);
void _mlir_ciface_linear_gelu(Memref2D *x, Memref2D *w, Memref1D *bias,
                              Memref2D *out);

static half *toDevice(void *stream, const half *host, size_t count) {
  half *device = mgpuMemAlloc(count * sizeof(half), stream, false);
  mgpuMemcpy(device, (void *)host, count * sizeof(half), stream);
  return device;
}

static Memref2D matrix(half *device, int64_t rows, int64_t cols) {
  Memref2D m = {device, device, 0, {rows, cols}, {cols, 1}};
  return m;
}

/* C[m][n] = act(sum_k A[m][k] B[k][n] + bias[n]) on the GPU and in double;
 * prints the error. */
static void check(void *stream, const char *name, int m, int n, int k,
                  bool gelu) {
  half *a = randomHalves((size_t)m * k, 1), *b = randomHalves((size_t)k * n, 1);
  half *bias = randomHalves(n, 1), *out = malloc((size_t)m * n * sizeof(half));
  for (size_t i = 0; i < (size_t)m * n; ++i)
    out[i] = (half)NAN; /* poisoned */
  Memref2D ma = matrix(toDevice(stream, a, (size_t)m * k), m, k);
  Memref2D mb = matrix(toDevice(stream, b, (size_t)k * n), k, n);
  Memref2D mo = matrix(toDevice(stream, out, (size_t)m * n), m, n);
  half *biasDevice = toDevice(stream, bias, n);
  Memref1D mbias = {biasDevice, biasDevice, 0, {n}, {1}};
  mgpuStreamSynchronize(stream);
#ifndef RAGGED_ONLY
  if (gelu)
    _mlir_ciface_linear_gelu(&ma, &mb, &mbias, &mo);
  else if (m % 128 == 0)
    _mlir_ciface_gemm_wgmma(&ma, &mb, &mo);
#endif
#ifndef TILED_ONLY
  if (!gelu && m % 128 != 0)
    _mlir_ciface_gemm_ragged(&ma, &mb, &mo);
#endif
  mgpuMemcpy(out, mo.aligned, (size_t)m * n * sizeof(half), stream);
  mgpuStreamSynchronize(stream);

  /* B as doubles: converting halves in the inner loop kept it scalar
     (about 12 s per 2048x1024x512 reference). */
  double *bd = toDoubles(b, (size_t)k * n);
  double *ref = calloc((size_t)m * n, sizeof(double)), refMax = 0;
  for (int i = 0; i < m; ++i)
    for (int l = 0; l < k; ++l) {
      double x = (double)a[(size_t)i * k + l];
      for (int j = 0; j < n; ++j)
        ref[(size_t)i * n + j] += x * bd[(size_t)l * n + j];
    }
  free(bd);
  for (size_t i = 0; i < (size_t)m * n; ++i) {
    if (gelu) {
      double x = ref[i] + (double)bias[i % n];
      ref[i] = 0.5 * x * (1 + tanh(0.7978845608 * (x + 0.044715 * x * x * x)));
    }
    refMax = fmax(refMax, fabs(ref[i]));
  }
  double maxError;
  bool within = withinTolerance(out, ref, (size_t)m * n, refMax, &maxError);
  printf("%s %dx%dx%d: max abs error %g, within tolerance: %s\n", name, m, n, k,
         maxError, within ? "yes" : "no");
  free(a), free(b), free(bias), free(out), free(ref);
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  printf("device found: %s\n", spacefusionRuntimeHasDevice() ? "yes" : "no");
  void *stream = mgpuStreamCreate();
  srand(7);
#ifndef RAGGED_ONLY
  check(stream, "gemm_wgmma", 2048, 1024, 512, false);
  check(stream, "linear_gelu", 2048, 1024, 512, true);
#endif
#ifndef TILED_ONLY
  check(stream, "gemm_ragged", 200, 120, 72, false);
#endif
  printf("runtime error code %d\n", spacefusionRuntimeGetError());
  return 0;
}
