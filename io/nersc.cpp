#include "io/nersc.h"
#include "core/error.h"
#include "io/field_checks.h"
#include "io/field_codec.h"
#include "io/nersc_provenance.h"
#include "io/parallel_file.h"
#include "io/slab_chunks.h"
#include "math/su_n.h"
#include "observables/observables.h"
#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string_view>
#include <type_traits>
#include <vector>

namespace gf {

namespace {

constexpr std::int64_t max_header_bytes = std::int64_t(1) << 20;

struct Datatype {
  const char* name;
  int nc;
  int stored_rows;
};
constexpr Datatype datatypes[] = {{"4D_SU3_GAUGE", 3, 2},
                                  {"4D_SU3_GAUGE_3x3", 3, 3},
                                  {"4D_SU2_GAUGE", 2, 1},
                                  {"4D_SU2_GAUGE_2x2", 2, 2}};

struct FloatFormat {
  const char* name;
  int bytes;
  bool big_endian;
};
constexpr FloatFormat float_formats[] = {{"IEEE32BIG", 4, true}, {"IEEE32LITTLE", 4, false},
                                         {"IEEE64BIG", 8, true}, {"IEEE64LITTLE", 8, false},
                                         {"IEEE32", 4, true},    {"IEEE64", 8, true}};

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw Error("NERSC file '" + path + "': " + what);
}

std::string fixed15(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%.15f", v);
  return b;
}
std::string general(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%.12g", v);
  return b;
}

std::string_view trim(std::string_view s) {
  const char* ws = " \t\r\n\f\v";
  const std::size_t b = s.find_first_not_of(ws);
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(ws) - b + 1);
}

std::optional<double> parse_double(std::string_view s) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || end != s.data() + s.size()) return std::nullopt;
  return v;
}

// Half a unit in the last printed digit of a decimal number ("0.5985455591" -> 5e-11).
double printed_half_unit(std::string_view s) {
  const std::size_t e = s.find_first_of("eE");
  const std::string_view mantissa = s.substr(0, e);
  const std::size_t dot = mantissa.find('.');
  const int decimals =
      dot == std::string_view::npos ? 0 : static_cast<int>(mantissa.size() - dot - 1);
  int exponent = 0;
  if (e != std::string_view::npos) {
    std::string_view x = s.substr(e + 1);
    if (!x.empty() && x.front() == '+') x.remove_prefix(1);
    std::from_chars(x.data(), x.data() + x.size(), exponent);
  }
  return 0.5 * std::pow(10.0, exponent - decimals);
}

// How the binary data is laid out: per site 4 links of stored_rows x nc complex numbers.
struct Layout {
  int nc;
  int stored_rows;
  int bytes; // per real: 4 or 8
  bool swap; // file byte order differs from the host's
  int reals_per_link() const { return 2 * stored_rows * nc; }
  std::int64_t site_bytes() const { return std::int64_t(4) * reals_per_link() * bytes; }
};

Layout make_layout(int nc, int stored_rows, int bytes, bool big_endian) {
  return {nc, stored_rows, bytes, big_endian != (std::endian::native == std::endian::big)};
}

// One stored real of Bytes bytes in the file's byte order (Swap: not the host's), its 32-bit
// words (byte order undone) added to sum.
template <int Bytes, bool Swap>
double load_real(const unsigned char* p, std::uint32_t& sum) {
  if constexpr (Bytes == 4) {
    std::uint32_t w;
    std::memcpy(&w, p, 4);
    if constexpr (Swap) w = __builtin_bswap32(w);
    sum += w;
    return std::bit_cast<float>(w);
  } else {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    if constexpr (Swap) w = __builtin_bswap64(w);
    sum += static_cast<std::uint32_t>(w) + static_cast<std::uint32_t>(w >> 32);
    return std::bit_cast<double>(w);
  }
}

// The sum of the 32-bit words of v stored in Bytes bytes (byte order undone).
template <int Bytes>
std::uint32_t real_words(double v) {
  if constexpr (Bytes == 4) {
    return std::bit_cast<std::uint32_t>(static_cast<float>(v));
  } else {
    const std::uint64_t w = std::bit_cast<std::uint64_t>(v);
    return static_cast<std::uint32_t>(w) + static_cast<std::uint32_t>(w >> 32);
  }
}

