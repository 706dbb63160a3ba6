#include "backend/cuda_exec.cuh"
#include <cstring>
#include <map>

namespace gf {

__global__ void reduce_segments_kernel(const double* values, std::int64_t len, double* out) {
  wait_for_previous_kernel();
  const double sum = segment_sum(values, len);
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

namespace {

// The segments' sums on the device before their copy to the host: an array for the calling
// thread on its current device, kept between calls and grown as needed (a cudaMalloc and a
// synchronising cudaFree for each of the thousands of reductions of a run cost more than the
// reduction).
double* segment_sums(int segments) {
  thread_local std::map<int, Buffer<CudaExec, double>> kept;
  int device = 0;
  cuda_check(cudaGetDevice(&device), "cudaGetDevice");
  Buffer<CudaExec, double>& b = kept[device];
  if (b.size() < segments) b = Buffer<CudaExec, double>(segments);
  return b.data();
}

} // namespace

void reduce_segments(CudaExec, const double* values, int segments, std::int64_t len, double* out) {
  double* sums = segment_sums(segments);
  launch_overlapping(reduce_segments_kernel, static_cast<unsigned>(segments), reduce_block_size,
                     nullptr, "reduce_segments", values, len, sums);
  cuda_check(cudaMemcpy(out, sums, sizeof(double) * segments, cudaMemcpyDeviceToHost),
             "reduce_segments: download");
}

} // namespace gf

namespace gf {
int cuda_device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) return 0;
  return n;
}

PeerHandle export_peer_memory(CudaExec, void* allocation) {
  cudaIpcMemHandle_t h;
  cuda_check(cudaIpcGetMemHandle(&h, allocation), "cudaIpcGetMemHandle");
  PeerHandle out;
  std::memcpy(out.bytes, &h, sizeof h);
  return out;
}

void* open_peer_memory(CudaExec, const PeerHandle& handle) {
  cudaIpcMemHandle_t h;
  std::memcpy(&h, handle.bytes, sizeof h);
  void* p = nullptr;
  if (cudaIpcOpenMemHandle(&p, h, cudaIpcMemLazyEnablePeerAccess) != cudaSuccess) {
    cudaGetLastError(); // clear the error: the caller falls back to staged messages
    return nullptr;
  }
  return p;
}

void close_peer_memory(CudaExec, void* mapped) {
  cudaIpcCloseMemHandle(mapped);
}

DeviceIdentity device_identity(CudaExec) {
  int device = 0;
  cuda_check(cudaGetDevice(&device), "cudaGetDevice");
  return cuda_identity(device);
}

DeviceMemory device_memory(CudaExec) {
  std::size_t free = 0, total = 0;
  cuda_check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
  return {static_cast<std::int64_t>(total - free), static_cast<std::int64_t>(free)};
}

void select_cuda_device(int node_rank) {
  const int n = cuda_device_count();
  if (n > 0) cuda_check(cudaSetDevice(node_rank % n), "cudaSetDevice");
}
} // namespace gf
