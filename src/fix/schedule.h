// schedule.h: the driver of Alg. 1. A schedule is a list of phases run in order:
//   anneal      heatbath sweeps with T going linearly from t_max to t_min over `sweeps`
//               steps, each followed by `micro_steps` microcanonical sweeps;
//   relaxation / overrelaxation / stochastic / microcanonical: up to `sweeps` sweeps;
//   fasd / facg (Phase::descent, fourier/descent.h; Landau and Coulomb gauge): up to
//               `sweeps` steps of Fourier-accelerated descent, each counted as one iteration;
//               theta comes with every step's gradient, so the condition is tested after
//               every step (progress is reported every `check_interval` steps).
// Every non-annealing phase measures theta each `check_interval` sweeps and stops the
// whole run when the gauge condition holds (theta < tolerance; for Coulomb gauge every
// time slice's theta). Reprojection to SU(N) runs every `reproject_interval` sweeps
// (0 = never) and before the final measurement. Sweeps are numbered globally; the sweep
// number keys the random numbers.
// With record_history the result keeps a HistoryRow for every progress report and one for
// the final measurement (phase "final": the result's F, theta and iterations), each with the
// links' distance from SU(N) (Engine::measure_link_deviation) measured at that point.
#pragma once
#include "fix/engine.h"
#include "fourier/descent.h"
#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace gf {

struct Phase {
  UpdateParams update;              // kind and omega / probability
  DescentParams descent;            // method fasd or facg: a Fourier phase (update is unused)
  int sweeps = 1000;                // annealing steps, or the maximum number of sweeps
  double t_max = 4.0, t_min = 1e-4; // anneal only
  int micro_steps = 3;              // anneal only
};

struct ScheduleCheckpoints;

struct FixOptions {
  std::vector<Phase> phases;
  double tolerance = 1e-12;
  int check_interval = 100;
  int reproject_interval = 0;
  bool record_history = false;                      // FixResult::history
  const ScheduleCheckpoints* checkpoints = nullptr; // null: none
};

struct Measurement {
  double functional = 0;
  double theta = 0;
  double theta_max_slice = 0;          // max over time slices of theta_t (the Coulomb criterion)
  std::vector<double> theta_per_slice; // local slices, normalised per slice
  std::vector<double> functional_per_slice;
};

struct Progress {
  long iteration;
  const char* phase;
  double temperature; // 0 outside annealing
  Measurement m;
  double seconds;
};

// One check of a run: what a progress report shows, and the links' distance from SU(N).
struct HistoryRow {
  long iteration = 0;
  std::string phase;      // as reported ("anneal", "overrelaxation", ...), "final" last
  double temperature = 0; // 0 outside annealing
  double functional = 0;
  double theta = 0;
  double theta_max_slice = 0;
  LinkDeviation links;
  double seconds = 0; // since the schedule started
};

// What the Fourier-accelerated phases cost (all zero without them): the gradients evaluated
// (one per point of a step's line search, and one at each phase's start) and, of the seconds,
// those spent preconditioning and, of these, transposing (DescentTimes, descent_field.h),
// the transposes' path (DescentField::transpose_path; empty without Fourier phases) and the
// preconditioner's precision (DescentField::preconditioner_precision; likewise; set by the
// phase, not kept by a checkpoint).
struct FourierCost {
  long gradients = 0;
  double precondition_seconds = 0;
  double transpose_seconds = 0;
  std::string transpose_path;
  std::string preconditioner_precision;
};

struct FixResult {
  bool stopped = false; // at a checkpoint (ScheduleCheckpoints): only `iterations` is set
  bool converged = false;
  long iterations = 0;
  Measurement final;
  double seconds = 0;
  FourierCost fourier;
  std::vector<HistoryRow> history; // FixOptions::record_history
};

// Where a run of the schedule is between two sweeps or steps: what a checkpoint keeps besides
// the engine's arrays (Engine::save_state).
struct ScheduleState {
  int phase = 0;       // the phase being run (an index of FixOptions::phases)
  long done = 0;       // its sweeps (annealing: steps; Fourier phases: steps) done
  long iteration = 0;  // of the whole schedule: numbers the sweeps (keys the random numbers)
  double seconds = 0;  // spent in the schedule, earlier runs included
  FourierCost fourier; // so far (the transpose path aside)
  FourierDescent::State descent; // of a Fourier phase
  std::vector<HistoryRow> history;
};

enum class CheckpointAction { none, save, save_and_stop };

// due(iteration) is asked between sweeps and steps and must answer alike on every rank (it
// is collective); save(state) then writes the state with the engine's arrays. With `resume`
// the run continues from that state, the engine holding the arrays saved with it.
struct ScheduleCheckpoints {
  std::function<CheckpointAction(long iteration)> due;
  std::function<void(const ScheduleState&)> save;
  const ScheduleState* resume = nullptr;
};

// Normalises an engine's per-slice sums into F and theta for the gauge.
Measurement normalise(const SliceSums& sums, GaugeKind gauge, int nc, const Geometry& geom);
bool gauge_condition_holds(const Measurement& m, GaugeKind gauge, double tolerance);
// Throws Error naming the option when the schedule or a phase is invalid; a Fourier phase
// for MAG is refused (it exists for Landau and Coulomb gauge).
void validate(const FixOptions& opt, GaugeKind gauge);
void validate(const FixOptions& opt);
// The reals per SU(3) link of --storage auto (the default; library FixOptions::storage 0):
// 18 where the schedule has a Fourier-accelerated phase and runs on the CPU, whose move is
// limited by arithmetic there and, with 18, rebuilds no row on every load (docs/fourier.md,
// "the exponential and the storage"); 12 everywhere else.
int auto_storage_reals(const FixOptions& opt, Backend backend);
// The update kinds the schedule sweeps with (annealing adds its microcanonical steps), for
// Engine::prepare.
std::vector<UpdateParams> schedule_update_kinds(const FixOptions& opt);

FixResult run_schedule(Engine& engine, GaugeKind gauge, int nc, const Geometry& geom,
                       const FixOptions& opt, const std::function<void(const Progress&)>& progress);

} // namespace gf