// v stored at p in Bytes bytes, in the file's byte order.
template <int Bytes, bool Swap>
void store_real(double v, unsigned char* p) {
  if constexpr (Bytes == 4) {
    std::uint32_t w = std::bit_cast<std::uint32_t>(static_cast<float>(v));
    if constexpr (Swap) w = __builtin_bswap32(w);
    std::memcpy(p, &w, 4);
  } else {
    std::uint64_t w = std::bit_cast<std::uint64_t>(v);
    if constexpr (Swap) w = __builtin_bswap64(w);
    std::memcpy(p, &w, 8);
  }
}

// f(std::integral_constant<int, bytes>, std::bool_constant<swap>) for the layout's values.
template <class F>
auto with_layout(const Layout& l, F f) {
  using B4 = std::integral_constant<int, 4>;
  using B8 = std::integral_constant<int, 8>;
  if (l.bytes == 4) return l.swap ? f(B4{}, std::true_type{}) : f(B4{}, std::false_type{});
  return l.swap ? f(B8{}, std::true_type{}) : f(B8{}, std::false_type{});
}

// Decodes sites [first, first + n) from buf into u (stored rows only), the sites shared among
// the OpenMP threads; adds their 32-bit words to sum; returns false where a number is not
// finite.
bool decode_sites(const unsigned char* buf, HostField& u, std::int64_t first, std::int64_t n,
                  const Layout& l, std::uint32_t& sum) {
  return with_layout(l, [&](auto bytes, auto swap) {
    constexpr int B = decltype(bytes)::value;
    constexpr bool S = decltype(swap)::value;
    const int values = l.stored_rows * l.nc;
    const std::int64_t site_bytes = l.site_bytes();
    std::uint32_t words = 0;
    bool finite = true;
#pragma omp parallel for reduction(+ : words) reduction(&& : finite) schedule(static)
    for (std::int64_t i = 0; i < n; ++i) {
      const unsigned char* p = buf + i * site_bytes;
      for (int mu = 0; mu < 4; ++mu) {
        Complex<double>* m = u.matrix_data(first + i, mu);
        for (int k = 0; k < values; ++k, p += 2 * B) {
          m[k].re = load_real<B, S>(p, words);
          m[k].im = load_real<B, S>(p + B, words);
          finite = finite && std::isfinite(m[k].re) && std::isfinite(m[k].im);
        }
      }
    }
    sum += words;
    return finite;
  });
}

// The checksum of u's slab as stored with layout l (nothing encoded), the sites shared among
// the OpenMP threads.
std::uint32_t stored_checksum(const HostField& u, const Layout& l) {
  const int values = l.stored_rows * l.nc;
  const std::int64_t n = u.local_sites();
  return with_layout(l, [&](auto bytes, auto) {
    constexpr int B = decltype(bytes)::value;
    std::uint32_t words = 0;
#pragma omp parallel for reduction(+ : words) schedule(static)
    for (std::int64_t s = 0; s < n; ++s)
      for (int mu = 0; mu < 4; ++mu) {
        const Complex<double>* m = u.matrix_data(s, mu);
        for (int k = 0; k < values; ++k)
          words += real_words<B>(m[k].re) + real_words<B>(m[k].im);
      }
    return words;
  });
}

// Encodes sites [first, first + n) of u into out, the sites shared among the OpenMP threads.
void encode_sites(const HostField& u, std::int64_t first, std::int64_t n, const Layout& l,
                  unsigned char* out) {
  with_layout(l, [&](auto bytes, auto swap) {
    constexpr int B = decltype(bytes)::value;
    constexpr bool S = decltype(swap)::value;
    const int values = l.stored_rows * l.nc;
    const std::int64_t site_bytes = l.site_bytes();
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < n; ++i) {
      unsigned char* p = out + i * site_bytes;
      for (int mu = 0; mu < 4; ++mu) {
        const Complex<double>* m = u.matrix_data(first + i, mu);
        for (int k = 0; k < values; ++k, p += 2 * B) {
          store_real<B, S>(m[k].re, p);
          store_real<B, S>(m[k].im, p + B);
        }
      }
    }
  });
}

template <int N>
void rebuild_last_rows(HostField& u) {
#pragma omp parallel for schedule(static)
  for (std::int64_t s = 0; s < u.local_sites(); ++s)
    for (int mu = 0; mu < 4; ++mu) {
      Matrix<double, N> m = u.get<N>(s, mu);
      reconstruct_last_row(m);
      u.set<N>(s, mu, m);
    }
}

// Checks a header PLAQUETTE or LINK_TRACE against the value computed from the field.
void check_observable(const std::string& path, const NerscHeader& h, const char* key,
                      const std::optional<double>& stored, double computed) {
  if (!stored) return;
  const double data_tolerance = h.bytes_per_real == 8 ? 1e-10 : 1e-6;
  const double tolerance = data_tolerance + std::min(printed_half_unit(h.entries.at(key)), 5e-7);
  if (!(std::abs(*stored - computed) <= tolerance))
    fail(path, std::string(key) + " mismatch: header " + h.entries.at(key) +
                   ", computed from the data " + general(computed) + " (tolerance " +
                   general(tolerance) + ")");
}

} // namespace

