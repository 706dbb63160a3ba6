#include "app/transform_command.h"
#include "app/cli_checks.h"
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
                       "output format: nersc, ildg, scidac, milc, openqcd, hdf5 (default: the "
                       "output's extension, else nersc)");
  transform.add_option("--precision", opt.precision, "bits per real in the output: 32 or 64")
      ->check(CLI::IsMember({"32", "64"}));
  transform.add_flag("--checksum-warning-only", opt.checksum_warning_only,
                     "report a checksum mismatch in the inputs as a warning, not an error");
  add_log_options(transform, opt.log);
}

int run_transform(const TransformCommandOptions& opt, const World& world) {
  WriteOptions w;
  std::optional<FileFormat> requested;
  if (!opt.format.empty()) {
    try {
      requested = parse_format(opt.format);
    } catch (const Error& e) {
      throw Error(std::string("--format: ") + e.what());
    }
  }
  w.format = output_format("output", opt.output, "--format", requested);
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
  if (!opt.precision.empty())
    w.double_precision = opt.precision == "64";
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
