// reconstruct8.h: SU(3) links in 8 reals (the dimension of the group), on host and device.
//
// Contract:
// - su3_to_8(u, p) stores a special unitary u (to rounding) in p[0..7];
//   su3_from_8(p) returns an SU(3) matrix equal to u to a few units of rounding of C, for
//   every u: there is no singular point (no division by a small number, no square root of
//   a cancelling difference). The result is unitary with det 1 to rounding whatever
//   rounding the 8 reals went through in between, e.g. encoded in double, stored as float,
//   decoded in float (the flags below survive any such rounding).
// - C = float or double; no dynamic memory, no exceptions; the only branches are selects.
//   Cost of a decode: 2 square roots, 1 division, 2 sines and cosines, 10 complex
//   multiplications; of an encode: 2 arc tangents.
//
// Parametrisation. The encoder first relabels u into v = R_r u S_s, both factors fixed
// SU(3) matrices (so v is SU(3) as well), with v = [[a1, a2, a3], [b1, b2, b3], [c1, c2, c3]]:
// - S_s shifts the columns cyclically, v_ij = u_{i, (j+s) mod 3}, with s in {0, 1, 2}
//   chosen so that a3 is the element of largest modulus of the first row: |a3|^2 >= 1/3,
//   and hence |a1|^2 <= 1 - |a3|^2 <= 2/3;
// - R_r (r in {0, 1}) is the identity or the rotation replacing rows 1 and 2 by
//   (row 2, -row 1), chosen so that |c1| >= |b1|, hence |c1|^2 >= (1 - |a1|^2)/2 >= 1/6.
// Stored: p[0], p[1] = a1; p[2], p[3] = a2; p[4], p[5] = b1 (real, imaginary parts);
//         p[6] = arg a3 + 8 (s - 1);  p[7] = arg c1 + 8 r   (arg in [-pi, pi]).
// The flags ride on the phases: k = floor(p/8 + 1/2) recovers s - 1 and r, and p - 8k, exact
// in floating point, the phase. The gaps between the ranges (width 2 pi, centred on
// multiples of 8) are wider than 1.7, so no rounding can move a phase into another range.
//
// Decode, with N = 1 - |a1|^2 = |a2|^2 + |a3|^2 = |b1|^2 + |c1|^2 (N >= 1/3):
//     |a3| = sqrt(1 - |a1|^2 - |a2|^2),   |c1| = sqrt(1 - |a1|^2 - |b1|^2)
// (unit first row and first column; both arguments >= 1/6), then the 2 x 2 block from the
// orthogonality of the columns, a1* a_j + b1* b_j + c1* c_j = 0 (j = 2, 3), and from
// det v = 1, which makes every element the complex conjugate of its cofactor:
// a3* = b1 c2 - b2 c1 and a2* = b3 c1 - b1 c3. Solving the two 2 x 2 systems:
//     b2 = -(a1* a2 b1 + a3* c1*) / N        b3 = (a2* c1* - a1* a3 b1) / N
//     c2 = (a3* b1* - a1* a2 c1) / N         c3 = -(a1* a3 c1 + a2* b1*) / N
// Any first row and first column of unit length sharing a1 with |a1| < 1 have exactly one
// completion to SU(3), and these formulas give it, so rounding in the 8 reals moves the
// result along the group. Last, u = R_r^T v S_s^T.
//
// Why the relabelling: the usual fixed choice (store a2, a3, b1 and the phases of a1 and
// c1 of u itself, rebuild |a1| and |c1| by square roots) has a singular point and two
// ill-conditioned regions. At |a1| = 1 (e.g. the unit matrix) the stored a2, a3, b1, c1
// vanish and the lower 2 x 2 block is lost; close to it (N small) it is recovered from
// their ratios and from |c1|^2 = 1 - |a1|^2 - |b1|^2, so an error e in u becomes up to about
// e / N (O(1) for a near-unit link with off-diagonal elements 1e-8). Where |a1| or |c1| is small,
// sqrt(1 - ...) of a cancelling difference turns an error e into about sqrt(e) (|a1| = 1e-8
// in double, 1e-4 in float lose half the digits). No position is safe for every u (near
// the unit matrix every modulus is close to 0 or 1), so the element whose modulus is
// rebuilt (a3: the largest of the row) is separated from the one shared by row and column
// (a1, stored directly), and the relabelling keeps all three quantities away from 0.
#pragma once
#include "math/matrix.h"