NerscHeader read_nersc_header(const std::string& path) {
  std::error_code ec;
  const auto file_bytes = static_cast<std::int64_t>(std::filesystem::file_size(path, ec));
  if (ec) fail(path, "cannot open: " + ec.message());
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "cannot open for reading");
  std::string text(static_cast<std::size_t>(std::min(file_bytes, max_header_bytes)), '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (in.gcount() != static_cast<std::streamsize>(text.size()))
    fail(path, "read error in the header");

  NerscHeader h;
  bool begun = false, ended = false;
  for (std::size_t pos = 0; pos < text.size() && !ended;) {
    const std::size_t nl = text.find('\n', pos);
    const std::size_t next = nl == std::string::npos ? text.size() : nl + 1;
    const std::string_view line = trim(std::string_view(text).substr(pos, next - pos));
    pos = next;
    if (!begun) {
      if (line != "BEGIN_HEADER")
        fail(path, "missing BEGIN_HEADER: the first line is not BEGIN_HEADER");
      begun = true;
    } else if (line == "END_HEADER") {
      ended = true;
      h.header_bytes = static_cast<std::int64_t>(next);
    } else if (const std::size_t eq = line.find('='); eq != std::string_view::npos) {
      const std::string key(trim(line.substr(0, eq)));
      if (!h.entries.emplace(key, trim(line.substr(eq + 1))).second)
        fail(path, "header key " + key + " appears twice");
    }
  }
  if (!begun) fail(path, "missing BEGIN_HEADER: the file is empty");
  if (!ended)
    fail(path, "missing END_HEADER in the first " + std::to_string(text.size()) + " bytes");

  const auto entry = [&](const std::string& key) -> const std::string* {
    const auto it = h.entries.find(key);
    return it == h.entries.end() ? nullptr : &it->second;
  };
  const auto required = [&](const std::string& key) -> const std::string& {
    const std::string* v = entry(key);
    if (!v) fail(path, "missing header key " + key);
    return *v;
  };

  h.datatype = required("DATATYPE");
  const auto dt = std::find_if(std::begin(datatypes), std::end(datatypes),
                               [&](const Datatype& d) { return h.datatype == d.name; });
  if (dt == std::end(datatypes))
    fail(path, "unknown DATATYPE '" + h.datatype +
                   "' (known: 4D_SU3_GAUGE, 4D_SU3_GAUGE_3x3, 4D_SU2_GAUGE, 4D_SU2_GAUGE_2x2)");
  h.nc = dt->nc;
  h.stored_rows = dt->stored_rows;

  std::int64_t sites = 1;
  for (int k = 0; k < 4; ++k) {
    const std::string key = "DIMENSION_" + std::to_string(k + 1);
    const std::string& v = required(key);
    const auto [end, perr] = std::from_chars(v.data(), v.data() + v.size(), h.dims[k]);
    if (perr != std::errc{} || end != v.data() + v.size() || h.dims[k] <= 0)
      fail(path, key + " = '" + v + "' is not a positive integer");
    if (__builtin_mul_overflow(sites, std::int64_t(h.dims[k]), &sites))
      fail(path, "DIMENSION: lattice too large");
  }
  const auto data_bytes = [&](int bytes) {
    std::int64_t n;
    if (__builtin_mul_overflow(sites, make_layout(h.nc, h.stored_rows, bytes, true).site_bytes(),
                               &n))
      fail(path, "DIMENSION: lattice too large");
    return n;
  };

  if (const std::string* fp = entry("FLOATING_POINT")) {
    h.floating_point = *fp;
  } else {
    h.floating_point_given = false;
    h.floating_point = h.header_bytes + data_bytes(4) == file_bytes ? "IEEE32BIG" : "IEEE64BIG";
  }
  const auto ff = std::find_if(std::begin(float_formats), std::end(float_formats),
                               [&](const FloatFormat& f) { return h.floating_point == f.name; });
  if (ff == std::end(float_formats))
    fail(path, "unknown FLOATING_POINT '" + h.floating_point +
                   "' (known: IEEE32BIG, IEEE32LITTLE, IEEE64BIG, IEEE64LITTLE, IEEE32, IEEE64)");
  h.bytes_per_real = ff->bytes;
  h.big_endian = ff->big_endian;

  if (const std::string* v = entry("CHECKSUM")) {
    std::string_view s = *v;
    if (s.starts_with("0x") || s.starts_with("0X")) s.remove_prefix(2);
    std::uint32_t c = 0;
    const auto [end, perr] = std::from_chars(s.data(), s.data() + s.size(), c, 16);
    if (s.empty() || perr != std::errc{} || end != s.data() + s.size())
      fail(path, "CHECKSUM = '" + *v + "' is not a 32-bit hexadecimal number");
    h.checksum = c;
  }
  const auto number = [&](const std::string& key) -> std::optional<double> {
    const std::string* v = entry(key);
    if (!v) return std::nullopt;
    const std::optional<double> x = parse_double(*v);
    if (!x) fail(path, key + " = '" + *v + "' is not a number");
    return x;
  };
  h.plaquette = number("PLAQUETTE");
  h.link_trace = number("LINK_TRACE");

  h.data_bytes = data_bytes(h.bytes_per_real);
  const std::int64_t expected = h.header_bytes + h.data_bytes;
  if (file_bytes != expected)
    fail(path, "size: the file has " + std::to_string(file_bytes) + " bytes, but DATATYPE " +
                   h.datatype + ", FLOATING_POINT " + h.floating_point + " and DIMENSION " +
                   std::to_string(h.dims[0]) + "x" + std::to_string(h.dims[1]) + "x" +
                   std::to_string(h.dims[2]) + "x" + std::to_string(h.dims[3]) + " need " +
                   std::to_string(expected) + " (header " + std::to_string(h.header_bytes) +
                   " + data " + std::to_string(h.data_bytes) +
                   "): " + (file_bytes < expected ? "truncated file" : "file too long") +
                   " or wrong DIMENSION");
  return h;
}

