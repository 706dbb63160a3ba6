#include "app/yaml_config.h"
#include "core/error.h"
#include <algorithm>
#include <set>
#include <yaml-cpp/yaml.h>

namespace gf {

std::vector<std::string> yaml_config_arguments(const std::string& path,
                                               const std::vector<std::string>& known_keys,
                                               const std::vector<std::string>& list_keys) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::Exception& e) {
    throw Error("config file " + path + ": " + e.what());
  }
  if (!root.IsMap()) throw Error("config file " + path + ": expected a map of option: value");
  std::vector<std::string> args;
  std::set<std::string> seen;
  for (const auto& kv : root) {
    const std::string key = kv.first.as<std::string>();
    if (std::find(known_keys.begin(), known_keys.end(), key) == known_keys.end())
      throw Error("config file " + path + ": unknown option '" + key + "'");
    if (!seen.insert(key).second)
      throw Error("config file " + path + ": option '" + key + "' is given more than once");
    const YAML::Node& v = kv.second;
    if (v.IsSequence() && std::find(list_keys.begin(), list_keys.end(), key) != list_keys.end()) {
      if (v.size() == 0)
        throw Error("config file " + path + ": option '" + key + "' is an empty list");
      args.push_back("--" + key);
      for (std::size_t i = 0; i < v.size(); ++i)
        args.push_back(v[i].as<std::string>());
      continue;
    }
    std::string value;
    if (v.IsSequence()) {
      for (std::size_t i = 0; i < v.size(); ++i) value += (i ? "," : "") + v[i].as<std::string>();
    } else if (v.IsScalar()) {
      value = v.as<std::string>();
    } else {
      throw Error("config file " + path + ": option '" + key + "' needs a value");
    }
    if (value == "true" || value == "false") {
      if (value == "true") args.push_back("--" + key);
      continue;
    }
    args.push_back("--" + key);
    args.push_back(value);
  }
  return args;
}

} // namespace gf
