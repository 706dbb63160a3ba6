#include "fix/schedule.h"
#include "core/error.h"
#include <algorithm>
#include <cmath>
#include <string>

namespace gf {

Measurement normalise(const SliceSums& sums, GaugeKind gauge, int nc, const Geometry& geom) {
  Measurement m;
  const int nd = gauge == GaugeKind::coulomb ? 3 : 4;
  const double v3 = static_cast<double>(geom.v3);
  const double v = static_cast<double>(geom.global_volume());
  double f = 0, th = 0;
  for (std::size_t t = 0; t < sums.theta.size(); ++t) {
    f += sums.functional[t];
    th += sums.theta[t];
    m.functional_per_slice.push_back(sums.functional[t] / (nc * nd * v3));
    m.theta_per_slice.push_back(sums.theta[t] / (nc * v3));
  }
  m.functional = f / (nc * nd * v);
  m.theta = th / (nc * v);
  m.theta_max_slice = m.theta_per_slice.empty()
                          ? 0.0
                          : *std::max_element(m.theta_per_slice.begin(), m.theta_per_slice.end());
  return m;
}

bool gauge_condition_holds(const Measurement& m, GaugeKind gauge, double tolerance) {
  return gauge == GaugeKind::coulomb ? m.theta_max_slice < tolerance : m.theta < tolerance;
}

void validate(const FixOptions& opt) {
  if (opt.phases.empty()) throw Error("the schedule has no phases");
  if (!(opt.tolerance > 0)) throw Error("--tolerance must be positive");
  if (opt.check_interval < 1) throw Error("--check-interval must be at least 1");
  if (opt.reproject_interval < 0) throw Error("--reproject-interval must not be negative");
  for (const Phase& p : opt.phases) {
    if (p.sweeps < 0) throw Error("a phase has a negative number of sweeps");
    if (p.descent.method != DescentMethod::none) {
      if (!std::isfinite(p.descent.alpha) || p.descent.alpha < 0)
        throw Error("--alpha must be positive (or auto), got " + std::to_string(p.descent.alpha));
      continue;
    }
    UpdateParams u = p.update;
    if (u.kind == UpdateKind::heatbath) {
      if (!(p.t_max > 0 && p.t_min > 0 && p.t_min <= p.t_max))
        throw Error("annealing needs 0 < t_min <= t_max (got t_min = " + std::to_string(p.t_min) +
                    ", t_max = " + std::to_string(p.t_max) + ")");
      if (p.micro_steps < 0) throw Error("annealing micro_steps must not be negative");
      u.temperature = p.t_min;
    }
    validate(u);
  }
}

void validate(const FixOptions& opt, GaugeKind gauge) {
  validate(opt);
  for (const Phase& p : opt.phases)
    if (p.descent.method != DescentMethod::none && gauge == GaugeKind::mag)
      throw Error(std::string("--algorithm ") + descent_name(p.descent.method) +
                  ": Fourier acceleration exists for Landau and Coulomb gauge, not for MAG "
                  "(use relaxation, overrelaxation or stochastic)");
}

int auto_storage_reals(const FixOptions& opt, Backend backend) {
  const bool descent = std::any_of(opt.phases.begin(), opt.phases.end(), [](const Phase& p) {
    return p.descent.method != DescentMethod::none;
  });
  return descent && backend == Backend::cpu ? 18 : 12;
}

namespace {

bool finite(const Measurement& m) {
  return std::isfinite(m.functional) && std::isfinite(m.theta) && std::isfinite(m.theta_max_slice);
}

class Runner {
public:
  Runner(Engine& e, GaugeKind g, int nc, const Geometry& geom, const FixOptions& o,
         const std::function<void(const Progress&)>& progress)
      : engine_(e), gauge_(g), nc_(nc), geom_(geom), opt_(o), progress_(progress),
        start_(std::chrono::steady_clock::now()) {}