HostField read_nersc(const std::string& path, const World& world, const ReadOptions& opt,
                     FileInfo* info) {
  const NerscHeader h = read_nersc_header(path);
  const Provenance provenance = nersc_provenance(h.entries, path);
  const Layout l = make_layout(h.nc, h.stored_rows, h.bytes_per_real, h.big_endian);
  const std::string file = "NERSC file '" + path + "'";
  HostField u = allocate_slab(file, h.dims, h.nc, 4, world);
  const std::int64_t slab_first_site = std::int64_t(u.geom.t0) * u.geom.v3;

  std::uint32_t local_sum = 0;
  bool finite = true;
  const SlabFileReader data(path);
  const std::int64_t chunk = std::min(chunk_sites(l.site_bytes()), u.local_sites());
  std::vector<unsigned char> buf(static_cast<std::size_t>(chunk * l.site_bytes()));
  for (std::int64_t first = 0; first < u.local_sites(); first += chunk) {
    const std::int64_t n = std::min(chunk, u.local_sites() - first);
    data.read_at(h.header_bytes + (slab_first_site + first) * l.site_bytes(), buf.data(),
                 n * l.site_bytes());
    finite = decode_sites(buf.data(), u, first, n, l, local_sum) && finite;
  }
  const std::uint32_t checksum = world.sum_mod32(local_sum);

  if (h.checksum && *h.checksum != checksum)
    checksum_mismatch(file,
                      "CHECKSUM mismatch: header " + hex32(*h.checksum) +
                          ", computed from the data " + hex32(checksum),
                      opt.checksum_warning_only, world);

  if (world.any(!finite))
    fail(path,
         "unitarity: links are not in SU(" + std::to_string(h.nc) + "): the data holds NaN or Inf");
  if (h.stored_rows < h.nc) h.nc == 2 ? rebuild_last_rows<2>(u) : rebuild_last_rows<3>(u);
  const double deviation = check_in_su_n(file, u, h.bytes_per_real, world);
  if (h.bytes_per_real == 4) reunitarize_all(u);

  const double plaq = plaquette(u, world), trace = link_trace(u, world);
  check_observable(path, h, "PLAQUETTE", h.plaquette, plaq);
  check_observable(path, h, "LINK_TRACE", h.link_trace, trace);
  if (info) {
    *info = FileInfo{};
    info->format = FileFormat::nersc;
    std::copy(h.dims, h.dims + 4, info->dims);
    info->nc = h.nc;
    info->bytes_per_real = h.bytes_per_real;
    info->big_endian = h.big_endian;
    info->stored.assign(h.entries.begin(), h.entries.end());
    info->computed = {{"CHECKSUM", hex32(checksum)},
                      {"PLAQUETTE", general(plaq)},
                      {"LINK_TRACE", general(trace)}};
    info->plaquette = plaq;
    info->link_trace = trace;
    info->reunitarised = h.bytes_per_real == 4;
    info->unitarity_deviation = deviation;
    info->provenance = provenance;
  }
  return u;
}

