// fix_command.h: `gaugefix fix`: fix the gauge of one configuration or of many in one run.
// For each configuration: read (or generate) it, fix the gauge from one or more starts (Gribov
// copies: the input, then random points of its gauge orbit), print progress, write the best
// copy's field, its g(x) and a YAML summary (fix_one.h); over many: one process, one engine,
// a journal to continue from after a kill (batch_run.h, journal.h).
// - Before anything is read: conflicting options, --output's extension against
//   --output-format (fix_checks.h); the inputs, the output names of every configuration
//   (patterns: output_pattern.h), and every output against the inputs (--input, --input-list,
//   --config) and the other outputs (batch_plan.h, io/path_checks.h).
// - Before any sweep: whether the format holds the field (fix_checks.h).
// - Without --output the field is fixed but not written: a warning says so (the exit status
//   is that of the fix).
// - The written field carries the input's ensemble and the record of the run where its format
//   has room (fix_provenance.h, io/provenance.h).
// - g(x) is the transformation from the input file's links to the written ones: the copy's
//   random start (--random-transform for copy 0) is composed into the engine's g(x).
// - A field that did not converge never gets its final name: with --unconverged mark it is
//   written as <output>.unconverged (g(x) likewise), with discard not at all; the summary
//   says converged: false and names the path written. A converged run with mark removes the
//   .unconverged files an earlier run left under the same names.
// Returns the exit status: 0 converged, 1 an input could not be read (a batch goes on with the
// others), 3 not converged.
#pragma once
#include "app/batch_plan.h"
#include "app/fix_options.h"
#include <CLI/CLI.hpp>

namespace gf {

void add_fix_options(CLI::App& fix, FixCommandOptions& opt);
int run_fix(FixCommandOptions& opt, const std::string& command_line);

} // namespace gf
