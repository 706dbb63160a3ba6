// fix_options.h: everything `gaugefix fix` is told, from the command line and from a YAML
// file, and its validation. The CLI (fix_command.cpp) fills it; run_fix consumes it.
#pragma once
#include "fix/engine.h"
#include "fix/schedule.h"
#include <array>
#include <cstdint>
#include <set>
#include <string>

namespace gf {

struct FixCommandOptions {
  // input: a file, or a field generated on the spot
  std::string input;                 // a file of any format (gauge_file.h); empty: generate
  std::string generate = "smooth";   // unit | smooth | hot (when no input)
  std::array<int, 4> lattice = {8, 8, 8, 8};
  int nc = 3;
  std::uint64_t random_transform_seed = 0; // 0: none
  // output
  std::string output;
  // nersc | nersc-2row | ildg | scidac | milc | openqcd | hdf5; empty: --output's extension's
  // format, else nersc (fix_checks.h)
  std::string output_format;
  int output_bits = 0;           // 32 or 64 bits per real; 0: 32 for milc, else 64
  std::string transform_output;  // where to write g(x); empty: not kept
  std::string transform_format;  // binary | hdf5; empty: hdf5 for .h5/.hdf5, else binary
  std::string summary;
  std::string unconverged = "mark";    // mark: write <output>.unconverged; discard: no field
  std::string config;                  // the --config file (an input: never written)
  std::string exchange = "auto";       // halo path between GPUs (comm/channel.h)
  std::string tuning;                  // off | cached | on | force; empty: $GAUGEFIX_TUNING, else on
  // algorithm
  EngineOptions engine;
  FixOptions fix;
  std::string algorithm = "overrelaxation"; // or fasd, facg (Fourier-accelerated, fourier/descent.h)
  double omega = 1.7;
  std::string alpha = "auto";               // fasd / facg step: auto (line search) or a number > 0
  int max_iterations = 20000;
  int anneal_steps = 0;
  double t_max = 4.0, t_min = 1e-4;
  int micro_steps = 3;
  int sr_steps = 0;
  double sr_probability = 0.5;
  bool quiet = false;
  bool checksum_warning_only = false;
  std::set<std::string> given; // long names of the options given (command line or --config)
};

// Builds opt.fix.phases from the algorithm options; throws Error naming a bad option.
void build_schedule(FixCommandOptions& opt);

} // namespace gf
