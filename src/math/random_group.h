// random_group.h: Haar-random SU(2) and SU(N) elements from counter-based random numbers.
// SU(2): Haar measure, a uniform point on S^3 (two Box-Muller pairs, normalised).
// SU(3): the product of Haar SU(2) elements in the three subgroups, twice over: a random
// element with support on all of SU(3) (not exactly Haar-distributed, which no use needs).
#pragma once
#include "math/random.h"
#include "math/subgroup.h"

namespace gf {

template <class T>
GF_INLINE Quaternion<T> random_su2(const RandomKey& k, RandomPurpose purpose, int slot) {
  const Uniform4<T> r = uniform4<T>(k, purpose, slot, 0);
  const T two_pi = T(6.283185307179586);
  const T ra = std::sqrt(-T(2) * std::log(r.u[0])), rb = std::sqrt(-T(2) * std::log(r.u[2]));
  Quaternion<T> q = {{ra * std::cos(two_pi * r.u[1]), ra * std::sin(two_pi * r.u[1]),
                      rb * std::cos(two_pi * r.u[3]), rb * std::sin(two_pi * r.u[3])}};
  return normalized(q);
}

template <class T, int N>
GF_INLINE Matrix<T, N> random_sun(const RandomKey& k, RandomPurpose purpose) {
  Matrix<T, N> m = Matrix<T, N>::identity();
  int slot = 0;
GF_UNROLL
  for (int round = 0; round < (N == 2 ? 1 : 2); ++round)
GF_UNROLL
    for (int s = 0; s < subgroup_count<N>; ++s) left_multiply(random_su2<T>(k, purpose, slot++), s, m);
  return m;
}

} // namespace gf
