// measurements.h: the observables of `gaugefix measure` and `gaugefix fix --measure` (the
// functions of src/measure/), their options and the one table that dispatches to them.
// Adding an observable is one entry of `observables()` (its name in --measure, its output
// option and the function that computes its table) plus its options: the ghost propagator
// and the Abelian projection of the maximally Abelian gauge (src/measure/ghost_propagator.h,
// abelian_projection.h, --ghost-propagator, --abelian) are to come in this way.
//   --gluon-propagator OUT  with --max-n2 N, --cut psq|hypercubic|cylinder, --cylinder-width W:
//                           the Landau gluon propagator, or in Coulomb gauge the equal-time
//                           spatial and temporal propagators (gluon_propagator.h)
//   --static-potential OUT  with --max-t T: C(r, T) and V(r, T) (static_potential.h)
// In `fix` the outputs are patterns (output_pattern.h) and --measure LIST names the observables
// (gluon, potential); each one named needs its output and each output its name.
// check_measure_options throws gf::Error naming the option for every inconsistency: an
// observable's sub-option without it (--max-t without --static-potential), a missing
// required sub-option, values out of range.
// measure_field computes every observable whose output is in `outputs` and writes its table
// (measure_output.h) with the record; it logs each one's time. Collective.
#pragma once
#include "comm/world.h"
#include "gauge/gauge_kind.h"
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
  std::string static_potential;     // output file (fix: pattern); "" for none
  int max_t = 0;                    // required with static_potential
  std::vector<std::string> measure; // fix: --measure LIST
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
