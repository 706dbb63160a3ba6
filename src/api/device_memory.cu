// The CUDA build's device memory of the public API (include/gaugefix/device_memory.h).
#include "gaugefix/device_memory.h"
#include <cuda_runtime.h>
#include <string>

namespace gaugefix {

namespace {

void check(cudaError_t e, const char* function) {
  if (e != cudaSuccess) throw Error(std::string(function) + ": CUDA: " + cudaGetErrorString(e));
}

// Restores the calling thread's current device when it goes out of scope.
class DeviceScope {
public:
  explicit DeviceScope(int device) {
    check(cudaGetDevice(&previous_), "device_allocate");
    check(cudaSetDevice(device), "device_allocate");
  }
  ~DeviceScope() { cudaSetDevice(previous_); }
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;

private:
  int previous_ = 0;
};

} // namespace

bool built_with_cuda() {
  return true;
}

int device_of(const void* pointer) {
  cudaPointerAttributes a{};
  check(cudaPointerGetAttributes(&a, pointer), "device_of");
  if (a.type != cudaMemoryTypeDevice && a.type != cudaMemoryTypeManaged)
    throw Error("device_of: the pointer is not CUDA device memory (host memory, or not "
                "allocated through CUDA)");
  return a.device;
}

void copy_from_device(void* host, const void* device, std::size_t bytes, std::uintptr_t stream) {
  if (stream != 0)
    check(cudaStreamSynchronize(reinterpret_cast<cudaStream_t>(stream)), "copy_from_device");
  check(cudaMemcpy(host, device, bytes, cudaMemcpyDefault), "copy_from_device");
}

void copy_to_device(void* device, const void* host, std::size_t bytes) {
  check(cudaMemcpy(device, host, bytes, cudaMemcpyDefault), "copy_to_device");
}

void* device_allocate(std::size_t bytes, int device) {
  const DeviceScope on(device);
  void* p = nullptr;
  check(cudaMalloc(&p, bytes), "device_allocate");
  return p;
}

void device_free(void* pointer) noexcept {
  if (pointer) cudaFree(pointer);
}

} // namespace gaugefix
