#include "io/field_codec.h"
#include "core/error.h"
#include "core/log.h"
#include "observables/observables.h"
#include <bit>
#include <cstdio>
#include <cstring>
#include <ctime>

namespace gf {

namespace {

constexpr bool host_big = std::endian::native == std::endian::big;
constexpr double exact_limit = 1e-10; // 64-bit links within it are returned as stored
constexpr double single_limit = 1e-5; // links within it are reunitarised

std::string general(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%.6g", v);
  return b;
}

} // namespace

std::uint32_t load_u32(const unsigned char* p, bool big_endian) {
  std::uint32_t w;
  std::memcpy(&w, p, 4);
  return big_endian == host_big ? w : __builtin_bswap32(w);
}

void store_u32(std::uint32_t v, unsigned char* p, bool big_endian) {
  if (big_endian != host_big) v = __builtin_bswap32(v);
  std::memcpy(p, &v, 4);
}

double load_real(const unsigned char* p, int bytes, bool big_endian) {
  if (bytes == 4) return std::bit_cast<float>(load_u32(p, big_endian));
  std::uint64_t w;
  std::memcpy(&w, p, 8);
  return std::bit_cast<double>(big_endian == host_big ? w : __builtin_bswap64(w));
}

void store_real(double v, unsigned char* p, int bytes, bool big_endian) {
  if (bytes == 4) {
    store_u32(std::bit_cast<std::uint32_t>(static_cast<float>(v)), p, big_endian);
    return;
  }
  std::uint64_t w = std::bit_cast<std::uint64_t>(v);
  if (big_endian != host_big) w = __builtin_bswap64(w);
  std::memcpy(p, &w, 8);
}

std::uint32_t rotate_left(std::uint32_t v, int n) {
  return std::rotl(v, n);
}

std::string utc_date() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char date[64];
  std::strftime(date, sizeof date, "%a %b %d %H:%M:%S %Y UTC", &utc);
  return date;
}

std::string hex32(std::uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "%x", v);
  return b;
}

void check_links(const std::string& source, HostField& u, int bytes_per_real, bool finite,
                 const World& world, FileInfo* info) {
  const std::string group = "SU(" + std::to_string(u.nc) + ")";
  if (world.any(!finite))
    throw Error(source + ": unitarity: links are not in " + group + ": the data holds NaN or Inf");
  const double deviation = max_unitarity_violation(u, world);
  if (!(deviation <= single_limit))
    throw Error(source + ": unitarity: links are not in " + group + ": max deviation " +
                general(deviation) + " > " + general(single_limit) + " allowed for " +
                std::to_string(8 * bytes_per_real) + "-bit data" +
                (bytes_per_real == 8 ? " of single-precision accuracy" : ""));
  const bool reunitarise = bytes_per_real == 4 || deviation > exact_limit;
  if (reunitarise) reunitarize_all(u);
  if (bytes_per_real == 8 && reunitarise)
    log::warning("{}: 64-bit links of single-precision accuracy (max deviation from {} {} > {}): "
                 "reunitarised",
                 source, group, general(deviation), general(exact_limit));
  if (!info) return;
  info->nc = u.nc;
  info->bytes_per_real = bytes_per_real;
  info->unitarity_deviation = deviation;
  info->reunitarised = reunitarise;
  info->plaquette = plaquette(u, world);
  info->link_trace = link_trace(u, world);
}

} // namespace gf
