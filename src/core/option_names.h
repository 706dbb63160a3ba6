// option_names.h: the one name table of each typed option value (include/gaugefix/options.h),
// for the code inside the library and the command line. For E one of those enums:
//   name_of(v)               the name an option spells for v ("landau", "double", "auto");
//   parse_name<E>(option, s) the value named s; for any other s throws Error
//                            "<option>: <name_problem<E>(s)>";
//   name_problem<E>(s)       "" where s names a value, else "unknown gauge 'landua' (expected
//                            landau, coulomb or mag; did you mean landau?)" (the command line's
//                            checks prefix the option themselves);
//   names<E>()               the names accepted, in the enum's order.
// Tuning::from_environment is named "" (an option left empty) and listed by no message.
#pragma once
#include "gaugefix/options.h"
#include <string>
#include <vector>

namespace gf {

template <class E>
const char* name_of(E value);
template <class E>
std::string name_problem(const std::string& name);
template <class E>
E parse_name(const std::string& option, const std::string& name);
template <class E>
std::vector<std::string> names();

} // namespace gf
