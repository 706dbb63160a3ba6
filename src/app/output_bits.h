// output_bits.h: --output-bits 32|64, the bits per real of a gauge field a subcommand writes
// (fix, convert, transform; 0 when not given: the format's or the input's). convert and
// transform also take --precision 32|64, their name for it before, as a deprecated alias:
// output_bits warns that it is deprecated and takes its value where --output-bits is not
// given (both given: an error naming both).
#pragma once
#include <CLI/CLI.hpp>
#include <string>

namespace gf {

void add_output_bits_option(CLI::App& sub, int& bits, const std::string& default_text);
void add_deprecated_precision_option(CLI::App& sub, std::string& precision);
int output_bits(int bits, const std::string& deprecated_precision);

} // namespace gf
