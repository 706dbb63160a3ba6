#include "backend/stream_bandwidth.h"
#include <algorithm>
#include <cstdio>
#include <cuda_runtime.h>
#include <string>
#include <vector>

namespace gf {

namespace {
__global__ void scale_in_place(float4* a, std::size_t n, float s) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    float4 v = a[i];
    v.x *= s; v.y *= s; v.z *= s; v.w *= s;
    a[i] = v;
  }
}
} // namespace

double stream_bandwidth_gbs(double gib, int repetitions) {
  const std::size_t n = static_cast<std::size_t>(gib * (1ull << 30) / sizeof(float4));
  float4* a = nullptr;
  if (cudaMalloc(&a, n * sizeof(float4)) != cudaSuccess) return 0;
  cudaMemset(a, 0x3f, n * sizeof(float4));
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaEvent_t b, e;
  cudaEventCreate(&b);
  cudaEventCreate(&e);
  std::vector<float> ms;
  for (int r = 0; r < repetitions + 2; ++r) {
    cudaEventRecord(b);
    scale_in_place<<<sms * 8, 512>>>(a, n, r % 2 ? 1.0001f : 0.9999f);
    cudaEventRecord(e);
    cudaEventSynchronize(e);
    float t = 0;
    cudaEventElapsedTime(&t, b, e);
    if (r >= 2) ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  cudaFree(a);
  cudaEventDestroy(b);
  cudaEventDestroy(e);
  return 2.0 * n * sizeof(float4) / (ms[ms.size() / 2] * 1e-3) / 1e9;
}

const char* cuda_device_name() {
  static cudaDeviceProp prop;
  static std::string name;
  if (name.empty()) {
    cudaGetDeviceProperties(&prop, 0);
    name = prop.name;
  }
  return name.c_str();
}

} // namespace gf

namespace gf {

double pinned_copy_gbs(double mib, bool to_device, int repetitions) {
  const std::size_t bytes = static_cast<std::size_t>(mib * (1 << 20));
  void *host = nullptr, *dev = nullptr;
  if (cudaMallocHost(&host, bytes) != cudaSuccess || cudaMalloc(&dev, bytes) != cudaSuccess) return 0;
  std::vector<double> seconds;
  cudaEvent_t b, e;
  cudaEventCreate(&b);
  cudaEventCreate(&e);
  for (int r = 0; r < repetitions + 2; ++r) {
    cudaEventRecord(b);
    if (to_device)
      cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice);
    else
      cudaMemcpyAsync(host, dev, bytes, cudaMemcpyDeviceToHost);
    cudaEventRecord(e);
    cudaEventSynchronize(e);
    float t = 0;
    cudaEventElapsedTime(&t, b, e);
    if (r >= 2) seconds.push_back(t * 1e-3);
  }
  std::sort(seconds.begin(), seconds.end());
  cudaEventDestroy(b);
  cudaEventDestroy(e);
  cudaFreeHost(host);
  cudaFree(dev);
  return bytes / seconds[seconds.size() / 2] / 1e9;
}

} // namespace gf
