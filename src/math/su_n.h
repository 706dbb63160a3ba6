// su_n.h: SU(N) specifics for N = 2, 3 on host and device.
// - reconstruct_last_row: rebuilds the row that compressed storage drops
//   (SU(3): third row = (u x v)*; SU(2): second row = (-b*, a*)).
// - reunitarize: projects a matrix close to SU(N) back onto it (Gram-Schmidt on the
//   stored rows, then the last row rebuilt), as done for reprojection and on file read.
// - unitary_deviation: max |(U U^dagger - 1)_ij|; determinant_deviation: |det U - 1|;
//   unitarity_deviation: the larger of the two. A matrix with a NaN gives NaN.
#pragma once
#include "math/inverse_sqrt.h"
#include "math/matrix.h"

namespace gf {

template <class T>
GF_INLINE void reconstruct_last_row(Matrix<T, 3>& u) {
  GF_UNROLL
  for (int k = 0; k < 3; ++k) {
    const int a = (k + 1) % 3, b = (k + 2) % 3;
    u.m[2][k] = conj(u.m[0][a] * u.m[1][b] - u.m[0][b] * u.m[1][a]);
  }
}

template <class T>
GF_INLINE void reconstruct_last_row(Matrix<T, 2>& u) {
  u.m[1][0] = -conj(u.m[0][1]);
  u.m[1][1] = conj(u.m[0][0]);
}

namespace detail {
template <class T, int N>
GF_INLINE void normalize_row(Matrix<T, N>& u, int i) {
  T n = T(0);
  GF_UNROLL
  for (int k = 0; k < N; ++k)
    n += norm2(u.m[i][k]);
  const T s = inverse_sqrt(n);
  GF_UNROLL
  for (int k = 0; k < N; ++k)
    u.m[i][k] = s * u.m[i][k];
}
} // namespace detail

template <class T>
GF_INLINE void reunitarize(Matrix<T, 3>& u) {
  detail::normalize_row(u, 0);
  Complex<T> p = {T(0), T(0)}; // <row0, row1>
  GF_UNROLL
  for (int k = 0; k < 3; ++k)
    p += conj_mul(u.m[0][k], u.m[1][k]);
  GF_UNROLL
  for (int k = 0; k < 3; ++k)
    u.m[1][k] -= p * u.m[0][k];
  detail::normalize_row(u, 1);
  reconstruct_last_row(u);
}

template <class T>
GF_INLINE void reunitarize(Matrix<T, 2>& u) {
  detail::normalize_row(u, 0);
  reconstruct_last_row(u);
}

// max_ij |(U U^dagger - 1)_ij|: how far u is from unitary.
template <class T, int N>
GF_INLINE T unitary_deviation(const Matrix<T, N>& u) {
  const Matrix<T, N> p = u * adjoint(u);
  T worst = T(0);
  GF_UNROLL
  for (int i = 0; i < N; ++i) {
    GF_UNROLL
    for (int j = 0; j < N; ++j) {
      const Complex<T> d = p.m[i][j] - Complex<T>{T(i == j ? 1 : 0), T(0)};
      const T a = std::sqrt(norm2(d));
      worst = a > worst || a != a ? a : worst; // NaN stays NaN
    }
  }
  return worst;
}

// |1 - det U|.
template <class T, int N>
GF_INLINE T determinant_deviation(const Matrix<T, N>& u) {
  return std::sqrt(norm2(determinant(u) - Complex<T>{T(1), T(0)}));
}

// The larger of the two: how far u is from SU(N).
template <class T, int N>
GF_INLINE T unitarity_deviation(const Matrix<T, N>& u) {
  const T a = unitary_deviation(u);
  const T d = determinant_deviation(u);
  return d > a || d != d ? d : a;
}

} // namespace gf
