#include "io/ildg.h"
#include "core/error.h"
#include "io/field_checks.h"
#include "io/field_codec.h"
#include "io/lime.h"
#include "io/parallel_file.h"
#include "io/scidac.h"
#include "io/scidac_provenance.h"
#include "io/xml_text.h"
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <optional>
#include <sstream>

namespace gf {

namespace {

const char* const ildg_format = "ildg-format";
const char* const ildg_data = "ildg-binary-data";
const char* const ildg_lfn = "ildg-data-lfn";

struct Layout {
  int dims[4];
  int nc;
  int bytes; // per real
  std::int64_t site_bytes() const { return std::int64_t(4) * nc * nc * 2 * bytes; }
  std::int64_t sites() const { return std::int64_t(dims[0]) * dims[1] * dims[2] * dims[3]; }
};

std::string dims_text(const int d[4]) {
  return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]) + "x" +
         std::to_string(d[3]);
}

std::string source_name(bool ildg, const std::string& path) {
  return std::string(ildg ? "ILDG" : "SciDAC") + " file '" + path + "'";
}

void parse_ildg_format(const std::string& src, const std::string& xml, Layout& l) {
  const std::string where = src + ": record " + ildg_format;
  const XmlDocument doc(xml, where);
  const XmlElement r = doc.root();
  if (r.name() != "ildgFormat")
    throw Error(where + ": the root element is <" + r.name() + ">, not <ildgFormat>");
  const std::string field = r.required_text("field");
  if (field != "su3gauge")
    throw Error(src + ": unknown ildg-format field '" + field +
                "': ILDG holds SU(3) gauge fields only (su3gauge); SU(2) fields can be read from "
                "SciDAC, NERSC or HDF5 files");
  const std::string precision = r.required_text("precision");
  if (precision != "32" && precision != "64")
    throw Error(src + ": unknown ildg-format precision '" + precision + "' (known: 32, 64)");
  l.nc = 3;
  l.bytes = precision == "32" ? 4 : 8;
  const char* tags[4] = {"lx", "ly", "lz", "lt"};
  std::int64_t n[4];
  for (int k = 0; k < 4; ++k) {
    const std::string v = r.required_text(tags[k]);
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n[k]);
    if (ec != std::errc{} || end != v.data() + v.size())
      throw Error(where + ": <" + tags[k] + "> '" + v + "' is not an integer");
  }
  checked_sites(where, "<lx> <ly> <lz> <lt>", n);
  std::copy(n, n + 4, l.dims);
}

// The SciDAC private record of a gauge field, checked against what ildg-format said (ildg)
// or giving precision and colors (scidac).
void parse_gauge_record(const std::string& src, const std::string& xml, bool ildg, Layout& l) {
  const ScidacRecordInfo r = parse_scidac_record(src, xml);
  const std::string where = src + ": record " + scidac_record_record;
  if (ildg && r.bytes != l.bytes)
    throw Error(where + ": precision " + (r.bytes == 4 ? "F" : "D") +
                " contradicts the ildg-format precision " + std::to_string(8 * l.bytes));
  if (ildg && r.colors && r.colors != 3)
    throw Error(where + ": <colors> " + std::to_string(r.colors) +
                " contradicts the ildg-format field su3gauge");
  if (!ildg && r.colors != 2 && r.colors != 3)
    throw Error(src + ": SciDAC <colors> " + std::to_string(r.colors) +
                ": only SU(2) and SU(3) fields are read");
  if (r.datacount != 4)
    throw Error(src + ": SciDAC <datacount> " + std::to_string(r.datacount) +
                ": a gauge field has 4 links per site" +
                (r.datacount == 1 ? " (one matrix per site: a gauge transformation g(x)?)" : ""));
  if (!ildg) {
    l.bytes = r.bytes;
    l.nc = r.colors;
  }
  if (r.typesize != 2 * l.nc * l.nc * l.bytes)
    throw Error(where + ": <typesize> " + std::to_string(r.typesize) + " is not that of a " +
                std::to_string(l.nc) + "x" + std::to_string(l.nc) + " complex matrix in " +
                std::to_string(8 * l.bytes) + "-bit precision");
}

