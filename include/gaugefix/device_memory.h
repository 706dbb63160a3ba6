// device_memory.h: memory of a CUDA device, through the CUDA runtime inside libgaugefix (nvcc
// links it statically into the library, so a program using the library needs no second copy
// for these copies). The Python module reads arrays with __cuda_array_interface__ (CuPy,
// PyTorch) and returns device arrays through it (docs/api.md).
//
// Pointers are those of unified addressing: memory of any device, allocated by any runtime of
// the process (CuPy's, PyTorch's), is copied where it is. A stream is a cudaStream_t given as
// an integer, as __cuda_array_interface__ gives it: 0 none (nothing to wait for), 1 the
// legacy default stream, 2 the per-thread default stream, else the stream's handle.
//
// Every function but built_with_cuda and device_free throws gaugefix::Error naming the
// function and the failure: the runtime's message, host memory where device memory is
// expected, or "this gaugefix was built without CUDA (-Dcuda=enabled)" in a build without it.
#pragma once
#include "gaugefix/options.h"
#include <cstddef>
#include <cstdint>

namespace gaugefix {

GAUGEFIX_API bool built_with_cuda();

// The device whose memory `pointer` is (device or managed memory).
GAUGEFIX_API int device_of(const void* pointer);

// Waits for the work queued on `stream`, then copies `bytes` from device to host memory.
GAUGEFIX_API void copy_from_device(void* host, const void* device, std::size_t bytes,
                                   std::uintptr_t stream);
// Copies `bytes` from host to device memory; complete when it returns.
GAUGEFIX_API void copy_to_device(void* device, const void* host, std::size_t bytes);

// `bytes` of memory of device `device` (cudaMalloc), freed by device_free (nullptr allowed).
GAUGEFIX_API void* device_allocate(std::size_t bytes, int device);
GAUGEFIX_API void device_free(void* pointer) noexcept;

} // namespace gaugefix
