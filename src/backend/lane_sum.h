// lane_sum.h: sums a value over the Lanes consecutive threads that share one site (the
// GPU's 4- and 8-threads-per-site sweeps), by butterfly exchanges within the warp:
// after the exchange with the lane m apart, for m = 1, 2, 4, ..., every lane holds
// a + b of the same two partial sums. Floating-point addition is commutative, so every
// lane of the group ends with the same bits, and the sum is the fixed binary tree over the
// lanes in lane order (the tree the one-lane path forms in registers, see site_sweep.h).
// Requirements: Lanes is 1, 2, 4, 8 or 16; the block size is a multiple of Lanes; every
// lane of a group is active. On the host (and with Lanes = 1) the value is returned as is.
#pragma once
#include "core/qualifiers.h"

namespace gf {

template <int Lanes, class T>
GF_INLINE T lane_sum(T x) {
  static_assert(Lanes == 1 || Lanes == 2 || Lanes == 4 || Lanes == 8 || Lanes == 16);
#if defined(__CUDA_ARCH__)
  if constexpr (Lanes > 1) {
    const unsigned lane = threadIdx.x & 31u;
    const unsigned group = ((1u << Lanes) - 1u) << (lane & ~unsigned(Lanes - 1));
GF_UNROLL
    for (int m = 1; m < Lanes; m *= 2) x = x + __shfl_xor_sync(group, x, m, Lanes);
  }
#endif
  return x;
}

} // namespace gf
