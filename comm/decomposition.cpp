#include "comm/decomposition.h"
#include "core/error.h"
#include <string>

namespace gf {

Geometry decompose_time(const int L[4], const World& world) {
  std::int64_t sites = 1;
  for (int d = 0; d < 4; ++d)
    if (L[d] <= 0 || __builtin_mul_overflow(sites, std::int64_t(L[d]), &sites))
      throw Error(
          "lattice " + std::to_string(L[0]) + "x" + std::to_string(L[1]) + "x" +
          std::to_string(L[2]) + "x" + std::to_string(L[3]) +
          (L[d] <= 0 ? ": extents must be positive" : ": the number of sites overflows 64 bits"));
  const int ranks = world.size();
  if (ranks == 1) return Geometry::whole(L);
  if (L[3] % ranks != 0)
    throw Error("cannot split L_t = " + std::to_string(L[3]) + " over " + std::to_string(ranks) +
                " ranks: L_t must be divisible by the number of ranks");
  const int nt = L[3] / ranks;
  if (nt < min_slices_per_rank)
    throw Error("L_t = " + std::to_string(L[3]) + " over " + std::to_string(ranks) +
                " ranks gives " + std::to_string(nt) + " time slice(s) per rank; at least " +
                std::to_string(min_slices_per_rank) + " are needed (use fewer ranks)");
  return Geometry::slab(L, world.rank() * nt, nt, true);
}

} // namespace gf
