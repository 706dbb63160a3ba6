#include "io/ildg.h"
#include "core/error.h"
#include "io/field_checks.h"
#include "io/field_codec.h"
#include "io/lime.h"
#include "io/parallel_file.h"
#include "io/scidac_provenance.h"
#include "io/xml_text.h"
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <optional>
#include <sstream>
#include <zlib.h>

namespace gf {

namespace {

const char* const ildg_format = "ildg-format";
const char* const ildg_data = "ildg-binary-data";
const char* const scidac_data = "scidac-binary-data";
const char* const scidac_file = "scidac-private-file-xml";
const char* const scidac_record = "scidac-private-record-xml";
const char* const scidac_checksum = "scidac-checksum";
const char* const user_file_xml = "scidac-file-xml";
const char* const user_record_xml = "scidac-record-xml";

struct Layout {
  int dims[4];
  int nc;
  int bytes; // per real
  std::int64_t site_bytes() const { return std::int64_t(4) * nc * nc * 2 * bytes; }
  std::int64_t sites() const { return std::int64_t(dims[0]) * dims[1] * dims[2] * dims[3]; }
};

struct Sums {
  std::uint32_t a = 0, b = 0;
};

std::string dims_text(const int d[4]) {
  return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]) + "x" +
         std::to_string(d[3]);
}

std::string source_name(bool ildg, const std::string& path) {
  return std::string(ildg ? "ILDG" : "SciDAC") + " file '" + path + "'";
}

std::optional<long long> to_integer(const std::string& s) {
  long long v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || end != s.data() + s.size()) return std::nullopt;
  return v;
}

class XmlRecord {
public:
  XmlRecord(std::string source, std::string record, std::string text)
      : source_(std::move(source)), record_(std::move(record)), text_(std::move(text)) {}
  std::string text(const std::string& tag) const {
    const std::optional<std::string> v = xml_value(text_, tag);
    if (!v) throw Error(source_ + ": record " + record_ + " has no <" + tag + "> element");
    return *v;
  }
  int positive(const std::string& tag) const {
    const std::string v = text(tag);
    const std::optional<long long> n = to_integer(v);
    if (!n || *n <= 0 || *n > (1 << 24))
      throw Error(source_ + ": record " + record_ + ": <" + tag + "> '" + v +
                  "' is not a positive integer");
    return static_cast<int>(*n);
  }

private:
  std::string source_, record_, text_;
};

void parse_ildg_format(const std::string& src, const std::string& xml, Layout& l) {
  const XmlRecord r(src, ildg_format, xml);
  const std::string field = r.text("field");
  if (field != "su3gauge")
    throw Error(src + ": unknown ildg-format field '" + field +
                "': ILDG holds SU(3) gauge fields only (su3gauge); SU(2) fields can be read from "
                "SciDAC, NERSC or HDF5 files");
  const std::string precision = r.text("precision");
  if (precision != "32" && precision != "64")
    throw Error(src + ": unknown ildg-format precision '" + precision + "' (known: 32, 64)");
  l.nc = 3;
  l.bytes = precision == "32" ? 4 : 8;
  const char* tags[4] = {"lx", "ly", "lz", "lt"};
  for (int k = 0; k < 4; ++k)
    l.dims[k] = r.positive(tags[k]);
}

void parse_scidac_dims(const std::string& src, const std::string& xml, int dims[4]) {
  const XmlRecord r(src, scidac_file, xml);
  if (r.positive("spacetime") != 4)
    throw Error(src + ": record " + scidac_file + ": <spacetime> " + r.text("spacetime") +
                " is not 4");
  std::istringstream in(r.text("dims"));
  for (int k = 0; k < 4; ++k)
    if (!(in >> dims[k]) || dims[k] <= 0)
      throw Error(src + ": record " + scidac_file + ": <dims> '" + r.text("dims") +
                  "' is not four positive integers");
}

void parse_scidac_record(const std::string& src, const std::string& xml, Layout& l) {
  const XmlRecord r(src, scidac_record, xml);
  const std::string precision = r.text("precision");
  if (precision != "F" && precision != "D")
    throw Error(src + ": unknown SciDAC precision '" + precision + "' (known: F, D)");
  l.bytes = precision == "F" ? 4 : 8;
  l.nc = r.positive("colors");
  if (l.nc != 2 && l.nc != 3)
    throw Error(src + ": SciDAC <colors> " + std::to_string(l.nc) +
                ": only SU(2) and SU(3) fields are read");
  if (r.positive("datacount") != 4)
    throw Error(src + ": SciDAC <datacount> " + r.text("datacount") +
                ": a gauge field has 4 links per site");
  const int typesize = r.positive("typesize");
  if (typesize != 2 * l.nc * l.nc * l.bytes)
    throw Error(src + ": SciDAC <typesize> " + std::to_string(typesize) + " is not that of a " +
                std::to_string(l.nc) + "x" + std::to_string(l.nc) +
                " complex matrix of precision " + precision + " (" +
                std::to_string(2 * l.nc * l.nc * l.bytes) + ")");
}

