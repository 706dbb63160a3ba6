#include "app/convert_command.h"
#include "app/cli_checks.h"
#include "app/output_bits.h"
#include "core/error.h"
#include "core/log.h"
#include "io/gauge_file.h"
#include "io/output_format.h"
#include "io/path_checks.h"
#include "io/transform_file.h"
#include <chrono>
#include <filesystem>
#include <map>

namespace gf {

void add_convert_options(CLI::App& convert, ConvertCommandOptions& opt) {
  convert.add_option("input", opt.input, "configuration to read (any supported format)")
      ->required()
      ->check(non_empty);
  convert.add_option("output", opt.output, "file to write")->required()->check(non_empty);
  convert.add_option("--format,-f", opt.format,
                     "output format: nersc (3x3), nersc-2row, ildg, scidac, milc, openqcd, hdf5; "
                     "for a gauge transformation g(x): binary, hdf5, lime (default: the output's "
                     "extension, else nersc or binary)");
  add_output_bits_option(convert, opt.output_bits,
                         "the input's where the format holds it; 32 for milc, 64 for openqcd");
  add_deprecated_precision_option(convert, opt.precision);
  convert
      .add_option("--lfn", opt.lfn,
                  "ILDG output: the logical file name, its ildg-data-lfn record (default: the "
                  "output's file name)")
      ->check(non_empty);
  convert.add_flag("--checksum-warning-only", opt.checksum_warning_only,
                   "report a checksum mismatch in the input as a warning, not an error");
  add_log_options(convert, opt.log);
}

namespace {

// g(x) files: binary, hdf5 or lime, 64-bit; the format from --format, else the extension's.
int convert_transform(const ConvertCommandOptions& opt, const World& world) {
  const std::vector<FileFormat> ext = extension_formats(opt.output);
  const TransformFormat ext_format =
      ext.empty()                       ? TransformFormat::binary
      : ext.front() == FileFormat::hdf5 ? TransformFormat::hdf5
      : ext.front() == FileFormat::ildg || ext.front() == FileFormat::scidac
          ? TransformFormat::lime
          : TransformFormat::binary;
  TransformFormat format = ext_format;
  if (!opt.format.empty()) {
    try {
      format = parse_transform_format(opt.format);
    } catch (const Error&) {
      throw Error("--format " + opt.format + ": input '" + opt.input +
                  "' holds a gauge transformation g(x), written as binary, hdf5 or lime only");
    }
    if (!ext.empty() && format != ext_format)
      throw Error("output '" + opt.output + "': the extension contradicts --format " + opt.format +
                  ": rename the file or change --format");
  }
  if (output_bits(opt.output_bits, opt.precision) == 32)
    throw Error("--output-bits 32: gauge transformation files are written in 64 bits only");
  check_run_paths({{"input", opt.input}}, with_log_file({{"output", opt.output}}, opt.log));
  open_log(opt.log);
  TransformInfo info;
  const HostField g = read_transform(opt.input, world, &info, opt.checksum_warning_only);
  std::map<std::string, std::string> metadata = info.metadata;
  for (const char* written_by_the_writer :
       {"lattice", "nc", "bytes_per_real", "checksum", "layout", "gaugefix_version"})
    metadata.erase(written_by_the_writer);
  write_transform(opt.output, g, format, metadata, world, {opt.input});
  log::result("{} (g(x), {}) -> {} (g(x), {}): SU({}) {}x{}x{}x{}", opt.input,
              transform_format_name(info.format), opt.output, transform_format_name(format),
              info.nc, info.dims[0], info.dims[1], info.dims[2], info.dims[3]);
  return 0;
}

} // namespace

int run_convert(const ConvertCommandOptions& opt, const World& world) {
  if (detect_transform_format(opt.input)) return convert_transform(opt, world);
  WriteOptions w;
  std::optional<FileFormat> requested;
  const bool two_rows = opt.format == "nersc-2row"; // NERSC's first N - 1 rows (as fix)
  if (!opt.format.empty()) {
    try {
      requested = parse_format(two_rows ? "nersc" : opt.format);
    } catch (const Error& e) {
      throw Error(std::string("--format: ") + e.what() + " or nersc-2row");
    }
  }
  w.format = output_format("output", opt.output, "--format", requested);
  w.full_matrix = !two_rows;
  if (!opt.lfn.empty() && w.format != FileFormat::ildg)
    throw Error("--lfn: output '" + opt.output + "' is " + format_name(w.format) +
                ": only ILDG files hold a logical file name");
  w.lfn = opt.lfn;
  const int bits = output_bits(opt.output_bits, opt.precision);
  if (bits != 0) { // bits the format cannot hold, before reading anything
    const std::string limit = format_limit(w.format, 3, bits / 8);
    const std::string limit2 = format_limit(w.format, 2, bits / 8);
    if (!limit.empty() && !limit2.empty())
      throw Error("--output-bits " + std::to_string(bits) + ": output '" + opt.output +
                  "': " + limit);
  }
  check_run_paths({{"input", opt.input}}, with_log_file({{"output", opt.output}}, opt.log));
  open_log(opt.log);
  ReadOptions ro;
  ro.checksum_warning_only = opt.checksum_warning_only;
  FileInfo info;
  const HostField u = read_gauge_file(opt.input, world, ro, &info);
  if (bits != 0)
    w.double_precision = bits == 64;
  else if (w.format == FileFormat::milc)
    w.double_precision = false;
  else if (w.format == FileFormat::openqcd)
    w.double_precision = true;
  else
    w.double_precision = info.bytes_per_real == 8;
  w.provenance = info.provenance;
  const auto start = std::chrono::steady_clock::now();
  write_gauge_file(opt.output, u, w, world, {opt.input});
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (world.rank() == 0) { // the file's size: the rate of the write (bench/run_io.sh)
    const auto bytes = static_cast<double>(std::filesystem::file_size(opt.output));
    log::info("# written {}: {:.0f} bytes in {:.3f} s ({:.3f} GB/s)", opt.output, bytes, seconds,
              seconds > 0 ? 1e-9 * bytes / seconds : 0.0);
  }
  log::result("{} ({}, {}-bit) -> {} ({}, {}-bit): SU({}) {}x{}x{}x{}, plaquette {:.15f}",
              opt.input, format_name(info.format), 8 * info.bytes_per_real, opt.output,
              format_name(w.format), w.double_precision ? 64 : 32, info.nc, info.dims[0],
              info.dims[1], info.dims[2], info.dims[3], info.plaquette);
  return 0;
}

} // namespace gf
