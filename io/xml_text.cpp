#include "io/xml_text.h"
#include <cctype>
#include <utility>

namespace gf {

namespace {

constexpr std::pair<char, const char*> entities[] = {
    {'&', "&amp;"}, {'<', "&lt;"}, {'>', "&gt;"}, {'"', "&quot;"}, {'\'', "&apos;"}};

} // namespace

std::optional<std::string> xml_value(const std::string& xml, const std::string& tag) {
  std::size_t b = 0;
  while ((b = xml.find("<" + tag, b)) != std::string::npos) {
    const std::size_t after = b + 1 + tag.size();
    if (after < xml.size() &&
        (xml[after] == '>' || std::isspace(static_cast<unsigned char>(xml[after]))))
      break;
    b = after;
  }
  if (b == std::string::npos) return std::nullopt;
  const std::size_t open_end = xml.find('>', b);
  if (open_end == std::string::npos || xml[open_end - 1] == '/') return std::nullopt;
  const std::size_t e = xml.find("</" + tag + ">", open_end);
  if (e == std::string::npos) return std::nullopt;
  std::string v = xml.substr(open_end + 1, e - open_end - 1);
  const char* ws = " \t\r\n";
  const std::size_t first = v.find_first_not_of(ws);
  if (first == std::string::npos) return std::string();
  return v.substr(first, v.find_last_not_of(ws) - first + 1);
}

std::string xml_escape(const std::string& s) {
  std::string o;
  for (const char c : s) {
    bool replaced = false;
    for (const auto& [ch, entity] : entities)
      if (c == ch) {
        o += entity;
        replaced = true;
      }
    if (!replaced) o += c;
  }
  return o;
}

std::string xml_unescape(const std::string& s) {
  std::string o;
  for (std::size_t i = 0; i < s.size();) {
    bool replaced = false;
    for (const auto& [ch, entity] : entities)
      if (s.compare(i, std::char_traits<char>::length(entity), entity) == 0) {
        o += ch;
        i += std::char_traits<char>::length(entity);
        replaced = true;
        break;
      }
    if (!replaced) o += s[i++];
  }
  return o;
}

} // namespace gf
