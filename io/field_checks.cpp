#include "io/field_checks.h"
#include "comm/decomposition.h"
#include "core/error.h"
#include "core/log.h"
#include "observables/observables.h"
#include <cstdio>
#include <filesystem>

namespace gf {

namespace {

std::string general(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%.12g", v);
  return b;
}

} // namespace

Geometry slab_geometry(const std::string& file, const int L[4], const World& world) {
  try {
    return decompose_time(L, world);
  } catch (const Error& e) {
    throw Error(file + ": " + e.what());
  }
}

HostField allocate_slab(const std::string& file, const int L[4], int nc, int ndir,
                        const World& world) {
  const Geometry g = slab_geometry(file, L, world);
  try {
    return HostField(g, nc, ndir);
  } catch (const Error& e) {
    throw Error(file + ": " + e.what());
  }
}

std::int64_t checked_sites(const std::string& file, const std::string& field,
                           const std::int64_t n[4]) {
  std::int64_t sites = 1;
  for (int k = 0; k < 4; ++k) {
    if (n[k] <= 0 || n[k] > (std::int64_t(1) << 30))
      throw Error(file + ": " + field + ": extent " + std::to_string(n[k]) + " in dimension " +
                  std::to_string(k) + " is not a lattice extent (1 to 2^30)");
    sites = checked_product(file, sites, n[k]);
  }
  return sites;
}

std::int64_t checked_product(const std::string& file, std::int64_t a, std::int64_t b) {
  std::int64_t r;
  if (a < 0 || b < 0 || __builtin_mul_overflow(a, b, &r))
    throw Error(file + ": size: " + std::to_string(a) + " x " + std::to_string(b) +
                " overflows 64 bits: the header's extents are not those of a real lattice");
  return r;
}

std::int64_t checked_sum(const std::string& file, std::int64_t a, std::int64_t b) {
  std::int64_t r;
  if (a < 0 || b < 0 || __builtin_add_overflow(a, b, &r))
    throw Error(file + ": size: " + std::to_string(a) + " + " + std::to_string(b) +
                " overflows 64 bits");
  return r;
}

std::int64_t file_bytes(const std::string& file, const std::string& path) {
  std::error_code ec;
  const std::uintmax_t n = std::filesystem::file_size(path, ec);
  if (ec) throw Error(file + ": cannot open: " + ec.message());
  return static_cast<std::int64_t>(n);
}

double check_in_su_n(const std::string& file, const HostField& u, int bytes_per_real,
                     const World& world) {
  const double deviation = max_unitarity_violation(u, world);
  const double limit = bytes_per_real == 8 ? 1e-10 : 1e-5;
  if (!(deviation <= limit))
    throw Error(file + ": unitarity: links are not in SU(" + std::to_string(u.nc) +
                "): max deviation " + general(deviation) + " > " + general(limit) +
                " allowed for " + std::to_string(8 * bytes_per_real) + "-bit data");
  return deviation;
}

void checksum_mismatch(const std::string& file, const std::string& what, bool warning_only,
                       const World& world) {
  if (!warning_only) throw Error(file + ": " + what);
  (void)world; // the log writes rank 0's warning
  log::warning("{}: {} (ignored: checksum_warning_only)", file, what);
}

} // namespace gf
