#include "app/info_command.h"
#include "io/gauge_file.h"
#include <cstdio>

namespace gf {

namespace {

std::string line(const char* key, const std::string& value) {
  return "  " + std::string(key) + ": " + value + "\n";
}

std::string number(const char* fmt, double v) {
  char b[64];
  std::snprintf(b, sizeof b, fmt, v);
  return b;
}

std::string pairs(const std::vector<std::pair<std::string, std::string>>& kv) {
  if (kv.empty()) return "(none)";
  std::string s;
  for (const auto& [k, v] : kv)
    s += (s.empty() ? "" : ", ") + k + " " + v;
  return s;
}

} // namespace

void add_info_options(CLI::App& info, InfoCommandOptions& opt) {
  info.add_option("files", opt.files, "gauge configuration files (any supported format)")
      ->required();
  info.add_flag("--checksum-warning-only", opt.checksum_warning_only,
                "report a checksum mismatch as a warning, not an error");
}

std::string describe_file(const std::string& path, const FileInfo& info) {
  std::string s = path + "\n";
  s += line("format", format_name(info.format));
  s += line("lattice", std::to_string(info.dims[0]) + "x" + std::to_string(info.dims[1]) + "x" +
                           std::to_string(info.dims[2]) + "x" + std::to_string(info.dims[3]) +
                           " (x y z t)");
  s += line("group", "SU(" + std::to_string(info.nc) + ")");
  s += line("precision", std::to_string(8 * info.bytes_per_real) + "-bit" +
                             (info.reunitarised ? ", links reunitarised on read" : ""));
  s += line("byte order", info.big_endian ? "big-endian" : "little-endian");
  s += line("stored", pairs(info.stored));
  s += line("computed", pairs(info.computed));
  s += line("unitarity deviation", number("%.3e", info.unitarity_deviation));
  s += line("plaquette", number("%.15f", info.plaquette));
  s += line("link trace", number("%.15f", info.link_trace));
  return s;
}

int run_info(const InfoCommandOptions& opt, const World& world) {
  ReadOptions ro;
  ro.checksum_warning_only = opt.checksum_warning_only;
  for (const std::string& path : opt.files) {
    FileInfo info;
    read_gauge_file(path, world, ro, &info);
    if (world.rank() == 0) std::fputs(describe_file(path, info).c_str(), stdout);
  }
  return 0;
}

} // namespace gf
