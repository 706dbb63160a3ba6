#include "app/fix_checks.h"
#include "core/error.h"
#include "io/output_format.h"
#include <algorithm>
#include <optional>
#include <tuple>

namespace gf {

namespace {

bool is_nersc_2row(const FixCommandOptions& opt) {
  return opt.output_format == "nersc-2row";
}

void check_exclusive(const FixCommandOptions& opt) {
  const std::string input = !opt.input.empty() ? "--input '" + opt.input.front() + "'"
                                               : "--input-list '" + opt.input_list + "'";
  if (!opt.input.empty() || !opt.input_list.empty())
    for (const char* o : {"--generate", "--lattice", "--group"})
      if (opt.given.count(o))
        throw Error(std::string(o) + " cannot be used with " + input +
                    ": the field, its lattice and its group are the file's");

  for (const auto& [o, given, needs, path] :
       {std::tuple{"--output-format", !opt.output_format.empty(), "--output", &opt.output},
        std::tuple{"--output-bits", opt.output_bits != 0, "--output", &opt.output},
        std::tuple{"--checkpoint-interval", opt.checkpoint_interval >= 0, "--output", &opt.output},
        std::tuple{"--stop-after-iterations", opt.stop_after_iterations > 0, "--output",
                   &opt.output},
        std::tuple{"--signal-before-output", opt.signal_before_output, "--output", &opt.output},
        std::tuple{"--transform-format", !opt.transform_format.empty(), "--transform-output",
                   &opt.transform_output}})
    if (given && path->empty())
      throw Error(std::string(o) + " is given without " + needs + ": nothing would be written");
}

void resolve_output_format(FixCommandOptions& opt) {
  if (opt.output.empty()) return;
  std::optional<FileFormat> requested;
  if (!opt.output_format.empty())
    requested = parse_format(is_nersc_2row(opt) ? "nersc" : opt.output_format);
  const FileFormat f = output_format("--output", opt.output, "--output-format", requested);
  if (!is_nersc_2row(opt)) opt.output_format = format_name(f);
  if (opt.output_bits == 0) opt.output_bits = f == FileFormat::milc ? 32 : 64;
}

void resolve_transform_format(FixCommandOptions& opt) {
  if (opt.transform_output.empty()) return;
  const std::vector<FileFormat> ext = extension_formats(opt.transform_output);
  const bool lime = std::find(ext.begin(), ext.end(), FileFormat::ildg) != ext.end() ||
                    std::find(ext.begin(), ext.end(), FileFormat::scidac) != ext.end();
  const std::string implied = ext == std::vector{FileFormat::hdf5} ? "hdf5" : lime ? "lime" : "";
  if (opt.transform_format.empty())
    opt.transform_format = implied.empty() ? "binary" : implied;
  else if (!implied.empty() && opt.transform_format != implied)
    throw Error("--transform-output '" + opt.transform_output + "': the extension means " +
                implied + ", but --transform-format asks for " + opt.transform_format +
                ": rename the file or change --transform-format");
}

} // namespace

void check_fix_options(FixCommandOptions& opt) {
  if (opt.copies < 1)
    throw Error("--copies must be at least 1 (got " + std::to_string(opt.copies) + ")");
  if (!(opt.copy_tolerance >= 0)) throw Error("--copy-tolerance must be >= 0");
  check_exclusive(opt);
  resolve_output_format(opt);
  resolve_transform_format(opt);
}

void check_output_holds(const FixCommandOptions& opt, int nc, const std::string& input) {
  if (opt.output.empty()) return;
  const FileFormat f = parse_format(is_nersc_2row(opt) ? "nersc" : opt.output_format);
  const std::string limit = format_limit(f, nc, opt.output_bits / 8);
  if (limit.empty()) return;
  const std::string field = "SU(" + std::to_string(nc) + ") field" +
                            (input.empty() ? " generated" : " of --input '" + input + "'");
  throw Error("--output '" + opt.output + "' (--output-format " + opt.output_format +
              ", --output-bits " + std::to_string(opt.output_bits) + "), for the " + field + ": " +
              limit);
}

} // namespace gf