namespace {

// The NERSC header values write_nersc takes from WriteOptions::metadata.
struct HeaderValues {
  std::string creator = "gaugefix";
  bool big_endian = true;
};

HeaderValues header_values(const std::string& path, const WriteOptions& opt) {
  HeaderValues v;
  const auto take = [&](const char* key, std::string& into) {
    const auto it = opt.metadata.find(key);
    if (it == opt.metadata.end()) return;
    if (it->second.find_first_of("\r\n") != std::string::npos)
      throw Error("NERSC output '" + path + "': " + key + " value '" + it->second +
                  "' contains a line break");
    into = it->second;
  };
  take("CREATOR", v.creator);
  std::string order = "big";
  take("BYTE_ORDER", order);
  if (order != "big" && order != "little")
    throw Error("NERSC output '" + path + "': BYTE_ORDER '" + order +
                "' is neither big nor little");
  v.big_endian = order == "big";
  return v;
}

} // namespace

void write_nersc(const std::string& path, const HostField& slab, const WriteOptions& opt,
                 const World& world, const std::vector<std::string>& inputs) {
  const Geometry& g = slab.geom;
  if (slab.ndir != 4 || (slab.nc != 2 && slab.nc != 3))
    throw Error("NERSC output '" + path + "': needs a gauge field with nc 2 or 3");
  if (world.sum(slab.local_sites()) != g.global_volume())
    throw Error("NERSC output '" + path + "': the slabs of the ranks do not make up the lattice");
  const HeaderValues v = header_values(path, opt);
  const std::string provenance = nersc_provenance_lines(opt.provenance, path);

  const int rows = opt.full_matrix ? slab.nc : slab.nc - 1;
  const Layout l = make_layout(slab.nc, rows, opt.double_precision ? 8 : 4, v.big_endian);
  const std::int64_t sites = slab.local_sites();
  // The header holds the checksum and comes first: one pass that only sums, then one that
  // encodes and writes.
  const std::uint32_t checksum = world.sum_mod32(stored_checksum(slab, l));
  const double trace = link_trace(slab, world), plaq = plaquette(slab, world);

  std::string header;
  if (world.rank() == 0) {
    const std::string su = slab.nc == 2 ? "SU2" : "SU3";
    const std::string n = std::to_string(slab.nc);
    header = "BEGIN_HEADER\nHDR_VERSION = 1.0\n";
    header += "DATATYPE = 4D_" + su + "_GAUGE" + (opt.full_matrix ? "_" + n + "x" + n : "") + "\n";
    header += "STORAGE_FORMAT = 1.0\n";
    for (int k = 0; k < 4; ++k)
      header += "DIMENSION_" + std::to_string(k + 1) + " = " + std::to_string(g.L[k]) + "\n";
    header += "LINK_TRACE = " + fixed15(trace) + "\n";
    header += "PLAQUETTE = " + fixed15(plaq) + "\n";
    header += "CHECKSUM = " + hex32(checksum) + "\n";
    for (int k = 0; k < 4; ++k)
      header += "BOUNDARY_" + std::to_string(k + 1) + " = PERIODIC\n";
    header += provenance;
    header += std::string("FLOATING_POINT = IEEE") + (opt.double_precision ? "64" : "32") +
              (v.big_endian ? "BIG" : "LITTLE") + "\n";
    header += "CREATOR = " + v.creator + "\n";
    header += "CREATION_DATE = " + utc_date() + "\n";
    header += "END_HEADER\n";
  }
  world.broadcast(header, 0);
  const std::int64_t header_bytes = static_cast<std::int64_t>(header.size());

  SlabFileWriter file(path, world, inputs);
  if (world.rank() == 0) file.write_at(0, header.data(), header_bytes);
  const std::int64_t slab_offset = header_bytes + std::int64_t(g.t0) * g.v3 * l.site_bytes();
  const std::int64_t chunk = std::min(chunk_sites(l.site_bytes()), sites);
  std::vector<unsigned char> buf(static_cast<std::size_t>(chunk * l.site_bytes()));
  for (std::int64_t first = 0; first < sites; first += chunk) {
    const std::int64_t n = std::min(chunk, sites - first);
    encode_sites(slab, first, n, l, buf.data());
    file.write_at(slab_offset + first * l.site_bytes(), buf.data(), n * l.site_bytes());
  }
  file.commit();
}

} // namespace gf
