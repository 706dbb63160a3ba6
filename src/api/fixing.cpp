// fix, measure, plaquette and the gauge transformations of the public API. fix fills the
// FixPlan `gaugefix fix` fills (run/fix_plan.h) and runs it through the same FixSetup and
// schedule, so that the same options give the same field bit for bit.
#include "api/api_internal.h"
#include "api/fix_plan_of.h"
#include "api/option_values.h"
#include "fix/gauge_check.h"
#include "fix/random_transform.h"
#include "fix/schedule.h"
#include "gaugefix_version.h"
#include "io/field_checks.h"
#include "io/field_codec.h"
#include "observables/observables.h"
#include <algorithm>

namespace gaugefix {

namespace {

GaugeCondition public_condition(const gf::Measurement& m) {
  return {m.functional, m.theta, m.theta_max_slice, m.theta_per_slice};
}

} // namespace

gf::FixPlan fix_plan_of(const FixOptions& o) {
  gf::FixPlan p;
  p.gauge = o.gauge;
  p.algorithm = o.algorithm;
  p.omega = o.omega;
  p.alpha = o.alpha;
  p.sr_probability = o.sr_probability;
  p.anneal_steps = o.anneal_steps;
  p.t_max = o.t_max;
  p.t_min = o.t_min;
  p.micro_steps = o.micro_steps;
  p.sr_steps = o.sr_steps;
  p.tolerance = o.tolerance;
  p.max_iterations = o.max_iterations;
  p.check_interval = o.check_interval;
  p.reproject_interval = o.reproject_interval;
  p.precision = o.precision;
  p.preconditioner_precision = o.preconditioner_precision;
  p.backend = o.backend;
  p.storage = o.storage;
  p.seed = o.seed;
  p.tuning = o.tuning;
  p.exchange = o.exchange;
  p.track_transform = o.transform;
  p.history = o.history;
  return p;
}

namespace {

GaugeFixingRecord record_of(const gf::FixResult& r, const FixOptions& o, const gf::World& world) {
  GaugeFixingRecord g;
  g.gauge = to_string(o.gauge);
  g.tolerance = o.tolerance;
  g.theta = r.final.theta;
  g.theta_max_slice = r.final.theta_max_slice;
  g.functional = r.final.functional;
  g.iterations = r.iterations;
  g.converged = r.converged;
  g.precision = to_string(o.precision);
  g.algorithm = to_string(o.algorithm);
  g.version = GAUGEFIX_VERSION;
  g.date = gf::utc_date();
  world.broadcast(g.date);
  return g;
}

} // namespace

FixResult fix(Field& links, const FixOptions& options) {
  return guarded("fix", [&] {
    const gf::World world = world_of(options.communicator);
    gf::HostField& u = FieldAccess::host(links);
    checked_layout(links, "links", 4, world);
    const gf::FixSetup setup(fix_plan_of(options), gf::OptionSpelling::api, world, nullptr);

    // the links as given, or projected onto SU(N) (options.reproject): in SU(N) either way
    gf::HostField projected;
    if (options.reproject) {
      projected = u;
      gf::reunitarize_all(projected);
    }
    const gf::HostField& start = options.reproject ? projected : u;
    gf::check_in_su_n(options.reproject ? "links (reprojected)" : "links", start, 8, world);
    const std::unique_ptr<gf::Engine> engine = setup.make_engine(start);
    std::function<void(const gf::Progress&)> progress;
    if (options.progress)
      progress = [&options](const gf::Progress& p) {
        options.progress(
            Progress{p.iteration, p.phase, p.temperature, public_condition(p.m), p.seconds});
      };
    const gf::FixResult r =
        gf::run_schedule(*engine, options.gauge, u.nc, u.geom, setup.schedule(), progress);
    FixResult result;
    if (options.transform) {
      gf::HostField g(u.geom, u.nc, 1);
      engine->download(u, &g);
      result.transform = FieldAccess::wrap(std::move(g));
    } else {
      engine->download(u, nullptr);
    }
    result.converged = r.converged;
    result.iterations = r.iterations;
    result.seconds = r.seconds;
    result.final = public_condition(r.final);
    result.record = record_of(r, options, world);
    for (const gf::HistoryRow& h : r.history)
      result.history.push_back(HistoryRow{h.iteration, h.phase, h.temperature, h.functional,
                                          h.theta, h.theta_max_slice, h.links.det_mean,
                                          h.links.det_max, h.links.unitary_max, h.seconds});
    return result;
  });
}

GaugeCondition measure(const Field& links, Gauge gauge, const Communicator& comm) {
  return guarded("measure", [&] {
    const gf::World world = world_of(comm);
    return public_condition(
        gf::measure_gauge(checked_field(links, "links", 4, world), gauge, world));
  });
}

double plaquette(const Field& links, const Communicator& comm) {
  return guarded("plaquette", [&] {
    const gf::World world = world_of(comm);
    return gf::plaquette(checked_field(links, "links", 4, world), world);
  });
}

void apply_transform(Field& links, const Field& g, const Communicator& comm) {
  guarded("apply_transform", [&] {
    const gf::World world = world_of(comm);
    const gf::HostField& u = checked_layout(links, "links", 4, world);
    const gf::HostField& gh = checked_layout(g, "g", 1, world);
    require(std::equal(u.geom.L, u.geom.L + 4, gh.geom.L) && u.nc == gh.nc,
            "g holds SU(" + std::to_string(gh.nc) + ") on another lattice than the links (SU(" +
                std::to_string(u.nc) + "))");
    gf::check_in_su_n("links", u, 8, world);
    gf::check_in_su_n("g", gh, 8, world);
    gf::apply_gauge_transform(FieldAccess::host(links), gh, world);
  });
}

Field random_transform(Field& links, std::uint64_t seed) {
  return guarded("random_transform", [&] {
    require(!links.empty() && links.ndir() == 4, "links: a non-empty gauge field is needed");
    gf::check_in_su_n("links", FieldAccess::host(links), 8, gf::World::alone());
    return FieldAccess::wrap(gf::random_gauge_transform(FieldAccess::host(links), seed));
  });
}

} // namespace gaugefix
