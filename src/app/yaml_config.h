// yaml_config.h: options from a YAML file. A config file is a map whose keys are the long
// option names of the subcommand (without "--"); values are scalars or lists: a list is one
// comma-separated value (--lattice: [8, 8, 8, 16]), or, for the keys in `list_keys` (options
// that take several values, e.g. input: [a.lime, b.lime]), one argument per element. The
// file's options come first, so the command line overrides them (main.cpp).
#pragma once
#include <string>
#include <vector>

namespace gf {

// Returns "--key value" pairs for the options in `path`; throws Error naming the file and
// the key when the file cannot be read, is not a map, or holds an unknown or repeated key.
std::vector<std::string> yaml_config_arguments(const std::string& path,
                                               const std::vector<std::string>& known_keys,
                                               const std::vector<std::string>& list_keys = {});

} // namespace gf
