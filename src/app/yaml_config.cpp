#include "app/yaml_config.h"
#include "app/option_suggestions.h"
#include "core/error.h"
#include <fmt/format.h>
#include <iterator>
#include <set>
#include <yaml-cpp/yaml.h>

namespace gf {

namespace {

// The text of a scalar element of `key`'s value; a map or list there is refused.
std::string scalar_text(const YAML::Node& v, const std::string& where) {
  if (v.IsScalar()) return v.Scalar();
  if (v.IsNull()) throw Error(where + " needs a value");
  throw Error(where + (v.IsMap() ? " is a map, not a value" : " is a nested list, not a value"));
}

} // namespace

std::string YamlConfig::to_config(const CLI::App*, bool, bool, std::string) const {
  throw Error("writing a YAML config file is not supported");
}

std::vector<CLI::ConfigItem> YamlConfig::from_config(std::istream& input) const {
  const CLI::Option* config = app_.get_config_ptr();
  path_ = config && !config->results().empty() ? config->results().front() : "";
  keys_.clear();
  const std::string file = "config file '" + path_ + "'";
  const std::vector<CLI::App*> subs = app_.get_subcommands();
  if (subs.empty()) throw Error("--config goes after the subcommand (gaugefix fix --config FILE)");
  const CLI::App& sub = *subs.front();

  YAML::Node root;
  try {
    root = YAML::Load(std::string(std::istreambuf_iterator<char>(input), {}));
  } catch (const YAML::Exception& e) {
    throw Error(file + ": not valid YAML: " + e.what());
  }
  if (root.IsNull()) return {};
  if (!root.IsMap())
    throw Error(file + ": expected a map of option: value (the long option names of " +
                sub.get_name() + ")");
  std::vector<CLI::ConfigItem> items;
  std::set<std::string> seen;
  for (const auto& kv : root) {
    if (!kv.first.IsScalar()) throw Error(file + ": a key is not a name");
    const std::string key = kv.first.Scalar();
    const std::string where = file + ", key '" + key + "'";
    if (key == "config") throw Error(where + ": a config file cannot name another config file");
    const CLI::Option* o = sub.get_option_no_throw("--" + key);
    if (!o) { // a positional argument, by its name (info: files; convert: input, output)
      o = sub.get_option_no_throw(key);
      if (o && !o->get_positional()) o = nullptr;
    }
    if (!o || !o->get_configurable()) {
      std::vector<std::string> keys = long_option_names(sub);
      for (const CLI::Option* p : sub.get_options())
        if (p->get_positional()) keys.push_back(p->get_name());
      const std::string near = nearest_name(key, keys);
      throw Error(where + ": not an option of gaugefix " + sub.get_name() +
                  (near.empty() ? "" : " (did you mean " + near + "?)") +
                  "; keys are the long option names (--tolerance: tolerance) or the names of the "
                  "arguments (input)");
    }
    if (!seen.insert(key).second) throw Error(where + ": given more than once");
    const YAML::Node& v = kv.second;
    CLI::ConfigItem item;
    item.parents = {sub.get_name()};
    item.name = key;
    if (o->get_expected_min() == 0) { // a flag: a YAML boolean
      bool on = false;
      if (!v.IsScalar() || !YAML::convert<bool>::decode(v, on))
        throw Error(where + ": expected a boolean (true/false, yes/no, on/off)" +
                    (v.IsScalar() ? ", got '" + v.Scalar() + "'" : ""));
      if (!on) continue; // an absent flag
      item.inputs = {"true"};
    } else if (v.IsSequence()) {
      if (o->get_expected_max() < 2) throw Error(where + ": takes one value, not a list");
      if (v.size() == 0) throw Error(where + ": an empty list");
      for (std::size_t i = 0; i < v.size(); ++i)
        item.inputs.push_back(scalar_text(v[i], fmt::format("{}, element {}", where, i + 1)));
    } else {
      item.inputs = {scalar_text(v, where)};
    }
    if (o->count() > 0) continue; // the command line gives it
    keys_.push_back(key);
    items.push_back(std::move(item));
  }
  return items;
}

std::string config_source(const YamlConfig& config, const std::string& message) {
  for (const std::string& key : config.keys())
    if (message.find("--" + key + ":") != std::string::npos ||
        message.find("--" + key + " ") != std::string::npos ||
        message.find("--" + key + ",") != std::string::npos || message.ends_with("--" + key))
      return " (config file '" + config.path() + "', key '" + key + "')";
  return "";
}

} // namespace gf
