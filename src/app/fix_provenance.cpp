#include "app/fix_provenance.h"
#include "gaugefix_version.h"
#include "io/field_codec.h"

namespace gf {

Provenance fix_provenance(const Provenance& input, const SummaryEntry& e, double tolerance,
                          const std::string& algorithm, const World& world) {
  Provenance p = input;
  GaugeFixingRecord& g = p.gauge_fixing.emplace();
  g.gauge = e.gauge;
  g.tolerance = tolerance;
  g.theta = e.result.final.theta;
  g.theta_max_slice = e.result.final.theta_max_slice;
  g.functional = e.result.final.functional;
  g.iterations = e.result.iterations;
  g.converged = e.result.converged;
  g.precision = e.precision;
  g.algorithm = algorithm;
  g.version = GAUGEFIX_VERSION;
  g.date = utc_date();
  world.broadcast(g.date);
  return p;
}

std::string input_checksum(const FileInfo& info) {
  std::string text;
  for (const auto& [name, value] : info.computed)
    if (name.find("SUM") != std::string::npos)
      text += (text.empty() ? "" : " ") + name + "=" + value;
  return text;
}

std::map<std::string, std::string> input_record(const SummaryEntry& e) {
  return {{"input", e.input}, {"input_checksum", e.input_checksum}, {"options", e.options}};
}

} // namespace gf
