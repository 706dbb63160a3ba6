// cli_checks.h: CLI11 checks shared by the subcommands. non_empty refuses an empty value
// (an unset shell variable in a job script, `input: ''` in a YAML file) of an option that
// names a file; the parse error names the option and ends the run with exit status 1.
#pragma once
#include <CLI/CLI.hpp>
#include <string>

namespace gf {

inline const CLI::Validator non_empty(
    [](std::string& value) {
      return value.empty() ? std::string("empty value (a file name is required)") : std::string();
    },
    "", "NON_EMPTY");

} // namespace gf
