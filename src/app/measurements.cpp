#include "app/measurements.h"
#include "app/cli_checks.h"
#include "app/fix_provenance.h"
#include "core/error.h"
#include "core/log.h"
#include "gaugefix_commit.h"
#include "gaugefix_version.h"
#include "io/provenance.h"
#include "measure/abelian_projection.h"
#include "measure/faddeev_popov.h"
#include "measure/ghost_propagator.h"
#include "measure/gluon_propagator.h"
#include "measure/slab_field.h"
#include "measure/static_potential.h"
#include <chrono>

namespace gf {

namespace {

MomentumCut cut_of(const MeasureOptions& opt) {
  return {parse_name<CutKind>("--cut", opt.cut), opt.max_n2, opt.cylinder_width};
}

Table gluon_table(const HostField& u, const MeasureOptions& opt, GaugeKind gauge,
                  const World& world) {
  if (gauge == GaugeKind::coulomb) return table_of(coulomb_gluon_propagator(u, cut_of(opt), world));
  return table_of(landau_gluon_propagator(u, cut_of(opt), world));
}

Table potential_table(const HostField& field, const MeasureOptions& opt, GaugeKind,
                      const World& world) {
  HostField copy;
  return table_of(static_potential(slab_field(field, copy), opt.max_t, world));
}

Table ghost_table(const HostField& field, const MeasureOptions& opt, GaugeKind,
                  const World& world) {
  HostField copy;
  const HostField& u = slab_field(field, copy);
  const FaddeevPopov m(u, world);
  const auto start = std::chrono::steady_clock::now();
  const auto progress = [&](const GhostPoint& p, std::size_t done, std::size_t count) {
    log::info("ghost propagator: momentum {} of {}, n = ({},{},{},{}): G = {:.10g}, {} solves, "
              "{} iterations (at most {} a solve), {:.2f} s",
              done, count, p.n[0], p.n[1], p.n[2], p.n[3], p.propagator, p.solves,
              p.total_iterations, p.max_iterations,
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  };
  const std::vector<GhostPoint> rows =
      ghost_propagator(m,
                       ghost_momenta(u.geom.L, {parse_name<CutKind>("--ghost-cut", opt.ghost_cut),
                                                opt.ghost_max_n2, opt.ghost_cylinder_width}),
                       opt.ghost_tolerance, opt.ghost_max_iterations, opt.backend, progress);
  for (const GhostPoint& r : rows)
    if (!r.converged)
      log::warning("--ghost-propagator: a solve at n = ({},{},{},{}) did not reach "
                   "--ghost-tolerance {} in --ghost-max-iterations {} (residual {})",
                   r.n[0], r.n[1], r.n[2], r.n[3], opt.ghost_tolerance, opt.ghost_max_iterations,
                   r.max_residual);
  return table_of(rows);
}

Table eigenvalue_table(const HostField& field, const MeasureOptions& opt, GaugeKind,
                       const World& world) {
  HostField copy;
  const FaddeevPopov m(slab_field(field, copy), world);
  const EigenResult e = lowest_eigenvalue(m, opt.eigen_tolerance, opt.eigen_max_iterations);
  if (!e.converged)
    log::warning("--lowest-eigenvalue: the residual {} is above --eigen-tolerance {} after "
                 "--eigen-max-iterations {} Lanczos steps",
                 e.residual, opt.eigen_tolerance, opt.eigen_max_iterations);
  if (e.eigenvalue < 0)
    log::warning("--lowest-eigenvalue: the eigenvalue {} is negative: the field is not inside the "
                 "first Gribov region, or not in Landau gauge",
                 e.eigenvalue);
  return table_of(e);
}

Table abelian_table(const HostField& field, const MeasureOptions&, GaugeKind, const World& world) {
  HostField copy;
  const AbelianMeasurement a = measure_abelian(slab_field(field, copy), world);
  if (!a.currents_conserved)
    log::warning("--abelian: the monopole currents are not conserved at {} sites and colours",
                 a.unconserved);
  return table_of(a);
}

} // namespace

const std::vector<Observable>& observables() {
  static const std::vector<Observable> list = {
      {"gluon", "--gluon-propagator", &MeasureOptions::gluon_propagator, gluon_table},
      {"potential", "--static-potential", &MeasureOptions::static_potential, potential_table},
      {"ghost", "--ghost-propagator", &MeasureOptions::ghost_propagator, ghost_table},
      {"eigenvalue", "--lowest-eigenvalue", &MeasureOptions::lowest_eigenvalue, eigenvalue_table},
      {"abelian", "--abelian", &MeasureOptions::abelian, abelian_table},
  };
  return list;
}

void add_measure_options(CLI::App& app, MeasureOptions& opt, bool in_fix) {
  const std::string pattern = in_fix ? " (a pattern, as --output)" : "";
  if (in_fix) {
    std::vector<std::string> names;
    std::string list;
    for (const Observable& o : observables()) {
      names.push_back(o.name);
      list += (list.empty() ? "" : ", ") + std::string(o.name);
    }
    app.add_option("--measure", opt.measure,
                   "observables to measure on each fixed field: " + list +
                       " (comma-separated; each needs its output option)")
        ->delimiter(',')
        ->check(CLI::IsMember(names));
  }
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
  app.add_option("--ghost-propagator", opt.ghost_propagator,
                 "CSV (or .h5) file of the Landau-gauge ghost propagator" + pattern)
      ->check(non_empty);
  app.add_option("--ghost-max-n2", opt.ghost_max_n2,
                 "ghost propagator: momenta with sum n_mu^2 <= N (n = 0 left out)")
      ->check(whole_number)
      ->default_str("");
  app.add_option("--ghost-cut", opt.ghost_cut,
                 "ghost propagator: momentum cut psq, hypercubic or cylinder (as --cut)")
      ->check(CLI::IsMember({"psq", "hypercubic", "cylinder"}));
  app.add_option("--ghost-cylinder-width", opt.ghost_cylinder_width,
                 "ghost propagator, --ghost-cut cylinder: width in units of 2 pi / min L (as "
                 "--cylinder-width)")
      ->check(positive_real);
  app.add_option("--ghost-tolerance", opt.ghost_tolerance,
                 "ghost propagator: stop each CG solve at |r| <= this |b|")
      ->check(positive_real)
      ->capture_default_str();
  app.add_option("--ghost-max-iterations", opt.ghost_max_iterations,
                 "ghost propagator: at most this many CG iterations per solve")
      ->check(whole_number)
      ->capture_default_str();
  app.add_option("--lowest-eigenvalue", opt.lowest_eigenvalue,
                 "CSV (or .h5) file of the lowest non-trivial eigenvalue of the Landau-gauge "
                 "Faddeev-Popov operator" +
                     pattern)
      ->check(non_empty);
  app.add_option("--eigen-tolerance", opt.eigen_tolerance,
                 "lowest eigenvalue: stop Lanczos at a Ritz residual <= this (absolute)")
      ->check(positive_real)
      ->capture_default_str();
  app.add_option("--eigen-max-iterations", opt.eigen_max_iterations,
                 "lowest eigenvalue: at most this many Lanczos steps")
      ->check(whole_number)
      ->capture_default_str();
  app.add_option("--abelian", opt.abelian,
                 "CSV (or .h5) file of the Abelian projection of a maximally Abelian gauge "
                 "field: plaquette, Polyakov loops, monopole densities" +
                     pattern)
      ->check(non_empty);
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
    throw Error("nothing to measure: give --gluon-propagator, --static-potential, "
                "--ghost-propagator, --lowest-eigenvalue or --abelian OUT");
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
  const bool ghost = !opt.ghost_propagator.empty();
  for (const char* sub : {"--ghost-max-n2", "--ghost-cut", "--ghost-cylinder-width",
                          "--ghost-tolerance", "--ghost-max-iterations"})
    if (given.count(sub) && !ghost)
      throw Error(std::string(sub) + " is given without --ghost-propagator: nothing uses it");
  if (ghost && opt.ghost_max_n2 < 1)
    throw Error("--ghost-propagator needs --ghost-max-n2 N >= 1: the largest sum n_mu^2 of a "
                "momentum (n = 0 is left out)");
  if (given.count("--ghost-cylinder-width") && opt.ghost_cut != "cylinder")
    throw Error("--ghost-cylinder-width is given with --ghost-cut " + opt.ghost_cut +
                ": only --ghost-cut cylinder uses it");
  if (ghost && opt.ghost_max_iterations < 1) throw Error("--ghost-max-iterations must be >= 1");
  const bool eigen = !opt.lowest_eigenvalue.empty();
  for (const char* sub : {"--eigen-tolerance", "--eigen-max-iterations"})
    if (given.count(sub) && !eigen)
      throw Error(std::string(sub) + " is given without --lowest-eigenvalue: nothing uses it");
  if (eigen && opt.eigen_max_iterations < 1) throw Error("--eigen-max-iterations must be >= 1");
  if (in_fix) check_measure_gauge(opt, gauge, std::string("--gauge ") + name_of(gauge));
}

void check_measure_gauge(const MeasureOptions& opt, GaugeKind gauge, const std::string& source) {
  const std::string taken =
      std::string("the field is taken as ") + name_of(gauge) + " gauge (" + source + ")";
  if (!opt.ghost_propagator.empty() && gauge != GaugeKind::landau)
    throw Error("--ghost-propagator: the ghost propagator is measured in Landau gauge; " + taken);
  if (!opt.lowest_eigenvalue.empty() && gauge != GaugeKind::landau)
    throw Error("--lowest-eigenvalue: the Faddeev-Popov operator's eigenvalue is measured in "
                "Landau gauge; " +
                taken);
  if (!opt.abelian.empty() && gauge != GaugeKind::mag)
    throw Error("--abelian: the Abelian projection is measured in the maximally Abelian gauge "
                "(mag); " +
                taken);
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
                 {"gauge", name_of(gauge)}};
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
