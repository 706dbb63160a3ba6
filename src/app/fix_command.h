// fix_command.h: `gaugefix fix`: read (or generate) a configuration, optionally move it
// to a random point of its gauge orbit, fix the gauge with the chosen schedule, print
// progress, write the fixed field and a YAML summary. Returns the exit status:
// 0 converged, 3 not converged (the output is still written, marked in the summary).
#pragma once
#include "app/fix_options.h"
#include <CLI/CLI.hpp>

namespace gf {

void add_fix_options(CLI::App& fix, FixCommandOptions& opt);
int run_fix(FixCommandOptions& opt, const std::string& command_line);

} // namespace gf
