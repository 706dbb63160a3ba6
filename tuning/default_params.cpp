#include "tuning/default_params.h"
#include <sstream>
#include <vector>

namespace gf {

namespace {

// Regenerated from the default_table_row lines of `gaugefix tune` runs, one block per
// architecture. Empty until the first tuning runs on H100/H200: every kernel gets
// generic_launch_params().
// clang-format off
const std::vector<DefaultParamsRow> table = {
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
