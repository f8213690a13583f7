/*===- spacefusion-runtime/Runtime.h - Runtime error state --------*- C -*-===*\
|*                                                                            *|
|* Part of the SpaceFusion-MLIR project, under the Apache License v2.0 with   *|
|* LLVM Exceptions. See LICENSE for license information.                      *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* libspacefusion_cuda_runtime.so implements MLIR's mgpu* host ABI on the     *|
|* CUDA driver API. Besides it, these functions let a caller check what the   *|
|* compiled code could not report itself: the mgpu* functions return no      *|
|* status, so every failing driver call is printed and the first one is kept. *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef SPACEFUSION_RUNTIME_RUNTIME_H
#define SPACEFUSION_RUNTIME_RUNTIME_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The first error since the last clear: a CUresult, -1 for the runtime's own
/// errors (no GPU, kernel not found), 0 when all calls succeeded.
int spacefusionRuntimeGetError(void);

/// The message of that error ("launching kernel 'k' (...): cuLaunchKernel
/// failed: CUDA_ERROR_INVALID_VALUE (...)"), or "".
const char *spacefusionRuntimeGetErrorMessage(void);

/// Forgets the recorded error.
void spacefusionRuntimeClearError(void);

/// Called by compiled entry points (smap-check-entry-shapes) when a caller
/// passes a memref whose size in `dim` differs from the static size the
/// function was compiled for; records error -2 with a message naming the
/// function, the argument (from 0) and both sizes. The entry point then
/// returns without launching anything.
void spacefusionRuntimeArgumentMismatch(const char *function, int64_t argument,
                                        int64_t dim, int64_t expected,
                                        int64_t actual);

/// 1 when a CUDA driver and at least one device are present.
int spacefusionRuntimeHasDevice(void);

/// Makes compiled code run on `stream` (a CUstream the caller owns, e.g.
/// torch.cuda.current_stream().cuda_stream; NULL is the legacy default
/// stream) without waiting for it: calls then return as soon as the work is
/// enqueued, and the caller synchronizes.
void spacefusionRuntimeSetStream(void *stream);

/// Back to the default: each call creates its own stream and waits for it.
void spacefusionRuntimeResetStream(void);

/// Device buffers compiled code allocates and frees on the stream given to
/// spacefusionRuntimeSetStream (a partitioned graph's intermediates) are
/// kept for the next allocation of the same size on that stream, as
/// PyTorch's caching allocator does: the driver's stream-ordered allocation
/// and release of a large buffer cost the host hundreds of microseconds per
/// call. This frees them (after the work already on their stream).
void spacefusionRuntimeReleaseCachedMemory(void);

/// A kernel module defines a global of this prefix and a kernel's name when
/// the kernel waits for the grid before it before touching memory
/// (smap-overlap-kernel-launches): the runtime then launches it with
/// programmatic stream serialization, so that it may start while the one
/// before it finishes. Set SPACEFUSION_DEPENDENT_LAUNCH=0 in the
/// environment to launch it as any other kernel.
#define SPACEFUSION_DEPENDENT_LAUNCH_PREFIX "spacefusion_dependent_launch_"

/// Set SPACEFUSION_RUNTIME_TRACE in the environment to have every runtime
/// entry point compiled code calls print its host time on stderr.

#ifdef __cplusplus
}
#endif

#endif /* SPACEFUSION_RUNTIME_RUNTIME_H */
