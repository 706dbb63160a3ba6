#include "app/progress_log.h"
#include "core/log.h"
#include <cmath>

namespace gf {

namespace {

std::string duration_text(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "-";
  if (seconds < 120) return fmt::format("{:.1f} s", seconds);
  if (seconds < 7200) return fmt::format("{:.1f} min", seconds / 60);
  return fmt::format("{:.1f} h", seconds / 3600);
}

} // namespace

ProgressLog::ProgressLog(const FixOptions& schedule, GaugeKind gauge)
    : schedule_(schedule), gauge_(gauge) {}

void ProgressLog::header() const {
  log::info("# {:>8} {:<15} {:>8} {:>20} {:>12} {:>10} {:>10}", "iter", "phase", "T", "F",
            gauge_ == GaugeKind::coulomb ? "max theta_t" : "theta", "sweeps/s", "eta");
}

long ProgressLog::phase_end(long iteration, bool& last) const {
  long end = 0;
  for (std::size_t k = 0; k < schedule_.phases.size(); ++k) {
    const Phase& p = schedule_.phases[k];
    const bool anneal =
        p.descent.method == DescentMethod::none && p.update.kind == UpdateKind::heatbath;
    end += anneal ? long(p.sweeps) * (1 + p.micro_steps) : long(p.sweeps);
    last = k + 1 == schedule_.phases.size();
    if (iteration < end || last) return end;
  }
  return end;
}

double ProgressLog::stopping_theta(const Measurement& m) const {
  return gauge_ == GaugeKind::coulomb ? m.theta_max_slice : m.theta;
}

void ProgressLog::line(const Progress& p) {
  const double theta = stopping_theta(p.m);
  const double dt = p.seconds - previous_seconds_;
  const long sweeps = p.iteration - previous_iteration_;
  const double rate = dt > 0 && sweeps > 0 ? double(sweeps) / dt : NAN;
  bool last = false;
  const long end = phase_end(p.iteration, last);
  double remaining = double(end - p.iteration); // sweeps
  if (last && previous_iteration_ > 0 && sweeps > 0) {
    // theta ~ exp(-k iteration): the sweeps until it reaches the tolerance
    const double k = std::log(previous_theta_ / theta) / double(sweeps);
    remaining = k > 0 ? std::min(remaining, std::log(theta / schedule_.tolerance) / k) : NAN;
  } else if (last) {
    remaining = NAN; // no decay seen yet
  }
  if (theta < schedule_.tolerance) remaining = 0;
  const std::string eta = duration_text(remaining / rate);
  log::info("  {:>8} {:<15} {:>8} {:>20.16f} {:>12.4e} {:>10} {:>10}", p.iteration, p.phase,
            p.temperature > 0 ? fmt::format("{:.4f}", p.temperature) : "-", p.m.functional, theta,
            std::isfinite(rate) ? fmt::format("{:.1f}", rate) : "-", eta);
  previous_iteration_ = p.iteration;
  previous_seconds_ = p.seconds;
  previous_theta_ = theta;
}

} // namespace gf