namespace gf {

namespace detail {
template <class T>
GF_INLINE T select3(int k, const T& x0, const T& x1, const T& x2) {
  return k == 0 ? x0 : (k == 1 ? x1 : x2);
}
} // namespace detail

template <class C>
GF_INLINE void su3_to_8(const Matrix<C, 3>& u, C (&p)[8]) {
  const C n0 = norm2(u.m[0][0]), n1 = norm2(u.m[0][1]), n2 = norm2(u.m[0][2]);
  const int m = (n0 >= n1 && n0 >= n2) ? 0 : (n1 >= n2 ? 1 : 2); // largest of the first row
  const int s = m == 2 ? 0 : m + 1;                              // column of u seen as v_0
  const int s1 = s == 2 ? 0 : s + 1;                             // column of u seen as v_1
  const Complex<C> a1 = detail::select3(s, u.m[0][0], u.m[0][1], u.m[0][2]);
  const Complex<C> a2 = detail::select3(s1, u.m[0][0], u.m[0][1], u.m[0][2]);
  const Complex<C> a3 = detail::select3(m, u.m[0][0], u.m[0][1], u.m[0][2]);
  const Complex<C> b = detail::select3(s, u.m[1][0], u.m[1][1], u.m[1][2]);
  const Complex<C> c = detail::select3(s, u.m[2][0], u.m[2][1], u.m[2][2]);
  const bool r = norm2(b) > norm2(c);
  const Complex<C> b1 = r ? c : b, c1 = r ? -b : c;
  p[0] = a1.re;
  p[1] = a1.im;
  p[2] = a2.re;
  p[3] = a2.im;
  p[4] = b1.re;
  p[5] = b1.im;
  p[6] = std::atan2(a3.im, a3.re) + C(8) * C(s - 1);
  p[7] = std::atan2(c1.im, c1.re) + (r ? C(8) : C(0));
}

template <class C>
GF_INLINE Matrix<C, 3> su3_from_8(const C (&p)[8]) {
  const C ka = std::floor(p[6] * C(0.125) + C(0.5)), kc = std::floor(p[7] * C(0.125) + C(0.5));
  const C phase_a = p[6] - C(8) * ka, phase_c = p[7] - C(8) * kc;
  const int s = static_cast<int>(ka) + 1;
  const bool r = kc != C(0);
  const Complex<C> a1 = {p[0], p[1]}, a2 = {p[2], p[3]}, b1 = {p[4], p[5]};
  const C na1 = norm2(a1);
  const C qa = C(1) - na1 - norm2(a2), qc = C(1) - na1 - norm2(b1);
  const C ma3 = std::sqrt(qa > C(0) ? qa : C(0)), mc1 = std::sqrt(qc > C(0) ? qc : C(0));
  const Complex<C> a3 = {ma3 * std::cos(phase_a), ma3 * std::sin(phase_a)};
  const Complex<C> c1 = {mc1 * std::cos(phase_c), mc1 * std::sin(phase_c)};
  const C inv = C(1) / (C(1) - na1);
  const Complex<C> a12 = conj_mul(a1, a2), a13 = conj_mul(a1, a3); // a1* a2, a1* a3
  const Complex<C> b2 = (-inv) * (a12 * b1 + conj(a3 * c1));
  const Complex<C> b3 = inv * (conj(a2 * c1) - a13 * b1);
  const Complex<C> c2 = inv * (conj(a3 * b1) - a12 * c1);
  const Complex<C> c3 = (-inv) * (a13 * c1 + conj(a2 * b1));
  // v in the relabelled frame, rows 1 and 2 rotated back (R_r^T)
  const Complex<C> v[3][3] = {{a1, a2, a3},
                              {r ? -c1 : b1, r ? -c2 : b2, r ? -c3 : b3},
                              {r ? b1 : c1, r ? b2 : c2, r ? b3 : c3}};
  // columns shifted back (S_s^T): u_ij = v_{i, (j - s) mod 3}
  Matrix<C, 3> u;
GF_UNROLL
  for (int j = 0; j < 3; ++j) {
    const int k = (j + 3 - s) % 3;
GF_UNROLL
    for (int i = 0; i < 3; ++i) u.m[i][j] = detail::select3(k, v[i][0], v[i][1], v[i][2]);
  }
  return u;
}

} // namespace gf
