#include "app/output_bits.h"
#include "core/error.h"
#include "core/log.h"

namespace gf {

void add_output_bits_option(CLI::App& sub, int& bits, const std::string& default_text) {
  sub.add_option("--output-bits", bits,
                 "bits per real in the output: 32 or 64 (default: " + default_text + ")")
      ->check(CLI::IsMember({32, 64}))
      ->default_str("");
}

void add_deprecated_precision_option(CLI::App& sub, std::string& precision) {
  sub.add_option("--precision", precision, "deprecated: --output-bits")
      ->check(CLI::IsMember({"32", "64"}));
}

int output_bits(int bits, const std::string& deprecated_precision) {
  if (deprecated_precision.empty()) return bits;
  if (bits != 0)
    throw Error("--precision " + deprecated_precision + " and --output-bits " +
                std::to_string(bits) + ": give --output-bits only");
  log::warning("--precision {0} is deprecated (in fix and generate it names the arithmetic): "
               "use --output-bits {0}",
               deprecated_precision);
  return std::stoi(deprecated_precision);
}

} // namespace gf
