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
