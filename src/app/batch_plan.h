// batch_plan.h: every file a `gaugefix fix` run reads and may write, decided and checked
// before anything is read or computed.
// plan_batch resolves the inputs (input_list.h; none: one generated field), expands the
// output patterns for each (output_pattern.h; {seq} reads each input's header), and
// - with several inputs: every output option given must hold a pattern, and the expanded
//   names must differ from input to input;
// - the journal: --journal, else with several inputs <folder of the first output>/
//   gaugefix-journal.yaml (the current folder where nothing is written), else none;
// - check_run_paths (io/path_checks.h) of every possible output of every configuration
//   (possible_outputs), the journal, its lock file and --log-file, against every input (and
//   the --config file) and against each other.
// --history names one file per configuration and Gribov copy: its pattern may hold {copy};
// without it, several copies get copy_path names (history.copy<c>.csv).
// The outputs of --measure (app/measurements.h: --gluon-propagator, --static-potential,
// --ghost-propagator, --lowest-eigenvalue, --abelian) are
// patterns like --output; they are written for converged fields only.
// Failures throw gf::Error naming the option, the input and the file.
#pragma once
#include "app/fix_options.h"
#include "io/path_checks.h"
#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace gf {

// One configuration of the run and its final output names ("" where not asked for).
struct ConfigPaths {
  std::string input; // "": a generated field (no --input)
  std::size_t index = 0;
  std::string output, transform_output, summary;
  std::vector<std::string> history;                // one per Gribov copy (--history), or none
  std::map<std::string, std::string> measurements; // observable name -> its output (--measure)
};

struct BatchPlan {
  std::vector<ConfigPaths> configs;
  std::string journal;          // "": none
  bool default_journal = false; // chosen by gaugefix, not given
};

// The suffix of a field or g(x) that did not converge (--unconverged mark).
inline constexpr char unconverged_suffix[] = ".unconverged";

BatchPlan plan_batch(const FixCommandOptions& opt);
// Every name the run may write for c: the final names, their .unconverged names (--unconverged
// mark), with --keep-copies the names of every copy (and their .unconverged names), and the
// histories.
std::vector<NamedPath> possible_outputs(const ConfigPaths& c, const FixCommandOptions& opt);
// The lock file of a journal.
std::string journal_lock_path(const std::string& journal);

} // namespace gf
