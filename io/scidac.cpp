#include "io/scidac.h"
#include "core/error.h"
#include "io/field_checks.h"
#include "io/field_codec.h"
#include "io/slab_chunks.h"
#include "io/xml_text.h"
#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <type_traits>
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

namespace {

// A real in big-endian order, Bytes bytes.
template <int Bytes>
double load_big(const unsigned char* p) {
  if constexpr (Bytes == 4) {
    std::uint32_t w;
    std::memcpy(&w, p, 4);
    if constexpr (std::endian::native == std::endian::little) w = __builtin_bswap32(w);
    return std::bit_cast<float>(w);
  } else {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    if constexpr (std::endian::native == std::endian::little) w = __builtin_bswap64(w);
    return std::bit_cast<double>(w);
  }
}

template <int Bytes>
void store_big(double v, unsigned char* p) {
  if constexpr (Bytes == 4) {
    std::uint32_t w = std::bit_cast<std::uint32_t>(static_cast<float>(v));
    if constexpr (std::endian::native == std::endian::little) w = __builtin_bswap32(w);
    std::memcpy(p, &w, 4);
  } else {
    std::uint64_t w = std::bit_cast<std::uint64_t>(v);
    if constexpr (std::endian::native == std::endian::little) w = __builtin_bswap64(w);
    std::memcpy(p, &w, 8);
  }
}

// f(std::integral_constant<int, bytes>) for bytes 4 or 8.
template <class F>
auto with_bytes(int bytes, F f) {
  return bytes == 4 ? f(std::integral_constant<int, 4>{}) : f(std::integral_constant<int, 8>{});
}

// The site's CRC-32 rotated into the sums by its global natural index r.
void add_site_sum(const unsigned char* p, std::int64_t site_bytes, std::int64_t r, std::uint32_t& a,
                  std::uint32_t& b) {
  const auto c = static_cast<std::uint32_t>(crc32(0L, p, static_cast<uInt>(site_bytes)));
  a ^= rotate_left(c, static_cast<int>(r % 29));
  b ^= rotate_left(c, static_cast<int>(r % 31));
}

} // namespace

ScidacSums read_scidac_slab(const std::string& path, const LimeRecord& data, int bytes,
                            std::int64_t site_bytes, HostField& slab, bool& finite,
                            const World& world) {
  const std::int64_t sites = slab.local_sites(), n2 = std::int64_t(slab.nc) * slab.nc;
  const std::int64_t slab_first = std::int64_t(slab.geom.t0) * slab.geom.v3; // global index
  if (slab_first * site_bytes + sites * site_bytes > data.data_bytes)
    throw Error("LIME file '" + path + "': bytes [" + std::to_string(slab_first * site_bytes) +
                ", " + std::to_string((slab_first + sites) * site_bytes) + ") lie outside the " +
                std::to_string(data.data_bytes) + "-byte payload of record " + data.type);
  const SlabFileReader file(path);
  const std::int64_t chunk = std::min(chunk_sites(site_bytes), sites);
  std::vector<unsigned char> buf(static_cast<std::size_t>(chunk * site_bytes));
  std::uint32_t a = 0, b = 0;
  bool all_finite = true;
  for (std::int64_t first = 0; first < sites; first += chunk) {
    const std::int64_t n = std::min(chunk, sites - first);
    file.read_at(data.data_offset + (slab_first + first) * site_bytes, buf.data(), n * site_bytes);
    with_bytes(bytes, [&](auto bytes_constant) {
      constexpr int B = decltype(bytes_constant)::value;
#pragma omp parallel for reduction(^ : a, b) reduction(&& : all_finite) schedule(static)
      for (std::int64_t i = 0; i < n; ++i) {
        const unsigned char* p = buf.data() + i * site_bytes;
        add_site_sum(p, site_bytes, slab_first + first + i, a, b);
        for (int mu = 0; mu < slab.ndir; ++mu) {
          Complex<double>* m = slab.matrix_data(first + i, mu);
          for (std::int64_t k = 0; k < n2; ++k, p += 2 * B) {
            m[k] = {load_big<B>(p), load_big<B>(p + B)};
            all_finite = all_finite && std::isfinite(m[k].re) && std::isfinite(m[k].im);
          }
        }
      }
    });
  }
  finite = all_finite;
  return {world.bit_xor(a), world.bit_xor(b)};
}

ScidacSums write_scidac_slab(SlabFileWriter& out, std::int64_t data_offset, const HostField& slab,
                             int bytes, const World& world) {
  const std::int64_t sites = slab.local_sites(), n2 = std::int64_t(slab.nc) * slab.nc;
  const std::int64_t site_bytes = slab.ndir * n2 * 2 * bytes;
  const std::int64_t slab_first = std::int64_t(slab.geom.t0) * slab.geom.v3; // global index
  const std::int64_t chunk = std::min(chunk_sites(site_bytes), sites);
  std::vector<unsigned char> buf(static_cast<std::size_t>(chunk * site_bytes));
  std::uint32_t a = 0, b = 0;
  for (std::int64_t first = 0; first < sites; first += chunk) {
    const std::int64_t n = std::min(chunk, sites - first);
    with_bytes(bytes, [&](auto bytes_constant) {
      constexpr int B = decltype(bytes_constant)::value;
#pragma omp parallel for reduction(^ : a, b) schedule(static)
      for (std::int64_t i = 0; i < n; ++i) {
        unsigned char* const site = buf.data() + i * site_bytes;
        unsigned char* p = site;
        for (int mu = 0; mu < slab.ndir; ++mu) {
          const Complex<double>* m = slab.matrix_data(first + i, mu);
          for (std::int64_t k = 0; k < n2; ++k, p += 2 * B) {
            store_big<B>(m[k].re, p);
            store_big<B>(m[k].im, p + B);
          }
        }
        add_site_sum(site, site_bytes, slab_first + first + i, a, b);
      }
    });
    out.write_at(data_offset + (slab_first + first) * site_bytes, buf.data(), n * site_bytes);
  }
  return {world.bit_xor(a), world.bit_xor(b)};
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
