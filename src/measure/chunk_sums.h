// chunk_sums.h: a pass over a rank's slab (nt slices of v3 sites) that also sums K terms per
// site, in an order that depends on nothing but the slab's shape. Each slice is cut into chunks
// of sum_chunk consecutive sites; f(t, s3, terms) does the work of site s3 of
// slice t and writes its K terms, and
// chunk k of slice t gets their sums in partial[(j nt + t) chunks + k] for term j (chunks =
// ceil(v3 / sum_chunk)), so that reduce_segments over segments of `chunks` values gives term j
// of slice t at segment j nt + t. On the CPU a chunk is summed in site order, the chunks spread
// over OpenMP threads (on one thread below min_parallel_sites, slab_sums.h); on a CUDA GPU
// (chunk_sums_cuda.cuh) one thread block of sum_chunk threads per chunk adds its sites in a
// fixed tree order. Either way the sums do not depend on the number of threads, the launch or
// the decomposition into ranks (a chunk never crosses a slice); the CPU and a GPU agree to
// rounding. No atomics.
#pragma once
#include "backend/host_exec.h"
#include "measure/slab_sums.h"
#include <algorithm>
#include <cstdint>

namespace gf {

constexpr int sum_chunk = 128; // 128 threads a GPU block: the CG operator pass uses many registers

inline std::int64_t sum_chunks(std::int64_t v3) {
  return (v3 + sum_chunk - 1) / sum_chunk;
}

template <int K, class F>
void chunk_sums(HostExec, std::int64_t nt, std::int64_t v3, const F& f, double* partial) {
  const std::int64_t chunks = sum_chunks(v3);
#pragma omp parallel for schedule(static) if (nt * v3 >= min_parallel_sites)
  for (std::int64_t c = 0; c < nt * chunks; ++c) {
    const std::int64_t t = c / chunks, k = c - t * chunks;
    double acc[K] = {}, terms[K];
    for (std::int64_t s3 = k * sum_chunk; s3 < std::min(v3, (k + 1) * sum_chunk); ++s3) {
      f(t, s3, terms);
      for (int j = 0; j < K; ++j)
        acc[j] += terms[j];
    }
    for (int j = 0; j < K; ++j)
      partial[(j * nt + t) * chunks + k] = acc[j];
  }
}

} // namespace gf
