// yaml_config.h: options from a YAML file, through CLI11's config mechanism
// (App::set_config("--config") with this formatter). The file is a map whose keys are the long
// option names of the subcommand given on the command line (without "--") or the names of its
// arguments (info: files; convert: input, output); what the command line gives wins. Values as YAML
// defines them:
// - a scalar is the option's value; for a flag (--quiet) a YAML boolean: true/false, yes/no,
//   on/off (any case, as yaml-cpp reads them);
// - a list gives one value per element: the files of --input ([a.lime, b.lime]) or the
//   extents of --lattice ([8, 8, 8, 16]); only options that take several values accept one.
// Refused, each with a gf::Error naming the file and the key (exit status 1): a file that is
// not YAML or not a map, a key that is not an option of the subcommand, a key given twice, a
// nested `config:` key, a map or a nested list where a value belongs, an empty value, a list
// for a single-valued option and a flag that is not a boolean. A value of the wrong type is
// refused by the option's own check; main.cpp adds the file and key to that message
// (config_source).
#pragma once
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace gf {

class YamlConfig : public CLI::Config {
public:
  // `app`: the program's App, whose --config option names the file and whose parsed
  // subcommand owns the keys.
  explicit YamlConfig(const CLI::App& app) : app_(app) {}

  std::string to_config(const CLI::App*, bool, bool, std::string) const override;
  std::vector<CLI::ConfigItem> from_config(std::istream& input) const override;

  // The file read, and the keys it gave (for messages about their values).
  const std::string& path() const { return path_; }
  const std::vector<std::string>& keys() const { return keys_; }

private:
  const CLI::App& app_;
  mutable std::string path_;
  mutable std::vector<std::string> keys_;
};

// " (config file 'PATH', key 'KEY')" when `message` (a CLI11 error about an option) concerns
// a key the config file gave, else "".
std::string config_source(const YamlConfig& config, const std::string& message);

} // namespace gf
