#include "io/scidac_provenance.h"
#include "core/error.h"
#include "io/xml_text.h"

namespace gf {

namespace {

std::string element(const std::string& tag, const std::string& text) {
  return "<" + tag + ">" + xml_escape(text) + "</" + tag + ">";
}

// Typed values of the children of one element; a malformed value throws naming it.
class Element {
public:
  Element(XmlElement e, std::string source) : e_(e), source_(std::move(source)) {}
  std::optional<std::string> text(const std::string& tag) const { return e_.child_text(tag); }
  void text(const std::string& tag, std::string& into) const {
    if (const auto v = text(tag)) into = *v;
  }
  void real(const std::string& tag, double& into) const {
    if (const auto v = text(tag)) into = checked(tag, *v, parse_real(*v), "a number");
  }
  void integer(const std::string& tag, long long& into) const {
    if (const auto v = text(tag)) into = checked(tag, *v, parse_integer(*v), "an integer");
  }
  void boolean(const std::string& tag, bool& into) const {
    const auto v = text(tag);
    if (!v) return;
    if (*v != "true" && *v != "false") fail(tag, *v, "true or false");
    into = *v == "true";
  }

private:
  template <class T>
  T checked(const std::string& tag, const std::string& v, const std::optional<T>& parsed,
            const char* what) const {
    if (!parsed) fail(tag, v, what);
    return *parsed;
  }
  [[noreturn]] void fail(const std::string& tag, const std::string& v, const char* what) const {
    throw Error(source_ + ": <gaugefix> element <" + tag + "> '" + v + "' is not " + what);
  }
  XmlElement e_;
  std::string source_;
};

} // namespace

std::string gaugefix_xml(const Provenance& p, const std::map<std::string, std::string>& meta) {
  std::string x = "<gaugefix>";
  if (!p.ensemble_id.empty()) x += element("ensemble_id", p.ensemble_id);
  if (!p.ensemble_label.empty()) x += element("ensemble_label", p.ensemble_label);
  if (p.sequence_number) x += element("sequence_number", std::to_string(*p.sequence_number));
  if (const auto& g = p.gauge_fixing) {
    x += "<gauge_fixing>" + element("gauge", g->gauge) +
         element("tolerance", provenance_text(g->tolerance)) +
         element("theta", provenance_text(g->theta)) +
         element("theta_max_slice", provenance_text(g->theta_max_slice)) +
         element("functional", provenance_text(g->functional)) +
         element("iterations", std::to_string(g->iterations)) +
         element("converged", g->converged ? "true" : "false") +
         element("precision", g->precision) + element("version", g->version) +
         element("date", g->date) +
         (g->algorithm.empty() ? "" : element("algorithm", g->algorithm)) + "</gauge_fixing>";
  }
  for (const auto& [key, value] : meta)
    x += "<meta name=\"" + xml_escape(key) + "\">" + xml_escape(value) + "</meta>";
  return x + "</gaugefix>";
}

std::optional<Provenance> parse_gaugefix_xml(const std::string& xml, const std::string& source) {
  // Other programs' user records are free text, often not XML: no provenance there.
  const std::optional<XmlDocument> doc = XmlDocument::parse(xml, source);
  if (!doc || doc->root().name() != "gaugefix") return std::nullopt;
  const Element e(doc->root(), source);
  Provenance p;
  e.text("ensemble_id", p.ensemble_id);
  e.text("ensemble_label", p.ensemble_label);
  if (e.text("sequence_number")) e.integer("sequence_number", p.sequence_number.emplace());
  if (const std::optional<XmlElement> fixing = doc->root().child("gauge_fixing")) {
    const Element f(*fixing, source);
    GaugeFixingRecord& g = p.gauge_fixing.emplace();
    f.text("gauge", g.gauge);
    f.real("tolerance", g.tolerance);
    f.real("theta", g.theta);
    f.real("theta_max_slice", g.theta_max_slice);
    f.real("functional", g.functional);
    f.integer("iterations", g.iterations);
    f.boolean("converged", g.converged);
    f.text("precision", g.precision);
    f.text("version", g.version);
    f.text("date", g.date);
    f.text("algorithm", g.algorithm);
  }
  return p;
}

} // namespace gf

namespace gf {

std::map<std::string, std::string> parse_gaugefix_meta(const std::string& xml,
                                                       const std::string& source) {
  std::map<std::string, std::string> meta;
  const std::optional<XmlDocument> doc = XmlDocument::parse(xml, source);
  if (!doc || doc->root().name() != "gaugefix") return meta;
  for (const XmlElement& m : doc->root().children("meta")) {
    const std::optional<std::string> key = m.attribute("name");
    if (!key || key->empty()) throw Error(source + ": <gaugefix> element <meta> without a name");
    if (!meta.emplace(*key, m.text()).second)
      throw Error(source + ": <gaugefix> element <meta name=\"" + *key + "\"> appears twice");
  }
  return meta;
}

} // namespace gf
