// storage.h: how many reals the device layout keeps per SU(N) matrix, chosen at run time.
//   full     all N x N complex elements: 2 N^2 reals (18 for SU(3), 8 for SU(2));
//   rows     the first N-1 rows, the last rebuilt on load: 2 N (N-1) reals (12, 4);
//   params8  SU(3) only: the 8 reals of math/reconstruct8.h (the dimension of the group).
// The command line names a storage by its SU(3) count (--storage 8, 12 or 18): SU(2) links
// take 12 (4 reals) or 18 (8 reals); --storage 8 with SU(2) is refused (check_storage), as
// its 8 reals would read as SU(2)'s full storage.
#pragma once
#include "core/error.h"
#include "core/qualifiers.h"
#include <string>

namespace gf {

enum class Storage { full, rows, params8 };

template <int N>
GF_HD constexpr int reals_per_matrix(Storage s) {
  return s == Storage::full ? 2 * N * N : s == Storage::rows ? 2 * N * (N - 1) : N * N - 1;
}

// The value of --storage: the reals of an SU(3) link.
inline int storage_option(Storage s) {
  return reals_per_matrix<3>(s);
}

// --storage 8, 12 or 18; anything else throws Error naming the option.
inline Storage parse_storage(int reals) {
  if (reals == 8) return Storage::params8;
  if (reals == 12) return Storage::rows;
  if (reals == 18) return Storage::full;
  throw Error("--storage must be 8, 12 or 18 (got " + std::to_string(reals) + ")");
}

// Throws Error naming --storage where the group cannot be kept in this storage.
inline void check_storage(Storage s, int nc) {
  if (s == Storage::params8 && nc != 3)
    throw Error("--storage 8 (8-parameter storage) holds SU(3) links only; SU(" +
                std::to_string(nc) + ") links take --storage 12 (4 reals) or 18 (8 reals)");
}

} // namespace gf
