// slab_sums.h: sums over the sites of a rank's slab that do not depend on the number of
// threads or on the decomposition into ranks. Each time slice is cut into chunks of
// slab_sum_chunk consecutive sites (natural order inside the slice), each chunk is summed in
// site order, and a slice's chunks in chunk order; the chunks are spread over OpenMP threads.
// ordered_total adds the slices of every rank in global slice order (World::gather_concat),
// so that every rank gets bitwise the same total, which is also the one rank's total.
#pragma once
#include "comm/world.h"
#include "lattice/geometry.h"
#include <algorithm>
#include <cstdint>
#include <vector>

namespace gf {

constexpr std::int64_t slab_sum_chunk = 512;
// Passes over fewer sites than this run on one thread: they take less time than starting a
// parallel region costs on a busy machine (the iterative solvers make thousands of them).
constexpr std::int64_t min_parallel_sites = 4096;

// K sums at once: f(site, out) adds site's K terms to out[0..K). Returns nt * K values,
// slice-major.
template <int K, class F>
std::vector<double> slice_sums(const Geometry& g, F f) {
  const std::int64_t chunks = (g.v3 + slab_sum_chunk - 1) / slab_sum_chunk;
  std::vector<double> parts(static_cast<std::size_t>(g.nt * chunks * K));
#pragma omp parallel for schedule(static) if (g.local_volume() >= min_parallel_sites)
  for (std::int64_t c = 0; c < g.nt * chunks; ++c) {
    const std::int64_t t = c / chunks, k = c - t * chunks;
    const std::int64_t begin = t * g.v3 + k * slab_sum_chunk;
    const std::int64_t end = std::min(begin + slab_sum_chunk, (t + 1) * g.v3);
    double sum[K] = {};
    for (std::int64_t s = begin; s < end; ++s)
      f(s, sum);
    std::copy(sum, sum + K, parts.begin() + c * K);
  }
  std::vector<double> out(static_cast<std::size_t>(g.nt * K), 0.0);
  for (std::int64_t t = 0; t < g.nt; ++t)
    for (std::int64_t k = 0; k < chunks; ++k)
      for (int j = 0; j < K; ++j)
        out[t * K + j] += parts[(t * chunks + k) * K + j];
  return out;
}

// The K totals over the lattice of per-slice sums (nt * K values, slice-major, as slice_sums
// returns them), added in global slice order. Collective.
template <int K>
std::vector<double> ordered_totals(const std::vector<double>& per_slice, const World& world) {
  const std::vector<double> all = world.gather_concat(per_slice);
  std::vector<double> total(K, 0.0);
  for (std::size_t i = 0; i < all.size(); ++i)
    total[i % K] += all[i];
  return total;
}

} // namespace gf
