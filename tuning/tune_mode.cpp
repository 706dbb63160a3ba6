#include "tuning/tune_mode.h"
#include "core/error.h"
#include <cstdlib>

namespace gf {

TuneMode tune_mode_from_env() {
  const char* v = std::getenv("GAUGEFIX_TUNING");
  return v && *v ? parse_name<TuneMode>("GAUGEFIX_TUNING", v) : TuneMode::on;
}

TuneMode resolved_tune_mode(TuneMode mode) {
  return mode == TuneMode::from_environment ? tune_mode_from_env() : mode;
}

} // namespace gf
