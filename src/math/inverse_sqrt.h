// inverse_sqrt.h: 1 / sqrt(x) for normalisations. On the GPU the hardware reciprocal
// square root (rsqrtf: 2 ulp; rsqrt: 1 ulp in double) replaces a square root followed by
// an IEEE division, which the sweep's serial chain of SU(2) updates cannot afford; on the
// host it is 1 / std::sqrt(x). CPU and GPU results therefore agree to rounding, not bits.
#pragma once
#include "core/qualifiers.h"
#include <cmath>

namespace gf {

GF_INLINE float inverse_sqrt(float x) {
#if defined(__CUDA_ARCH__)
  return rsqrtf(x);
#else
  return 1.0f / std::sqrt(x);
#endif
}

GF_INLINE double inverse_sqrt(double x) {
#if defined(__CUDA_ARCH__)
  return rsqrt(x);
#else
  return 1.0 / std::sqrt(x);
#endif
}

} // namespace gf
