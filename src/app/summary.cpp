#include "app/summary.h"
#include "core/log.h"
#include "gaugefix_version.h"
#include "io/atomic_file.h"
#include <cstdio>
#include <yaml-cpp/yaml.h>

namespace gf {

namespace {

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
  out << YAML::Key << "functional" << YAML::Value << e.result.final.functional;
  out << YAML::Key << "theta" << YAML::Value << e.result.final.theta;
  out << YAML::Key << "theta_max_slice" << YAML::Value << e.result.final.theta_max_slice;
  out << YAML::Key << "iterations" << YAML::Value << e.result.iterations;
  out << YAML::Key << "converged" << YAML::Value << e.result.converged;
  out << YAML::Key << "plaquette_before" << YAML::Value << e.plaquette_before;
  out << YAML::Key << "plaquette_after" << YAML::Value << e.plaquette_after;
  out << YAML::Key << "polyakov_before" << YAML::Value << e.polyakov_before;
  out << YAML::Key << "polyakov_after" << YAML::Value << e.polyakov_after;
  out << YAML::Key << "seconds" << YAML::Value << e.result.seconds;
  const FourierCost& fc = e.result.fourier;
  if (fc.gradients > 0) {
    out << YAML::Key << "fourier" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "gradients" << YAML::Value << fc.gradients;
    out << YAML::Key << "precondition_seconds" << YAML::Value << fc.precondition_seconds;
    out << YAML::Key << "transpose_seconds" << YAML::Value << fc.transpose_seconds;
    out << YAML::Key << "transpose_path" << YAML::Value << fc.transpose_path;
    out << YAML::EndMap;
  }
  const CopyStatistics& c = e.copies;
  out << YAML::Key << "copies" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "count" << YAML::Value << c.copies.size();
  out << YAML::Key << "best" << YAML::Value << c.best;
  out << YAML::Key << "functional" << YAML::Value << YAML::Flow << YAML::BeginSeq;
  for (const FixResult& r : c.copies)
    out << r.final.functional;
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
    out << r.seconds;
  out << YAML::EndSeq;
  out << YAML::Key << "seeds" << YAML::Value << YAML::Flow << YAML::BeginSeq;
  for (const std::uint64_t seed : c.seeds)
    out << seed;
  out << YAML::EndSeq;
  out << YAML::Key << "spread" << YAML::Value << c.spread;
  out << YAML::Key << "tolerance" << YAML::Value << c.tolerance;
  out << YAML::Key << "reached_best" << YAML::Value << c.reached_best;
  out << YAML::EndMap;
  out << YAML::Key << "options" << YAML::Value << e.options;
  out << YAML::Key << "launches" << YAML::Value << e.launches;
  out << YAML::EndMap;
}

} // namespace

void write_summary(const std::string& path, const std::vector<SummaryEntry>& entries) {
  YAML::Emitter out;
  out.SetDoublePrecision(17);
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
  out.SetDoublePrecision(17);
  emit_entry(out, e);
  return YAML::Load(out.c_str());
}

std::map<std::string, std::string> run_record(const SummaryEntry& e) {
  char buf[64];
  std::map<std::string, std::string> m;
  m["input"] = e.input;
  m["input_checksum"] = e.input_checksum;
  m["gauge"] = e.gauge;
  m["precision"] = e.precision;
  std::snprintf(buf, sizeof buf, "%.17g", e.result.final.functional);
  m["functional"] = buf;
  std::snprintf(buf, sizeof buf, "%.17g", e.result.final.theta);
  m["theta"] = buf;
  m["iterations"] = std::to_string(e.result.iterations);
  m["converged"] = e.result.converged ? "true" : "false";
  m["options"] = e.options;
  return m;
}

} // namespace gf
