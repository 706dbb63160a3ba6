// gribov_copies.h: the Gribov-copy search of one configuration (--copies N).
// Copy 0 starts from the input as read (after --random-transform, where given: exactly the
// start of a run without copies); copy c > 0 starts from the input moved to a random point of
// its gauge orbit by random_gauge_transform (fix/random_transform.h, drawn from the global
// site index: the same on any number of ranks) with the seed
//   copy_seed(--seed, fingerprint of the input field, c),
// so the copies depend on the field, never on its position in the input list, its file name
// or format, the batch it runs in or the decomposition.
// field_fingerprint: a 64-bit hash of the field's numbers in natural order, computed per time
// slice and combined in slice order (collective; independent of the number of ranks).
// CopyStatistics: the F of every copy; the best is the copy of largest F among the converged
// ones (among all where none converged; the lowest copy number on a tie); spread = max - min
// of F over the converged copies; reached_best = how many converged copies have
// F >= F_best - tolerance (the best itself included).
#pragma once
#include "comm/world.h"
#include "fix/schedule.h"
#include "lattice/host_field.h"
#include <cstdint>
#include <vector>

namespace gf {

std::uint64_t field_fingerprint(const HostField& slab, const World& world);
std::uint64_t copy_seed(std::uint64_t seed, std::uint64_t fingerprint, int copy);

struct CopyStatistics {
  std::vector<FixResult> copies;
  std::vector<std::uint64_t> seeds; // the random start of each copy (0: the input itself)
  int best = 0;
  double spread = 0;
  int reached_best = 0;
  double tolerance = 0;
};

// True where copy a is better than the best so far, b: converged beats not converged, then
// the larger F (equal: b stays, so the lowest copy number wins).
bool better_copy(const FixResult& a, const FixResult& b);
// Fills best, spread and reached_best from copies.
void summarise_copies(CopyStatistics& s);

} // namespace gf
