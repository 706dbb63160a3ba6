#include "app/summary.h"
#include "core/log.h"
#include "gaugefix_version.h"
#include "io/atomic_file.h"
#include <cmath>
#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

namespace gf {

namespace {

// A real in the shortest form that reads back exactly (docs/logs.md).
struct Real {
  double v;
};
YAML::Emitter& operator<<(YAML::Emitter& out, Real r) {
  return out << (std::isfinite(r.v) ? fmt::format("{}", r.v)
                 : r.v > 0          ? ".inf"
                 : r.v < 0          ? "-.inf"
                                    : ".nan");
}

void emit_entry(YAML::Emitter& out, const SummaryEntry& e) {
  out << YAML::BeginMap;
  out << YAML::Key << "input" << YAML::Value << e.input;
  out << YAML::Key << "output" << YAML::Value << e.output;
  out << YAML::Key << "transform_output" << YAML::Value << e.transform_output;
  out << YAML::Key << "history" << YAML::Value << YAML::Flow << YAML::BeginSeq;
  for (const std::string& path : e.history)
    out << path;
  out << YAML::EndSeq;
  out << YAML::Key << "gauge" << YAML::Value << e.gauge;
  out << YAML::Key << "group" << YAML::Value << (e.nc == 2 ? "SU(2)" : "SU(3)");
  out << YAML::Key << "lattice" << YAML::Value << YAML::Flow << YAML::BeginSeq << e.lattice[0]
      << e.lattice[1] << e.lattice[2] << e.lattice[3] << YAML::EndSeq;
  out << YAML::Key << "precision" << YAML::Value << e.precision;
  out << YAML::Key << "backend" << YAML::Value << e.backend;
  out << YAML::Key << "ranks" << YAML::Value << e.ranks;
  out << YAML::Key << "input_checksum" << YAML::Value << e.input_checksum;
  out << YAML::Key << "functional" << YAML::Value << Real{e.result.final.functional};
  out << YAML::Key << "theta" << YAML::Value << Real{e.result.final.theta};
  out << YAML::Key << "theta_max_slice" << YAML::Value << Real{e.result.final.theta_max_slice};
  out << YAML::Key << "iterations" << YAML::Value << e.result.iterations;
  out << YAML::Key << "converged" << YAML::Value << e.result.converged;
  out << YAML::Key << "plaquette_before" << YAML::Value << Real{e.plaquette_before};
  out << YAML::Key << "plaquette_after" << YAML::Value << Real{e.plaquette_after};
  out << YAML::Key << "polyakov_before" << YAML::Value << Real{e.polyakov_before};
  out << YAML::Key << "polyakov_after" << YAML::Value << Real{e.polyakov_after};
  out << YAML::Key << "seconds" << YAML::Value << Real{e.result.seconds};
  const FourierCost& fc = e.result.fourier;
  if (fc.gradients > 0) {
    out << YAML::Key << "fourier" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "gradients" << YAML::Value << fc.gradients;
    out << YAML::Key << "precondition_seconds" << YAML::Value << Real{fc.precondition_seconds};
    out << YAML::Key << "transpose_seconds" << YAML::Value << Real{fc.transpose_seconds};
    out << YAML::Key << "transpose_path" << YAML::Value << fc.transpose_path;
    out << YAML::Key << "preconditioner_precision" << YAML::Value << fc.preconditioner_precision;
    out << YAML::EndMap;
  }
  const CopyStatistics& c = e.copies;
  out << YAML::Key << "copies" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "count" << YAML::Value << c.copies.size();
  out << YAML::Key << "best" << YAML::Value << c.best;
  out << YAML::Key << "functional" << YAML::Value << YAML::Flow << YAML::BeginSeq;
  for (const FixResult& r : c.copies)
    out << Real{r.final.functional};
  out << YAML::EndSeq;
  out << YAML::Key << "converged" << YAML::Value << YAML::Flow << YAML::BeginSeq;
  for (const FixResult& r : c.copies)
    out << r.converged;
  out << YAML::EndSeq;
  out << YAML::Key << "iterations" << YAML::Value << YAML::Flow << YAML::BeginSeq;
  for (const FixResult& r : c.copies)
    out << r.iterations;
  out << YAML::EndSeq;
  out << YAML::Key << "seconds" << YAML::Value << YAML::Flow << YAML::BeginSeq;
  for (const FixResult& r : c.copies)
    out << Real{r.seconds};
  out << YAML::EndSeq;
  out << YAML::Key << "seeds" << YAML::Value << YAML::Flow << YAML::BeginSeq;
  for (const std::uint64_t seed : c.seeds)
    out << seed;
  out << YAML::EndSeq;
  out << YAML::Key << "spread" << YAML::Value << Real{c.spread};
  out << YAML::Key << "tolerance" << YAML::Value << Real{c.tolerance};
  out << YAML::Key << "reached_best" << YAML::Value << c.reached_best;
  out << YAML::EndMap;
  out << YAML::Key << "options" << YAML::Value << e.options;
  out << YAML::Key << "launches" << YAML::Value << e.launches;
  out << YAML::EndMap;
}

} // namespace

void write_summary(const std::string& path, const std::vector<SummaryEntry>& entries) {
  YAML::Emitter out;
  out << YAML::BeginMap << YAML::Key << "program" << YAML::Value << "gaugefix " GAUGEFIX_VERSION;
  out << YAML::Key << "configurations" << YAML::Value << YAML::BeginSeq;
  for (const SummaryEntry& e : entries)
    emit_entry(out, e);
  out << YAML::EndSeq;
  if (const std::vector<std::string> cut = log::cut_streams(); !cut.empty())
    out << YAML::Key << "log_cut" << YAML::Value << YAML::Flow << cut;
  out << YAML::EndMap;
  const std::string text = std::string(out.c_str()) + "\n";
  write_file_atomically(path, [&](std::ostream& os) { os << text; });
}

YAML::Node summary_node(const SummaryEntry& e) {
  YAML::Emitter out;
  emit_entry(out, e);
  return YAML::Load(out.c_str());
}

std::map<std::string, std::string> run_record(const SummaryEntry& e) {
  std::map<std::string, std::string> m;
  m["input"] = e.input;
  m["input_checksum"] = e.input_checksum;
  m["gauge"] = e.gauge;
  m["precision"] = e.precision;
  m["functional"] = fmt::format("{}", e.result.final.functional);
  m["theta"] = fmt::format("{}", e.result.final.theta);
  m["iterations"] = std::to_string(e.result.iterations);
  m["converged"] = e.result.converged ? "true" : "false";
  m["options"] = e.options;
  return m;
}

} // namespace gf
