// chunk_sums_cuda.cuh: chunk_sums (chunk_sums.h) on a CUDA GPU, included by .cu files: one block
// of sum_chunk threads per chunk, thread i doing the chunk's site i; each term is summed over a
// warp by shuffles (offsets 16, 8, 4, 2, 1), then over the block's warps in warp order, so the
// order is fixed by the slab's shape alone.
// The blocks walk the slab in groups of chunk_slice_group slices, and inside a group chunk by
// chunk with the slice running fastest: the blocks of slices t - 1, t and t + 1 at the same
// place of the slice run at about the same time, so that what a site reads of its neighbours
// in time (their links and vectors) is still in the L2 cache (the ghost CG's operator pass at
// 48^4, SU(3): 882 bytes a site read from memory instead of 1172, 768 counted). Only the order
// in which the blocks start changes with it, not the sums. The pass is queued by
// launch_overlapping: its blocks may be scheduled while the kernel before it drains.
#pragma once
#include "backend/cuda_exec.cuh"
#include "measure/chunk_sums.h"

namespace gf {

constexpr std::int64_t chunk_slice_group = 8;

// The thread blocks an SM is to hold of F's kernel (the second argument of __launch_bounds__,
// which bounds the registers a thread): F::min_blocks where F gives it, else 0 (none: the
// compiler chooses; 1 would let it take more registers than with no bound).
template <class F>
constexpr int chunk_min_blocks() {
  if constexpr (requires { F::min_blocks; })
    return F::min_blocks;
  else
    return 0;
}

template <int K, class F>
__global__ void __launch_bounds__(sum_chunk, chunk_min_blocks<F>())
    chunk_sums_kernel(std::int64_t nt, std::int64_t v3, std::int64_t chunks, F f, double* partial) {
  constexpr int warps = sum_chunk / 32;
  __shared__ double warp_sums[warps][K];
  const std::int64_t first = blockIdx.x / (chunk_slice_group * chunks) * chunk_slice_group;
  const std::int64_t in_group = blockIdx.x - first * chunks;
  const std::int64_t group = min(chunk_slice_group, nt - first); // slices in this group
  const std::int64_t t = first + in_group % group, k = in_group / group;
  const std::int64_t s3 = k * sum_chunk + threadIdx.x;
  wait_for_previous_kernel();
  double terms[K];
  if (s3 < v3) {
    f(t, s3, terms);
  } else {
    GF_UNROLL
    for (int j = 0; j < K; ++j)
      terms[j] = 0;
  }
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  GF_UNROLL
  for (int j = 0; j < K; ++j) {
    double v = terms[j];
    GF_UNROLL
    for (int offset = 16; offset > 0; offset /= 2)
      v += __shfl_down_sync(0xffffffffu, v, offset);
    if (lane == 0) warp_sums[warp][j] = v;
  }
  __syncthreads();
  if (threadIdx.x < K) {
    double acc = 0;
    for (int w = 0; w < warps; ++w)
      acc += warp_sums[w][threadIdx.x];
    partial[(threadIdx.x * nt + t) * chunks + k] = acc;
  }
}

template <int K, class F>
void chunk_sums(CudaExec e, std::int64_t nt, std::int64_t v3, const F& f, double* partial) {
  const std::int64_t chunks = sum_chunks(v3);
  if (nt * chunks == 0) return;
  launch_overlapping(chunk_sums_kernel<K, F>, static_cast<unsigned>(nt * chunks), sum_chunk,
                     e.stream, "chunk_sums launch", nt, v3, chunks, f, partial);
}

} // namespace gf
