#include "tuning/default_params.h"
#include <sstream>
#include <vector>

namespace gf {

namespace {

// Regenerated from the default_table_row lines of `gaugefix tune` runs, one block per
// architecture (bench/run_tuning_suite.sh; the 32^4, 12-real Landau, Coulomb and maximally
// Abelian runs). Kernels without a row get generic_launch_params().
// clang-format off
const std::vector<DefaultParamsRow> table = {
    // cc 9.0: NVIDIA H100 80GB HBM3, 2026-11-23 (bench/results/2026-11-23-h100-tuning/)
    {90, "measure.coulomb", "double", "variant=site1 block=64 minb=0 carveout=0 loads=cache"},
    {90, "measure.coulomb", "mixed", "variant=site1 block=64 minb=0 carveout=-1 loads=cache"},
    {90, "measure.coulomb", "single", "variant=site1 block=64 minb=0 carveout=-1 loads=cache"},
    {90, "measure.landau", "double", "variant=site1 block=64 minb=0 carveout=-1 loads=cache"},
    {90, "measure.landau", "mixed", "variant=site1 block=64 minb=0 carveout=-1 loads=cache"},
    {90, "measure.landau", "single", "variant=site1 block=64 minb=0 carveout=0 loads=cache"},
    {90, "measure.mag", "double", "variant=site1 block=64 minb=0 carveout=0 loads=cache"},
    {90, "measure.mag", "mixed", "variant=site1 block=64 minb=0 carveout=-1 loads=cache"},
    {90, "measure.mag", "single", "variant=site1 block=64 minb=0 carveout=-1 loads=cache"},
    {90, "reproject.links", "double", "variant=site1 block=512 minb=0 carveout=-1 loads=cache"},
    {90, "reproject.links", "mixed", "variant=site1 block=64 minb=0 carveout=-1 loads=cache"},
    {90, "reproject.links", "single", "variant=site1 block=64 minb=0 carveout=0 loads=cache"},
    {90, "sweep.coulomb.local", "double", "variant=site4 block=64 minb=0 carveout=0 loads=cache"},
    {90, "sweep.coulomb.local", "mixed", "variant=site4 block=64 minb=2 carveout=-1 loads=cache"},
    {90, "sweep.coulomb.local", "single", "variant=site4 block=128 minb=3 carveout=0 loads=cache"},
    {90, "sweep.coulomb.thermal", "double", "variant=site2 block=128 minb=0 carveout=0 loads=cache"},
    {90, "sweep.coulomb.thermal", "mixed", "variant=site1 block=256 minb=0 carveout=0 loads=cache"},
    {90, "sweep.coulomb.thermal", "single", "variant=site1 block=128 minb=0 carveout=0 loads=cache"},
    {90, "sweep.landau.local", "double", "variant=site4 block=64 minb=0 carveout=-1 loads=cache"},
    {90, "sweep.landau.local", "mixed", "variant=site4 block=128 minb=2 carveout=0 loads=cache"},
    {90, "sweep.landau.local", "single", "variant=site4 block=128 minb=3 carveout=-1 loads=cache"},
    {90, "sweep.landau.thermal", "double", "variant=site2 block=64 minb=0 carveout=0 loads=cache"},
    {90, "sweep.landau.thermal", "mixed", "variant=site1 block=256 minb=0 carveout=-1 loads=cache"},
    {90, "sweep.landau.thermal", "single", "variant=site2 block=256 minb=2 carveout=-1 loads=cache"},
    {90, "sweep.mag.local", "double", "variant=site4 block=128 minb=2 carveout=-1 loads=cache"},
    {90, "sweep.mag.local", "mixed", "variant=site2 block=256 minb=2 carveout=-1 loads=cache"},
    {90, "sweep.mag.local", "single", "variant=site4 block=128 minb=3 carveout=-1 loads=cache"},
    {90, "sweep.mag.thermal", "double", "variant=site2 block=64 minb=0 carveout=-1 loads=cache"},
    {90, "sweep.mag.thermal", "mixed", "variant=site1 block=128 minb=0 carveout=0 loads=cache"},
    {90, "sweep.mag.thermal", "single", "variant=site4 block=256 minb=3 carveout=-1 loads=cache"},
};
// clang-format on

std::string precision_of(const std::string& aux) {
  std::istringstream in(aux);
  for (std::string word; in >> word;)
    if (word.rfind("prec=", 0) == 0) return word.substr(5);
  return "";
}

std::string family_of(const std::string& kernel) {
  return kernel.substr(0, kernel.find('.'));
}

} // namespace

std::span<const DefaultParamsRow> default_params_table() {
  return table;
}

LaunchParams generic_launch_params() {
  return LaunchParams{"site1", 128, 0, -1, false};
}

LaunchParams default_launch_params(std::span<const DefaultParamsRow> rows,
                                   const DeviceIdentity& device, const TuneKey& key) {
  const int cc = 10 * device.cc_major + device.cc_minor;
  const std::string precision = precision_of(key.aux);
  const DefaultParamsRow* family_row = nullptr;
  for (const DefaultParamsRow& r : rows) {
    if (r.cc != cc || r.precision != precision) continue;
    if (r.kernel == key.kernel) return parse_launch_params(r.params);
    if (r.kernel == family_of(key.kernel) && !family_row) family_row = &r;
  }
  return family_row ? parse_launch_params(family_row->params) : generic_launch_params();
}

LaunchParams default_launch_params(const DeviceIdentity& device, const TuneKey& key) {
  return default_launch_params(default_params_table(), device, key);
}

std::string default_table_row(const DeviceIdentity& device, const TuneKey& key,
                              const LaunchParams& params) {
  return "    {" + std::to_string(10 * device.cc_major + device.cc_minor) + ", \"" + key.kernel +
         "\", \"" + precision_of(key.aux) + "\", \"" + format_launch_params(params) + "\"},";
}

} // namespace gf
