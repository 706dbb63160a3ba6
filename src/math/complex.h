// complex.h: a small complex number usable on host and device (std::complex is not).
// Plain aggregate {re, im}; arithmetic in the type T (float, double, or Simd<float|double, W>
// for W sites at once, math/simd.h); conversions between float and double are explicit
// through complex_cast.
#pragma once
#include "math/real.h"

namespace gf {

template <class T>
struct Complex {
  T re, im;
};

template <class To, class From>
GF_INLINE Complex<To> complex_cast(Complex<From> a) {
  return {static_cast<To>(a.re), static_cast<To>(a.im)};
}

template <class T>
GF_INLINE Complex<T> operator+(Complex<T> a, Complex<T> b) { return {a.re + b.re, a.im + b.im}; }
template <class T>
GF_INLINE Complex<T> operator-(Complex<T> a, Complex<T> b) { return {a.re - b.re, a.im - b.im}; }
template <class T>
GF_INLINE Complex<T> operator-(Complex<T> a) { return {-a.re, -a.im}; }
template <class T>
GF_INLINE Complex<T> operator*(Complex<T> a, Complex<T> b) {
  return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
template <class T>
GF_INLINE Complex<T> operator*(T s, Complex<T> a) { return {s * a.re, s * a.im}; }
template <class T>
GF_INLINE Complex<T>& operator+=(Complex<T>& a, Complex<T> b) {
  a.re += b.re;
  a.im += b.im;
  return a;
}
template <class T>
GF_INLINE Complex<T>& operator-=(Complex<T>& a, Complex<T> b) {
  a.re -= b.re;
  a.im -= b.im;
  return a;
}
template <class T>
GF_INLINE Complex<T> conj(Complex<T> a) { return {a.re, -a.im}; }
template <class T>
GF_INLINE T norm2(Complex<T> a) { return a.re * a.re + a.im * a.im; }
// product(a, b) = a b and multiply_add(s, a, b) = s + a b, the steps of every sum of
// products whose bits must not depend on the code it is inlined into (matrix products,
// subgroup rotations: all kernel variants give bitwise the same field). On the host as
// written, each product and sum rounded (the build forbids contraction). On the GPU, where
// nvcc contracts a * b + c into fused multiply-adds as the context suggests, one fixed chain
// of fused multiply-adds: re = fma(-a.im, b.im, fma(a.re, b.re, s.re)), likewise im.
#if defined(__CUDA_ARCH__)
GF_INLINE float fused_multiply_add(float a, float b, float c) { return __fmaf_rn(a, b, c); }
GF_INLINE double fused_multiply_add(double a, double b, double c) { return __fma_rn(a, b, c); }
#endif
template <class T>
GF_INLINE Complex<T> product(Complex<T> a, Complex<T> b) {
#if defined(__CUDA_ARCH__)
  return {fused_multiply_add(-a.im, b.im, a.re * b.re), fused_multiply_add(a.im, b.re, a.re * b.im)};
#else
  return a * b;
#endif
}
template <class T>
GF_INLINE Complex<T> multiply_add(Complex<T> s, Complex<T> a, Complex<T> b) {
#if defined(__CUDA_ARCH__)
  return {fused_multiply_add(-a.im, b.im, fused_multiply_add(a.re, b.re, s.re)),
          fused_multiply_add(a.im, b.re, fused_multiply_add(a.re, b.im, s.im))};
#else
  return s + a * b;
#endif
}
// a where m holds, else b (m: bool, or the mask of Simd, math/real.h).
template <class M, class T>
GF_INLINE Complex<T> select(const M& m, Complex<T> a, Complex<T> b) {
  return {select(m, a.re, b.re), select(m, a.im, b.im)};
}
// a* b, the building block of inner products
template <class T>
GF_INLINE Complex<T> conj_mul(Complex<T> a, Complex<T> b) {
  return {a.re * b.re + a.im * b.im, a.re * b.im - a.im * b.re};
}

} // namespace gf
