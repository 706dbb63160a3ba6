#include "tuning/launch_params.h"
#include "core/error.h"
#include <charconv>
#include <sstream>

namespace gf {

namespace {

int to_int(const std::string& text, const std::string& field, const std::string& value) {
  int v = 0;
  const char* end = value.data() + value.size();
  const auto [p, ec] = std::from_chars(value.data(), end, v);
  if (ec != std::errc() || p != end || value.empty())
    throw Error("launch parameters '" + text + "': " + field + " '" + value +
                "' is not an integer");
  return v;
}

} // namespace

std::string format_launch_params(const LaunchParams& p) {
  return "variant=" + p.variant + " block=" + std::to_string(p.block) +
         " minb=" + std::to_string(p.min_blocks) + " carveout=" + std::to_string(p.carveout) +
         " loads=" + (p.streaming ? "stream" : "cache");
}

LaunchParams parse_launch_params(const std::string& text) {
  static const char* const keys[] = {"variant", "block", "minb", "carveout", "loads"};
  std::istringstream in(text);
  std::string values[5];
  std::string word;
  int n = 0;
  for (; in >> word; ++n) {
    const std::string key = n < 5 ? std::string(keys[n]) + "=" : "";
    if (n >= 5 || word.rfind(key, 0) != 0)
      throw Error("launch parameters '" + text + "': expected " +
                  (n < 5 ? "'" + key + "...'" : "nothing") + " at '" + word + "'");
    values[n] = word.substr(key.size());
  }
  if (n < 5) throw Error("launch parameters '" + text + "': missing '" + keys[n] + "='");

  LaunchParams p;
  p.variant = values[0];
  p.block = to_int(text, "block", values[1]);
  p.min_blocks = to_int(text, "minb", values[2]);
  p.carveout = to_int(text, "carveout", values[3]);
  if (p.variant.empty()) throw Error("launch parameters '" + text + "': empty variant");
  if (p.block < 0) throw Error("launch parameters '" + text + "': block must be >= 0");
  if (p.min_blocks < 0) throw Error("launch parameters '" + text + "': minb must be >= 0");
  if (p.carveout < -1 || p.carveout > 100)
    throw Error("launch parameters '" + text + "': carveout must be -1 or 0 to 100");
  if (values[4] != "stream" && values[4] != "cache")
    throw Error("launch parameters '" + text + "': loads must be stream or cache");
  p.streaming = values[4] == "stream";
  return p;
}

} // namespace gf
