// adjoint.h: the colour components of an adjoint (Lie-algebra) field, N^2 - 1 reals per site
// (3 for SU(2), 8 for SU(3)), and the traceless Hermitian matrix they stand for:
//   w = sum_a w^a T^a,  T^a = sigma^a / 2 (SU(2)) or lambda^a / 2 (SU(3), Gell-Mann),
//   tr(T^a T^b) = delta^ab / 2,  [T^a, T^b] = i f^abc T^c.
// The components' inner product is sum_a v^a w^a = 2 tr(v w).
// to_matrix(w, m) builds the matrix of the N^2 - 1 components at w, twice_matrix(w, m) twice that
// matrix (bitwise: every entry is a sum of the components times constants, and scaling by 2 is
// exact; it keeps fewer distinct numbers, the off-diagonal entries being the components
// themselves); algebra_components(X, w)
// writes the components of P[X] = traceless part of (X + X^dagger)/2 for any N x N complex X,
// which are 2 Re tr(T^a X) = Re tr(lambda^a X) (the projection of X onto the algebra).
#pragma once
#include "math/matrix.h"

namespace gf {

template <int N>
constexpr int algebra_dim = N* N - 1;

GF_INLINE void to_matrix(const double* w, Matrix<double, 2>& m) {
  m.m[0][0] = {0.5 * w[2], 0.0};
  m.m[1][1] = {-0.5 * w[2], 0.0};
  m.m[0][1] = {0.5 * w[0], -0.5 * w[1]};
  m.m[1][0] = {0.5 * w[0], 0.5 * w[1]};
}

GF_INLINE void twice_matrix(const double* w, Matrix<double, 2>& m) {
  m.m[0][0] = {w[2], 0.0};
  m.m[1][1] = {-w[2], 0.0};
  m.m[0][1] = {w[0], -w[1]};
  m.m[1][0] = {w[0], w[1]};
}

constexpr double inv_sqrt3 = 0.57735026918962576451;

GF_INLINE void to_matrix(const double* w, Matrix<double, 3>& m) {
  const double d8 = 0.5 * inv_sqrt3 * w[7];
  m.m[0][0] = {0.5 * w[2] + d8, 0.0};
  m.m[1][1] = {-0.5 * w[2] + d8, 0.0};
  m.m[2][2] = {-2.0 * d8, 0.0};
  m.m[0][1] = {0.5 * w[0], -0.5 * w[1]};
  m.m[1][0] = {0.5 * w[0], 0.5 * w[1]};
  m.m[0][2] = {0.5 * w[3], -0.5 * w[4]};
  m.m[2][0] = {0.5 * w[3], 0.5 * w[4]};
  m.m[1][2] = {0.5 * w[5], -0.5 * w[6]};
  m.m[2][1] = {0.5 * w[5], 0.5 * w[6]};
}

GF_INLINE void twice_matrix(const double* w, Matrix<double, 3>& m) {
  const double d8 = inv_sqrt3 * w[7];
  m.m[0][0] = {w[2] + d8, 0.0};
  m.m[1][1] = {-w[2] + d8, 0.0};
  m.m[2][2] = {-2.0 * d8, 0.0};
  m.m[0][1] = {w[0], -w[1]};
  m.m[1][0] = {w[0], w[1]};
  m.m[0][2] = {w[3], -w[4]};
  m.m[2][0] = {w[3], w[4]};
  m.m[1][2] = {w[5], -w[6]};
  m.m[2][1] = {w[5], w[6]};
}

// The components of P[X] for X given entry by entry, x(i, j), each handed to put(a, value) as it
// is formed (each entry formed where it is used, so that no whole matrix need be live at once).
template <int N, class Entry, class Put>
GF_INLINE void for_algebra_components(const Entry& x, const Put& put) {
  if constexpr (N == 2) {
    const Complex<double> x01 = x(0, 1), x10 = x(1, 0);
    put(0, x01.re + x10.re);
    put(1, x10.im - x01.im);
    put(2, x(0, 0).re - x(1, 1).re);
  } else {
    {
      const Complex<double> x01 = x(0, 1), x10 = x(1, 0);
      put(0, x01.re + x10.re);
      put(1, x10.im - x01.im);
    }
    {
      const Complex<double> x02 = x(0, 2), x20 = x(2, 0);
      put(3, x02.re + x20.re);
      put(4, x20.im - x02.im);
    }
    {
      const Complex<double> x12 = x(1, 2), x21 = x(2, 1);
      put(5, x12.re + x21.re);
      put(6, x21.im - x12.im);
    }
    const double d0 = x(0, 0).re, d1 = x(1, 1).re, d2 = x(2, 2).re;
    put(2, d0 - d1);
    put(7, inv_sqrt3 * (d0 + d1 - 2.0 * d2));
  }
}

// w = the components of P[X].
template <int N>
GF_INLINE void algebra_components(const Matrix<double, N>& x, double* w) {
  for_algebra_components<N>([&](int i, int j) { return x.m[i][j]; },
                            [&](int a, double v) { w[a] = v; });
}

// w += the components of P[X], X given entry by entry (for_algebra_components).
template <int N, class Entry>
GF_INLINE void add_algebra_components(const Entry& x, double* w) {
  for_algebra_components<N>(x, [&](int a, double v) { w[a] += v; });
}

} // namespace gf
