// option_values.h: the option values the API's fix and generate share, checked with
// messages that name the option as the API spells it (FixOptions::precision: "precision"),
// which are also the Python module's keyword arguments. Each throws gf::Error.
#pragma once
#include "fix/engine.h"
#include "lattice/storage.h"
#include <cstdint>
#include <string>

namespace gaugefix {

void require(bool ok, const std::string& message);
void require_at_least(const char* option, long long value, long long least);
void require_finite(const char* option, double value);
gf::Precision precision_option(const std::string& name);
gf::Backend backend_option(const std::string& name);
gf::Storage storage_option(int reals, int nc);     // 8, 12 or 18, and whether it holds SU(nc)
void check_tuning_option(const std::string& mode); // off | cached | on | force | empty

} // namespace gaugefix
