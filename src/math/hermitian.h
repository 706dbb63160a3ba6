// hermitian.h: traceless Hermitian N x N matrices (N = 2, 3) as N^2 - 1 real components, the
// form in which the Fourier-accelerated gauge fixing (src/fourier) stores gradients and
// search directions, and the exponential that turns such a direction into an SU(N) element.
//
// Components of a traceless Hermitian Q (the diagonal's last element is minus the sum of the
// others):
//   SU(3): (Q00, Q11, Re Q01, Im Q01, Re Q02, Im Q02, Re Q12, Im Q12)
//   SU(2): (Q00, Re Q01, Im Q01)
// trace_product(a, b) = tr(A B), real for Hermitian A, B.
// exp_i(Q) = exp(i Q) in SU(N), exact to rounding for any size of Q:
//   SU(2): Q = n . sigma, exp(i Q) = cos|n| + i sin|n| n/|n| . sigma;
//   SU(3): exp(i Q) = f0 + f1 Q + f2 Q^2 with the coefficients of Morningstar and Peardon
//   (PRD 69 (2004) 054501, eqs. 29-34) from c0 = det Q and c1 = tr Q^2 / 2; for c1 below
//   1e-6 (|Q| below about 1e-3) their Taylor series through Q^6, whose remainder is below
//   the rounding of double precision.
#pragma once
#include "math/matrix.h"