Sums parse_checksum(const std::string& src, const std::string& xml) {
  const XmlRecord r(src, scidac_checksum, xml);
  Sums s;
  for (auto [tag, out] : {std::pair{"suma", &s.a}, std::pair{"sumb", &s.b}}) {
    const std::string v = r.text(tag);
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), *out, 16);
    if (v.empty() || ec != std::errc{} || end != v.data() + v.size())
      throw Error(src + ": scidac-checksum <" + std::string(tag) + "> '" + v +
                  "' is not a 32-bit hexadecimal number");
  }
  return s;
}

// Adds the CRC of sites [first, first + n) (global natural index) to s.
void add_site_sums(const unsigned char* p, std::int64_t first, std::int64_t n,
                   std::int64_t site_bytes, Sums& s) {
  for (std::int64_t r = first; r < first + n; ++r, p += site_bytes) {
    const auto c = static_cast<std::uint32_t>(crc32(0L, p, static_cast<uInt>(site_bytes)));
    s.a ^= rotate_left(c, static_cast<int>(r % 29));
    s.b ^= rotate_left(c, static_cast<int>(r % 31));
  }
}

// Local time slice t of u encoded into buf (big-endian, the layout's precision).
void encode_slice(const HostField& u, int t, const Layout& l, std::vector<unsigned char>& buf) {
  const std::int64_t v3 = u.geom.v3;
  buf.resize(static_cast<std::size_t>(v3 * l.site_bytes()));
  unsigned char* p = buf.data();
  const int n2 = l.nc * l.nc;
  for (std::int64_t s = t * v3; s < (t + 1) * v3; ++s)
    for (int mu = 0; mu < 4; ++mu) {
      const Complex<double>* m = u.matrix_data(s, mu);
      for (int k = 0; k < n2; ++k, p += 2 * l.bytes) {
        store_real(m[k].re, p, l.bytes, true);
        store_real(m[k].im, p + l.bytes, l.bytes, true);
      }
    }
}

std::string hex8(std::uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "%08x", v);
  return b;
}

