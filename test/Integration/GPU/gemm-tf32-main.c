/* Host driver of gemm-tf32.mlir: f32 GEMMs compiled with tf32=true, checked
 * against a double-precision reference of the inputs rounded to TF32 as the
 * compiler rounds them (to nearest, ties away): the products are exact in
 * double, so only the f32 accumulation may differ (|err| <= 2e-5 max|ref|). A
 * fragment layout off by one register shows as an error of order max|ref|. */
#include "gpu-test-common.h"

#include <string.h>

void _mlir_ciface_gemm(FloatMemref2D *a, FloatMemref2D *b, FloatMemref2D *out);
void _mlir_ciface_linear_bt(FloatMemref2D *x, FloatMemref2D *w,
                            FloatMemref2D *out);

static float *randomFloats(size_t count) {
  float *x = malloc(count * sizeof(float));
  for (size_t i = 0; i < count; ++i)
    x[i] = (float)(2.0 * rand() / RAND_MAX - 1.0);
  return x;
}

/* x rounded to TF32: half a unit added to the bits, 13 bits cleared. */
static double tf32(float x) {
  uint32_t bits;
  memcpy(&bits, &x, sizeof bits);
  bits = (bits + 0x1000u) & 0xFFFFE000u;
  float rounded;
  memcpy(&rounded, &bits, sizeof rounded);
  return rounded;
}

static FloatMemref2D onDevice(void *stream, const float *host, int64_t rows,
                              int64_t cols) {
  size_t bytes = (size_t)(rows * cols) * sizeof(float);
  float *device = mgpuMemAlloc(bytes, stream, false);
  mgpuMemcpy(device, (void *)host, bytes, stream);
  FloatMemref2D m = {device, device, 0, {rows, cols}, {cols, 1}};
  return m;
}

/* C[m][n] = sum_k A[m][k] B[k][n], B read as [n][k] with `transposedB`. */
static void check(void *stream, const char *name, int m, int n, int k,
                  bool transposedB) {
  float *a = randomFloats((size_t)m * k), *b = randomFloats((size_t)k * n);
  float *out = malloc((size_t)m * n * sizeof(float));
  for (size_t i = 0; i < (size_t)m * n; ++i)
    out[i] = NAN; /* poisoned */
  FloatMemref2D ma = onDevice(stream, a, m, k);
  FloatMemref2D mb = transposedB ? onDevice(stream, b, n, k)
                                 : onDevice(stream, b, k, n);
  FloatMemref2D mo = onDevice(stream, out, m, n);
  mgpuStreamSynchronize(stream);
  if (transposedB)
    _mlir_ciface_linear_bt(&ma, &mb, &mo);
  else
    _mlir_ciface_gemm(&ma, &mb, &mo);
  mgpuMemcpy(out, mo.aligned, (size_t)m * n * sizeof(float), stream);
  mgpuStreamSynchronize(stream);

  double refMax = 0, maxError = 0;
  double *ref = calloc((size_t)m * n, sizeof(double));
  for (int i = 0; i < m; ++i)
    for (int l = 0; l < k; ++l) {
      double x = tf32(a[(size_t)i * k + l]);
      for (int j = 0; j < n; ++j)
        ref[(size_t)i * n + j] +=
            x * tf32(transposedB ? b[(size_t)j * k + l] : b[(size_t)l * n + j]);
    }
  for (size_t i = 0; i < (size_t)m * n; ++i)
    refMax = fmax(refMax, fabs(ref[i]));
  bool within = true;
  for (size_t i = 0; i < (size_t)m * n; ++i) {
    double e = fabs((double)out[i] - ref[i]);
    if (!(e <= 2e-5 * refMax))
      within = false;
    if (!(e <= maxError))
      maxError = isnan(e) ? INFINITY : e;
  }
  printf("%s %dx%dx%d: max abs error %g of max|ref| %g, within tolerance: %s\n",
         name, m, n, k, maxError, refMax, within ? "yes" : "no");
  free(a), free(b), free(out), free(ref);
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  printf("device found: %s\n", spacefusionRuntimeHasDevice() ? "yes" : "no");
  void *stream = mgpuStreamCreate();
  srand(11);
  check(stream, "gemm", 1024, 512, 768, false);
  check(stream, "linear_bt", 512, 384, 256, true);
  printf("runtime error code %d\n", spacefusionRuntimeGetError());
  return 0;
}
