#include "tuning/tune_cache_format.h"
#include "core/error.h"
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

namespace gf {

namespace {

const char* const magic = "gaugefix-tunecache";
const char* const columns =
    "kernel\taux\textents\tregion\tparams\tseconds\tgb_per_s\tstream_fraction\tdate";

std::vector<std::string> split(const std::string& line, char sep) {
  std::vector<std::string> fields(1);
  for (const char c : line) {
    if (c == sep)
      fields.emplace_back();
    else
      fields.back() += c;
  }
  return fields;
}

std::string untabbed(std::string s) {
  for (char& c : s)
    if (c == '\t') c = ' ';
  return s;
}

std::string number(const char* format, double v) {
  char b[64];
  std::snprintf(b, sizeof b, format, v);
  return b;
}

// A finite number >= 0.
double to_double(const std::string& s, const char* field) {
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || *end != '\0' || !std::isfinite(v) || v < 0)
    throw Error(std::string("bad ") + field + " '" + s + "'");
  return v;
}

TuneEntries parse_entries(const std::vector<std::string>& lines, const std::size_t first) {
  if (lines.size() <= first || lines.back().rfind("end\t", 0) != 0)
    throw Error("truncated (no end line)");
  TuneEntries entries;
  const std::size_t count = lines.size() - 1 - first;
  for (std::size_t i = first; i + 1 < lines.size(); ++i) {
    const std::vector<std::string> f = split(lines[i], '\t');
    if (f.size() != 9) throw Error("line " + std::to_string(i + 1) + " does not have 9 fields");
    const TuneKey key{f[0], f[1], f[2], f[3]};
    check_tune_key(key);
    TuneEntry e;
    e.params = parse_launch_params(f[4]);
    e.seconds = to_double(f[5], "seconds");
    e.gb_per_s = to_double(f[6], "gb_per_s");
    e.stream_fraction = f[7] == "-" ? -1 : to_double(f[7], "stream_fraction");
    e.date = f[8];
    entries[key] = e;
  }
  if (lines.back() != "end\t" + std::to_string(count))
    throw Error("truncated (the end line does not count " + std::to_string(count) + " entries)");
  return entries;
}

} // namespace

std::string format_cache_text(const TuneContext& context, const TuneEntries& entries) {
  std::string s = std::string(magic) + "\t" + std::to_string(tune_cache_format_version) + "\n";
  s += "program\t" + context.version + "\t" + context.build_options + "\n";
  s += "device\t" + context.device.to_string() + "\n";
  s += std::string(columns) + "\n";
  for (const auto& [k, e] : entries) {
    s += k.kernel + "\t" + k.aux + "\t" + k.extents + "\t" + k.region + "\t" +
         format_launch_params(e.params) + "\t" + number("%.6e", e.seconds) + "\t" +
         number("%.2f", e.gb_per_s) + "\t" +
         (e.stream_fraction < 0 ? "-" : number("%.4f", e.stream_fraction)) + "\t" + e.date + "\n";
  }
  s += "end\t" + std::to_string(entries.size()) + "\n";
  return s;
}

std::optional<TuneEntries> parse_cache_text(const std::string& text, const TuneContext& context,
                                            std::string* problem) {
  try {
    if (text.empty() || text.back() != '\n') throw Error("truncated (no final line break)");
    std::vector<std::string> lines = split(text.substr(0, text.size() - 1), '\n');
    const std::vector<std::string> head = split(lines[0], '\t');
    if (head.size() != 2 || head[0] != magic) throw Error("not a gaugefix tune cache");
    if (head[1] != std::to_string(tune_cache_format_version))
      throw Error("format version " + head[1] + ", this gaugefix reads version " +
                  std::to_string(tune_cache_format_version));
    const std::string program = "program\t" + context.version + "\t" + context.build_options;
    if (lines.size() < 4) throw Error("truncated (incomplete header)");
    if (lines[1] != program)
      throw Error("written by another gaugefix version or build ('" + untabbed(lines[1]) +
                  "'; this is '" + untabbed(program) + "')");
    if (lines[2] != "device\t" + context.device.to_string())
      throw Error("written for another device ('" + untabbed(lines[2]) + "')");
    if (lines[3] != columns) throw Error("unexpected column names");
    return parse_entries(lines, 4);
  } catch (const Error& e) {
    if (problem) *problem = e.what();
    return std::nullopt;
  }
}

std::string utc_timestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char b[32];
  std::strftime(b, sizeof b, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return b;
}

} // namespace gf
