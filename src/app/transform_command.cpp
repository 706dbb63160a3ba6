#include "app/transform_command.h"
#include "app/cli_checks.h"
#include "app/output_bits.h"
#include "app/fix_provenance.h"
#include "core/error.h"
#include "core/log.h"
#include "fix/random_transform.h"
#include "io/gauge_file.h"
#include "io/output_format.h"
#include "io/path_checks.h"
#include "io/transform_file.h"
#include <algorithm>

namespace gf {

namespace {

std::string dims_text(const int L[4]) {
  return std::to_string(L[0]) + "x" + std::to_string(L[1]) + "x" + std::to_string(L[2]) + "x" +
         std::to_string(L[3]);
}

} // namespace

void add_transform_options(CLI::App& transform, TransformCommandOptions& opt) {
  transform.add_option("--transform", opt.transform, "the gauge transformation g(x) to apply")
      ->required()
      ->check(non_empty);
  transform.add_option("input", opt.input, "gauge field to transform (any supported format)")
      ->required()
      ->check(non_empty);
  transform.add_option("output", opt.output, "file to write")->required()->check(non_empty);
  transform.add_option("--format,-f", opt.format,
                       "output format: nersc (3x3), nersc-2row, ildg, scidac, milc, openqcd, "
                       "hdf5 (default: the output's extension, else nersc)");
  add_output_bits_option(transform, opt.output_bits,
                         "the input's where the format holds it; 32 for milc, 64 for openqcd");
  add_deprecated_precision_option(transform, opt.precision);
  transform.add_flag("--checksum-warning-only", opt.checksum_warning_only,
                     "report a checksum mismatch in the inputs as a warning, not an error");
  transform.add_flag("--force", opt.force,
                     "apply a g(x) whose recorded input checksum (input_checksum, written by "
                     "gaugefix fix) differs from the input's");
  add_log_options(transform, opt.log);
}

int run_transform(const TransformCommandOptions& opt, const World& world) {
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
  const int bits = output_bits(opt.output_bits, opt.precision);
  check_run_paths({{"--transform", opt.transform}, {"input", opt.input}},
                  with_log_file({{"output", opt.output}}, opt.log));
  open_log(opt.log);
  ReadOptions ro;
  ro.checksum_warning_only = opt.checksum_warning_only;
  FileInfo info;
  HostField u = read_gauge_file(opt.input, world, ro, &info);
  TransformInfo ti;
  HostField g;
  try {
    g = read_transform(opt.transform, world, &ti, opt.checksum_warning_only);
  } catch (const Error& e) {
    throw Error(std::string("--transform: ") + e.what());
  }
  if (!std::equal(u.geom.L, u.geom.L + 4, g.geom.L) || u.nc != g.nc)
    throw Error("--transform '" + opt.transform + "' holds SU(" + std::to_string(g.nc) + ") " +
                dims_text(g.geom.L) + ", but input '" + opt.input + "' is SU(" +
                std::to_string(u.nc) + ") " + dims_text(u.geom.L) +
                ": a transformation applies to a field of its own lattice and group");
  // g(x) of `gaugefix fix` records the checksum of the field it fixed (fix_provenance.h)
  const auto recorded = ti.metadata.find("input_checksum");
  const std::string checksum = input_checksum(info);
  if (recorded != ti.metadata.end() && !recorded->second.empty() && recorded->second != checksum) {
    const auto made_for = ti.metadata.find("input");
    const std::string message =
        "--transform '" + opt.transform + "' was made for the field with " + recorded->second +
        (made_for != ti.metadata.end() ? " ('" + made_for->second + "')" : std::string()) +
        ", but input '" + opt.input + "' has " + (checksum.empty() ? "no checksum" : checksum) +
        ": it fixes another configuration";
    if (!opt.force) throw Error(message + " (--force applies it anyway)");
    log::warning("{}; applied anyway (--force)", message);
  }
  if (bits != 0)
    w.double_precision = bits == 64;
  else if (w.format == FileFormat::milc)
    w.double_precision = false;
  else if (w.format == FileFormat::openqcd)
    w.double_precision = true;
  else
    w.double_precision = info.bytes_per_real == 8;
  if (const std::string l = format_limit(w.format, u.nc, w.double_precision ? 8 : 4); !l.empty())
    throw Error("output '" + opt.output + "' (" + format_name(w.format) + "): " + l);
  apply_gauge_transform(u, g, world);
  w.provenance = info.provenance;
  w.provenance.gauge_fixing.reset();
  w.metadata = {{"transform", opt.transform}, {"input", opt.input}};
  write_gauge_file(opt.output, u, w, world, {opt.input, opt.transform});
  log::result("{} ({}) transformed by {} ({}) -> {} ({}, {}-bit): SU({}) {}", opt.input,
              format_name(info.format), opt.transform, transform_format_name(ti.format), opt.output,
              format_name(w.format), w.double_precision ? 64 : 32, u.nc, dims_text(u.geom.L));
  return 0;
}

} // namespace gf
