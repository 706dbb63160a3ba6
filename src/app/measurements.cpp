#include "app/measurements.h"
#include "app/cli_checks.h"
#include "app/fix_provenance.h"
#include "core/error.h"
#include "core/log.h"
#include "gaugefix_commit.h"
#include "gaugefix_version.h"
#include "io/provenance.h"
#include "measure/gluon_propagator.h"
#include "measure/static_potential.h"
#include <chrono>

namespace gf {

namespace {

MomentumCut cut_of(const MeasureOptions& opt) {
  return {parse_cut("--cut", opt.cut), opt.max_n2, opt.cylinder_width};
}

Table gluon_table(const HostField& u, const MeasureOptions& opt, GaugeKind gauge,
                  const World& world) {
  if (gauge == GaugeKind::coulomb) return table_of(coulomb_gluon_propagator(u, cut_of(opt), world));
  return table_of(landau_gluon_propagator(u, cut_of(opt), world));
}

Table potential_table(const HostField& u, const MeasureOptions& opt, GaugeKind,
                      const World& world) {
  return table_of(static_potential(u, opt.max_t, world));
}

} // namespace

const std::vector<Observable>& observables() {
  static const std::vector<Observable> list = {
      {"gluon", "--gluon-propagator", &MeasureOptions::gluon_propagator, gluon_table},
      {"potential", "--static-potential", &MeasureOptions::static_potential, potential_table},
  };
  return list;
}

void add_measure_options(CLI::App& app, MeasureOptions& opt, bool in_fix) {
  const std::string pattern = in_fix ? " (a pattern, as --output)" : "";
  if (in_fix)
    app.add_option("--measure", opt.measure,
                   "observables to measure on each fixed field: gluon, potential "
                   "(comma-separated; each needs its output option)")
        ->delimiter(',')
        ->check(CLI::IsMember({"gluon", "potential"}));
  app.add_option("--gluon-propagator", opt.gluon_propagator,
                 "CSV (or .h5) file of the gluon propagator" + pattern +
                     "; Landau, or in Coulomb gauge the equal-time spatial and temporal ones")
      ->check(non_empty);
  app.add_option("--max-n2", opt.max_n2,
                 "gluon propagator: momenta with sum n_mu^2 <= N (GLU's MAXMOM)")
      ->check(whole_number)
      ->default_str("");
  app.add_option("--cut", opt.cut, "gluon propagator: momentum cut psq, hypercubic or cylinder")
      ->check(CLI::IsMember({"psq", "hypercubic", "cylinder"}));
  app.add_option("--cylinder-width", opt.cylinder_width,
                 "gluon propagator, --cut cylinder: width in units of 2 pi / min L (GLU's "
                 "CYL_WIDTH)")
      ->check(positive_real);
  app.add_option("--static-potential", opt.static_potential,
                 "CSV (or .h5) file of the static potential from Coulomb-gauge Wilson lines" +
                     pattern)
      ->check(non_empty);
  app.add_option("--max-t", opt.max_t, "static potential: Wilson lines of T = 1 .. this")
      ->check(whole_number)
      ->default_str("");
}

void check_measure_options(const MeasureOptions& opt, const std::set<std::string>& given,
                           bool in_fix, GaugeKind gauge) {
  const std::set<std::string> named(opt.measure.begin(), opt.measure.end());
  bool any = false;
  for (const Observable& o : observables()) {
    const bool has_output = !(opt.*o.output).empty();
    any = any || has_output;
    if (!in_fix) continue;
    if (named.count(o.name) && !has_output)
      throw Error(std::string("--measure ") + o.name + " needs " + o.option +
                  " PATTERN: where to write it");
    if (has_output && !named.count(o.name))
      throw Error(std::string(o.option) + " is given without --measure " + o.name +
                  ": add it to the --measure list");
  }
  if (!in_fix && !any)
    throw Error("nothing to measure: give --gluon-propagator OUT or --static-potential OUT");
  const bool gluon = !opt.gluon_propagator.empty();
  for (const char* sub : {"--max-n2", "--cut", "--cylinder-width"})
    if (given.count(sub) && !gluon)
      throw Error(std::string(sub) + " is given without --gluon-propagator: nothing uses it");
  if (gluon && opt.max_n2 < 0)
    throw Error("--gluon-propagator needs --max-n2 N: the largest sum n_mu^2 of a momentum");
  if (given.count("--cylinder-width") && opt.cut != "cylinder")
    throw Error("--cylinder-width is given with --cut " + opt.cut +
                ": only --cut cylinder uses it");
  if (gluon && gauge == GaugeKind::mag)
    throw Error("--gluon-propagator: the gluon propagator is measured in Landau or Coulomb "
                "gauge, not in the maximally Abelian gauge");
  const bool potential = !opt.static_potential.empty();
  if (given.count("--max-t") && !potential)
    throw Error("--max-t is given without --static-potential: nothing uses it");
  if (potential && opt.max_t < 1)
    throw Error("--static-potential needs --max-t T >= 1: the longest Wilson line");
}

std::vector<MeasureOutput> measure_outputs(const MeasureOptions& opt) {
  std::vector<MeasureOutput> out;
  for (const Observable& o : observables())
    if (!(opt.*o.output).empty()) out.push_back({&o, opt.*o.output});
  return out;
}

RunRecord measurement_record(const std::string& command_line, const std::string& input,
                             const std::string& checksum, const Provenance& provenance,
                             GaugeKind gauge) {
  RunRecord r = {{"program", "gaugefix " GAUGEFIX_VERSION},
                 {"commit", GAUGEFIX_COMMIT},
                 {"command", command_line},
                 {"input", input},
                 {"input_checksum", checksum},
                 {"gauge", gauge_name(gauge)}};
  if (const auto& f = provenance.gauge_fixing) {
    r.insert(r.end(), {{"gauge_fixing_gauge", f->gauge},
                       {"gauge_fixing_tolerance", provenance_text(f->tolerance)},
                       {"gauge_fixing_theta", provenance_text(f->theta)},
                       {"gauge_fixing_theta_max_slice", provenance_text(f->theta_max_slice)},
                       {"gauge_fixing_functional", provenance_text(f->functional)},
                       {"gauge_fixing_iterations", std::to_string(f->iterations)},
                       {"gauge_fixing_converged", f->converged ? "true" : "false"},
                       {"gauge_fixing_precision", f->precision},
                       {"gauge_fixing_version", f->version},
                       {"gauge_fixing_date", f->date}});
  } else {
    r.push_back({"gauge_fixing", "none recorded in the input"});
  }
  return r;
}

void measure_field(const HostField& u, const MeasureOptions& opt, GaugeKind gauge,
                   const std::vector<MeasureOutput>& outputs, const RunRecord& record,
                   const World& world) {
  for (const MeasureOutput& o : outputs) {
    const auto started = std::chrono::steady_clock::now();
    const Table table = o.observable->compute(u, opt, gauge, world);
    write_table(o.path, table, record, world);
    log::result("measured {} ({} rows) -> {}, {:.3f} s", o.observable->name, table.rows.size(),
                o.path,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  }
}

} // namespace gf
