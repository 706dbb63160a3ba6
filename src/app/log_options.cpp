#include "app/log_options.h"
#include "app/cli_checks.h"
#include "comm/world.h"
#include "core/log.h"

namespace gf {

void add_log_options(CLI::App& sub, LogOptions& opt) {
  CLI::Option* quiet =
      sub.add_flag("--quiet,-q", opt.quiet, "log results, warnings and errors only (no progress)");
  CLI::Option* verbose =
      sub.add_flag("--verbose,-v", opt.verbose, "log details too (tuning, every rank's set-up)");
  quiet->excludes(verbose);
  sub.add_option("--log-file", opt.file,
                 "write the log to this file (warnings and errors also to stderr)")
      ->check(non_empty);
}

void set_log_verbosity(const LogOptions& opt) {
  log::set_verbosity(opt.quiet     ? log::Verbosity::quiet
                     : opt.verbose ? log::Verbosity::verbose
                                   : log::Verbosity::normal);
}

std::vector<NamedPath> with_log_file(std::vector<NamedPath> outputs, const LogOptions& opt) {
  if (!opt.file.empty()) outputs.push_back({"--log-file", opt.file});
  return outputs;
}

void open_log(const LogOptions& opt) {
  if (opt.file.empty()) return;
  log::open_file(opt.file);
  World().barrier(); // rank 0 has created the file before another rank appends an error to it
}

} // namespace gf
