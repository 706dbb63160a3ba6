#include "io/xml_text.h"
#include "core/error.h"
#include <algorithm>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <mutex>
#include <utility>

namespace gf {

namespace {

constexpr std::pair<char, const char*> entities[] = {
    {'&', "&amp;"}, {'<', "&lt;"}, {'>', "&gt;"}, {'"', "&quot;"}, {'\'', "&apos;"}};

const xmlNode* node(const void* p) {
  return static_cast<const xmlNode*>(p);
}

std::string local_name(const xmlNode* n) {
  return reinterpret_cast<const char*>(n->name);
}

std::string trimmed(const std::string& s) {
  const char* ws = " \t\r\n";
  const std::size_t first = s.find_first_not_of(ws);
  if (first == std::string::npos) return {};
  return s.substr(first, s.find_last_not_of(ws) - first + 1);
}

void init_parser() {
  static std::once_flag once;
  std::call_once(once, [] { xmlInitParser(); });
}

} // namespace

std::string XmlElement::name() const {
  return local_name(node(node_));
}

std::optional<XmlElement> XmlElement::child(const std::string& name) const {
  const xmlNode* found = nullptr;
  int count = 0;
  for (const xmlNode* c = node(node_)->children; c; c = c->next)
    if (c->type == XML_ELEMENT_NODE && local_name(c) == name) {
      if (!found) found = c;
      ++count;
    }
  if (count > 1)
    throw Error(*where_ + ": <" + name + "> appears " + std::to_string(count) + " times in <" +
                this->name() + ">: its values could contradict each other");
  if (!found) return std::nullopt;
  return XmlElement(found, where_);
}

std::string XmlElement::text() const {
  std::string s;
  for (const xmlNode* c = node(node_)->children; c; c = c->next) {
    if (c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) {
      if (c->content) s += reinterpret_cast<const char*>(c->content);
    } else if (c->type == XML_ELEMENT_NODE) {
      throw Error(*where_ + ": <" + name() + "> holds the element <" + local_name(c) +
                  "> where a value belongs");
    }
  }
  return trimmed(s);
}

std::optional<std::string> XmlElement::child_text(const std::string& name) const {
  const std::optional<XmlElement> c = child(name);
  if (!c) return std::nullopt;
  return c->text();
}

std::string XmlElement::required_text(const std::string& name) const {
  const std::optional<std::string> v = child_text(name);
  if (!v) throw Error(*where_ + ": no <" + name + "> element in <" + this->name() + ">");
  return *v;
}

std::vector<XmlElement> XmlElement::children(const std::string& name) const {
  std::vector<XmlElement> out;
  for (const xmlNode* c = node(node_)->children; c; c = c->next)
    if (c->type == XML_ELEMENT_NODE && local_name(c) == name) out.emplace_back(c, where_);
  return out;
}

std::optional<std::string> XmlElement::attribute(const std::string& name) const {
  xmlChar* v =
      xmlGetProp(const_cast<xmlNode*>(node(node_)), reinterpret_cast<const xmlChar*>(name.c_str()));
  if (!v) return std::nullopt;
  std::string s = reinterpret_cast<const char*>(v);
  xmlFree(v);
  return s;
}

std::optional<std::string> XmlDocument::load(const std::string& text) {
  init_parser();
  const std::unique_ptr<xmlParserCtxt, void (*)(xmlParserCtxtPtr)> ctxt(xmlNewParserCtxt(),
                                                                        xmlFreeParserCtxt);
  if (!ctxt) throw Error(*where_ + ": cannot create an XML parser");
  // White space before the XML declaration, as some writers put it (e.g. a line break in
  // the ildg-format record of the ILDG files of LatticeQCD/AnalysisToolbox), is skipped.
  const std::size_t start = std::min(text.find_first_not_of(" \t\r\n"), text.size());
  xmlDoc* doc = xmlCtxtReadMemory(ctxt.get(), text.data() + start,
                                  static_cast<int>(text.size() - start), nullptr, nullptr,
                                  XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  if (!doc) {
    const xmlError* e = xmlCtxtGetLastError(ctxt.get());
    std::string why = e && e->message ? trimmed(e->message) : "unknown error";
    if (e) why += " (line " + std::to_string(e->line) + ")";
    return why;
  }
  doc_ = std::shared_ptr<void>(doc, [](void* d) { xmlFreeDoc(static_cast<xmlDoc*>(d)); });
  if (doc->intSubset || doc->extSubset) return "a <!DOCTYPE> is not allowed in a record";
  root_ = xmlDocGetRootElement(doc);
  if (!root_) return "no root element";
  return std::nullopt;
}

XmlDocument::XmlDocument(const std::string& text, std::string where)
    : where_(std::make_unique<std::string>(std::move(where))) {
  if (text.size() > static_cast<std::size_t>(1) << 30)
    throw Error(*where_ + ": the XML text is larger than 1 GiB");
  if (const std::optional<std::string> why = load(text))
    throw Error(*where_ + ": not well-formed XML: " + *why);
}

std::optional<XmlDocument> XmlDocument::parse(const std::string& text, std::string where) {
  XmlDocument d;
  d.where_ = std::make_unique<std::string>(std::move(where));
  if (text.size() > static_cast<std::size_t>(1) << 30 || d.load(text)) return std::nullopt;
  return d;
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

} // namespace gf
