#include "io/hdf5_provenance.h"
#include "core/error.h"
#include <algorithm>

namespace gf {

namespace {

class Attributes {
public:
  Attributes(const Hdf5FieldData& d, const std::string& file) : d_(d), file_(file) {}
  bool has(const std::string& name) const {
    return std::any_of(d_.attributes.begin(), d_.attributes.end(),
                       [&](const auto& kv) { return kv.first == name; });
  }
  void get(const std::string& name, std::string& into) const {
    take(name, d_.strings, into, "a string");
  }
  void get(const std::string& name, double& into) const {
    take(name, d_.numbers, into, "a number");
  }
  void get(const std::string& name, long long& into) const {
    take(name, d_.integers, into, "an integer");
  }
  void get(const std::string& name, bool& into) const {
    take(name, d_.booleans, into, "a boolean");
  }

private:
  template <class Map, class T>
  void take(const std::string& name, const Map& typed, T& into, const char* what) const {
    if (!has(name)) return;
    const auto it = typed.find(name);
    if (it == typed.end())
      throw Error(file_ + ": attribute '" + name + "' is not " + what + " (provenance)");
    into = it->second;
  }
  const Hdf5FieldData& d_;
  std::string file_;
};

} // namespace

void add_provenance(const Provenance& p, Hdf5Attributes& a) {
  if (!p.ensemble_id.empty()) a.strings["ensemble_id"] = p.ensemble_id;
  if (!p.ensemble_label.empty()) a.strings["ensemble_label"] = p.ensemble_label;
  if (p.sequence_number) a.integers["sequence_number"] = *p.sequence_number;
  if (const auto& g = p.gauge_fixing) {
    a.strings["gauge_fixing"] = g->gauge;
    a.numbers["gauge_fixing_tolerance"] = g->tolerance;
    a.numbers["gauge_fixing_theta"] = g->theta;
    a.numbers["gauge_fixing_theta_max_slice"] = g->theta_max_slice;
    a.numbers["gauge_fixing_functional"] = g->functional;
    a.integers["gauge_fixing_iterations"] = g->iterations;
    a.booleans["gauge_fixing_converged"] = g->converged;
    a.strings["gauge_fixing_precision"] = g->precision;
    a.strings["gauge_fixing_version"] = g->version;
    a.strings["gauge_fixing_date"] = g->date;
    if (!g->algorithm.empty()) a.strings["gauge_fixing_algorithm"] = g->algorithm;
  }
}

Provenance hdf5_provenance(const Hdf5FieldData& d, const std::string& file) {
  const Attributes a(d, file);
  Provenance p;
  a.get("ensemble_id", p.ensemble_id);
  a.get("ensemble_label", p.ensemble_label);
  if (a.has("sequence_number")) a.get("sequence_number", p.sequence_number.emplace());
  if (!a.has("gauge_fixing")) return p;
  GaugeFixingRecord& g = p.gauge_fixing.emplace();
  a.get("gauge_fixing", g.gauge);
  a.get("gauge_fixing_tolerance", g.tolerance);
  a.get("gauge_fixing_theta", g.theta);
  a.get("gauge_fixing_theta_max_slice", g.theta_max_slice);
  a.get("gauge_fixing_functional", g.functional);
  a.get("gauge_fixing_iterations", g.iterations);
  a.get("gauge_fixing_converged", g.converged);
  a.get("gauge_fixing_precision", g.precision);
  a.get("gauge_fixing_version", g.version);
  a.get("gauge_fixing_date", g.date);
  a.get("gauge_fixing_algorithm", g.algorithm);
  return p;
}

} // namespace gf
