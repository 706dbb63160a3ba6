// tune_command.h: `gaugefix tune`: tunes, on this device, every kernel that a fix of the
// given lattice, gauge, group, precision, storage and schedule runs (the sweeps of the
// local update family, the heatbath with --anneal, the measurement, the reprojection),
// prints each candidate's time, GB/s and fraction of the streaming bandwidth measured
// in the same run, and the winner, and stores the winners in the tune cache. With
// --table, also the lines of the per-architecture default table
// (tuning/default_params.cpp). Bad options throw gf::Error naming the option.
#pragma once
#include "app/log_options.h"
#include "fix/engine.h"
#include "tuning/tune_mode.h"
#include <CLI/CLI.hpp>
#include <array>
#include <string>

namespace gf {

struct TuneCommandOptions {
  std::array<int, 4> lattice = {32, 32, 32, 32};
  GaugeKind gauge = GaugeKind::landau;
  Group group = Group::su3;
  Precision precision = Precision::double_;
#ifdef GAUGEFIX_HAVE_CUDA // the backend the build has
  Backend backend = Backend::cuda;
#else
  Backend backend = Backend::cpu;
#endif
  int storage = 12;
  bool transform = false; // tune the launches that also update g(x)
  bool anneal = false;    // tune the heatbath too
  TuneMode tuning = TuneMode::force;
  ExchangePath exchange = ExchangePath::automatic;
  bool table = false;
  LogOptions log;
};

void add_tune_options(CLI::App& tune, TuneCommandOptions& opt);
int run_tune(const TuneCommandOptions& opt);

} // namespace gf
