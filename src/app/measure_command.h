// measure_command.h: `gaugefix measure --input F [--gauge landau|coulomb|mag] OBSERVABLES`: reads a
// gauge field of any format (gauge_file.h, as `info` and `fix` read it), measures the
// observables asked for (measurements.h: --gluon-propagator, --static-potential,
// --ghost-propagator, --lowest-eigenvalue, --abelian) on the host
// copy of the field (the ghost propagator's conjugate gradient on each rank's GPU with
// --backend cuda) and writes each to its file (CSV or .h5, measure_output.h) with the run
// record: the input, its checksums, the gauge-fixing record it holds, the gaugefix version
// and commit. The gauge the observables assume: --gauge, else the gauge of the file's
// record, else landau; an observable in a gauge it is not measured in is refused
// (check_measure_gauge: --gauge before the file is read, the record after). Every output is checked
// first (io/path_checks.h: never the input,
// --config or another output) and appears complete or not at all. Every rank reads its slab;
// the results do not depend on the number of ranks. Bad options or files throw gf::Error
// naming them (exit status 1).
#pragma once
#include "app/log_options.h"
#include "app/measurements.h"
#include "comm/world.h"
#include <CLI/CLI.hpp>
#include <set>
#include <string>

namespace gf {

struct MeasureCommandOptions {
  std::string input;
  std::string gauge; // landau | coulomb; "": the file's record, else landau
  MeasureOptions measure;
  bool checksum_warning_only = false;
  std::string config; // the --config file (an input: never written)
  LogOptions log;
  std::set<std::string> given; // long names of the options given
};

void add_measure_command_options(CLI::App& measure, MeasureCommandOptions& opt);
int run_measure(const MeasureCommandOptions& opt, const std::string& command_line,
                const World& world);

} // namespace gf
