#include "app/repeated_options.h"
#include "core/error.h"
#include <map>

namespace gf {

void check_repeated_options(const std::vector<std::string>& args,
                            const std::vector<const CLI::App*>& subcommands) {
  if (args.size() < 2) return;
  const CLI::App* sub = nullptr;
  for (const CLI::App* s : subcommands)
    if (s->get_name() == args[1]) sub = s;
  if (!sub) return;
  std::map<std::string, std::vector<std::string>> values; // option name -> values given
  for (std::size_t i = 2; i < args.size() && args[i] != "--"; ++i) {
    const std::string& a = args[i];
    if (a.size() < 2 || a[0] != '-') continue;
    const bool is_long = a[1] == '-';
    const std::size_t eq = is_long ? a.find('=') : std::string::npos;
    const std::string name = is_long ? a.substr(0, eq) : a.substr(0, 2);
    const CLI::Option* o = sub->get_option_no_throw(name);
    if (!o || o->get_type_size() == 0) continue; // not an option of sub, or a flag
    std::string value;
    if (eq != std::string::npos)
      value = a.substr(eq + 1);
    else if (!is_long && a.size() > 2)
      value = a.substr(2);
    else if (i + 1 < args.size())
      value = args[++i];
    values[o->get_name()].push_back(value);
  }
  for (const auto& [name, given] : values) {
    if (given.size() < 2) continue;
    std::string list;
    for (const std::string& v : given)
      list += (list.empty() ? "'" : ", '") + v + "'";
    throw Error(name + " is given " + std::to_string(given.size()) + " times (" + list +
                "): give it once (a --config file's value is overridden by the command line)");
  }
}

} // namespace gf
