// xml_text.h: the little XML that ILDG and SciDAC records need, as text.
// - xml_value: the text between the first <tag> (or <tag attributes>) and the next </tag>,
//   white space trimmed; nullopt where there is none (a self-closing <tag/> included).
// - xml_escape: & < > " ' as entities; xml_unescape: back.
#pragma once
#include <optional>
#include <string>

namespace gf {

std::optional<std::string> xml_value(const std::string& xml, const std::string& tag);
std::string xml_escape(const std::string& s);
std::string xml_unescape(const std::string& s);

} // namespace gf
