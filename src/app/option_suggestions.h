// option_suggestions.h: help for names a user mistyped or has to guess.
// nearest_name (core/nearest_name.h): the candidate a mistyped word is nearest to.
// unknown_option_hint: for the arguments of `args` that look like long options ("--name" or
//   "--name=value") and are no option of `sub`, " (did you mean --tolerance?)" naming the
//   nearest option of each that has one; empty where none has.
// long_option_names: the long names of sub's options, without "--" (the keys of its config
//   files, yaml_config.h).
// config_footer: the --config paragraph of sub's help, its examples taken from sub's own
//   options (their defaults), so that each subcommand shows keys it has.
#pragma once
#include "core/nearest_name.h"
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace gf {

std::string unknown_option_hint(const CLI::App& sub, const std::vector<std::string>& args);
std::vector<std::string> long_option_names(const CLI::App& sub);
std::string config_footer(const CLI::App& sub);

} // namespace gf
