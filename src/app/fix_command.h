// fix_command.h: `gaugefix fix`: read (or generate) a configuration, optionally move it
// to a random point of its gauge orbit, fix the gauge with the chosen schedule, print
// progress, write the fixed field, g(x) and a YAML summary.
// - Before anything is read, every output (field, g(x), their not-converged names, summary)
//   is checked against the inputs (--input, --config) and the other outputs (path_checks.h).
// - Before any sweep: conflicting options, --output's extension against --output-format and
//   whether the format holds the field are checked (fix_checks.h).
// - The written field carries the input's ensemble and the record of the run where its format
//   has room (fix_provenance.h, io/provenance.h).
// - g(x) is the transformation from the input file's links to the written ones: the random
//   start (--random-transform) is composed into the engine's g(x).
// - A field that did not converge never gets its final name: with --unconverged mark it is
//   written as <output>.unconverged (g(x) likewise), with discard not at all; the summary
//   says converged: false and names the path written. A converged run with mark removes the
//   .unconverged files an earlier run left under the same names.
// Returns the exit status: 0 converged, 3 not converged.
#pragma once
#include "app/fix_options.h"
#include <CLI/CLI.hpp>

namespace gf {

inline constexpr char unconverged_suffix[] = ".unconverged";

void add_fix_options(CLI::App& fix, FixCommandOptions& opt);
int run_fix(FixCommandOptions& opt, const std::string& command_line);

} // namespace gf
