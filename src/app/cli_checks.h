// cli_checks.h: CLI11 checks shared by the subcommands; a value they refuse ends the run
// with a parse error naming the option (exit status 1).
// - non_empty: an option that names a file (an unset shell variable in a job script,
//   `input: ''` in a YAML file);
// - positive_real: a finite number > 0 (--tolerance: not 0, inf or nan);
// - whole_number: digits only, no sign (--seed -1 would wrap to 2^64 - 1; --anneal-steps -1);
// - real_in(lo, hi, open): a finite number in [lo, hi) or [lo, hi] (--omega, --sr-probability);
// - non_negative_real: a finite number >= 0; auto_or_positive_real: auto or a number > 0.
// add_lattice_option adds --lattice Lx,Ly,Lz,Lt (or a YAML list): exactly four extents.
#pragma once
#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

namespace gf {

inline const CLI::Validator non_empty(
    [](std::string& value) {
      return value.empty() ? std::string("empty value (a file name is required)") : std::string();
    },
    "", "NON_EMPTY");

inline const CLI::Validator positive_real(
    [](std::string& value) {
      std::size_t used = 0;
      double v = 0;
      try {
        v = std::stod(value, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used == value.size() && used > 0 && std::isfinite(v) && v > 0) return std::string();
      return "must be a finite number > 0, got '" + value + "'";
    },
    "", "POSITIVE");

// A finite number in [lo, hi) (hi_open) or [lo, hi]: --omega in [1, 2), --sr-probability in
// [0, 1]; a number that is not one, inf and nan are refused with the interval.
inline CLI::Validator real_in(double lo, double hi, bool hi_open) {
  return CLI::Validator(
      [lo, hi, hi_open](std::string& value) {
        std::size_t used = 0;
        double v = 0;
        try {
          v = std::stod(value, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used == value.size() && used > 0 && std::isfinite(v) && v >= lo &&
            (hi_open ? v < hi : v <= hi))
          return std::string();
        const auto text = [](double x) {
          std::string t = std::to_string(x);
          t.erase(t.find_last_not_of('0') + 1);
          if (t.back() == '.') t.pop_back();
          return t;
        };
        return "must be a number in [" + text(lo) + ", " + text(hi) + (hi_open ? ")" : "]") +
               ", got '" + value + "'";
      },
      "", "RANGE");
}

// A finite number >= 0 (--copy-tolerance).
inline const CLI::Validator non_negative_real(
    [](std::string& value) {
      std::size_t used = 0;
      double v = 0;
      try {
        v = std::stod(value, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used == value.size() && used > 0 && std::isfinite(v) && v >= 0) return std::string();
      return "must be a finite number >= 0, got '" + value + "'";
    },
    "", "NON_NEGATIVE");

// "auto" or a finite number > 0 (--alpha).
inline const CLI::Validator auto_or_positive_real(
    [](std::string& value) {
      if (value == "auto") return std::string();
      std::string copy = value;
      if (positive_real(copy).empty()) return std::string();
      return "must be auto or a finite number > 0, got '" + value + "'";
    },
    "", "AUTO_OR_POSITIVE");

inline const CLI::Validator whole_number(
    [](std::string& value) {
      if (!value.empty() && value.find_first_not_of("0123456789") == std::string::npos)
        return std::string();
      return "must be a whole number >= 0, got '" + value + "'";
    },
    "", "WHOLE");

inline CLI::Option* add_lattice_option(CLI::App& app, std::array<int, 4>& lattice,
                                       const std::string& help) {
  CLI::Option* o = app.add_option_function<std::vector<int>>(
      "--lattice",
      [&lattice](const std::vector<int>& v) {
        if (v.size() != 4)
          throw CLI::ValidationError("--lattice", "needs 4 extents Lx,Ly,Lz,Lt, got " +
                                                      std::to_string(v.size()));
        std::copy(v.begin(), v.end(), lattice.begin());
      },
      help);
  o->delimiter(',');
  if (lattice[0] > 0)
    o->default_str(std::to_string(lattice[0]) + "," + std::to_string(lattice[1]) + "," +
                   std::to_string(lattice[2]) + "," + std::to_string(lattice[3]));
  return o;
}

} // namespace gf
