// real.h: what the math templates (complex.h, quaternion.h, gauge/, update/) do with their real
// type T besides + - * /, for T = float and double on host and device:
//   select(m, a, b)  a where m holds, else b: a branch written as a value, so that the same
//                    template runs on W sites at once (math/simd.h has it for Simd<T, W>,
//                    whose m is a mask); both a and b are computed;
//   square_root(x)   the correctly rounded square root (std::sqrt).
// inverse_sqrt (inverse_sqrt.h) completes the set.
#pragma once
#include "core/qualifiers.h"
#include <cmath>

namespace gf {

GF_INLINE float select(bool m, float a, float b) {
  return m ? a : b;
}
GF_INLINE double select(bool m, double a, double b) {
  return m ? a : b;
}

GF_INLINE float square_root(float x) {
  return std::sqrt(x);
}
GF_INLINE double square_root(double x) {
  return std::sqrt(x);
}

} // namespace gf
