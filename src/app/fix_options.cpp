#include "app/fix_options.h"
#include "core/error.h"

namespace gf {

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
  last.update.kind = parse_update_kind(opt.algorithm);
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
  validate(opt.fix);
}

} // namespace gf
