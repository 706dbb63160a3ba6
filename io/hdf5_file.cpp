#include "io/hdf5_file.h"
#include "core/error.h"
#include "io/field_checks.h"
#include "io/hdf5_dataset.h"
#include "io/hdf5_provenance.h"
#include "observables/observables.h"
#include <cmath>
#include <cstdio>

namespace gf {

namespace {

const std::string links_dataset = "/gauge/links";

std::string number_text(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%.17g", v);
  return b;
}

void check_observable(const std::string& file, const Hdf5FieldData& d, const char* name,
                      double computed) {
  const auto it = d.numbers.find(name);
  if (it == d.numbers.end()) return;
  const double tolerance = d.bytes_per_real == 8 ? 1e-12 : 1e-6;
  if (!(std::abs(it->second - computed) <= tolerance))
    throw Error(file + ": " + name + " mismatch: attribute " + number_text(it->second) +
                ", computed from the data " + number_text(computed) + " (tolerance " +
                number_text(tolerance) + ")");
}

} // namespace

std::optional<long long> read_hdf5_sequence_number(const std::string& path) {
  return read_integer_attribute(path, links_dataset, "sequence_number");
}

HostField read_hdf5(const std::string& path, const World& world, const ReadOptions& opt,
                    FileInfo* info) {
  const std::string file = "HDF5 file '" + path + "'";
  Hdf5FieldData d = read_field_dataset(path, links_dataset, 4, world, opt.checksum_warning_only);
  HostField& u = d.field;
  const Provenance provenance = hdf5_provenance(d, file);
  const double deviation = check_in_su_n(file, u, d.bytes_per_real, world);
  if (d.bytes_per_real == 4) reunitarize_all(u);
  const double plaq = plaquette(u, world), trace = link_trace(u, world);
  check_observable(file, d, "plaquette", plaq);
  check_observable(file, d, "link_trace", trace);
  if (info) {
    *info = FileInfo{};
    info->format = FileFormat::hdf5;
    for (int k = 0; k < 4; ++k)
      info->dims[k] = u.geom.L[k];
    info->nc = u.nc;
    info->bytes_per_real = d.bytes_per_real;
    info->big_endian = false;
    info->stored = d.attributes;
    info->computed = {{"checksum", std::to_string(d.computed_checksum)},
                      {"plaquette", number_text(plaq)},
                      {"link_trace", number_text(trace)}};
    info->plaquette = plaq;
    info->link_trace = trace;
    info->reunitarised = d.bytes_per_real == 4;
    info->unitarity_deviation = deviation;
    info->provenance = provenance;
  }
  return std::move(d.field);
}

void write_hdf5(const std::string& path, const HostField& slab, const WriteOptions& opt,
                const World& world, const std::vector<std::string>& inputs) {
  if (slab.ndir != 4)
    throw Error("HDF5 file '" + path + "': output: needs a gauge field (4 links per site)");
  Hdf5Attributes attributes;
  attributes.strings = opt.metadata;
  for (const char* name : {"plaquette", "link_trace"})
    if (opt.metadata.count(name))
      throw Error("HDF5 file '" + path + "': output: metadata name '" + name +
                  "' is reserved (computed from the field)");
  add_provenance(opt.provenance, attributes);
  attributes.numbers["plaquette"] = plaquette(slab, world);
  attributes.numbers["link_trace"] = link_trace(slab, world);
  write_field_dataset(path, links_dataset, slab, opt.double_precision ? 8 : 4, attributes, world,
                      inputs);
}

} // namespace gf
