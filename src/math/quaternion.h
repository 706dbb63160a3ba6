// quaternion.h: SU(2) elements (and real multiples of them) as four reals, in the
// Cayley-Klein convention of the paper:
//   q = (q0, q1, q2, q3)  <->  [[q0 + i q3,  q2 + i q1], [-q2 + i q1,  q0 - i q3]]
//                           =  q0 1 + i (q1 s1 + q2 s2 + q3 s3)      (s = Pauli matrices).
// Products follow the matrix product of that representation.
#pragma once
#include "math/inverse_sqrt.h"
#include "math/matrix.h"

namespace gf {

template <class T>
struct Quaternion {
  T q[4];
  GF_INLINE T& operator[](int i) { return q[i]; }
  GF_INLINE T operator[](int i) const { return q[i]; }
};

template <class T>
GF_INLINE Quaternion<T> quaternion_identity() { return {{T(1), T(0), T(0), T(0)}}; }

template <class T>
GF_INLINE T norm2(const Quaternion<T>& a) {
  return a[0] * a[0] + a[1] * a[1] + a[2] * a[2] + a[3] * a[3];
}

// The Hermitian conjugate of the matrix: (q0, -q1, -q2, -q3).
template <class T>
GF_INLINE Quaternion<T> conj(const Quaternion<T>& a) { return {{a[0], -a[1], -a[2], -a[3]}}; }

template <class T>
GF_INLINE Quaternion<T> scale(const Quaternion<T>& a, T s) {
  return {{s * a[0], s * a[1], s * a[2], s * a[3]}};
}

template <class T>
GF_INLINE Quaternion<T> operator+(const Quaternion<T>& a, const Quaternion<T>& b) {
  return {{a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3]}};
}

// Matrix product a b:  (a0 b0 - a.b,  a0 b + b0 a - a x b).
template <class T>
GF_INLINE Quaternion<T> operator*(const Quaternion<T>& a, const Quaternion<T>& b) {
  return {{a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
           a[0] * b[1] + b[0] * a[1] - (a[2] * b[3] - a[3] * b[2]),
           a[0] * b[2] + b[0] * a[2] - (a[3] * b[1] - a[1] * b[3]),
           a[0] * b[3] + b[0] * a[3] - (a[1] * b[2] - a[2] * b[1])}};
}

template <class T>
GF_INLINE Quaternion<T> normalized(const Quaternion<T>& a) {
  return scale(a, inverse_sqrt(norm2(a)));
}

// a where m holds, else b (m: bool, or the mask of Simd, math/real.h).
template <class M, class T>
GF_INLINE Quaternion<T> select(const M& m, const Quaternion<T>& a, const Quaternion<T>& b) {
  return {{select(m, a[0], b[0]), select(m, a[1], b[1]), select(m, a[2], b[2]), select(m, a[3], b[3])}};
}

template <class T>
GF_INLINE Matrix<T, 2> to_matrix(const Quaternion<T>& a) {
  Matrix<T, 2> m;
  m.m[0][0] = {a[0], a[3]};
  m.m[0][1] = {a[2], a[1]};
  m.m[1][0] = {-a[2], a[1]};
  m.m[1][1] = {a[0], -a[3]};
  return m;
}

} // namespace gf
