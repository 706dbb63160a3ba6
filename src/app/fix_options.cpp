#include "app/fix_options.h"
#include "core/error.h"
#include "io/provenance.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace gf {

std::vector<std::pair<std::string, std::string>> defining_options(const FixCommandOptions& opt) {
  const auto real = [](double v) { return provenance_text(v); }; // shortest exact text
  const FixPlan& p = opt.plan;
  std::vector<std::pair<std::string, std::string>> d = {
      {"gauge", name_of(p.gauge)},
      {"precision", name_of(p.precision)},
      {"storage", std::to_string(storage_reals(p))},
      {"tolerance", real(p.tolerance)},
      {"algorithm", name_of(p.algorithm)},
      {"alpha", p.alpha == 0 ? "auto" : real(p.alpha)},
      {"omega", real(p.omega)},
      {"check-interval", std::to_string(p.check_interval)},
      {"reproject-interval", std::to_string(p.reproject_interval)},
      {"anneal-steps", std::to_string(p.anneal_steps)},
      {"t-max", real(p.t_max)},
      {"t-min", real(p.t_min)},
      {"micro-steps", std::to_string(p.micro_steps)},
      {"sr-steps", std::to_string(p.sr_steps)},
      {"sr-probability", real(p.sr_probability)},
      {"seed", std::to_string(p.seed)},
      {"random-transform", std::to_string(opt.random_transform_seed)},
      {"copies", std::to_string(opt.copies)},
      {"copy-tolerance", real(opt.copy_tolerance)},
      {"keep-copies", opt.keep_copies ? "true" : "false"},
      {"output-format", opt.output_format},
      {"output-bits", std::to_string(opt.output_bits)},
      {"transform-format", opt.transform_format}};
  // The preconditioner's precision where chosen (a journal or checkpoint of a run without it
  // stays valid; auto is the fix's precision, as before the option existed).
  if (p.preconditioner_precision != PreconditionerPrecision::automatic)
    d.push_back({"preconditioner-precision", name_of(p.preconditioner_precision)});
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

void complete_plan(FixCommandOptions& opt) {
  FixPlan& p = opt.plan;
  p.track_transform = !opt.transform_output.empty();
  p.history = !opt.history.empty();
  if (opt.given.count("--alpha") && p.algorithm != Algorithm::fasd &&
      p.algorithm != Algorithm::facg)
    throw Error(std::string("--alpha applies to --algorithm fasd or facg, not to ") +
                name_of(p.algorithm));
  for (int d = 0; d < 4; ++d)
    if (opt.lattice[d] < 2 || opt.lattice[d] % 2)
      throw Error("--lattice extents must be even and at least 2");
  fix_schedule(p, OptionSpelling::command_line); // checks every option of the plan
}

} // namespace gf
