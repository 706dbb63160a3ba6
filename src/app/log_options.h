// log_options.h: the options of every subcommand that shape its log (core/log.h,
// docs/logs.md): -q/--quiet (results, warnings and errors only: no header, no progress),
// -v/--verbose (also details: tuning, every rank's set-up) and --log-file FILE (the log goes
// to FILE; warnings and errors also to stderr). FILE is an output like any other: each
// subcommand checks it against its inputs and outputs (io/path_checks.h) before open_log.
#pragma once
#include "io/path_checks.h"
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace gf {

struct LogOptions {
  bool quiet = false;
  bool verbose = false;
  std::string file; // "": none
};

void add_log_options(CLI::App& sub, LogOptions& opt);
// Sets the verbosity (main.cpp, once the command line is parsed).
void set_log_verbosity(const LogOptions& opt);
// Opens --log-file, if given (after the subcommand's path checks).
void open_log(const LogOptions& opt);
// `outputs` and --log-file where given: what a subcommand hands check_run_paths.
std::vector<NamedPath> with_log_file(std::vector<NamedPath> outputs, const LogOptions& opt);

} // namespace gf
