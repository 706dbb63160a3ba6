// batch_run.h: `gaugefix fix` over the configurations of a plan (batch_plan.h), in list order,
// in one process that keeps its session (fix_session.h: MPI channel, tuner, engine buffers).
// With a journal (journal.h) the configurations it records as finished are skipped (a
// "skip" line each), and after each configuration its entry is recorded: the summary entry,
// the input's size, and the size and CRC-32 of every file written. An input that cannot be
// read is recorded as failed and the run goes on (a single input without a journal: the
// error ends the run, exit status 1, as before batches existed).
// Returns the exit status: 0 every configuration converged (or was finished before), 1 an
// input could not be read, else 3 some configuration did not converge.
#pragma once
#include "app/batch_plan.h"
#include <string>

namespace gf {

int run_batch(const BatchPlan& plan, FixCommandOptions& opt, const std::string& command_line);

} // namespace gf
