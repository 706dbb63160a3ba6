#include "tuning/tune_mode.h"
#include "core/error.h"
#include <cstdlib>

namespace gf {

TuneMode parse_tune_mode(const std::string& value, const std::string& option) {
  for (const TuneMode m : {TuneMode::off, TuneMode::cached, TuneMode::on, TuneMode::force})
    if (value == tune_mode_name(m)) return m;
  throw Error(option + ": unknown tuning mode '" + value + "' (expected off, cached, on or force)");
}

const char* tune_mode_name(TuneMode mode) {
  static const char* const names[] = {"off", "cached", "on", "force"}; // enum order
  return names[static_cast<int>(mode)];
}

TuneMode tune_mode_from_env() {
  const char* v = std::getenv("GAUGEFIX_TUNING");
  return v && *v ? parse_tune_mode(v, "GAUGEFIX_TUNING") : TuneMode::on;
}

} // namespace gf
