// qualifiers.h: the one portability macro of gaugefix.
// GF_HD marks functions that run on the host and, when compiled by nvcc, on the device.
// Everything in math/, lattice/ (views), gauge/ and update/ is written with it, so the
// CPU backend and the CUDA backend compile the same source.
#pragma once

#if defined(__CUDACC__)
#define GF_HD __host__ __device__
#define GF_INLINE __host__ __device__ __forceinline__
#else
#define GF_HD
#define GF_INLINE inline
#endif

// Loop unrolling hint for nvcc's device pass (keeps small matrices in registers).
#if defined(__CUDA_ARCH__)
#define GF_UNROLL _Pragma("unroll")
#else
#define GF_UNROLL
#endif
