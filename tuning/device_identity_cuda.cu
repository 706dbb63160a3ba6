#include "backend/cuda_exec.cuh"
#include "tuning/device_identity.h"

namespace gf {

DeviceIdentity cuda_identity(int device) {
  cudaDeviceProp prop{};
  cuda_check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
  DeviceIdentity id;
  id.backend = "cuda";
  id.name = prop.name;
  id.cc_major = prop.major;
  id.cc_minor = prop.minor;
  id.sm_count = prop.multiProcessorCount;
  id.memory_bytes = prop.totalGlobalMem;
  cuda_check(cudaRuntimeGetVersion(&id.runtime_version), "cudaRuntimeGetVersion");
  cuda_check(cudaDriverGetVersion(&id.driver_version), "cudaDriverGetVersion");
  return id;
}

} // namespace gf
