#include "lattice/host_memory.h"
#include "core/error.h"
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

namespace gf {

namespace {

constexpr std::int64_t checked_from = std::int64_t(64) << 20;

// MemAvailable of /proc/meminfo in bytes, -1 where unknown.
std::int64_t mem_available() {
  std::ifstream in("/proc/meminfo");
  std::string key, unit;
  std::int64_t kib = 0;
  while (in >> key >> kib) {
    std::getline(in, unit);
    if (key == "MemAvailable:") return kib * 1024;
  }
  return -1;
}

// memory.max - memory.current of this process's cgroup (v2), -1 where there is no limit.
std::int64_t cgroup_room() {
  std::ifstream self("/proc/self/cgroup");
  std::string line;
  while (std::getline(self, line)) {
    if (line.rfind("0::", 0) != 0) continue;
    const std::string dir = "/sys/fs/cgroup" + line.substr(3);
    std::ifstream max_in(dir + "/memory.max"), current_in(dir + "/memory.current");
    std::string max_text;
    std::int64_t current = 0;
    if (!(max_in >> max_text) || max_text == "max" || !(current_in >> current)) return -1;
    try {
      return std::max<std::int64_t>(std::stoll(max_text) - current, 0);
    } catch (const std::exception&) {
      return -1;
    }
  }
  return -1;
}

std::string gib(double bytes) {
  char b[64];
  std::snprintf(b, sizeof b, "%.3g GiB", bytes / double(std::int64_t(1) << 30));
  return b;
}

} // namespace

std::int64_t available_host_bytes() {
  const std::int64_t mem = mem_available(), room = cgroup_room();
  if (mem < 0) return room;
  return room < 0 ? mem : std::min(mem, room);
}

std::size_t host_field_elements(const Geometry& g, int nc, int ndir) {
  const std::string field = "a field of " + std::to_string(g.L[0]) + "x" + std::to_string(g.L[1]) +
                            "x" + std::to_string(g.L[2]) + "x" + std::to_string(g.L[3]) +
                            " sites (" + std::to_string(g.nt) + " time slices here), SU(" +
                            std::to_string(nc) + "), " + std::to_string(ndir) +
                            " matrices per site";
  std::int64_t sites = 1, elements = 0, bytes = 0;
  for (const std::int64_t n :
       {std::int64_t(g.L[0]), std::int64_t(g.L[1]), std::int64_t(g.L[2]), std::int64_t(g.nt)})
    if (n < 0 || __builtin_mul_overflow(sites, n, &sites))
      throw Error("memory: " + field + ": the number of sites overflows 64 bits");
  if (__builtin_mul_overflow(sites, std::int64_t(ndir) * nc * nc, &elements) ||
      __builtin_mul_overflow(elements, std::int64_t(16), &bytes))
    throw Error("memory: " + field + ": the number of bytes overflows 64 bits");
  if (bytes >= checked_from) {
    const std::int64_t available = available_host_bytes();
    if (available >= 0 && bytes > available)
      throw Error("memory: " + field + " needs " + gib(double(bytes)) + ", more than the " +
                  gib(double(available)) +
                  " available (MemAvailable, cgroup memory.max); use more ranks or nodes");
  }
  return static_cast<std::size_t>(elements);
}

} // namespace gf
