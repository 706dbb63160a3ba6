// chunk_sums_cuda.cuh: chunk_sums (chunk_sums.h) on a CUDA GPU, included by .cu files: one block
// of sum_chunk threads per chunk, thread i doing the chunk's site i; each term is summed over a
// warp by shuffles (offsets 16, 8, 4, 2, 1), then over the block's warps in warp order, so the
// order is fixed by the slab's shape alone.
#pragma once
#include "backend/cuda_exec.cuh"
#include "measure/chunk_sums.h"

namespace gf {

template <int K, class F>
__global__ void __launch_bounds__(sum_chunk)
    chunk_sums_kernel(std::int64_t nt, std::int64_t v3, std::int64_t chunks, F f, double* partial) {
  constexpr int warps = sum_chunk / 32;
  __shared__ double warp_sums[warps][K];
  const std::int64_t t = blockIdx.x / chunks, k = blockIdx.x - t * chunks;
  const std::int64_t s3 = k * sum_chunk + threadIdx.x;
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
  chunk_sums_kernel<K, F>
      <<<static_cast<unsigned>(nt * chunks), sum_chunk, 0, e.stream>>>(nt, v3, chunks, f, partial);
  cuda_check(cudaGetLastError(), "chunk_sums launch");
}

} // namespace gf
