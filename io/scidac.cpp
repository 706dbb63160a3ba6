#include "io/scidac.h"
#include "core/error.h"
#include "io/field_checks.h"
#include "io/field_codec.h"
#include "io/xml_text.h"
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <zlib.h>

namespace gf {

namespace {

std::optional<long long> to_integer(const std::string& s) {
  long long v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || end != s.data() + s.size()) return std::nullopt;
  return v;
}

std::string where(const std::string& source, const char* record) {
  return source + ": record " + record;
}

// The root of a record's XML, which must be <root>.
XmlElement root_of(const XmlDocument& doc, const char* root) {
  if (doc.root().name() != root)
    throw Error(doc.where() + ": the root element is <" + doc.root().name() + ">, not <" + root +
                ">");
  return doc.root();
}

long long positive(const XmlElement& e, const std::string& where, const std::string& tag) {
  const std::string v = e.required_text(tag);
  const std::optional<long long> n = to_integer(v);
  if (!n || *n <= 0 || *n > (1ll << 40))
    throw Error(where + ": <" + tag + "> '" + v + "' is not a positive integer");
  return *n;
}

std::string hex8(std::uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "%08x", v);
  return b;
}

} // namespace

void add_site_sums(const unsigned char* p, std::int64_t first, std::int64_t n,
                   std::int64_t site_bytes, ScidacSums& s) {
  for (std::int64_t r = first; r < first + n; ++r, p += site_bytes) {
    const auto c = static_cast<std::uint32_t>(crc32(0L, p, static_cast<uInt>(site_bytes)));
    s.a ^= rotate_left(c, static_cast<int>(r % 29));
    s.b ^= rotate_left(c, static_cast<int>(r % 31));
  }
}

ScidacSums read_scidac_slab(const std::string& path, const LimeRecord& data, int bytes,
                            std::int64_t site_bytes, HostField& slab, bool& finite,
                            const World& world) {
  const std::int64_t v3 = slab.geom.v3, n2 = std::int64_t(slab.nc) * slab.nc;
  ScidacSums sums;
  finite = true;
  for (int t = 0; t < slab.geom.nt; ++t) {
    // The global natural index of the slice's first site.
    const std::int64_t first = (slab.geom.t0 + t) * v3;
    const std::vector<unsigned char> buf =
        read_lime_bytes(path, data, first * site_bytes, v3 * site_bytes);
    add_site_sums(buf.data(), first, v3, site_bytes, sums);
    const unsigned char* p = buf.data();
    for (std::int64_t s = t * v3; s < (t + 1) * v3; ++s)
      for (int mu = 0; mu < slab.ndir; ++mu) {
        Complex<double>* m = slab.matrix_data(s, mu);
        for (std::int64_t k = 0; k < n2; ++k, p += 2 * bytes) {
          m[k] = {load_real(p, bytes, true), load_real(p + bytes, bytes, true)};
          finite = finite && std::isfinite(m[k].re) && std::isfinite(m[k].im);
        }
      }
  }
  sums.a = world.bit_xor(sums.a);
  sums.b = world.bit_xor(sums.b);
  return sums;
}

const LimeRecord* unique_lime_record(const std::vector<LimeRecord>& records,
                                     const std::string& type, const std::string& source) {
  const auto n = std::count_if(records.begin(), records.end(),
                               [&](const LimeRecord& r) { return r.type == type; });
  if (n > 1)
    throw Error(source + ": record " + type + " appears " + std::to_string(n) +
                " times: its contents could contradict each other");
  return find_lime_record(records, type);
}

void parse_scidac_dims(const std::string& source, const std::string& xml, int dims[4]) {
  const std::string w = where(source, scidac_file_record);
  const XmlDocument doc(xml, w);
  const XmlElement r = root_of(doc, "scidacFile");
  if (positive(r, w, "spacetime") != 4)
    throw Error(w + ": <spacetime> " + r.required_text("spacetime") + " is not 4");
  const std::string text = r.required_text("dims");
  std::istringstream in(text);
  std::int64_t n[4];
  std::string rest;
  for (std::int64_t& x : n)
    if (!(in >> x)) throw Error(w + ": <dims> '" + text + "' is not four integers");
  if (in >> rest) throw Error(w + ": <dims> '" + text + "' holds more than four extents");
  checked_sites(w, "<dims>", n);
  std::copy(n, n + 4, dims);
}

