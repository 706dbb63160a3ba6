#include "io/provenance.h"
#include <charconv>

namespace gf {

std::string provenance_text(double v) {
  char b[64];
  const auto [end, ec] = std::to_chars(b, b + sizeof b, v);
  return std::string(b, ec == std::errc{} ? end : b);
}

std::optional<double> parse_real(const std::string& s) {
  double v = 0;
  const char* first = s.data() + (!s.empty() && s[0] == '+');
  const auto [end, ec] = std::from_chars(first, s.data() + s.size(), v);
  if (s.empty() || ec != std::errc{} || end != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<long long> parse_integer(const std::string& s) {
  long long v = 0;
  const char* first = s.data() + (!s.empty() && s[0] == '+');
  const auto [end, ec] = std::from_chars(first, s.data() + s.size(), v);
  if (s.empty() || ec != std::errc{} || end != s.data() + s.size()) return std::nullopt;
  return v;
}

} // namespace gf
