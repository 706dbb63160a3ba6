#include "io/field_checks.h"
#include "comm/decomposition.h"
#include "core/error.h"
#include "observables/observables.h"
#include <cstdio>
#include <iostream>

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
  if (world.rank() == 0)
    std::cerr << "warning: " << file << ": " << what << " (ignored: checksum_warning_only)\n";
}

} // namespace gf
