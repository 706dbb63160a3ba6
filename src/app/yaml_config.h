// yaml_config.h: options from a YAML file. A config file is a map whose keys are the long
// option names of the subcommand (without "--"); values are scalars or, for --lattice,
// a list. The file's options come first, so the command line overrides them.
#pragma once
#include <string>
#include <vector>

namespace gf {

// Returns "--key value" pairs for the options in `path`; throws Error naming the file and
// the key when the file cannot be read, is not a map, or holds an unknown or repeated key.
std::vector<std::string> yaml_config_arguments(const std::string& path,
                                               const std::vector<std::string>& known_keys);

} // namespace gf
