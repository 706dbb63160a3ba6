// fix_one.h: one configuration of a `gaugefix fix` run, with all its Gribov copies
// (gribov_copies.h).
// fix_one reads the input (or generates the field), checks that the output format holds its
// group, then runs each copy from its start through the whole schedule (fix_field) on the
// session's engine and keeps the best. It writes
// - the best copy's field and g(x) (g takes the input file's links to the written ones: the
//   copy's random start is composed into the engine's g(x)), under the final names where it
//   converged, else as <name>.unconverged (--unconverged mark) or not at all (discard);
// - with --keep-copies every copy's field and g(x) under copy_path names (output_pattern.h),
//   by the same rule per copy;
// - each copy's convergence history (--history, history_file.h), whether or not it converged;
// - the summary (--summary), and on convergence removes the .unconverged files an earlier run
//   left under these names and the temporary files a killed run left for any of them.
// With an output, the fix saves checkpoints and continues from one (checkpoint.h): a stop at
// a checkpoint (a signal, --stop-after-iterations) returns at once with `stopped`, nothing
// written but the checkpoint; the configuration's checkpoint files are removed once its
// outputs are written. From its first schedule on, the signals stay held (fix_field) until
// the caller releases them after the outputs: a signal that comes after the last sweep lets
// the outputs be written first (run_batch then ends the process by it).
// An input that cannot be read is not an exception: the outcome carries the message (every
// rank agrees) and nothing is written, so that a batch goes on with the next configuration.
// Collective.
#pragma once
#include "app/batch_plan.h"
#include "app/fix_session.h"
#include "app/summary.h"
#include <string>
#include <vector>

namespace gf {

struct ConfigOutcome {
  SummaryEntry entry;
  std::vector<std::string> written; // every file written, under the name it got
  std::string error;                // the input could not be read ("": it was)
  double seconds_total = 0;         // reading, every copy, writing
  bool stopped = false;             // at a checkpoint: nothing but it was written
  std::string checkpoint;           // its file (rank 0's)
  std::string position;             // where it is (Checkpoint::position)
};

// `label`: printed before the result line (the input, in a batch); "" for none.
ConfigOutcome fix_one(const ConfigPaths& c, const FixCommandOptions& opt, FixSession& session,
                      const World& world, const std::string& command_line,
                      const std::string& label);

// One copy: the schedule (FixSession::schedule) on the engine (loaded with the copy's start), its
// progress in the log (progress_log.h). With checkpoints, SIGTERM, SIGINT and SIGHUP are held from
// the schedule's start (io/signal_cleanup.h); the caller releases them (run_batch: after the
// configuration's outputs) or ends the process by them (a stop at a checkpoint).
FixResult fix_field(Engine& engine, const FixOptions& schedule, GaugeKind gauge, int nc,
                    const Geometry& geom, const ScheduleCheckpoints* checkpoints = nullptr);

} // namespace gf
