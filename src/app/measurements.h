// measurements.h: the observables of `gaugefix measure` and `gaugefix fix --measure` (the
// functions of src/measure/), their options and the one table that dispatches to them.
// Adding an observable is one entry of `observables()` (its name in --measure, its output
// option and the function that computes its table) plus its options.
//   --gluon-propagator OUT  with --max-n2 N, --cut psq|hypercubic|cylinder, --cylinder-width W:
//                           the Landau gluon propagator, or in Coulomb gauge the equal-time
//                           spatial and temporal propagators (gluon_propagator.h)
//   --static-potential OUT  with --max-t T: C(r, T) and V(r, T) (static_potential.h)
//   --ghost-propagator OUT  with --ghost-max-n2 N, --ghost-cut, --ghost-cylinder-width (the
//                           momenta of the same cuts as the gluon propagator's, the constant
//                           mode left out), --ghost-tolerance, --ghost-max-iterations: the
//                           Landau ghost propagator (ghost_propagator.h); Landau gauge only;
//                           its CG runs on MeasureOptions::backend (measure --backend, fix
//                           --backend: cuda puts it on each rank's GPU)
//   --lowest-eigenvalue OUT with --eigen-tolerance, --eigen-max-iterations: the lowest
//                           non-trivial eigenvalue of the Faddeev-Popov operator (Lanczos,
//                           ghost_propagator.h); Landau gauge only
//   --abelian OUT           the Abelian projection: plaquette, Polyakov loop and monopole
//                           density per colour, the currents' conservation
//                           (abelian_projection.h); maximally Abelian gauge only
// In `fix` the outputs are patterns (output_pattern.h) and --measure LIST names the observables
// (gluon, potential, ghost, eigenvalue, abelian); each one named needs its output and each
// output its name.
// check_measure_options throws gf::Error naming the option for every inconsistency: an
// observable's sub-option without it (--max-t without --static-potential), a missing
// required sub-option, values out of range, an observable in a gauge it is not measured in
// (check_measure_gauge, also called by `measure` once the file's gauge is known).
// measure_field computes every observable whose output is in `outputs` and writes its table
// (measure_output.h) with the record; it logs each one's time. Collective.
#pragma once
#include "comm/world.h"
#include "gauge/gauge_kind.h"
#include "gaugefix/options.h"
#include "io/gauge_file_types.h"
#include "lattice/host_field.h"
#include "measure/measure_output.h"
#include <CLI/CLI.hpp>
#include <set>
#include <string>
#include <vector>

namespace gf {

struct MeasureOptions {
  std::string gluon_propagator; // output file (fix: pattern); "" for none
  int max_n2 = -1;              // required with gluon_propagator
  std::string cut = "psq";
  double cylinder_width = 1.0;
  std::string static_potential; // output file (fix: pattern); "" for none
  int max_t = 0;                // required with static_potential
  std::string ghost_propagator; // output file (fix: pattern); "" for none
  int ghost_max_n2 = -1;        // required with ghost_propagator
  std::string ghost_cut = "psq";
  double ghost_cylinder_width = 1.0;
  double ghost_tolerance = 1e-10;                     // of each CG solve, relative
  int ghost_max_iterations = 1000;                    // of each CG solve
  std::string lowest_eigenvalue;                      // output file (fix: pattern); "" for none
  double eigen_tolerance = 1e-6;                      // Lanczos residual, absolute
  int eigen_max_iterations = 1000;                    // Lanczos steps
  std::string abelian;                                // output file (fix: pattern); "" for none
  std::vector<std::string> measure;                   // fix: --measure LIST
  gaugefix::Backend backend = gaugefix::Backend::cpu; // of the ghost propagator's CG (--backend)
};

struct Observable {
  const char* name;   // in --measure
  const char* option; // its output option
  std::string MeasureOptions::*output;
  Table (*compute)(const HostField& u, const MeasureOptions& opt, GaugeKind gauge,
                   const World& world);
};

const std::vector<Observable>& observables();

// in_fix: the options of `fix` (--measure, patterns), else those of `measure`.
void add_measure_options(CLI::App& app, MeasureOptions& opt, bool in_fix);
void check_measure_options(const MeasureOptions& opt, const std::set<std::string>& given,
                           bool in_fix, GaugeKind gauge);
// Throws gf::Error naming the option of an observable asked for in a gauge it is not measured
// in; `source` says where the gauge comes from (e.g. "--gauge mag", "the file's record").
void check_measure_gauge(const MeasureOptions& opt, GaugeKind gauge, const std::string& source);

struct MeasureOutput {
  const Observable* observable;
  std::string path;
};

// The observables asked for with their (expanded) output names.
std::vector<MeasureOutput> measure_outputs(const MeasureOptions& opt);

// The run record of a measurement file: program, commit, command, input, its checksum and
// the gauge-fixing record the file holds, the gauge the observables assume.
RunRecord measurement_record(const std::string& command_line, const std::string& input,
                             const std::string& checksum, const Provenance& provenance,
                             GaugeKind gauge);

void measure_field(const HostField& u, const MeasureOptions& opt, GaugeKind gauge,
                   const std::vector<MeasureOutput>& outputs, const RunRecord& record,
                   const World& world);

} // namespace gf
