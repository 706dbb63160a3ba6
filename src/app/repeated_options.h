// repeated_options.h: an option given twice on the command line would silently take the
// last value (every option has CLI11's TakeLast policy, so that the command line overrides a
// --config file). check_repeated_options refuses that: `args` is the command line as given
// (program, subcommand, its arguments; --config not yet expanded); where an option of that
// subcommand that takes a value (--input FILE, --input=FILE, -i FILE, -iFILE) appears more
// than once, it throws gf::Error naming the option and its values. Flags may repeat (they
// mean the same each time); arguments after "--" are not options.
#pragma once
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace gf {

void check_repeated_options(const std::vector<std::string>& args,
                            const std::vector<const CLI::App*>& subcommands);

} // namespace gf