// The <gaugefix> element of the record XML, else of the file XML (scidac_provenance.h).
Provenance read_provenance(const std::string& path, const std::vector<LimeRecord>& records,
                           const std::string& src) {
  for (const char* type : {scidac_user_record_record, scidac_user_file_record})
    if (const LimeRecord* r = find_lime_record(records, type))
      if (const auto p = parse_gaugefix_xml(read_lime_text(path, *r), src)) return *p;
  return {};
}

} // namespace

Provenance read_ildg_provenance(const std::string& path) {
  const std::vector<LimeRecord> records = list_lime_records(path);
  return read_provenance(path, records,
                         source_name(find_lime_record(records, ildg_format) != nullptr, path));
}

HostField read_ildg(const std::string& path, const World& world, const ReadOptions& opt,
                    FileInfo* info) {
  const std::vector<LimeRecord> records = list_lime_records(path);
  const bool ildg = find_lime_record(records, ildg_format) != nullptr;
  const std::string src = source_name(ildg, path);
  const LimeRecord* format = unique_lime_record(records, ildg_format, src);
  const LimeRecord* file_xml = unique_lime_record(records, scidac_file_record, src);
  const LimeRecord* record_xml = unique_lime_record(records, scidac_record_record, src);
  Layout l{};
  if (ildg) {
    parse_ildg_format(src, read_lime_text(path, *format), l);
    if (file_xml) {
      int dims[4];
      parse_scidac_dims(src, read_lime_text(path, *file_xml), dims);
      if (!std::equal(dims, dims + 4, l.dims))
        throw Error(src + ": dims: ildg-format gives " + dims_text(l.dims) + ", " +
                    scidac_file_record + " gives " + dims_text(dims));
    }
    if (record_xml) parse_gauge_record(src, read_lime_text(path, *record_xml), true, l);
  } else {
    if (!file_xml || !record_xml)
      throw Error(src + ": neither an ildg-format record nor the SciDAC records " +
                  scidac_file_record + " and " + scidac_record_record +
                  ": lattice size and precision unknown");
    parse_scidac_dims(src, read_lime_text(path, *file_xml), l.dims);
    parse_gauge_record(src, read_lime_text(path, *record_xml), false, l);
  }
  const LimeRecord* ildg_binary = unique_lime_record(records, ildg_data, src);
  const LimeRecord* scidac_binary = unique_lime_record(records, scidac_data_record, src);
  if (ildg_binary && scidac_binary)
    throw Error(src + ": both an ildg-binary-data and a scidac-binary-data record: which holds "
                      "the field?");
  const LimeRecord* data = ildg_binary ? ildg_binary : scidac_binary;
  if (!data) throw Error(src + ": no ildg-binary-data or scidac-binary-data record");
  const std::int64_t expected = checked_product(src, l.sites(), l.site_bytes());
  if (data->data_bytes != expected)
    throw Error(src + ": size: the " + data->type + " record has " +
                std::to_string(data->data_bytes) + " bytes, but dims " + dims_text(l.dims) +
                " of " + std::to_string(l.nc) + "x" + std::to_string(l.nc) + " links in " +
                std::to_string(8 * l.bytes) + "-bit precision need " + std::to_string(expected) +
                ": wrong dims or a damaged record");
  const Provenance provenance = read_provenance(path, records, src);
  std::optional<ScidacSums> stored;
  if (const LimeRecord* c = unique_lime_record(records, scidac_checksum_record, src))
    stored = parse_scidac_checksum(src, read_lime_text(path, *c));

  HostField u = allocate_slab(src, l.dims, l.nc, 4, world);
  bool finite = true;
  const ScidacSums sums = read_scidac_slab(path, *data, l.bytes, l.site_bytes(), u, finite, world);
  check_scidac_checksum(src, stored, sums, opt.checksum_warning_only, world);
  check_links(src, u, l.bytes, finite, world, info);
  if (info) {
    info->format = ildg ? FileFormat::ildg : FileFormat::scidac;
    std::copy(l.dims, l.dims + 4, info->dims);
    info->big_endian = true;
    if (stored)
      info->stored = {{"SCIDAC_SUMA", hex32(stored->a)}, {"SCIDAC_SUMB", hex32(stored->b)}};
    info->computed = {{"SCIDAC_SUMA", hex32(sums.a)}, {"SCIDAC_SUMB", hex32(sums.b)}};
    info->provenance = provenance;
    if (const LimeRecord* lfn = unique_lime_record(records, ildg_lfn, src))
      info->lfn = read_lime_text(path, *lfn);
  }
  return u;
}

