// unfused.h: products the compiler may not contract into fused multiply-adds. Where a
// sum of products feeds a result that must be bitwise the same in every kernel variant
// (the maximally Abelian local problem, gauge/mag.h), contraction decisions could differ
// between variants compiled in different contexts; rounding every product on its own
// (__fmul_rn, __dmul_rn on the GPU) fixes the arithmetic. Host compilers do not contract
// across these calls either.
#pragma once
#include "core/qualifiers.h"
#include "math/complex.h"

namespace gf {

GF_INLINE float unfused_mul(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fmul_rn(a, b);
#else
  return a * b;
#endif
}

GF_INLINE double unfused_mul(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}

template <class T>
GF_INLINE T unfused_norm2(Complex<T> a) {
  return unfused_mul(a.re, a.re) + unfused_mul(a.im, a.im);
}

// conj(a) b
template <class T>
GF_INLINE Complex<T> unfused_conj_mul(Complex<T> a, Complex<T> b) {
  return {unfused_mul(a.re, b.re) + unfused_mul(a.im, b.im),
          unfused_mul(a.re, b.im) - unfused_mul(a.im, b.re)};
}

} // namespace gf
