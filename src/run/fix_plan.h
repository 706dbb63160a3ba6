// fix_plan.h: one gauge fixing as both front-ends describe it. `gaugefix fix`
// (app/fix_command.cpp) and gaugefix::fix (api/fixing.cpp) fill a FixPlan, the one typed
// description of what to fix and how; fix_schedule and FixSetup turn it into the schedule
// (fix/schedule.h) and wire the engine, the tuner and the channel between the ranks, so that the
// same options give the same field by construction.
// Errors name the option as the front-end spells it (OptionSpelling): --max-iterations on the
// command line, max_iterations in the API.
#pragma once
#include "comm/world.h"
#include "fix/engine.h"
#include "fix/schedule.h"
#include "tuning/tuning_setup.h"
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>

namespace gf {

using Algorithm = gaugefix::Algorithm;

// The schedule: anneal_steps annealing steps (heatbath at temperatures t_max down to t_min,
// each followed by micro_steps microcanonical sweeps), sr_steps sweeps of stochastic
// relaxation, then `algorithm` until theta < tolerance (Coulomb gauge: every time slice's
// theta) or max_iterations sweeps (fasd, facg: steps).
struct FixPlan {
  GaugeKind gauge = GaugeKind::landau;
  Algorithm algorithm = Algorithm::overrelaxation;
  double omega = 1.7;          // overrelaxation, in [1, 2)
  double alpha = 0;            // fasd: a fixed step > 0, facg: the first trial; 0: automatic
  double sr_probability = 0.5; // stochastic relaxation, in [0, 1]
  int anneal_steps = 0;
  double t_max = 4.0, t_min = 1e-4;
  int micro_steps = 3;
  int sr_steps = 0;
  double tolerance = 1e-12;
  int max_iterations = 20000;
  int check_interval = 100;   // sweeps between measurements
  int reproject_interval = 0; // sweeps between reprojections to SU(N); 0: never
  Precision precision = Precision::double_;
  // fasd, facg: the transforms' precision; auto: the fix's (single for single, else double)
  PreconditionerPrecision preconditioner_precision = PreconditionerPrecision::automatic;
  Backend backend = Backend::cpu;
  int storage = 0;        // reals per SU(3) link: 8, 12, 18; 0: auto_storage_reals (fix/schedule.h)
  std::uint64_t seed = 1; // random numbers of annealing and stochastic relaxation
  TuneMode tuning = TuneMode::from_environment;
  ExchangePath exchange = ExchangePath::automatic;
  bool track_transform = false; // the engine keeps g(x) for download
  bool history = false;         // the result keeps a HistoryRow per check
  bool operator==(const FixPlan&) const = default;
};

enum class OptionSpelling { command_line, api };

// The option `api_name` (max_iterations) as `spelling` writes it (--max-iterations).
std::string spelled(OptionSpelling spelling, const std::string& api_name);

// The schedule of the plan, every option of the plan checked: throws Error naming the option.
FixOptions fix_schedule(const FixPlan& plan, OptionSpelling spelling);

// The reals per SU(3) link the engine stores: plan.storage, or for 0 auto_storage_reals.
int storage_reals(const FixPlan& plan);

// What runs a plan on `world`: its schedule, the tuner (tuned kernels reported to tune_log,
// which may be null) and the engine options with the channel between the ranks. Collective.
class FixSetup {
public:
  FixSetup(const FixPlan& plan, OptionSpelling spelling, const World& world,
           std::ostream* tune_log);
  FixSetup(const FixSetup&) = delete;
  FixSetup& operator=(const FixSetup&) = delete;

  const FixOptions& schedule() const { return schedule_; }
  const TuningSetup& tuning() const { return tuning_; }
  // An engine holding `links`, its launches chosen for the schedule; throws Error naming the
  // storage option where it cannot hold links of this group.
  std::unique_ptr<Engine> make_engine(const HostField& links) const;

private:
  OptionSpelling spelling_;
  FixOptions schedule_;
  TuningSetup tuning_;
  EngineOptions engine_;
};

} // namespace gf
