// xml_text.h: the XML of ILDG and SciDAC records, read with a real parser (libxml2) and
// written as text.
//
// XmlDocument parses a record's text (white space before it skipped): no network, no DTD (a
// <!DOCTYPE> is refused, so no entity can be defined or expanded), namespaces resolved. A text that
// is not well-formed XML throws gf::Error "<where>: not well-formed XML: <parser's reason> (line
// N)", where `where` names the file and the record, e.g. "ILDG file 'cfg': record ildg-format";
// XmlDocument::parse returns nullopt instead (free-text user records of other programs).
// Elements are found by their local name whatever their namespace or prefix (<ildg:lx> and
// <lx xmlns="http://www.lqcd.org/ildg"> are both "lx"); comments, processing instructions
// and CDATA are the parser's (a commented-out <lx> is no element).
// - XmlElement::child(name): the element's one child element of that local name; nullopt
//   where there is none; several throw "<where>: <name> appears N times" (a header whose
//   fields could contradict each other).
// - XmlElement::text(): the element's text and CDATA content, white space trimmed; an
//   element holding other elements throws.
// - xml_escape: & < > " ' as entities, for writing.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gf {

class XmlElement {
public:
  XmlElement(const void* node, const std::string* where) : node_(node), where_(where) {}
  std::string name() const; // the local name
  std::optional<XmlElement> child(const std::string& name) const;
  std::string text() const;
  // The text of child(name); nullopt where there is no such child.
  std::optional<std::string> child_text(const std::string& name) const;
  // The text of child(name); throws "<where>: no <name> element" where there is none.
  std::string required_text(const std::string& name) const;
  // Every child element of that local name, in document order.
  std::vector<XmlElement> children(const std::string& name) const;
  std::optional<std::string> attribute(const std::string& name) const;

private:
  const void* node_;
  const std::string* where_;
};

class XmlDocument {
public:
  XmlDocument(const std::string& text, std::string where);
  static std::optional<XmlDocument> parse(const std::string& text, std::string where);
  XmlElement root() const { return XmlElement(root_, where_.get()); }
  const std::string& where() const { return *where_; }

private:
  XmlDocument() = default;
  // nullopt where well-formed, else the reason
  std::optional<std::string> load(const std::string& text);
  std::shared_ptr<void> doc_;
  const void* root_ = nullptr;
  std::unique_ptr<std::string> where_; // stable address for the elements
};

std::string xml_escape(const std::string& s);

} // namespace gf
