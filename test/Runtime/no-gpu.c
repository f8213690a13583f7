// Without a GPU the runtime says so, once and clearly, records the error for
// the caller, and nothing crashes.
// REQUIRES: cuda-runtime
// UNSUPPORTED: gpu
// RUN: clang %s -I%spacefusion_include %spacefusion_runtime_link -o %t
// RUN: %t 2>&1 | FileCheck %s

#include "spacefusion-runtime/Runtime.h"

#include <stdint.h>
#include <stdio.h>

void *mgpuStreamCreate(void);
void *mgpuMemAlloc(uint64_t size, void *stream, _Bool hostShared);
void *mgpuModuleLoad(void *data, size_t size);
void *mgpuModuleGetFunction(void *module, const char *name);
void mgpuLaunchKernel(void *function, intptr_t gx, intptr_t gy, intptr_t gz,
                      intptr_t bx, intptr_t by, intptr_t bz, int32_t smem,
                      void *stream, void **params, void **extra, size_t count);

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  // CHECK: has device: 0
  printf("has device: %d\n", spacefusionRuntimeHasDevice());
  // CHECK: spacefusion-runtime: no CUDA driver on this machine (libcuda.so.1 could not be loaded); use the CPU path instead
  void *stream = mgpuStreamCreate();
  void *ptr = mgpuMemAlloc(1024, stream, 0);
  char blob[16] = {0};
  void *module = mgpuModuleLoad(blob, sizeof(blob));
  // CHECK: spacefusion-runtime: looking up kernel 'k' in a module that failed to load
  void *function = mgpuModuleGetFunction(module, "k");
  // CHECK: spacefusion-runtime: launching a kernel that was not found
  mgpuLaunchKernel(function, 1, 1, 1, 1, 1, 1, 0, stream, NULL, NULL, 0);
  // CHECK: stream null: 1, alloc null: 1
  printf("stream null: %d, alloc null: %d\n", stream == NULL, ptr == NULL);
  // CHECK: error -1: no CUDA driver on this machine
  printf("error %d: %s\n", spacefusionRuntimeGetError(),
         spacefusionRuntimeGetErrorMessage());
  spacefusionRuntimeClearError();
  // CHECK: after clear: 0
  printf("after clear: %d\n", spacefusionRuntimeGetError());
  // CHECK-NOT: no CUDA driver
  return 0;
}