namespace gf {

template <int N>
constexpr int algebra_dim = N* N - 1;

template <class T, int N>
struct Algebra {
  T v[algebra_dim<N>];
};

template <class T, int N>
GF_INLINE Algebra<T, N> to_algebra(const Matrix<T, N>& q) {
  Algebra<T, N> a;
  if constexpr (N == 2) {
    a.v[0] = q.m[0][0].re;
    a.v[1] = q.m[0][1].re;
    a.v[2] = q.m[0][1].im;
  } else {
    a.v[0] = q.m[0][0].re;
    a.v[1] = q.m[1][1].re;
    a.v[2] = q.m[0][1].re;
    a.v[3] = q.m[0][1].im;
    a.v[4] = q.m[0][2].re;
    a.v[5] = q.m[0][2].im;
    a.v[6] = q.m[1][2].re;
    a.v[7] = q.m[1][2].im;
  }
  return a;
}

template <class T, int N>
GF_INLINE Matrix<T, N> to_matrix(const Algebra<T, N>& a) {
  Matrix<T, N> q;
  if constexpr (N == 2) {
    q.m[0][0] = {a.v[0], T(0)};
    q.m[1][1] = {-a.v[0], T(0)};
    q.m[0][1] = {a.v[1], a.v[2]};
    q.m[1][0] = {a.v[1], -a.v[2]};
  } else {
    q.m[0][0] = {a.v[0], T(0)};
    q.m[1][1] = {a.v[1], T(0)};
    q.m[2][2] = {-a.v[0] - a.v[1], T(0)};
    q.m[0][1] = {a.v[2], a.v[3]};
    q.m[1][0] = {a.v[2], -a.v[3]};
    q.m[0][2] = {a.v[4], a.v[5]};
    q.m[2][0] = {a.v[4], -a.v[5]};
    q.m[1][2] = {a.v[6], a.v[7]};
    q.m[2][1] = {a.v[6], -a.v[7]};
  }
  return q;
}

// tr(A B) of two traceless Hermitian matrices given by their components.
template <class T, int N>
GF_INLINE T trace_product(const Algebra<T, N>& a, const Algebra<T, N>& b) {
  if constexpr (N == 2) {
    return T(2) * (a.v[0] * b.v[0] + a.v[1] * b.v[1] + a.v[2] * b.v[2]);
  } else {
    T off = T(0);
GF_UNROLL
    for (int k = 2; k < 8; ++k)
      off += a.v[k] * b.v[k];
    return a.v[0] * b.v[0] + a.v[1] * b.v[1] + (a.v[0] + a.v[1]) * (b.v[0] + b.v[1]) + T(2) * off;
  }
}

// exp(i Q) for traceless Hermitian Q = to_matrix(q).
template <class T>
GF_INLINE Matrix<T, 2> exp_i(const Algebra<T, 2>& q) {
  // Q = a sigma3 + b sigma1 + c sigma2 with a = Q00, b = Re Q01, c = -Im Q01.
  const T a = q.v[0], b = q.v[1], c = -q.v[2];
  const T n2 = a * a + b * b + c * c;
  const T n = std::sqrt(n2);
  const T cs = std::cos(n);
  const T sn = n2 > T(1e-12) ? std::sin(n) / n : T(1) - n2 / T(6); // sin(n) / n
  // cos n + i sn (b sigma1 + c sigma2 + a sigma3)
  Matrix<T, 2> g;
  g.m[0][0] = {cs, sn * a};
  g.m[0][1] = {sn * c, sn * b};
  g.m[1][0] = {-sn * c, sn * b};
  g.m[1][1] = {cs, -sn * a};
  return g;
}

// f q + h s and f q* + h s*: the entries (i, j) and (j, i) of f Q + h Q^2 off the diagonal,
// from the upper entries q of Q and s of Q^2 (both Hermitian), sharing the products.
template <class T>
GF_INLINE void hermitian_pair(Complex<T> f, Complex<T> q, Complex<T> h, Complex<T> s,
                              Complex<T>& upper, Complex<T>& lower) {
  const T fq_rr = f.re * q.re, fq_ii = f.im * q.im, fq_ri = f.re * q.im, fq_ir = f.im * q.re;
  const T hs_rr = h.re * s.re, hs_ii = h.im * s.im, hs_ri = h.re * s.im, hs_ir = h.im * s.re;
  upper = {(fq_rr - fq_ii) + (hs_rr - hs_ii), (fq_ri + fq_ir) + (hs_ri + hs_ir)};
  lower = {(fq_rr + fq_ii) + (hs_rr + hs_ii), (fq_ir - fq_ri) + (hs_ir - hs_ri)};
}

// SU(3): Q^2 and det Q from Q's real diagonal d and upper entries x = Q01, y = Q02, z = Q12
// (Q^2 is Hermitian too: its real diagonal s and upper entries; d0 + d1 = -d2 exactly).
template <class T>
GF_INLINE Matrix<T, 3> exp_i(const Algebra<T, 3>& a) {
  const T d0 = a.v[0], d1 = a.v[1], d2 = -a.v[0] - a.v[1];
  const Complex<T> x = {a.v[2], a.v[3]}, y = {a.v[4], a.v[5]}, z = {a.v[6], a.v[7]};
  const T nx = norm2(x), ny = norm2(y), nz = norm2(z);
  const T s0 = d0 * d0 + nx + ny, s1 = nx + d1 * d1 + nz, s2 = ny + nz + d2 * d2;
  const Complex<T> sx = y * conj(z) - d2 * x; // (Q^2)_01 = d0 x + x d1 + y z*
  const Complex<T> sy = x * z - d1 * y;       // (Q^2)_02 = d0 y + x z + y d2
  const Complex<T> sz = conj(x) * y - d0 * z; // (Q^2)_12 = x* y + d1 z + z d2
  const T c1 = (s0 + s1 + s2) / T(2);
  T c0 = d0 * d1 * d2 + T(2) * (x * z * conj(y)).re - d0 * nz - d1 * ny - d2 * nx;
  Complex<T> f0, f1, f2;
  if (c1 < T(1e-6)) {
    // exp(iQ) = sum_n (iQ)^n / n! with Q^3 = c1 Q + c0 (Cayley-Hamilton), through Q^6
    const T c1sq = c1 * c1;
    f0 = {T(1) - c0 * c0 / T(720), -c0 / T(6) + c0 * c1 / T(120)};
    f1 = {c0 / T(24) - c0 * c1 / T(360), T(1) - c1 / T(6) + c1sq / T(120)};
    f2 = {-T(1) / T(2) + c1 / T(24) - c1sq / T(720), c0 / T(120)};
    // the terms of order Q^7 and beyond are below 1e-24 for c1 < 1e-6
  } else {
    const bool negative = c0 < T(0);
    if (negative) c0 = -c0;
    const T c0max = T(2) * (c1 / T(3)) * std::sqrt(c1 / T(3));
    T ratio = c0 / c0max;
    ratio = ratio > T(1) ? T(1) : ratio;
    const T theta = std::acos(ratio);
    const T u = std::sqrt(c1 / T(3)) * std::cos(theta / T(3));
    const T w = std::sqrt(c1) * std::sin(theta / T(3));
    const T u2 = u * u, w2 = w * w;
    const T cw = std::cos(w);
    const T xi0 = w2 > T(1e-10) ? std::sin(w) / w : T(1) - w2 / T(6) * (T(1) - w2 / T(20));
    const T cu = std::cos(u), su = std::sin(u);
    const Complex<T> e2iu = {cu * cu - su * su, T(2) * su * cu}; // exp(2iu) from exp(iu)
    const Complex<T> emiu = {cu, -su};
    const Complex<T> h0 =
        (u2 - w2) * e2iu + emiu * Complex<T>{T(8) * u2 * cw, T(2) * u * (T(3) * u2 + w2) * xi0};
    const Complex<T> h1 =
        T(2) * u * e2iu - emiu * Complex<T>{T(2) * u * cw, -(T(3) * u2 - w2) * xi0};
    const Complex<T> h2 = e2iu - emiu * Complex<T>{cw, T(3) * u * xi0};
    const T inv = T(1) / (T(9) * u2 - w2);
    f0 = inv * h0;
    f1 = inv * h1;
    f2 = inv * h2;
    if (negative) { // f_j(-c0) = (-1)^j f_j(c0)^*
      f0 = conj(f0);
      f1 = -conj(f1);
      f2 = conj(f2);
    }
  }
  Matrix<T, 3> g;
  g.m[0][0] = f0 + d0 * f1 + s0 * f2;
  g.m[1][1] = f0 + d1 * f1 + s1 * f2;
  g.m[2][2] = f0 + d2 * f1 + s2 * f2;
  hermitian_pair(f1, x, f2, sx, g.m[0][1], g.m[1][0]);
  hermitian_pair(f1, y, f2, sy, g.m[0][2], g.m[2][0]);
  hermitian_pair(f1, z, f2, sz, g.m[1][2], g.m[2][1]);
  return g;
}

} // namespace gf
