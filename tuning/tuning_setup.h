// tuning_setup.h: the Tuner a run (a subcommand or a library call) hands its engines
// (tuning/tuner.h), from the tuning mode (tune_mode.h; from_environment: $GAUGEFIX_TUNING,
// else on) and the device the engines will run on: the tune cache of that
// device under $GAUGEFIX_TUNE_CACHE or $XDG_CACHE_HOME/gaugefix (docs/tuning.md), warnings to
// the log (core/log.h), one line per tuned kernel to `log` (may be null).
#pragma once
#include "fix/engine.h"
#include "tuning/tune_cache.h"
#include "tuning/tune_mode.h"
#include "tuning/tuner.h"
#include <iosfwd>
#include <memory>
#include <string>

namespace gf {

struct TuningSetup {
  DeviceIdentity device;
  std::unique_ptr<TuneCache> cache;
  std::unique_ptr<Tuner> tuner;
};

TuningSetup make_tuning(TuneMode mode, Backend backend, int node_rank, std::ostream* log);

// "kernel[region] -> params" for each launch the tuner chose (the run summary).
std::string launches_used(const Tuner& tuner);

} // namespace gf
