#include "run/fix_plan.h"
#include "comm/mpi_channel.h"
#include "core/error.h"
#include "io/provenance.h"
#include <algorithm>
#include <cmath>

namespace gf {

namespace {

bool fourier(Algorithm a) {
  return a == Algorithm::fasd || a == Algorithm::facg;
}

// The final phase: the algorithm until the tolerance is reached.
Phase final_phase(const FixPlan& plan) {
  Phase last;
  switch (plan.algorithm) {
  case Algorithm::relaxation:
    last.update.kind = UpdateKind::relaxation;
    break;
  case Algorithm::overrelaxation:
    last.update.kind = UpdateKind::overrelaxation;
    break;
  case Algorithm::stochastic:
    last.update.kind = UpdateKind::stochastic_relaxation;
    break;
  case Algorithm::fasd:
    last.descent.method = DescentMethod::fasd;
    break;
  case Algorithm::facg:
    last.descent.method = DescentMethod::facg;
    break;
  }
  last.descent.alpha = plan.alpha;
  last.update.omega = plan.omega;
  last.update.probability = plan.sr_probability;
  last.sweeps = plan.max_iterations;
  return last;
}

void check_options(const FixPlan& p, OptionSpelling s) {
  const auto at_least = [s](const char* option, long long value, long long least) {
    if (value < least)
      throw Error(spelled(s, option) + " must be at least " + std::to_string(least) + " (got " +
                  std::to_string(value) + ")");
  };
  at_least("anneal_steps", p.anneal_steps, 0);
  at_least("micro_steps", p.micro_steps, 0);
  at_least("sr_steps", p.sr_steps, 0);
  at_least("max_iterations", p.max_iterations, 1);
  at_least("check_interval", p.check_interval, 1);
  at_least("reproject_interval", p.reproject_interval, 0);
  if (!(std::isfinite(p.tolerance) && p.tolerance > 0))
    throw Error(spelled(s, "tolerance") + " must be a positive finite number (got " +
                provenance_text(p.tolerance) + ")");
  for (const auto& [option, value] : {std::pair{"omega", p.omega},
                                      {"sr_probability", p.sr_probability},
                                      {"t_max", p.t_max},
                                      {"t_min", p.t_min}})
    if (!std::isfinite(value)) throw Error(spelled(s, option) + " must be a finite number");
  if (!(std::isfinite(p.alpha) && p.alpha >= 0))
    throw Error(spelled(s, "alpha") + " must be 0 (automatic) or a positive step (got " +
                provenance_text(p.alpha) + ")");
  if (p.alpha != 0 && !fourier(p.algorithm))
    throw Error(spelled(s, "alpha") + " applies to " + spelled(s, "algorithm") +
                " fasd or facg, not to " + name_of(p.algorithm));
  if (fourier(p.algorithm) && p.gauge == GaugeKind::mag)
    throw Error(spelled(s, "algorithm") + " " + name_of(p.algorithm) +
                ": Fourier acceleration exists for Landau and Coulomb gauge, not for MAG (use "
                "relaxation, overrelaxation or stochastic)");
  if (p.anneal_steps > 0 && !(p.t_min <= p.t_max))
    throw Error(spelled(s, "t_min") + " " + provenance_text(p.t_min) + " exceeds " +
                spelled(s, "t_max") + " " + provenance_text(p.t_max) + " (annealing cools from " +
                spelled(s, "t_max") + " to " + spelled(s, "t_min") + ")");
  if (p.precision == Precision::single &&
      p.preconditioner_precision == PreconditionerPrecision::double_)
    throw Error(spelled(s, "preconditioner_precision") + " double needs " +
                spelled(s, "precision") +
                " double or mixed (a single fix's preconditioner is "
                "single)");
  if (p.storage != 0 && p.storage != 8 && p.storage != 12 && p.storage != 18)
    throw Error(spelled(s, "storage") + " must be 8, 12 or 18 reals per SU(3) link (got " +
                std::to_string(p.storage) + ")");
}

} // namespace

std::string spelled(OptionSpelling spelling, const std::string& api_name) {
  if (spelling == OptionSpelling::api) return api_name;
  std::string option = "--" + api_name;
  std::replace(option.begin(), option.end(), '_', '-');
  return option;
}

FixOptions fix_schedule(const FixPlan& plan, OptionSpelling spelling) {
  check_options(plan, spelling);
  FixOptions f;
  f.tolerance = plan.tolerance;
  f.check_interval = plan.check_interval;
  f.reproject_interval = plan.reproject_interval;
  f.record_history = plan.history;
  if (plan.anneal_steps > 0) {
    Phase p;
    p.update.kind = UpdateKind::heatbath;
    p.sweeps = plan.anneal_steps;
    p.t_max = plan.t_max;
    p.t_min = plan.t_min;
    p.micro_steps = plan.micro_steps;
    f.phases.push_back(p);
  }
  if (plan.sr_steps > 0) {
    Phase p;
    p.update.kind = UpdateKind::stochastic_relaxation;
    p.update.probability = plan.sr_probability;
    p.sweeps = plan.sr_steps;
    f.phases.push_back(p);
  }
  f.phases.push_back(final_phase(plan));
  validate(f, plan.gauge);
  return f;
}

int storage_reals(const FixPlan& plan) {
  if (plan.storage != 0) return plan.storage;
  return auto_storage_reals(fix_schedule(plan, OptionSpelling::api), plan.backend);
}

FixSetup::FixSetup(const FixPlan& plan, OptionSpelling spelling, const World& world,
                   std::ostream* tune_log)
    : spelling_(spelling), schedule_(fix_schedule(plan, spelling)),
      tuning_(make_tuning(plan.tuning, plan.backend, world.node_rank(), tune_log)) {
  engine_.gauge = plan.gauge;
  engine_.precision = plan.precision;
  engine_.preconditioner = plan.preconditioner_precision;
  engine_.backend = plan.backend;
  engine_.storage =
      parse_storage(plan.storage != 0 ? plan.storage : auto_storage_reals(schedule_, plan.backend));
  engine_.track_transform = plan.track_transform;
  engine_.seed = plan.seed;
  engine_.node_rank = world.node_rank();
  if (world.size() > 1) engine_.channel = make_channel(world, plan.exchange);
  engine_.tuner = tuning_.tuner.get();
}

std::unique_ptr<Engine> FixSetup::make_engine(const HostField& links) const {
  if (engine_.storage == Storage::params8 && links.nc != 3)
    throw Error(spelled(spelling_, "storage") + " 8 holds SU(3) links only; SU(" +
                std::to_string(links.nc) + ") links take " + spelled(spelling_, "storage") +
                " 12 or 18");
  std::unique_ptr<Engine> engine = gf::make_engine(links, engine_);
  engine->prepare(schedule_update_kinds(schedule_));
  return engine;
}

} // namespace gf
