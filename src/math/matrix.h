// matrix.h: dense N x N complex matrices (N = 2 for SU(2), 3 for SU(3)) on host and device.
// Row-major storage m[i][j]. Loops have compile-time bounds so that nvcc keeps the
// elements in registers. Group-specific operations live in su_n.h.
#pragma once
#include "math/complex.h"

namespace gf {

template <class T, int N>
struct Matrix {
  Complex<T> m[N][N];

  GF_INLINE Complex<T>& operator()(int i, int j) { return m[i][j]; }
  GF_INLINE const Complex<T>& operator()(int i, int j) const { return m[i][j]; }

  GF_INLINE static Matrix identity() {
    Matrix r;
GF_UNROLL
    for (int i = 0; i < N; ++i)
GF_UNROLL
      for (int j = 0; j < N; ++j) r.m[i][j] = {T(i == j ? 1 : 0), T(0)};
    return r;
  }
  GF_INLINE static Matrix zero() {
    Matrix r;
GF_UNROLL
    for (int i = 0; i < N; ++i)
GF_UNROLL
      for (int j = 0; j < N; ++j) r.m[i][j] = {T(0), T(0)};
    return r;
  }
};

template <class To, class From, int N>
GF_INLINE Matrix<To, N> matrix_cast(const Matrix<From, N>& a) {
  Matrix<To, N> r;
GF_UNROLL
  for (int i = 0; i < N; ++i)
GF_UNROLL
    for (int j = 0; j < N; ++j) r.m[i][j] = complex_cast<To>(a.m[i][j]);
  return r;
}

template <class T, int N>
GF_INLINE Matrix<T, N> operator*(const Matrix<T, N>& a, const Matrix<T, N>& b) {
  Matrix<T, N> r;
GF_UNROLL
  for (int i = 0; i < N; ++i)
GF_UNROLL
    for (int j = 0; j < N; ++j) {
      Complex<T> s = product(a.m[i][0], b.m[0][j]);
GF_UNROLL
      for (int k = 1; k < N; ++k) s = multiply_add(s, a.m[i][k], b.m[k][j]);
      r.m[i][j] = s;
    }
  return r;
}

// The first `rows` rows of a * b, the others zero: row i of a product needs only row i of a,
// so these rows are bitwise those of a * b.
template <int rows, class T, int N>
GF_INLINE Matrix<T, N> product_rows(const Matrix<T, N>& a, const Matrix<T, N>& b) {
  static_assert(rows >= 1 && rows <= N);
  Matrix<T, N> r;
GF_UNROLL
  for (int i = 0; i < N; ++i)
GF_UNROLL
    for (int j = 0; j < N; ++j) {
      if (i >= rows) {
        r.m[i][j] = {T(0), T(0)};
        continue;
      }
      Complex<T> s = product(a.m[i][0], b.m[0][j]);
GF_UNROLL
      for (int k = 1; k < N; ++k) s = multiply_add(s, a.m[i][k], b.m[k][j]);
      r.m[i][j] = s;
    }
  return r;
}

template <class T, int N>
GF_INLINE Matrix<T, N> operator+(const Matrix<T, N>& a, const Matrix<T, N>& b) {
  Matrix<T, N> r;
GF_UNROLL
  for (int i = 0; i < N; ++i)
GF_UNROLL
    for (int j = 0; j < N; ++j) r.m[i][j] = a.m[i][j] + b.m[i][j];
  return r;
}

template <class T, int N>
GF_INLINE Matrix<T, N> operator-(const Matrix<T, N>& a, const Matrix<T, N>& b) {
  Matrix<T, N> r;
GF_UNROLL
  for (int i = 0; i < N; ++i)
GF_UNROLL
    for (int j = 0; j < N; ++j) r.m[i][j] = a.m[i][j] - b.m[i][j];
  return r;
}

template <class T, int N>
GF_INLINE Matrix<T, N> adjoint(const Matrix<T, N>& a) {
  Matrix<T, N> r;
GF_UNROLL
  for (int i = 0; i < N; ++i)
GF_UNROLL
    for (int j = 0; j < N; ++j) r.m[i][j] = conj(a.m[j][i]);
  return r;
}

template <class T, int N>
GF_INLINE Complex<T> trace(const Matrix<T, N>& a) {
  Complex<T> s = a.m[0][0];
GF_UNROLL
  for (int i = 1; i < N; ++i) s += a.m[i][i];
  return s;
}

// Re tr(a b) without forming the product.
template <class T, int N>
GF_INLINE T re_trace_product(const Matrix<T, N>& a, const Matrix<T, N>& b) {
  T s = T(0);
GF_UNROLL
  for (int i = 0; i < N; ++i)
GF_UNROLL
    for (int k = 0; k < N; ++k) s += a.m[i][k].re * b.m[k][i].re - a.m[i][k].im * b.m[k][i].im;
  return s;
}

template <class T>
GF_INLINE Complex<T> determinant(const Matrix<T, 2>& a) {
  return a.m[0][0] * a.m[1][1] - a.m[0][1] * a.m[1][0];
}

template <class T>
GF_INLINE Complex<T> determinant(const Matrix<T, 3>& a) {
  return a.m[0][0] * (a.m[1][1] * a.m[2][2] - a.m[1][2] * a.m[2][1]) -
         a.m[0][1] * (a.m[1][0] * a.m[2][2] - a.m[1][2] * a.m[2][0]) +
         a.m[0][2] * (a.m[1][0] * a.m[2][1] - a.m[1][1] * a.m[2][0]);
}

// Frobenius norm squared of a - b: the distance used by the tests and the unitarity checks.
template <class T, int N>
GF_INLINE T distance2(const Matrix<T, N>& a, const Matrix<T, N>& b) {
  T s = T(0);
GF_UNROLL
  for (int i = 0; i < N; ++i)
GF_UNROLL
    for (int j = 0; j < N; ++j) s += norm2(a.m[i][j] - b.m[i][j]);
  return s;
}

} // namespace gf
