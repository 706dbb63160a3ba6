// subgroup.h: the SU(2) subgroups of SU(N) (Cabibbo-Marinari). Subgroup s acts on the
// rows/columns (i, j) = subgroup_rows<N>(s): SU(2) has one, (0,1); SU(3) has three,
// (0,1), (0,2), (1,2), visited in that order by every sweep.
// - subgroup_projection(M, s): the quaternion part of the 2x2 block of M, scaled by 2 as
//   in the paper (for M in the subgroup it returns 2 q); Re tr(g M) = (g * p)_0 for the
//   embedded g, with p the projection. block_projection does the same from the block's
//   four entries.
// - rotate_pair(g, a, b): one column's entries (a, b) in the subgroup's rows <- g (a, b);
// - left_multiply(g, s, U):  U <- G U,       G the N x N embedding of g;
// - right_multiply_adjoint(U, g, s):  U <- U G^dagger.
#pragma once
#include "math/quaternion.h"

namespace gf {

template <int N>
constexpr int subgroup_count = N * (N - 1) / 2;

template <int N>
GF_INLINE void subgroup_rows(int s, int& i, int& j) {
  if (N == 2) {
    i = 0;
    j = 1;
  } else {
    i = s == 2 ? 1 : 0;
    j = s == 0 ? 1 : 2;
  }
}

// The projection of the 2x2 block [[ii, ij], [ji, jj]].
template <class T>
GF_INLINE Quaternion<T> block_projection(const Complex<T>& ii, const Complex<T>& ij, const Complex<T>& ji,
                                         const Complex<T>& jj) {
  return {{ii.re + jj.re, ij.im + ji.im, ij.re - ji.re, ii.im - jj.im}};
}

template <class T, int N>
GF_INLINE Quaternion<T> subgroup_projection(const Matrix<T, N>& m, int s) {
  int i, j;
  subgroup_rows<N>(s, i, j);
  return block_projection(m.m[i][i], m.m[i][j], m.m[j][i], m.m[j][j]);
}

// Same as subgroup_projection(adjoint(m), s), without forming the adjoint.
template <class T, int N>
GF_INLINE Quaternion<T> subgroup_projection_adjoint(const Matrix<T, N>& m, int s) {
  return conj(subgroup_projection(m, s));
}

// (a, b) <- g (a, b): the two entries of one column in the rows of a subgroup.
template <class T>
GF_INLINE void rotate_pair(const Quaternion<T>& g, Complex<T>& a, Complex<T>& b) {
  const Complex<T> g00 = {g[0], g[3]}, g01 = {g[2], g[1]}, g10 = {-g[2], g[1]}, g11 = {g[0], -g[3]};
  const Complex<T> x = a, y = b;
  a = multiply_add(product(g00, x), g01, y);
  b = multiply_add(product(g10, x), g11, y);
}

template <class T, int N>
GF_INLINE void left_multiply(const Quaternion<T>& g, int s, Matrix<T, N>& u) {
  int i, j;
  subgroup_rows<N>(s, i, j);
GF_UNROLL
  for (int k = 0; k < N; ++k) rotate_pair(g, u.m[i][k], u.m[j][k]);
}

template <class T, int N>
GF_INLINE void right_multiply_adjoint(Matrix<T, N>& u, const Quaternion<T>& g, int s) {
  int i, j;
  subgroup_rows<N>(s, i, j);
  // G^dagger = [[g0 - i g3, -g2 - i g1], [g2 - i g1, g0 + i g3]]
  const Complex<T> h00 = {g[0], -g[3]}, h01 = {-g[2], -g[1]}, h10 = {g[2], -g[1]},
                   h11 = {g[0], g[3]};
GF_UNROLL
  for (int k = 0; k < N; ++k) {
    const Complex<T> a = u.m[k][i], b = u.m[k][j];
    u.m[k][i] = a * h00 + b * h10;
    u.m[k][j] = a * h01 + b * h11;
  }
}

// The N x N matrix of g embedded in subgroup s (tests and the reference path use it).
template <class T, int N>
GF_INLINE Matrix<T, N> embed(const Quaternion<T>& g, int s) {
  Matrix<T, N> m = Matrix<T, N>::identity();
  left_multiply(g, s, m);
  return m;
}

} // namespace gf
