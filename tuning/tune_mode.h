// tune_mode.h: when the autotuner times kernels.
//   off     every kernel launches with its default parameters (default_params.h);
//   cached  a result in the tune cache, else the default; never times a kernel;
//   on      a result in the tune cache, else tune once and store the result (the default);
//   force   tune every kernel once per run even when the cache has a result; store it.
// parse_tune_mode throws gf::Error naming `option` (e.g. "--tuning" or "GAUGEFIX_TUNING")
// and the bad value. tune_mode_from_env() reads $GAUGEFIX_TUNING (unset or empty: on).
#pragma once
#include <string>

namespace gf {

enum class TuneMode { off, cached, on, force };

TuneMode parse_tune_mode(const std::string& value, const std::string& option);
const char* tune_mode_name(TuneMode mode);
TuneMode tune_mode_from_env();

} // namespace gf
