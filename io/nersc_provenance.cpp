#include "io/nersc_provenance.h"
#include "core/error.h"
#include <algorithm>
#include <cctype>

namespace gf {

namespace {

std::string upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::toupper(c); });
  return s;
}
std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

class Lines {
public:
  explicit Lines(const std::string& file) : file_(file) {}
  void add(const std::string& key, const std::string& value) {
    if (value.find_first_of("\r\n") != std::string::npos)
      throw Error("NERSC output '" + file_ + "': " + key + " value '" + value +
                  "' contains a line break");
    text_ += key + " = " + value + "\n";
  }
  const std::string& text() const { return text_; }

private:
  std::string file_, text_;
};

class Entries {
public:
  Entries(const std::map<std::string, std::string>& entries, const std::string& file)
      : entries_(entries), file_(file) {}
  const std::string* find(const std::string& key) const {
    const auto it = entries_.find(key);
    return it == entries_.end() ? nullptr : &it->second;
  }
  void text(const std::string& key, std::string& into) const {
    if (const std::string* v = find(key)) into = *v;
  }
  void real(const std::string& key, double& into) const {
    if (const std::string* v = find(key)) into = checked(key, parse_real(*v), "a number");
  }
  void integer(const std::string& key, long long& into) const {
    if (const std::string* v = find(key)) into = checked(key, parse_integer(*v), "an integer");
  }
  template <class T>
  T checked(const std::string& key, const std::optional<T>& parsed, const char* what) const {
    if (!parsed) fail(key, what);
    return *parsed;
  }
  [[noreturn]] void fail(const std::string& key, const char* what) const {
    throw Error("NERSC file '" + file_ + "': " + key + " = '" + *find(key) + "' is not " + what);
  }

private:
  const std::map<std::string, std::string>& entries_;
  std::string file_;
};

} // namespace

std::string nersc_provenance_lines(const Provenance& p, const std::string& file) {
  Lines out(file);
  out.add("ENSEMBLE_ID", p.ensemble_id.empty() ? "unspecified" : p.ensemble_id);
  if (!p.ensemble_label.empty()) out.add("ENSEMBLE_LABEL", p.ensemble_label);
  out.add("SEQUENCE_NUMBER", std::to_string(p.sequence_number.value_or(1)));
  if (!p.sequence_number) out.add("SEQUENCE_NUMBER_KNOWN", "FALSE");
  if (const auto& g = p.gauge_fixing) {
    out.add("GAUGE_FIXING", upper(g->gauge));
    out.add("GAUGE_FIXING_TOLERANCE", provenance_text(g->tolerance));
    out.add("GAUGE_FIXING_THETA", provenance_text(g->theta));
    out.add("GAUGE_FIXING_THETA_MAX_SLICE", provenance_text(g->theta_max_slice));
    out.add("GAUGE_FIXING_FUNCTIONAL", provenance_text(g->functional));
    out.add("GAUGE_FIXING_ITERATIONS", std::to_string(g->iterations));
    out.add("GAUGE_FIXING_CONVERGED", g->converged ? "TRUE" : "FALSE");
    out.add("GAUGE_FIXING_PRECISION", upper(g->precision));
    if (!g->algorithm.empty()) out.add("GAUGE_FIXING_ALGORITHM", upper(g->algorithm));
    out.add("GAUGEFIX_VERSION", g->version);
    out.add("GAUGE_FIXING_DATE", g->date);
  }
  return out.text();
}

Provenance nersc_provenance(const std::map<std::string, std::string>& entries,
                            const std::string& file) {
  const Entries in(entries, file);
  Provenance p;
  in.text("ENSEMBLE_ID", p.ensemble_id);
  if (p.ensemble_id == "unspecified") p.ensemble_id.clear();
  in.text("ENSEMBLE_LABEL", p.ensemble_label);
  const std::string* known = in.find("SEQUENCE_NUMBER_KNOWN");
  if (known && *known != "TRUE" && *known != "FALSE")
    in.fail("SEQUENCE_NUMBER_KNOWN", "TRUE or FALSE");
  if (in.find("SEQUENCE_NUMBER")) {
    long long n = 0;
    in.integer("SEQUENCE_NUMBER", n);
    if (!known || *known == "TRUE") p.sequence_number = n;
  }
  const std::string* gauge = in.find("GAUGE_FIXING");
  if (!gauge) return p;
  GaugeFixingRecord& g = p.gauge_fixing.emplace();
  g.gauge = lower(*gauge);
  in.real("GAUGE_FIXING_TOLERANCE", g.tolerance);
  in.real("GAUGE_FIXING_THETA", g.theta);
  in.real("GAUGE_FIXING_THETA_MAX_SLICE", g.theta_max_slice);
  in.real("GAUGE_FIXING_FUNCTIONAL", g.functional);
  in.integer("GAUGE_FIXING_ITERATIONS", g.iterations);
  if (const std::string* a = in.find("GAUGE_FIXING_ALGORITHM")) g.algorithm = lower(*a);
  if (const std::string* c = in.find("GAUGE_FIXING_CONVERGED")) {
    if (*c != "TRUE" && *c != "FALSE") in.fail("GAUGE_FIXING_CONVERGED", "TRUE or FALSE");
    g.converged = *c == "TRUE";
  }
  if (const std::string* v = in.find("GAUGE_FIXING_PRECISION")) g.precision = lower(*v);
  in.text("GAUGEFIX_VERSION", g.version);
  in.text("GAUGE_FIXING_DATE", g.date);
  return p;
}

} // namespace gf