void write_ildg(const std::string& path, const HostField& slab, const WriteOptions& opt,
                const World& world, const std::vector<std::string>& inputs) {
  const bool ildg = opt.format == FileFormat::ildg;
  const std::string src = std::string(ildg ? "ILDG" : "SciDAC") + " output '" + path + "'";
  if (opt.format != FileFormat::ildg && opt.format != FileFormat::scidac)
    throw Error(src + ": write_ildg writes the formats ildg and scidac only");
  if (slab.ndir != 4) throw Error(src + ": needs a gauge field (4 links per site)");
  if (ildg && slab.nc != 3)
    throw Error(src + ": ILDG files hold SU(3) gauge fields only (field su3gauge); write SU(" +
                std::to_string(slab.nc) + ") as scidac, nersc or hdf5");
  if (slab.nc != 2 && slab.nc != 3) throw Error(src + ": needs an SU(2) or SU(3) field");
  Layout l{};
  std::copy(slab.geom.L, slab.geom.L + 4, l.dims);
  l.nc = slab.nc;
  l.bytes = opt.double_precision ? 8 : 4;
  std::string date = utc_date();
  world.broadcast(date); // every rank lays out the same records

  const std::string head = xml_declaration;
  ScidacRecordInfo record;
  record.bytes = l.bytes;
  record.colors = l.nc;
  record.datatype = std::string("QDP_") + (opt.double_precision ? 'D' : 'F') +
                    std::to_string(l.nc) + "_ColorMatrix";
  record.typesize = 2 * l.nc * l.nc * l.bytes;
  record.datacount = 4;

  // The records; the checksum's comes after the data and has the same length for any sums,
  // so the data's offset is known before the data is checksummed.
  const auto plan_with = [&](const ScidacSums& sums, std::int64_t& data_offset) {
    LimePlan plan;
    plan.add(scidac_file_record, scidac_file_xml(l.dims), true, false);
    plan.add(scidac_user_file_record, head + gaugefix_xml(opt.provenance, opt.metadata), false,
             true);
    plan.add(scidac_record_record, scidac_record_xml(record, date), true, false);
    plan.add(scidac_user_record_record, head + gaugefix_xml(opt.provenance, {}), false, false);
    if (ildg)
      plan.add(
          ildg_format,
          head +
              "<ildgFormat xmlns=\"http://www.lqcd.org/ildg\" "
              "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
              "xsi:schemaLocation=\"http://www.lqcd.org/ildg/filefmt.xsd\"><version>1.0</version>"
              "<field>su3gauge</field><precision>" +
              std::to_string(8 * l.bytes) + "</precision><lx>" + std::to_string(l.dims[0]) +
              "</lx><ly>" + std::to_string(l.dims[1]) + "</ly><lz>" + std::to_string(l.dims[2]) +
              "</lz><lt>" + std::to_string(l.dims[3]) + "</lt></ildgFormat>",
          false, false);
    if (ildg) // the logical file name archives file the configuration under (ILDG's third record)
      plan.add(ildg_lfn,
               opt.lfn.empty() ? std::filesystem::path(path).filename().string() : opt.lfn, false,
               false);
    data_offset = plan.add_external(ildg ? ildg_data : scidac_data_record,
                                    l.sites() * l.site_bytes(), false, false);
    plan.add(scidac_checksum_record, scidac_checksum_xml(sums), false, true);
    return plan;
  };
  std::int64_t data_offset = 0;
  plan_with({}, data_offset);

  SlabFileWriter out(path, world, inputs);
  const ScidacSums sums = write_scidac_slab(out, data_offset, slab, l.bytes, world);
  if (world.rank() == 0) plan_with(sums, data_offset).write(out);
  out.commit();
}

} // namespace gf
