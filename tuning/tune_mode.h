// tune_mode.h: when the autotuner times kernels.
//   off     every kernel launches with its default parameters (default_params.h);
//   cached  a result in the tune cache, else the default; never times a kernel;
//   on      a result in the tune cache, else tune once and store the result (the default);
//   force   tune every kernel once per run even when the cache has a result; store it.
//   from_environment  $GAUGEFIX_TUNING, else on (an option left empty).
// The names: core/option_names.h. tune_mode_from_env() reads $GAUGEFIX_TUNING (unset or empty:
// on; another value than off, cached, on and force: Error naming GAUGEFIX_TUNING);
// resolved_tune_mode(mode) is mode, or tune_mode_from_env() for from_environment.
#pragma once
#include "core/option_names.h"

namespace gf {

using TuneMode = gaugefix::Tuning;

TuneMode tune_mode_from_env();
TuneMode resolved_tune_mode(TuneMode mode);

} // namespace gf
