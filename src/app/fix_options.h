// fix_options.h: everything `gaugefix fix` is told, from the command line and from a YAML
// file, and its validation. The CLI (fix_command.cpp) fills it; run_fix consumes it.
#pragma once
#include "app/log_options.h"
#include "app/measurements.h"
#include "fix/engine.h"
#include "fix/schedule.h"
#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace gf {

struct FixCommandOptions {
  // input: files, or a field generated on the spot
  std::vector<std::string> input;  // files of any format (gauge_file.h), or glob patterns
                                   // (input_list.h); none (and no input_list): generate
  std::string input_list;          // a file of input paths, one per line
  std::string generate = "smooth"; // unit | smooth | hot (when no input)
  std::array<int, 4> lattice = {8, 8, 8, 8};
  int nc = 3;
  std::uint64_t random_transform_seed = 0; // 0: none
  // output; with several inputs each name is a pattern (output_pattern.h)
  std::string output;
  // nersc | nersc-2row | ildg | scidac | milc | openqcd | hdf5; empty: --output's extension's
  // format, else nersc (fix_checks.h)
  std::string output_format;
  int output_bits = 0;          // 32 or 64 bits per real; 0: 32 for milc, else 64
  std::string transform_output; // where to write g(x); empty: not kept
  std::string transform_format; // binary | hdf5 | lime; empty: from the extension, else binary
  std::string summary;
  std::string history; // the convergence history, CSV (history_file.h); a pattern, as --output
  std::string journal; // the ensemble's journal (journal.h); empty: a default with several inputs
  std::string unconverged = "mark"; // mark: write <output>.unconverged; discard: no field
  std::string config;               // the --config file (an input: never written)
  std::string exchange = "auto";    // halo path between GPUs (comm/channel.h)
  std::string tuning;               // off | cached | on | force; empty: $GAUGEFIX_TUNING, else on
  // algorithm
  EngineOptions engine;
  FixOptions fix;
  std::string algorithm =
      "overrelaxation"; // or fasd, facg (Fourier-accelerated, fourier/descent.h)
  double omega = 1.7;
  std::string storage = "auto"; // --storage: 8, 12, 18 or auto (auto_storage_reals, schedule.h)
  std::string alpha = "auto";   // fasd / facg step: auto (line search) or a number > 0
  int max_iterations = 20000;
  int anneal_steps = 0;
  double t_max = 4.0, t_min = 1e-4;
  int micro_steps = 3;
  int sr_steps = 0;
  double sr_probability = 0.5;
  // Gribov copies (gribov_copies.h): random starts per configuration, the best written
  int copies = 1;
  bool keep_copies = false;     // write every copy too (copy_path, output_pattern.h)
  double copy_tolerance = 1e-8; // a copy reached the best when F_best - F_copy <= this
  // checkpoints (app/checkpoint.h): every this many seconds (0: every sweep; < 0: only at a
  // signal); a stop with a checkpoint once this process did this many iterations (0: never)
  double checkpoint_interval = -1;
  long stop_after_iterations = 0;
  MeasureOptions measure; // --measure and its outputs (patterns), measurements.h
  LogOptions log;         // -q, -v, --log-file
  bool checksum_warning_only = false;
  std::set<std::string> given; // long names of the options given (command line or --config)
};

// The options that decide what a configuration's result is (physics, schedule, seeds,
// copies, output format), as (long option name, value) text: a journal records them and a
// restart must give the same (journal.h). --max-iterations is not among them: a converged
// result does not depend on it.
std::vector<std::pair<std::string, std::string>> defining_options(const FixCommandOptions& opt);

// Builds opt.fix.phases from the algorithm options; throws Error naming a bad option.
void build_schedule(FixCommandOptions& opt);

} // namespace gf
