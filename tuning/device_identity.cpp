#include "tuning/device_identity.h"
#include "core/fnv1a.h"
#include <cctype>
#include <cstdio>
#include <fstream>
#include <omp.h>
#include <unistd.h>

namespace gf {

namespace {

// Lower-case letters and digits; every other run of characters becomes one '-'.
std::string sanitised(const std::string& name) {
  std::string out;
  for (const unsigned char c : name) {
    if (std::isalnum(c))
      out += static_cast<char>(std::tolower(c));
    else if (!out.empty() && out.back() != '-')
      out += '-';
  }
  while (!out.empty() && out.back() == '-')
    out.pop_back();
  if (out.size() > 40) out.resize(40);
  return out.empty() ? "unnamed" : out;
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("model name", 0) != 0) continue;
    const std::size_t colon = line.find(':');
    const std::size_t start = line.find_first_not_of(" \t", colon + 1);
    if (colon != std::string::npos && start != std::string::npos) return line.substr(start);
  }
  return "unknown CPU";
}

} // namespace

std::string DeviceIdentity::to_string() const {
  return "backend=" + backend + " name=" + name + " cc=" + std::to_string(cc_major) + "." +
         std::to_string(cc_minor) + " sms=" + std::to_string(sm_count) +
         " memory=" + std::to_string(memory_bytes) + " runtime=" + std::to_string(runtime_version) +
         " driver=" + std::to_string(driver_version);
}

std::string DeviceIdentity::file_tag() const {
  const std::uint64_t gib = (memory_bytes + (1ull << 29)) >> 30; // rounded
  char hash[16];
  std::snprintf(hash, sizeof hash, "%08x", static_cast<unsigned>(fnv1a(to_string()) >> 32));
  return sanitised(name) + "-cc" + std::to_string(cc_major) + std::to_string(cc_minor) + "-sm" +
         std::to_string(sm_count) + "-" + std::to_string(gib) + "g-" + hash;
}

DeviceIdentity host_identity() {
  DeviceIdentity id;
  id.backend = "cpu";
  id.name = cpu_model();
  id.sm_count = omp_get_max_threads();
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page > 0) id.memory_bytes = std::uint64_t(pages) * std::uint64_t(page);
  return id;
}

} // namespace gf
