#include "app/gribov_copies.h"
#include <algorithm>
#include <cstring>

namespace gf {

namespace {

std::uint64_t mix(std::uint64_t z) { // splitmix64's finaliser
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t combine(std::uint64_t h, std::uint64_t word) {
  return mix(h ^ (word + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)));
}

} // namespace

std::uint64_t field_fingerprint(const HostField& slab, const World& world) {
  const Geometry& g = slab.geom;
  const std::size_t per_slice = std::size_t(g.v3) * slab.ndir * slab.nc * slab.nc * 2; // reals
  const auto* reals = reinterpret_cast<const double*>(slab.data.data());
  std::vector<std::uint32_t> halves(2 * std::size_t(g.nt));
#pragma omp parallel for schedule(static)
  for (int t = 0; t < g.nt; ++t) {
    std::uint64_t h = 0;
    for (std::size_t i = 0; i < per_slice; ++i) {
      std::uint64_t bits;
      std::memcpy(&bits, reals + std::size_t(t) * per_slice + i, sizeof bits);
      h = combine(h, bits);
    }
    halves[2 * std::size_t(t)] = static_cast<std::uint32_t>(h);
    halves[2 * std::size_t(t) + 1] = static_cast<std::uint32_t>(h >> 32);
  }
  const std::vector<std::uint32_t> all = world.gather_concat(halves); // slice order
  std::uint64_t h = combine(0, std::uint64_t(slab.nc));
  for (std::size_t i = 0; i + 1 < all.size(); i += 2)
    h = combine(h, std::uint64_t(all[i]) | (std::uint64_t(all[i + 1]) << 32));
  return h;
}

std::uint64_t copy_seed(std::uint64_t seed, std::uint64_t fingerprint, int copy) {
  const std::uint64_t s =
      combine(combine(combine(0x6761756765666978ULL, seed), fingerprint), std::uint64_t(copy));
  return s == 0 ? 1 : s; // 0 means "no random start"
}

bool better_copy(const FixResult& a, const FixResult& b) {
  if (a.converged != b.converged) return a.converged;
  return a.final.functional > b.final.functional;
}

void summarise_copies(CopyStatistics& s) {
  const std::vector<FixResult>& c = s.copies;
  s.best = c.empty() ? -1 : 0;
  for (std::size_t i = 1; i < c.size(); ++i)
    if (better_copy(c[i], c[std::size_t(s.best)])) s.best = int(i);
  s.spread = 0;
  s.reached_best = 0;
  if (s.best < 0) return;
  const double best = c[std::size_t(s.best)].final.functional;
  double lo = 0, hi = 0;
  bool first = true;
  for (const FixResult& r : c) {
    if (!r.converged) continue;
    const double f = r.final.functional;
    lo = first ? f : std::min(lo, f);
    hi = first ? f : std::max(hi, f);
    first = false;
    if (f >= best - s.tolerance) ++s.reached_best;
  }
  s.spread = hi - lo;
}

} // namespace gf
