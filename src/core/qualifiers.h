// qualifiers.h: the portability macros of gaugefix, and the host's prefetch hint.
// GF_HD marks functions that run on the host and, when compiled by nvcc, on the device.
// Everything in math/, lattice/ (views), gauge/ and update/ is written with it, so the
// CPU backend and the CUDA backend compile the same source.
#pragma once
#include <cstdint>

#if defined(__CUDACC__)
#define GF_HD __host__ __device__
#define GF_INLINE __host__ __device__ __forceinline__
#else
#define GF_HD
#define GF_INLINE inline
#endif

// Loop unrolling hints for nvcc's device pass: GF_UNROLL keeps small matrices in registers,
// GF_NO_UNROLL keeps a loop's iterations apart (fewer registers live at once).
#if defined(__CUDA_ARCH__)
#define GF_UNROLL _Pragma("unroll")
#define GF_NO_UNROLL _Pragma("unroll 1")
#else
#define GF_UNROLL
#define GF_NO_UNROLL
#endif

// A hint to bring the cache line at address `a` (an integer: it may lie past an array's end,
// which a prefetch tolerates and pointer arithmetic does not) into the host's caches; nothing
// on a GPU, whose threads hide latency by their number.
GF_INLINE void prefetch_host(std::uintptr_t a) {
#if !defined(__CUDA_ARCH__) && defined(__GNUC__)
  __builtin_prefetch(reinterpret_cast<const void*>(a));
#else
  (void)a;
#endif
}

// prefetch_host for every (64-byte) cache line that the `bytes` bytes from address `a` touch.
GF_INLINE void prefetch_host_bytes(std::uintptr_t a, std::uintptr_t bytes) {
  constexpr std::uintptr_t line = 64;
  for (std::uintptr_t l = a & ~(line - 1); l < a + bytes; l += line)
    prefetch_host(l);
}
