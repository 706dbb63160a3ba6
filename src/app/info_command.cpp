#include "app/info_command.h"
#include "app/cli_checks.h"
#include "core/error.h"
#include "core/log.h"
#include "fix/gauge_check.h"
#include "io/gauge_file.h"
#include "io/transform_file.h"
#include <cstdio>

namespace gf {

namespace {

std::string line(const char* key, const std::string& value) {
  return "  " + std::string(key) + ": " + value + "\n";
}

std::string number(const char* fmt, double v) {
  char b[64];
  std::snprintf(b, sizeof b, fmt, v);
  return b;
}

std::string pairs(const std::vector<std::pair<std::string, std::string>>& kv) {
  if (kv.empty()) return "(none)";
  std::string s;
  for (const auto& [k, v] : kv)
    s += (s.empty() ? "" : ", ") + k + " " + v;
  return s;
}

std::string ensemble(const Provenance& p) {
  std::string s;
  const auto add = [&](const std::string& item) { s += (s.empty() ? "" : ", ") + item; };
  if (!p.ensemble_id.empty()) add("id " + p.ensemble_id);
  if (!p.ensemble_label.empty()) add("label '" + p.ensemble_label + "'");
  if (p.sequence_number) add("sequence number " + std::to_string(*p.sequence_number));
  return s.empty() ? "(none)" : s;
}

std::string gauge_fixing(const std::optional<GaugeFixingRecord>& g) {
  if (!g) return "(none recorded)";
  return g->gauge + ", tolerance " + provenance_text(g->tolerance) + ", theta " +
         provenance_text(g->theta) + ", max theta_t " + provenance_text(g->theta_max_slice) +
         ", F " + provenance_text(g->functional) + ", " + std::to_string(g->iterations) +
         " iterations, " + (g->converged ? "converged" : "NOT converged") + ", " +
         (g->algorithm.empty() ? "" : g->algorithm + ", ") + g->precision +
         " precision, gaugefix " + g->version + ", " + g->date;
}

} // namespace

void add_info_options(CLI::App& info, InfoCommandOptions& opt) {
  info.add_option("files", opt.files, "gauge configuration files (any supported format)")
      ->required();
  info.add_flag("--checksum-warning-only", opt.checksum_warning_only,
                "report a checksum mismatch as a warning, not an error");
  CLI::Option* check =
      info.add_option("--check", opt.check,
                      "measure the gauge condition of each file: landau, coulomb or mag (F, theta)")
          ->check(CLI::IsMember({"landau", "coulomb", "mag"}));
  info.add_option("--tolerance", opt.tolerance,
                  "with --check: exit status 3 where a file's theta (Coulomb gauge: max_t "
                  "theta_t) is not below this, the test of `gaugefix fix`")
      ->check(positive_real)
      ->needs(check);
  info.add_option("--format", opt.format, "output: text, json or yaml (for scripts)")
      ->check(CLI::IsMember({"text", "json", "yaml"}));
  add_log_options(info, opt.log);
}

std::string describe_file(const std::string& path, const FileInfo& info) {
  std::string s = path + "\n";
  s += line("format", format_name(info.format));
  s += line("lattice", std::to_string(info.dims[0]) + "x" + std::to_string(info.dims[1]) + "x" +
                           std::to_string(info.dims[2]) + "x" + std::to_string(info.dims[3]) +
                           " (x y z t)");
  s += line("group", "SU(" + std::to_string(info.nc) + ")");
  s += line("precision", std::to_string(8 * info.bytes_per_real) + "-bit" +
                             (info.reunitarised ? ", links reunitarised on read" : ""));
  s += line("byte order", info.big_endian ? "big-endian" : "little-endian");
  s += line("stored", pairs(info.stored));
  s += line("computed", pairs(info.computed));
  s += line("unitarity deviation", number("%.3e", info.unitarity_deviation));
  s += line("plaquette", number("%.15f", info.plaquette));
  s += line("link trace", number("%.15f", info.link_trace));
  if (!info.lfn.empty()) s += line("lfn", info.lfn);
  s += line("ensemble", ensemble(info.provenance));
  s += line("gauge fixing", gauge_fixing(info.provenance.gauge_fixing));
  return s;
}

std::string describe_transform(const std::string& path, const TransformInfo& info) {
  std::string s = path + "\n";
  s += line("format",
            std::string(transform_format_name(info.format)) + " (gauge transformation g(x))");
  s += line("lattice", std::to_string(info.dims[0]) + "x" + std::to_string(info.dims[1]) + "x" +
                           std::to_string(info.dims[2]) + "x" + std::to_string(info.dims[3]) +
                           " (x y z t)");
  s += line("group", "SU(" + std::to_string(info.nc) + ")");
  s += line("precision", std::to_string(8 * info.bytes_per_real) + "-bit" +
                             (info.reunitarised ? ", g(x) reunitarised on read" : ""));
  s += line("stored", pairs(info.stored));
  s += line("computed", pairs(info.computed));
  s += line("unitarity deviation", number("%.3e", info.unitarity_deviation));
  s += line("metadata", pairs({info.metadata.begin(), info.metadata.end()}));
  return s;
}

std::string describe_check(GaugeKind gauge, const Measurement& m) {
  std::string s =
      line(("check " + std::string(name_of(gauge))).c_str(),
           "F " + provenance_text(m.functional) + ", theta " + provenance_text(m.theta) +
               ", max theta_t " + provenance_text(m.theta_max_slice));
  if (gauge != GaugeKind::coulomb) return s;
  std::string slices;
  for (const double t : m.theta_per_slice)
    slices += (slices.empty() ? "" : " ") + provenance_text(t);
  return s + line("theta_t", slices);
}

Value record_file(const std::string& path, const FileInfo& info) {
  const auto pairs_map = [](const std::vector<std::pair<std::string, std::string>>& kv) {
    Value m;
    for (const auto& [k, v] : kv)
      m.add(k, v);
    return m;
  };
  Value f;
  f.add("path", path).add("format", format_name(info.format));
  f.add("lattice", Value::List{info.dims[0], info.dims[1], info.dims[2], info.dims[3]});
  f.add("group", "SU(" + std::to_string(info.nc) + ")");
  f.add("bits", 8 * info.bytes_per_real).add("reunitarised", info.reunitarised);
  f.add("byte_order", info.big_endian ? "big-endian" : "little-endian");
  f.add("stored", pairs_map(info.stored)).add("computed", pairs_map(info.computed));
  f.add("unitarity_deviation", info.unitarity_deviation);
  f.add("plaquette", info.plaquette).add("link_trace", info.link_trace);
  const Provenance& p = info.provenance;
  Value ensemble;
  if (!p.ensemble_id.empty()) ensemble.add("id", p.ensemble_id);
  if (!p.ensemble_label.empty()) ensemble.add("label", p.ensemble_label);
  if (p.sequence_number) ensemble.add("sequence_number", *p.sequence_number);
  f.add("ensemble", ensemble);
  if (!info.lfn.empty()) f.add("lfn", info.lfn);
  if (const auto& g = p.gauge_fixing) {
    Value r;
    r.add("gauge", g->gauge).add("tolerance", g->tolerance).add("theta", g->theta);
    r.add("theta_max_slice", g->theta_max_slice).add("functional", g->functional);
    r.add("iterations", g->iterations).add("converged", g->converged);
    r.add("precision", g->precision).add("version", g->version).add("date", g->date);
    if (!g->algorithm.empty()) r.add("algorithm", g->algorithm);
    f.add("gauge_fixing", r);
  }
  return f;
}

void add_check(Value& file, GaugeKind gauge, const Measurement& m) {
  Value c;
  c.add("gauge", name_of(gauge)).add("functional", m.functional).add("theta", m.theta);
  c.add("theta_max_slice", m.theta_max_slice);
  if (gauge == GaugeKind::coulomb) {
    Value::List slices;
    for (const double t : m.theta_per_slice)
      slices.emplace_back(t);
    c.add("theta_t", slices);
  }
  file.add("check", c);
}

Value record_transform(const std::string& path, const TransformInfo& info) {
  Value f;
  f.add("path", path).add("format", transform_format_name(info.format));
  f.add("content", "gauge transformation g(x)");
  f.add("lattice", Value::List{info.dims[0], info.dims[1], info.dims[2], info.dims[3]});
  f.add("group", "SU(" + std::to_string(info.nc) + ")");
  f.add("bits", 8 * info.bytes_per_real).add("reunitarised", info.reunitarised);
  Value stored, computed, metadata;
  for (const auto& [k, v] : info.stored)
    stored.add(k, v);
  for (const auto& [k, v] : info.computed)
    computed.add(k, v);
  for (const auto& [k, v] : info.metadata)
    metadata.add(k, v);
  f.add("stored", stored).add("computed", computed);
  f.add("unitarity_deviation", info.unitarity_deviation).add("metadata", metadata);
  return f;
}

namespace {

// The description of one file (and its --check measurement): text, or a map in `record`.
// `missed` says how the file misses --tolerance (empty where it has none or meets it).
std::string describe(const std::string& path, const InfoCommandOptions& opt, const World& world,
                     Value& record, std::string& missed) {
  ReadOptions ro;
  ro.checksum_warning_only = opt.checksum_warning_only;
  if (detect_transform_format(path)) {
    if (!opt.check.empty())
      throw Error("'" + path + "' holds a gauge transformation g(x), not a gauge field: --check " +
                  opt.check + " measures gauge fields only");
    TransformInfo info;
    read_transform(path, world, &info, opt.checksum_warning_only);
    record = record_transform(path, info);
    return describe_transform(path, info);
  }
  FileInfo info;
  const HostField u = read_gauge_file(path, world, ro, &info);
  std::string text = describe_file(path, info);
  record = record_file(path, info);
  if (!opt.check.empty()) {
    const GaugeKind gauge = parse_name<GaugeKind>("--check", opt.check);
    const Measurement m = measure_gauge(u, gauge, world);
    text += describe_check(gauge, m);
    add_check(record, gauge, m);
    if (opt.tolerance > 0) {
      const bool holds = gauge_condition_holds(m, gauge, opt.tolerance);
      text += line("tolerance", provenance_text(opt.tolerance) + (holds ? ", met" : ", missed"));
      record.add("tolerance", opt.tolerance).add("tolerance_met", holds);
      if (!holds)
        missed = std::string(gauge == GaugeKind::coulomb ? "max theta_t " : "theta ") +
                 provenance_text(gauge == GaugeKind::coulomb ? m.theta_max_slice : m.theta) +
                 " is not below --tolerance " + provenance_text(opt.tolerance);
    }
  }
  return text;
}

} // namespace

int run_info(const InfoCommandOptions& opt, const World& world) {
  std::vector<NamedPath> inputs;
  for (const std::string& path : opt.files)
    inputs.push_back({"files", path});
  check_run_paths(inputs, with_log_file({}, opt.log));
  open_log(opt.log);
  const bool text = opt.format == "text";
  std::size_t failed = 0, missed = 0;
  Value::List records;
  for (const std::string& path : opt.files) {
    Value record;
    try {
      std::string miss;
      const std::string description = describe(path, opt, world, record, miss);
      if (text && world.rank() == 0) std::fputs(description.c_str(), stdout);
      if (!miss.empty()) {
        ++missed;
        if (world.rank() == 0) log::warning("{}: --check {}: {}", path, opt.check, miss);
      }
    } catch (const Error& e) {
      ++failed; // every rank fails the same check (the readers' checks are collective)
      if (world.rank() == 0) log::error("{}", e.what());
      record = Value().add("path", path).add("error", e.what());
    }
    records.push_back(std::move(record));
  }
  if (!text && world.rank() == 0)
    std::fputs((opt.format == "json" ? to_json(records) : to_yaml(records)).c_str(), stdout);
  if (failed && opt.files.size() > 1 && world.rank() == 0)
    log::error("{} of {} files failed their checks", failed, opt.files.size());
  return failed ? 1 : missed ? 3 : 0;
}

} // namespace gf
