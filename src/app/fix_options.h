// fix_options.h: everything `gaugefix fix` is told, from the command line and from a YAML
// file, and its validation. The CLI (fix_command.cpp) fills it; run_fix consumes it. What to
// fix and how is its FixPlan (run/fix_plan.h), the description gaugefix::fix fills too.
#pragma once
#include "app/log_options.h"
#include "app/measurements.h"
#include "run/fix_plan.h"
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
  Group group = Group::su3;
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
  // the gauge, the schedule, the engine: --gauge, --algorithm, --tolerance, ..., --storage
  // (auto: 0), --alpha (auto: 0), --tuning, --exchange; its track_transform and history follow
  // --transform-output and --history (complete_plan)
  FixPlan plan;
  // Gribov copies (gribov_copies.h): random starts per configuration, the best written
  int copies = 1;
  bool keep_copies = false;     // write every copy too (copy_path, output_pattern.h)
  double copy_tolerance = 1e-8; // a copy reached the best when F_best - F_copy <= this
  // checkpoints (app/checkpoint.h): every this many seconds (0: every sweep; < 0: only at a
  // signal); a stop with a checkpoint once this process did this many iterations (0: never)
  double checkpoint_interval = -1;
  long stop_after_iterations = 0;
  bool signal_before_output = false; // SIGTERM to itself before the outputs (tests)
  MeasureOptions measure;            // --measure and its outputs (patterns), measurements.h
  LogOptions log;                    // -q, -v, --log-file
  bool checksum_warning_only = false;
  std::set<std::string> given; // long names of the options given (command line or --config)
};

// The options that decide what a configuration's result is (physics, schedule, seeds,
// copies, output format), as (long option name, value) text: a journal records them and a
// restart must give the same (journal.h). --max-iterations is not among them: a converged
// result does not depend on it.
std::vector<std::pair<std::string, std::string>> defining_options(const FixCommandOptions& opt);

// Sets the plan's track_transform and history from the outputs asked for, and checks the plan
// and the generated field's options; throws Error naming a bad option.
void complete_plan(FixCommandOptions& opt);

} // namespace gf
