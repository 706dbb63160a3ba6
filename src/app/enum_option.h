// enum_option.h: a command-line option (and --config key) whose value is one of the names of a
// typed option (core/option_names.h): the value is checked against the one name table, so that
// a bad one ends the run with "--gauge: unknown gauge 'landua' (expected landau, coulomb or
// mag; did you mean landau?)" (exit status 1), and `value` gets the enum; the help shows the
// names and the default's. The second form hands the value to `set` instead (an option without
// a default).
#pragma once
#include "core/option_names.h"
#include <CLI/CLI.hpp>
#include <string>

namespace gf {

template <class E, class Set>
CLI::Option* add_enum_option(CLI::App& app, const std::string& name, Set set,
                             const std::string& help) {
  std::string shown; // {a,b,c}, as CLI11 shows a set of names
  for (const std::string& n : names<E>())
    if (!n.empty()) shown += (shown.empty() ? "" : ",") + n;
  return app
      .add_option_function<std::string>(
          name, [set, name](const std::string& text) { set(parse_name<E>(name, text)); }, help)
      ->check(CLI::Validator([](std::string& text) { return name_problem<E>(text); },
                             "{" + shown + "}"));
}

template <class E>
CLI::Option* add_enum_option(CLI::App& app, const std::string& name, E& value,
                             const std::string& help) {
  return add_enum_option<E>(
             app, name, [&value](E v) { value = v; }, help)
      ->default_str(name_of(value));
}

} // namespace gf
