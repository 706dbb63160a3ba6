#include "app/option_suggestions.h"
#include <algorithm>

namespace gf {

std::vector<std::string> long_option_names(const CLI::App& sub) {
  std::vector<std::string> names;
  for (const CLI::Option* o : sub.get_options())
    for (const std::string& n : o->get_lnames())
      names.push_back(n);
  return names;
}

std::string unknown_option_hint(const CLI::App& sub, const std::vector<std::string>& args) {
  const std::vector<std::string> names = long_option_names(sub);
  std::vector<std::string> hints;
  for (const std::string& arg : args) {
    if (arg.size() < 3 || arg.compare(0, 2, "--") != 0) continue;
    const std::string name = arg.substr(2, arg.find('=') - 2);
    if (std::find(names.begin(), names.end(), name) != names.end()) continue;
    if (const std::string near = nearest_name(name, names); !near.empty())
      hints.push_back("--" + near);
  }
  std::string text;
  for (std::size_t i = 0; i < hints.size(); ++i)
    text += (i == 0 ? "" : i + 1 == hints.size() ? " and " : ", ") + hints[i];
  return text.empty() ? "" : " (did you mean " + text + "?)";
}

std::string config_footer(const CLI::App& sub) {
  std::string examples;
  int n = 0;
  for (const CLI::Option* o : sub.get_options()) {
    if (n == 2) break;
    const std::string value = o->get_default_str();
    // a single value that reads as itself in YAML (no flag, no list)
    if (o->get_lnames().empty() || value.empty() || !o->get_configurable() ||
        o->get_type_size() == 0 || o->get_expected_max() > 1 ||
        value.find_first_of(",[{:#") != std::string::npos || o->get_lnames().front() == "config")
      continue;
    examples += o->get_lnames().front() + ": " + value + ", ";
    ++n;
  }
  return "\nOptions from a YAML file: --config FILE, a map of the long option names above to "
         "their\nvalues (e.g. " +
         examples + "quiet: yes); the command line wins.\n";
}

} // namespace gf