// The <gaugefix> element of the record XML, else of the file XML (scidac_provenance.h).
Provenance read_provenance(const std::string& path, const std::vector<LimeRecord>& records,
                           const std::string& src) {
  for (const char* type : {user_record_xml, user_file_xml})
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
  const LimeRecord* format = find_lime_record(records, ildg_format);
  const bool ildg = format != nullptr;
  const std::string src = source_name(ildg, path);
  const LimeRecord* file_xml = find_lime_record(records, scidac_file);
  Layout l{};
  if (ildg) {
    parse_ildg_format(src, read_lime_text(path, *format), l);
    if (file_xml) {
      int dims[4];
      parse_scidac_dims(src, read_lime_text(path, *file_xml), dims);
      if (!std::equal(dims, dims + 4, l.dims))
        throw Error(src + ": dims: ildg-format gives " + dims_text(l.dims) + ", " + scidac_file +
                    " gives " + dims_text(dims));
    }
  } else {
    const LimeRecord* record_xml = find_lime_record(records, scidac_record);
    if (!file_xml || !record_xml)
      throw Error(src + ": neither an ildg-format record nor the SciDAC records " + scidac_file +
                  " and " + scidac_record + ": lattice size and precision unknown");
    parse_scidac_dims(src, read_lime_text(path, *file_xml), l.dims);
    parse_scidac_record(src, read_lime_text(path, *record_xml), l);
  }
  const LimeRecord* data = find_lime_record(records, ildg_data);
  if (!data) data = find_lime_record(records, scidac_data);
  if (!data) throw Error(src + ": no ildg-binary-data or scidac-binary-data record");
  const std::int64_t expected = l.sites() * l.site_bytes();
  if (data->data_bytes != expected)
    throw Error(src + ": size: the " + data->type + " record has " +
                std::to_string(data->data_bytes) + " bytes, but dims " + dims_text(l.dims) +
                " of " + std::to_string(l.nc) + "x" + std::to_string(l.nc) + " links in " +
                std::to_string(8 * l.bytes) + "-bit precision need " + std::to_string(expected) +
                ": wrong dims or a damaged record");
  const Provenance provenance = read_provenance(path, records, src);
  std::optional<Sums> stored;
  if (const LimeRecord* c = find_lime_record(records, scidac_checksum))
    stored = parse_checksum(src, read_lime_text(path, *c));

  HostField u(slab_geometry(src, l.dims, world), l.nc, 4);
  const std::int64_t v3 = u.geom.v3;
  Sums sums;
  bool finite = true;
  for (int t = 0; t < u.geom.nt; ++t) {
    // The global natural index of the slice's first site.
    const std::int64_t first = (u.geom.t0 + t) * v3;
    const std::vector<unsigned char> buf =
        read_lime_bytes(path, *data, first * l.site_bytes(), v3 * l.site_bytes());
    add_site_sums(buf.data(), first, v3, l.site_bytes(), sums);
    const unsigned char* p = buf.data();
    for (std::int64_t s = t * v3; s < (t + 1) * v3; ++s)
      for (int mu = 0; mu < 4; ++mu) {
        Complex<double>* m = u.matrix_data(s, mu);
        for (int k = 0; k < l.nc * l.nc; ++k, p += 2 * l.bytes) {
          m[k] = {load_real(p, l.bytes, true), load_real(p + l.bytes, l.bytes, true)};
          finite = finite && std::isfinite(m[k].re) && std::isfinite(m[k].im);
        }
      }
  }
  sums.a = world.bit_xor(sums.a);
  sums.b = world.bit_xor(sums.b);
  if (stored && (stored->a != sums.a || stored->b != sums.b))
    checksum_mismatch(src,
                      "SciDAC checksum mismatch: stored suma " + hex32(stored->a) + " sumb " +
                          hex32(stored->b) + ", computed from the data suma " + hex32(sums.a) +
                          " sumb " + hex32(sums.b),
                      opt.checksum_warning_only, world);
  check_links(src, u, l.bytes, finite, world, info);
  if (info) {
    info->format = ildg ? FileFormat::ildg : FileFormat::scidac;
    std::copy(l.dims, l.dims + 4, info->dims);
    info->big_endian = true;
    if (stored)
      info->stored = {{"SCIDAC_SUMA", hex32(stored->a)}, {"SCIDAC_SUMB", hex32(stored->b)}};
    info->computed = {{"SCIDAC_SUMA", hex32(sums.a)}, {"SCIDAC_SUMB", hex32(sums.b)}};
    info->provenance = provenance;
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
  const std::int64_t v3 = slab.geom.v3;

  Sums sums;
  std::vector<unsigned char> buf;
  for (int t = 0; t < slab.geom.nt; ++t) {
    encode_slice(slab, t, l, buf);
    add_site_sums(buf.data(), (slab.geom.t0 + t) * v3, v3, l.site_bytes(), sums);
  }
  sums.a = world.bit_xor(sums.a);
  sums.b = world.bit_xor(sums.b);
  std::string date = utc_date();
  world.broadcast(date); // every rank lays out the same records

  const std::string head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>";
  const std::string dims = std::to_string(l.dims[0]) + " " + std::to_string(l.dims[1]) + " " +
                           std::to_string(l.dims[2]) + " " + std::to_string(l.dims[3]) + " ";
  const char p = opt.double_precision ? 'D' : 'F';
  const std::string n = std::to_string(l.nc);

  LimePlan plan;
  plan.add(scidac_file,
           head + "<scidacFile><version>1.1</version><spacetime>4</spacetime><dims>" + dims +
               "</dims><volfmt>0</volfmt></scidacFile>",
           true, false);
  plan.add(user_file_xml, head + gaugefix_xml(opt.provenance, opt.metadata), false, true);
  plan.add(scidac_record,
           head + "<scidacRecord><version>1.0</version><date>" + date +
               "</date><globaldata>0</globaldata><datatype>QDP_" + p + n +
               "_ColorMatrix</datatype><precision>" + p + "</precision><colors>" + n +
               "</colors><typesize>" + std::to_string(2 * l.nc * l.nc * l.bytes) +
               "</typesize><datacount>4</datacount></scidacRecord>",
           true, false);
  plan.add(user_record_xml, head + gaugefix_xml(opt.provenance, {}), false, false);
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
  const std::int64_t data_offset =
      plan.add_external(ildg ? ildg_data : scidac_data, l.sites() * l.site_bytes(), false, false);
  plan.add(scidac_checksum,
           head + "<scidacChecksum><version>1.0</version><suma>" + hex8(sums.a) + "</suma><sumb>" +
               hex8(sums.b) + "</sumb></scidacChecksum>",
           false, true);

  SlabFileWriter out(path, world, inputs);
  if (world.rank() == 0) plan.write(out);
  for (int t = 0; t < slab.geom.nt; ++t) {
    encode_slice(slab, t, l, buf);
    out.write_at(data_offset + (slab.geom.t0 + t) * v3 * l.site_bytes(), buf.data(),
                 static_cast<std::int64_t>(buf.size()));
  }
  out.commit();
}

} // namespace gf
