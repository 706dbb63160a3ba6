// option_values.h: the checks of the API's option values, with messages that name the option
// as the API spells it (GenerateOptions::storage: "storage"), which are also the Python
// module's keyword arguments. Each throws gf::Error.
#pragma once
#include "lattice/storage.h"
#include <string>

namespace gaugefix {

void require(bool ok, const std::string& message);
void require_at_least(const char* option, long long value, long long least);
gf::Storage storage_option(int reals, int nc); // 8, 12 or 18, and whether it holds SU(nc)

} // namespace gaugefix
