// tune_key.h: what a tuned result is valid for. The full key of a result has two parts:
// - TuneContext, shared by every result of one run and kept in the tune cache's file header
//   (one file per device): the device identity (with CUDA runtime and driver versions), the
//   gaugefix version and the build options;
// - TuneKey, one per kernel launch, kept on each cache line:
//     kernel   the kernel, e.g. "sweep.landau.overrelaxation";
//     aux      what else selects the code, e.g. "prec=single storage=12 group=su3";
//     extents  this rank's local extents, e.g. "32x32x32x32";
//     region   the sites launched over: "whole", "interior" or "boundary".
// check_tune_key throws gf::Error naming the field unless kernel and extents are non-empty,
// region is one of the three names and no field holds a tab or a line break (the cache is a
// TSV file). full_key() writes every part, one per line: two results share a full key
// exactly when every part is equal.
// build_options(cuda, gpu_arch, buildtype, cpu_arch) makes the build-options string, e.g.
// "cuda=on gpu_arch=80,90 buildtype=release", with " cpu_arch=native" appended where the
// CPU code was built for an instruction set (meson option cpu_arch; the CPU's SIMD sweeps
// differ in speed); compiled_build_options() is that string for this build (from the
// values meson compiled in, gaugefix_build.h).
#pragma once
#include "tuning/device_identity.h"
#include <compare>
#include <string>

namespace gf {

struct TuneKey {
  std::string kernel;
  std::string aux;
  std::string extents;
  std::string region = "whole";

  auto operator<=>(const TuneKey&) const = default;
};

struct TuneContext {
  DeviceIdentity device;
  std::string version;       // gaugefix version, e.g. GAUGEFIX_VERSION
  std::string build_options; // build_options(...)
};

void check_tune_key(const TuneKey& key);
std::string full_key(const TuneContext& context, const TuneKey& key);
std::string build_options(bool cuda, const std::string& gpu_arch, const std::string& buildtype,
                          const std::string& cpu_arch = "");
std::string compiled_build_options();

} // namespace gf
