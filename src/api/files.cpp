// read and write of the public API: gauge fields through io/gauge_file.h, g(x) through
// io/transform_file.h, the format chosen as by `gaugefix fix` (io/output_format.h).
#include "api/api_internal.h"
#include "io/gauge_file.h"
#include "io/output_format.h"
#include "io/transform_file.h"
#include <algorithm>

namespace gaugefix {

namespace {

GaugeFixingRecord public_record(const gf::GaugeFixingRecord& r) {
  return {r.gauge,      r.tolerance, r.theta,     r.theta_max_slice, r.functional,
          r.iterations, r.converged, r.precision, r.version,         r.date,
          r.algorithm};
}

gf::GaugeFixingRecord internal_record(const GaugeFixingRecord& r) {
  return {r.gauge,      r.tolerance, r.theta,     r.theta_max_slice, r.functional,
          r.iterations, r.converged, r.precision, r.version,         r.date,
          r.algorithm};
}

void describe_field(const gf::FileInfo& in, FileInfo& out) {
  out.format = gf::format_name(in.format);
  std::copy(in.dims, in.dims + 4, out.lattice.begin());
  out.nc = in.nc;
  out.bits = 8 * in.bytes_per_real;
  out.stored = in.stored;
  out.computed = in.computed;
  out.plaquette = in.plaquette;
  out.link_trace = in.link_trace;
  out.unitarity_deviation = in.unitarity_deviation;
  out.reunitarised = in.reunitarised;
  out.ensemble_id = in.provenance.ensemble_id;
  out.ensemble_label = in.provenance.ensemble_label;
  out.sequence_number = in.provenance.sequence_number;
  if (in.provenance.gauge_fixing) out.gauge_fixing = public_record(*in.provenance.gauge_fixing);
}

void describe_transform(const gf::TransformInfo& in, FileInfo& out) {
  out.format = gf::transform_format_name(in.format);
  std::copy(in.dims, in.dims + 4, out.lattice.begin());
  out.nc = in.nc;
  out.bits = 8 * in.bytes_per_real;
  out.stored = in.stored;
  out.computed = in.computed;
  out.unitarity_deviation = in.unitarity_deviation;
  out.reunitarised = in.reunitarised;
  out.metadata = in.metadata;
}

// The g(x) format for `path`: the one asked for, else the extension's (.h5/.hdf5 hdf5,
// .lime/.ildg/.scidac lime), else binary; an extension that contradicts it is refused.
gf::TransformFormat transform_format(const std::string& path, const std::string& requested) {
  const std::vector<gf::FileFormat> ext = gf::extension_formats(path);
  const bool lime = std::find(ext.begin(), ext.end(), gf::FileFormat::ildg) != ext.end() ||
                    std::find(ext.begin(), ext.end(), gf::FileFormat::scidac) != ext.end();
  const std::string implied = ext == std::vector{gf::FileFormat::hdf5} ? "hdf5"
                              : lime                                   ? "lime"
                                                                       : "";
  if (requested.empty()) return gf::parse_transform_format(implied.empty() ? "binary" : implied);
  const gf::TransformFormat f =
      parse_option("format", [&] { return gf::parse_transform_format(requested); });
  if (!implied.empty() && requested != implied)
    throw gf::Error("'" + path + "': the extension means " + implied + ", but format asks for " +
                    requested + " (g(x) formats: lime, hdf5, binary)");
  return f;
}

void write_links(const std::string& path, const gf::HostField& u, const WriteOptions& opt,
                 const gf::World& world) {
  gf::WriteOptions w;
  const bool two_rows = opt.format == "nersc-2row";
  std::optional<gf::FileFormat> requested;
  if (!opt.format.empty())
    requested =
        parse_option("format", [&] { return gf::parse_format(two_rows ? "nersc" : opt.format); });
  w.format = gf::output_format("path", path, "format", requested);
  w.full_matrix = !two_rows;
  if (opt.bits != 0 && opt.bits != 32 && opt.bits != 64)
    throw gf::Error("bits must be 32 or 64 (got " + std::to_string(opt.bits) + ")");
  const int bits = opt.bits != 0 ? opt.bits : w.format == gf::FileFormat::milc ? 32 : 64;
  w.double_precision = bits == 64;
  if (const std::string limit = gf::format_limit(w.format, u.nc, bits / 8); !limit.empty())
    throw gf::Error("'" + path + "' (" + gf::format_name(w.format) + ", " + std::to_string(bits) +
                    " bits) cannot hold this SU(" + std::to_string(u.nc) + ") field: " + limit);
  w.metadata = opt.metadata;
  w.provenance.ensemble_id = opt.ensemble_id;
  w.provenance.ensemble_label = opt.ensemble_label;
  w.provenance.sequence_number = opt.sequence_number;
  if (opt.gauge_fixing) w.provenance.gauge_fixing = internal_record(*opt.gauge_fixing);
  gf::write_gauge_file(path, u, w, world);
}

void write_g(const std::string& path, const gf::HostField& g, const WriteOptions& opt,
             const gf::World& world) {
  if (opt.bits != 0 && opt.bits != 64)
    throw gf::Error("bits: g(x) files hold 64-bit reals (got " + std::to_string(opt.bits) + ")");
  if (!opt.ensemble_id.empty() || !opt.ensemble_label.empty() || opt.sequence_number ||
      opt.gauge_fixing)
    throw gf::Error("ensemble_id, ensemble_label, sequence_number and gauge_fixing belong to "
                    "gauge fields; a g(x) file takes metadata only");
  gf::write_transform(path, g, transform_format(path, opt.format), opt.metadata, world);
}

} // namespace

Field read(const std::string& path, const ReadOptions& options, FileInfo* info) {
  return guarded("read", [&] {
    const gf::World world = world_of(options.communicator);
    FileInfo found;
    Field f;
    if (gf::detect_transform_format(path)) {
      gf::TransformInfo ti;
      f = FieldAccess::wrap(gf::read_transform(path, world, &ti, options.checksum_warning_only));
      describe_transform(ti, found);
    } else {
      gf::ReadOptions ro;
      ro.checksum_warning_only = options.checksum_warning_only;
      gf::FileInfo fi;
      f = FieldAccess::wrap(gf::read_gauge_file(path, world, ro, &fi));
      describe_field(fi, found);
    }
    if (info) *info = std::move(found);
    return f;
  });
}

void write(const std::string& path, const Field& field, const WriteOptions& options) {
  guarded("write", [&] {
    const gf::World world = world_of(options.communicator);
    if (field.ndir() == 1)
      write_g(path, checked_field(field, "field", 1, world), options, world);
    else
      write_links(path, checked_field(field, "field", 4, world), options, world);
  });
}

} // namespace gaugefix