ScidacRecordInfo parse_scidac_record(const std::string& source, const std::string& xml) {
  const std::string w = where(source, scidac_record_record);
  const XmlDocument doc(xml, w);
  const XmlElement r = root_of(doc, "scidacRecord");
  ScidacRecordInfo info;
  const std::string precision = r.required_text("precision");
  if (precision != "F" && precision != "D")
    throw Error(w + ": unknown SciDAC precision '" + precision + "' (known: F, D)");
  info.bytes = precision == "F" ? 4 : 8;
  if (r.child("colors")) info.colors = static_cast<int>(positive(r, w, "colors"));
  info.typesize = positive(r, w, "typesize");
  info.datacount = positive(r, w, "datacount");
  info.datatype = r.child_text("datatype").value_or("");
  if (info.colors && info.typesize != 2 * info.colors * info.colors * info.bytes)
    throw Error(w + ": <typesize> " + std::to_string(info.typesize) + " is not that of a " +
                std::to_string(info.colors) + "x" + std::to_string(info.colors) +
                " complex matrix (<colors> " + std::to_string(info.colors) + ") of precision " +
                precision + " (" + std::to_string(2 * info.colors * info.colors * info.bytes) +
                ")");
  // e.g. QDP_D3_ColorMatrix: its precision letter and colors must be the record's.
  const std::string suffix = "_ColorMatrix";
  const std::string& t = info.datatype;
  if (t.size() >= suffix.size() + 3 &&
      t.compare(t.size() - suffix.size(), suffix.size(), suffix) == 0) {
    const std::size_t k = t.size() - suffix.size() - 3;
    const char p = t[k + 1], n = t[k + 2];
    if (t[k] == '_' && (p == 'F' || p == 'D') && n >= '1' && n <= '9' &&
        (p != precision[0] || (info.colors && n - '0' != info.colors)))
      throw Error(w + ": <datatype> " + t + " contradicts <precision> " + precision +
                  (info.colors ? " or <colors> " + std::to_string(info.colors) : ""));
  }
  return info;
}

ScidacSums parse_scidac_checksum(const std::string& source, const std::string& xml) {
  const std::string w = where(source, scidac_checksum_record);
  const XmlDocument doc(xml, w);
  const XmlElement r = root_of(doc, "scidacChecksum");
  ScidacSums s;
  for (auto [tag, out] : {std::pair{"suma", &s.a}, std::pair{"sumb", &s.b}}) {
    const std::string v = r.required_text(tag);
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), *out, 16);
    if (v.empty() || ec != std::errc{} || end != v.data() + v.size())
      throw Error(w + ": <" + std::string(tag) + "> '" + v +
                  "' is not a 32-bit hexadecimal number");
  }
  return s;
}

void check_scidac_checksum(const std::string& source, const std::optional<ScidacSums>& stored,
                           const ScidacSums& computed, bool warning_only, const World& world) {
  if (!stored)
    checksum_mismatch(source,
                      "checksum: no scidac-checksum record, so nothing verifies the data (a file "
                      "cut before it?); computed suma " +
                          hex32(computed.a) + " sumb " + hex32(computed.b),
                      warning_only, world);
  else if (stored->a != computed.a || stored->b != computed.b)
    checksum_mismatch(source,
                      "SciDAC checksum mismatch: stored suma " + hex32(stored->a) + " sumb " +
                          hex32(stored->b) + ", computed from the data suma " + hex32(computed.a) +
                          " sumb " + hex32(computed.b),
                      warning_only, world);
}

std::string scidac_file_xml(const int dims[4]) {
  std::string d;
  for (int k = 0; k < 4; ++k)
    d += std::to_string(dims[k]) + " ";
  return std::string(xml_declaration) +
         "<scidacFile><version>1.1</version><spacetime>4</spacetime><dims>" + d +
         "</dims><volfmt>0</volfmt></scidacFile>";
}

std::string scidac_record_xml(const ScidacRecordInfo& info, const std::string& date) {
  return std::string(xml_declaration) + "<scidacRecord><version>1.0</version><date>" + date +
         "</date><globaldata>0</globaldata><datatype>" + info.datatype + "</datatype><precision>" +
         (info.bytes == 4 ? "F" : "D") + "</precision><colors>" + std::to_string(info.colors) +
         "</colors><typesize>" + std::to_string(info.typesize) + "</typesize><datacount>" +
         std::to_string(info.datacount) + "</datacount></scidacRecord>";
}

std::string scidac_checksum_xml(const ScidacSums& sums) {
  return std::string(xml_declaration) + "<scidacChecksum><version>1.0</version><suma>" +
         hex8(sums.a) + "</suma><sumb>" + hex8(sums.b) + "</sumb></scidacChecksum>";
}

} // namespace gf
