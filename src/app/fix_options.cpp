#include "app/fix_options.h"
#include "core/error.h"
#include "io/provenance.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace gf {

namespace {

// --algorithm fasd | facg and --alpha (auto, or a step > 0).
DescentParams parse_descent(const FixCommandOptions& opt) {
  DescentParams d;
  if (opt.algorithm == "fasd") d.method = DescentMethod::fasd;
  if (opt.algorithm == "facg") d.method = DescentMethod::facg;
  if (d.method == DescentMethod::none) {
    if (opt.given.count("--alpha"))
      throw Error("--alpha applies to --algorithm fasd or facg, not to " + opt.algorithm);
    return d;
  }
  if (opt.alpha == "auto") return d;
  std::size_t used = 0;
  try {
    d.alpha = std::stod(opt.alpha, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != opt.alpha.size() || !(d.alpha > 0) || !std::isfinite(d.alpha))
    throw Error("--alpha must be auto or a positive step, got '" + opt.alpha + "'");
  return d;
}

} // namespace

std::vector<std::pair<std::string, std::string>> defining_options(const FixCommandOptions& opt) {
  const auto real = [](double v) { return provenance_text(v); }; // shortest exact text
  const EngineOptions& e = opt.engine;
  std::vector<std::pair<std::string, std::string>> d = {
      {"gauge", gauge_name(e.gauge)},
      {"precision", precision_name(e.precision)},
      {"storage", std::to_string(storage_option(e.storage))},
      {"tolerance", real(opt.fix.tolerance)},
      {"algorithm", opt.algorithm},
      {"alpha", opt.alpha},
      {"omega", real(opt.omega)},
      {"check-interval", std::to_string(opt.fix.check_interval)},
      {"reproject-interval", std::to_string(opt.fix.reproject_interval)},
      {"anneal-steps", std::to_string(opt.anneal_steps)},
      {"t-max", real(opt.t_max)},
      {"t-min", real(opt.t_min)},
      {"micro-steps", std::to_string(opt.micro_steps)},
      {"sr-steps", std::to_string(opt.sr_steps)},
      {"sr-probability", real(opt.sr_probability)},
      {"seed", std::to_string(e.seed)},
      {"random-transform", std::to_string(opt.random_transform_seed)},
      {"copies", std::to_string(opt.copies)},
      {"copy-tolerance", real(opt.copy_tolerance)},
      {"keep-copies", opt.keep_copies ? "true" : "false"},
      {"output-format", opt.output_format},
      {"output-bits", std::to_string(opt.output_bits)},
      {"transform-format", opt.transform_format}};
  // The measurement options, where measurements are asked for (a journal of a run without
  // them records none, and stays valid).
  const MeasureOptions& m = opt.measure;
  if (!m.measure.empty()) {
    std::string list; // in the order of observables(), whatever the order given
    for (const Observable& o : observables())
      if (std::find(m.measure.begin(), m.measure.end(), o.name) != m.measure.end())
        list += (list.empty() ? "" : std::string(",")) + o.name;
    d.push_back({"measure", list});
    if (!m.gluon_propagator.empty()) {
      d.push_back({"max-n2", std::to_string(m.max_n2)});
      d.push_back({"cut", m.cut});
      if (m.cut == "cylinder") d.push_back({"cylinder-width", real(m.cylinder_width)});
    }
    if (!m.static_potential.empty()) d.push_back({"max-t", std::to_string(m.max_t)});
    if (!m.ghost_propagator.empty()) {
      d.push_back({"ghost-max-n2", std::to_string(m.ghost_max_n2)});
      d.push_back({"ghost-cut", m.ghost_cut});
      if (m.ghost_cut == "cylinder")
        d.push_back({"ghost-cylinder-width", real(m.ghost_cylinder_width)});
      d.push_back({"ghost-tolerance", real(m.ghost_tolerance)});
      d.push_back({"ghost-max-iterations", std::to_string(m.ghost_max_iterations)});
    }
    if (!m.lowest_eigenvalue.empty()) {
      d.push_back({"eigen-tolerance", real(m.eigen_tolerance)});
      d.push_back({"eigen-max-iterations", std::to_string(m.eigen_max_iterations)});
    }
  }
  return d;
}

void build_schedule(FixCommandOptions& opt) {
  opt.fix.phases.clear();
  if (opt.anneal_steps > 0) {
    Phase p;
    p.update.kind = UpdateKind::heatbath;
    p.sweeps = opt.anneal_steps;
    p.t_max = opt.t_max;
    p.t_min = opt.t_min;
    p.micro_steps = opt.micro_steps;
    opt.fix.phases.push_back(p);
  }
  if (opt.sr_steps > 0) {
    Phase p;
    p.update.kind = UpdateKind::stochastic_relaxation;
    p.update.probability = opt.sr_probability;
    p.sweeps = opt.sr_steps;
    opt.fix.phases.push_back(p);
  }
  Phase last;
  last.descent = parse_descent(opt);
  if (last.descent.method == DescentMethod::none) {
    try {
      last.update.kind = parse_update_kind(opt.algorithm);
    } catch (const Error&) {
      throw Error("unknown --algorithm '" + opt.algorithm +
                  "' (expected relaxation, overrelaxation, stochastic, fasd or facg)");
    }
  }
  if (last.update.kind == UpdateKind::heatbath || last.update.kind == UpdateKind::microcanonical)
    throw Error("--algorithm " + opt.algorithm +
                " cannot fix a gauge on its own (use relaxation, overrelaxation or stochastic; "
                "annealing goes with --anneal-steps)");
  last.update.omega = opt.omega;
  last.update.probability = opt.sr_probability;
  last.sweeps = opt.max_iterations;
  opt.fix.phases.push_back(last);
  if (opt.max_iterations < 1) throw Error("--max-iterations must be at least 1");
  if (opt.nc != 2 && opt.nc != 3) throw Error("--group must be su2 or su3");
  for (int d = 0; d < 4; ++d)
    if (opt.lattice[d] < 2 || opt.lattice[d] % 2)
      throw Error("--lattice extents must be even and at least 2");
  if (opt.anneal_steps > 0 && !(opt.t_min <= opt.t_max))
    throw Error("--t-min " + provenance_text(opt.t_min) + " exceeds --t-max " +
                provenance_text(opt.t_max) + " (annealing cools from --t-max to --t-min)");
  opt.fix.record_history = !opt.history.empty();
  validate(opt.fix, opt.engine.gauge);
  opt.engine.storage =
      parse_storage(opt.storage == "auto" ? auto_storage_reals(opt.fix, opt.engine.backend)
                                          : std::stoi(opt.storage));
}

} // namespace gf
