#include "app/measure_command.h"
#include "app/build_info.h"
#include "app/cli_checks.h"
#include "app/enum_option.h"
#include "app/fix_provenance.h"
#include "core/error.h"
#include "core/log.h"
#include "io/gauge_file.h"
#include "io/path_checks.h"
#include <chrono>

namespace gf {

void add_measure_command_options(CLI::App& measure, MeasureCommandOptions& opt) {
  measure.add_option("--input,-i", opt.input, "gauge field to measure (any format gaugefix reads)")
      ->required()
      ->check(non_empty);
  measure
      .add_option("--gauge,-g", opt.gauge,
                  "gauge of the field: landau, coulomb or mag (default: the gauge-fixing "
                  "record of the file, else landau)")
      ->check(CLI::IsMember({"landau", "coulomb", "mag"}));
  add_measure_options(measure, opt.measure, false);
  add_enum_option(measure, "--backend", opt.measure.backend,
                  "cpu or cuda: where the ghost propagator's conjugate gradient runs (cuda: one "
                  "GPU per rank)");
  measure.add_flag("--checksum-warning-only", opt.checksum_warning_only,
                   "report a checksum mismatch in the input as a warning, not an error");
  add_log_options(measure, opt.log);
  measure.callback([&opt, &measure]() {
    for (const CLI::Option* o : measure.get_options())
      if (o->count() > 0) opt.given.insert(o->get_name());
  });
}

namespace {

// Whether the observables asked for are measured in `gauge`; `source` says where it comes from.
void check_gauge(const MeasureCommandOptions& opt, GaugeKind gauge, const std::string& source) {
  if (gauge == GaugeKind::mag && !opt.measure.gluon_propagator.empty())
    throw Error("--gluon-propagator: the field is taken as maximally Abelian gauge (" + source +
                "); the gluon propagator is measured in Landau or Coulomb gauge (--gauge "
                "landau|coulomb to measure it anyway)");
  check_measure_gauge(opt.measure, gauge, source);
}

} // namespace

int run_measure(const MeasureCommandOptions& opt, const std::string& command_line,
                const World& world) {
  check_measure_options(opt.measure, opt.given, false, GaugeKind::landau);
  if (!opt.gauge.empty())
    check_gauge(opt, parse_name<GaugeKind>("--gauge", opt.gauge), "--gauge " + opt.gauge);
  const std::vector<MeasureOutput> outputs = measure_outputs(opt.measure);
  std::vector<NamedPath> out_paths;
  for (const MeasureOutput& o : outputs)
    out_paths.push_back({o.observable->option, o.path});
  check_run_paths({{"--input", opt.input}, {"--config", opt.config}},
                  with_log_file(out_paths, opt.log));
  open_log(opt.log);
  log_run_header(world, command_line, "", "");
  const auto started = std::chrono::steady_clock::now();
  ReadOptions ro;
  ro.checksum_warning_only = opt.checksum_warning_only;
  FileInfo info;
  const HostField u = read_gauge_file(opt.input, world, ro, &info);
  const std::optional<GaugeFixingRecord>& fixed = info.provenance.gauge_fixing;
  GaugeKind gauge = GaugeKind::landau;
  if (!opt.gauge.empty())
    gauge = parse_name<GaugeKind>("--gauge", opt.gauge);
  else if (fixed)
    gauge = parse_name<GaugeKind>("the gauge of its gauge-fixing record", fixed->gauge);
  if (opt.gauge.empty()) // with --gauge it was checked before reading
    check_gauge(opt, gauge,
                fixed ? "the gauge-fixing record of '" + opt.input + "'"
                      : "no gauge-fixing record in '" + opt.input + "'");
  if (!opt.measure.static_potential.empty() && gauge != GaugeKind::coulomb)
    log::warning("--static-potential: '{}' is taken as {} gauge ({}); the static potential from "
                 "Wilson lines assumes Coulomb gauge",
                 opt.input, name_of(gauge),
                 !opt.gauge.empty() ? "--gauge"
                 : fixed            ? "its gauge-fixing record"
                                    : "no gauge-fixing record");
  const std::string checksum = input_checksum(info);
  log::info("# input: {} ({}, SU({}) {}x{}x{}x{}{}), gauge {}{}", opt.input,
            format_name(info.format), u.nc, u.geom.L[0], u.geom.L[1], u.geom.L[2], u.geom.L[3],
            checksum.empty() ? "" : ", " + checksum, name_of(gauge),
            fixed ? ", fixed to theta " + provenance_text(fixed->theta)
                  : ", no gauge-fixing record");
  measure_field(u, opt.measure, gauge, outputs,
                measurement_record(command_line, opt.input, checksum, info.provenance, gauge),
                world);
  log::info("# measured in {:.3f} s",
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  return 0;
}

} // namespace gf
