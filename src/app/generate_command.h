// generate_command.h: `gaugefix generate`: a quenched SU(2) or SU(3) ensemble with the Wilson
// action (heatbath and overrelaxation, gen/ensemble.h), written as PREFIX.0000, PREFIX.0001,
// ... in the format of --output-format and resumed where an earlier run stopped. Prints the
// plaquette and the heatbath acceptance while running. Bad options throw gf::Error naming the
// option (exit status 1). Before any sweep: the start file must be none of the outputs, every
// output path absent or a regular file (path_checks.h), and rank 0 takes the lock PREFIX.lock
// (file_lock.h) for the whole run, so a second run writing the same ensemble is refused (exit
// status 1). A resumed run with other ensemble-defining parameters is refused naming the option
// (ensemble.h).
// --tuning chooses how the launch parameters are found, as for fix (tuning/tuning_setup.h); the
// launches used are printed before the first sweep.
#pragma once
#include "app/log_options.h"
#include "gen/ensemble.h"
#include "tuning/tune_mode.h"
#include <CLI/CLI.hpp>

namespace gf {

struct GenerateCommandOptions {
  EnsembleOptions ensemble;
  // --group sets ensemble.nc, --precision and --backend ensemble.generator's
  int storage = 12; // reals per SU(3) link: 8, 12 or 18 (lattice/storage.h)
  TuneMode tuning = TuneMode::from_environment;
  std::string output_format = "nersc"; // nersc | ildg | scidac | hdf5 (ensemble.h)
  LogOptions log;
};

void add_generate_options(CLI::App& generate, GenerateCommandOptions& opt);
std::string lock_path(const std::string& prefix); // PREFIX.lock
int run_generate(GenerateCommandOptions& opt, const std::string& command_line);

} // namespace gf