  FixResult run() {
    FixResult r;
    const ScheduleCheckpoints* cp = opt_.checkpoints;
    if (cp && cp->resume) {
      const ScheduleState& st = *cp->resume;
      phase_ = st.phase;
      done_ = st.done;
      iteration_ = st.iteration;
      seconds_before_ = st.seconds;
      fourier_ = st.fourier;
      descent_state_ = st.descent;
      history_ = st.history;
      resumed_ = true;
    }
    for (; phase_ < static_cast<int>(opt_.phases.size()); ++phase_) {
      const Phase& phase = opt_.phases[std::size_t(phase_)];
      bool converged = false;
      if (phase.descent.method != DescentMethod::none)
        converged = descend_until_converged(phase);
      else if (phase.update.kind == UpdateKind::heatbath)
        anneal(phase);
      else
        converged = relax_until_converged(phase);
      if (stopped_) {
        r.stopped = true;
        r.iterations = iteration_;
        return r;
      }
      if (converged) break;
      done_ = 0;
      resumed_ = false;
    }
    if (opt_.reproject_interval > 0) engine_.reproject();
    r.final = measure();
    r.converged = gauge_condition_holds(r.final, gauge_, opt_.tolerance);
    r.iterations = iteration_;
    if (opt_.record_history) record(Progress{iteration_, "final", 0.0, r.final, 0.0});
    r.seconds = elapsed();
    if (opt_.record_history) history_.back().seconds = r.seconds;
    r.fourier = fourier_;
    r.history = std::move(history_);
    return r;
  }

private:
  double elapsed() const {
    return seconds_before_ +
           std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

  // Between two sweeps or steps: saves the state where a checkpoint is due; true where the
  // run stops there.
  bool checkpoint(const FourierDescent* descent = nullptr) {
    const ScheduleCheckpoints* cp = opt_.checkpoints;
    if (!cp) return false;
    const CheckpointAction a = cp->due(iteration_);
    if (a == CheckpointAction::none) return false;
    ScheduleState st;
    st.phase = phase_;
    st.done = done_;
    st.iteration = iteration_;
    st.seconds = elapsed();
    st.fourier = fourier_;
    if (descent) st.descent = descent->state();
    st.history = history_;
    cp->save(st);
    stopped_ = a == CheckpointAction::save_and_stop;
    return stopped_;
  }
  Measurement measure() { return checked(normalise(engine_.measure(), gauge_, nc_, geom_)); }

  // A non-finite F or theta is never a result: the run stops with an Error.
  Measurement checked(const Measurement& m) const {
    if (!finite(m))
      throw Error("F or theta is not finite after " + std::to_string(iteration_) +
                  " iterations (F = " + std::to_string(m.functional) +
                  ", theta = " + std::to_string(m.theta) +
                  "); the field or the algorithm's parameters are broken");
    return m;
  }

  Measurement normalised(const DescentSums& s) const {
    return checked(normalise(SliceSums{s.functional, s.theta}, gauge_, nc_, geom_));
  }

  void one_sweep(const UpdateParams& u) {
    engine_.sweep(u, static_cast<std::uint32_t>(iteration_));
    ++iteration_;
    if (opt_.reproject_interval > 0 && iteration_ % opt_.reproject_interval == 0)
      engine_.reproject();
  }

  // A check's progress: recorded (record_history), then reported.
  void report(const char* phase, double temperature, const Measurement& m) {
    Progress p{iteration_, phase, temperature, m, 0.0};
    if (opt_.record_history) record(p);
    p.seconds = elapsed();
    if (opt_.record_history) history_.back().seconds = p.seconds;
    if (progress_) progress_(p);
  }

  // The history row of p, its links measured now (seconds are set by the caller).
  void record(const Progress& p) {
    HistoryRow row{p.iteration,
                   p.phase,
                   p.temperature,
                   p.m.functional,
                   p.m.theta,
                   p.m.theta_max_slice,
                   engine_.measure_link_deviation(),
                   0.0};
    history_.push_back(std::move(row));
  }

  void anneal(const Phase& phase) {
    UpdateParams heat = phase.update;
    UpdateParams micro = phase.update;
    micro.kind = UpdateKind::microcanonical;
    for (; done_ < phase.sweeps;) {
      const long step = done_;
      const double frac = phase.sweeps > 1 ? double(step) / (phase.sweeps - 1) : 1.0;
      heat.temperature = phase.t_max + frac * (phase.t_min - phase.t_max);
      one_sweep(heat);
      for (int k = 0; k < phase.micro_steps; ++k)
        one_sweep(micro);
      ++done_;
      if (done_ % opt_.check_interval == 0 && (progress_ || opt_.record_history))
        report("anneal", heat.temperature, measure());
      if (checkpoint()) return;
    }
  }

  // Returns true once the gauge condition holds.
  bool relax_until_converged(const Phase& phase) {
    const char* name = update_name(phase.update.kind);
    while (done_ < phase.sweeps) {
      one_sweep(phase.update);
      ++done_;
      if (done_ % opt_.check_interval == 0 || done_ == phase.sweeps) {
        const Measurement m = measure();
        report(name, 0.0, m);
        if (gauge_condition_holds(m, gauge_, opt_.tolerance)) return true;
      }
      if (checkpoint()) return false;
    }
    return false;
  }

  // Fourier-accelerated descent; returns true once the gauge condition holds. A stalled
  // descent (no ascent along the preconditioned gradient: F at its maximum to rounding)
  // ends the phase.
  bool descend_until_converged(const Phase& phase) {
    DescentField& field = engine_.descent_field();
    const DescentTimes before = field.times();
    const bool converged = descend(field, phase);
    const DescentTimes after = field.times();
    fourier_.precondition_seconds += after.precondition - before.precondition;
    fourier_.transpose_seconds += after.transposes - before.transposes;
    fourier_.transpose_path = field.transpose_path();
    fourier_.preconditioner_precision = field.preconditioner_precision();
    return converged;
  }

  bool descend(DescentField& field, const Phase& phase) {
    FourierDescent descent(field, phase.descent);
    const char* name = descent_name(phase.descent.method);
    Measurement m;
    if (resumed_ && done_ > 0) { // the gradient of the restored links, counted when it was made
      m = normalised(descent.resume(descent_state_));
    } else {
      m = normalised(descent.start());
      ++fourier_.gradients;
      if (gauge_condition_holds(m, gauge_, opt_.tolerance)) {
        report(name, 0.0, m);
        return true;
      }
    }
    while (done_ < phase.sweeps) {
      const FourierDescent::Step s = descent.step();
      ++iteration_;
      ++done_;
      fourier_.gradients += s.gradients;
      const DescentSums* sums = s.sums;
      if (opt_.reproject_interval > 0 && iteration_ % opt_.reproject_interval == 0) {
        engine_.reproject();
        sums = &descent.start();
        ++fourier_.gradients;
      }
      m = normalised(*sums);
      const bool holds = gauge_condition_holds(m, gauge_, opt_.tolerance);
      const bool last = holds || s.stalled || done_ == phase.sweeps;
      if (last || done_ % opt_.check_interval == 0) report(s.stalled ? "stalled" : name, 0.0, m);
      if (holds) return true;
      if (s.stalled) return false;
      if (checkpoint(&descent)) return false;
    }
    return false;
  }

  Engine& engine_;
  GaugeKind gauge_;
  int nc_;
  Geometry geom_;
  const FixOptions& opt_;
  const std::function<void(const Progress&)>& progress_;
  std::chrono::steady_clock::time_point start_;
  long iteration_ = 0;
  int phase_ = 0;                       // the phase being run
  long done_ = 0;                       // its sweeps or steps done
  double seconds_before_ = 0;           // in the schedule before this run (a resumed checkpoint's)
  bool resumed_ = false;                // the current phase continues a checkpoint's
  bool stopped_ = false;                // at a checkpoint
  FourierDescent::State descent_state_; // a resumed Fourier phase's
  FourierCost fourier_;
  std::vector<HistoryRow> history_;
};

} // namespace

std::vector<UpdateParams> schedule_update_kinds(const FixOptions& opt) {
  std::vector<UpdateParams> kinds;
  for (const Phase& phase : opt.phases) {
    if (phase.descent.method != DescentMethod::none) continue; // no sweeps
    kinds.push_back(phase.update);
    if (phase.update.kind == UpdateKind::heatbath && phase.micro_steps > 0) {
      UpdateParams micro = phase.update;
      micro.kind = UpdateKind::microcanonical;
      kinds.push_back(micro);
    }
  }
  return kinds;
}

FixResult run_schedule(Engine& engine, GaugeKind gauge, int nc, const Geometry& geom,
                       const FixOptions& opt,
                       const std::function<void(const Progress&)>& progress) {
  validate(opt, gauge);
  for (const Phase& phase : opt.phases)
    if (phase.descent.method != DescentMethod::none)
      engine.descent_field(); // arrays and plans, before the clock
  return Runner(engine, gauge, nc, geom, opt, progress).run();
}

} // namespace gf
