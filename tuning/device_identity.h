// device_identity.h: what identifies the device a kernel was tuned on. Tuned launch
// parameters are valid only for the same identity: the tune cache keeps one file per
// identity (tune_cache.h) and rejects a file whose recorded identity differs.
//   backend          "cuda" or "cpu";
//   name             the device (GPU name, or the CPU model of /proc/cpuinfo);
//   cc_major/minor   CUDA compute capability (0.0 on the CPU);
//   sm_count         multiprocessors (on the CPU: OpenMP's maximum number of threads);
//   memory_bytes     device memory (on the CPU: physical memory);
//   runtime_version, driver_version   CUDA runtime and driver versions (0 on the CPU).
// to_string(): one line holding every field; file_tag(): a short file-name-safe name made of
// the sanitised name, the compute capability, the SM count, the memory in GiB and 8 hex
// digits of a hash of to_string() (so identities that differ in any field differ in tag).
// host_identity() describes this CPU; cuda_identity(device), in a CUDA build only
// (device_identity_cuda.cu), the CUDA device of that number (gf::Error on a CUDA failure).
#pragma once
#include <cstdint>
#include <string>

namespace gf {

struct DeviceIdentity {
  std::string backend;
  std::string name;
  int cc_major = 0;
  int cc_minor = 0;
  int sm_count = 0;
  std::uint64_t memory_bytes = 0;
  int runtime_version = 0;
  int driver_version = 0;

  std::string to_string() const;
  std::string file_tag() const;
  bool operator==(const DeviceIdentity&) const = default;
};

DeviceIdentity host_identity();
#ifdef GAUGEFIX_HAVE_CUDA
DeviceIdentity cuda_identity(int device);
#endif

} // namespace gf
