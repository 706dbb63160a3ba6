// progress_log.h: the progress lines of a fix schedule in the log (docs/logs.md), one per
// Progress report of run_schedule (fix/schedule.h):
//   iter      sweeps so far (Fourier phases: steps, one each)
//   phase     anneal, the update kind (overrelaxation, ...), fasd, facg, or stalled
//   T         the annealing temperature of the step ("-" outside annealing)
//   F         the gauge functional
//   theta     the quantity the stopping rule compares with the tolerance: theta, or for
//             Coulomb gauge max_t theta_t (the worst time slice), headed "max theta_t"
//   sweeps/s  since the previous line (or the start)
//   eta       time until the current phase ends: annealing and stochastic relaxation by their
//             remaining sweeps; the final phase by extrapolating log(theta) over the last two
//             lines to the tolerance, at most to its last sweep; "-" while theta does not fall
// header() writes the column names; each line is a log::info line.
#pragma once
#include "fix/schedule.h"

namespace gf {

class ProgressLog {
public:
  ProgressLog(const FixOptions& schedule, GaugeKind gauge);
  void header() const;
  void line(const Progress& p);

private:
  // The iteration after the last sweep of the phase that holds `iteration`, and whether it
  // is the final phase.
  long phase_end(long iteration, bool& last) const;
  // The stopping quantity of a measurement.
  double stopping_theta(const Measurement& m) const;

  const FixOptions& schedule_;
  GaugeKind gauge_;
  long previous_iteration_ = 0;
  double previous_seconds_ = 0;
  double previous_theta_ = 0;
};

} // namespace gf
