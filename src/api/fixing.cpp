// fix, measure, plaquette and the gauge transformations of the public API: the engine
// (fix/engine.h) driven by the schedule (fix/schedule.h) exactly as `gaugefix fix` drives it
// (src/app/fix_command.cpp, build_schedule in src/app/fix_options.cpp), so that the same
// options give the same field bit for bit.
#include "api/api_internal.h"
#include "api/option_values.h"
#include "comm/mpi_channel.h"
#include "fix/gauge_check.h"
#include "fix/random_transform.h"
#include "fix/schedule.h"
#include "gaugefix_version.h"
#include "io/field_checks.h"
#include "io/field_codec.h"
#include "observables/observables.h"
#include "tuning/tuning_setup.h"
#include <algorithm>
#include <cmath>

namespace gaugefix {

namespace {

GaugeCondition public_condition(const gf::Measurement& m) {
  return {m.functional, m.theta, m.theta_max_slice, m.theta_per_slice};
}

// The phases of `gaugefix fix` with the same options: annealing, stochastic relaxation,
// then the algorithm until the tolerance is reached.
gf::FixOptions schedule(const FixOptions& o, gf::GaugeKind gauge) {
  require_at_least("anneal_steps", o.anneal_steps, 0);
  require_at_least("micro_steps", o.micro_steps, 0);
  require_at_least("sr_steps", o.sr_steps, 0);
  require_at_least("max_iterations", o.max_iterations, 1);
  require_at_least("check_interval", o.check_interval, 1);
  require_at_least("reproject_interval", o.reproject_interval, 0);
  require(std::isfinite(o.tolerance) && o.tolerance > 0,
          "tolerance must be a positive finite number (got " + std::to_string(o.tolerance) + ")");
  for (const auto& [name, value] : {std::pair{"omega", o.omega},
                                    {"sr_probability", o.sr_probability},
                                    {"t_max", o.t_max},
                                    {"t_min", o.t_min}})
    require_finite(name, value);
  gf::FixOptions f;
  f.tolerance = o.tolerance;
  f.check_interval = o.check_interval;
  f.reproject_interval = o.reproject_interval;
  f.record_history = o.history;
  if (o.anneal_steps > 0) {
    gf::Phase p;
    p.update.kind = gf::UpdateKind::heatbath;
    p.sweeps = o.anneal_steps;
    p.t_max = o.t_max;
    p.t_min = o.t_min;
    p.micro_steps = o.micro_steps;
    f.phases.push_back(p);
  }
  if (o.sr_steps > 0) {
    gf::Phase p;
    p.update.kind = gf::UpdateKind::stochastic_relaxation;
    p.update.probability = o.sr_probability;
    p.sweeps = o.sr_steps;
    f.phases.push_back(p);
  }
  gf::Phase last;
  require(std::isfinite(o.alpha) && o.alpha >= 0,
          "alpha must be 0 (automatic) or a positive step (got " + std::to_string(o.alpha) + ")");
  if (o.algorithm == "fasd" || o.algorithm == "facg") {
    last.descent.method = o.algorithm == "fasd" ? gf::DescentMethod::fasd : gf::DescentMethod::facg;
    last.descent.alpha = o.alpha;
  } else {
    require(o.alpha == 0, "alpha applies to algorithm fasd or facg, not to " + o.algorithm);
    try {
      last.update.kind = gf::parse_update_kind(o.algorithm);
    } catch (const gf::Error&) {
      throw gf::Error("unknown algorithm '" + o.algorithm +
                      "' (expected relaxation, overrelaxation, stochastic, fasd or facg)");
    }
  }
  require(last.descent.method == gf::DescentMethod::none || gauge != gf::GaugeKind::mag,
          "algorithm " + o.algorithm +
              ": Fourier acceleration exists for Landau and Coulomb gauge, not for MAG");
  require(last.update.kind != gf::UpdateKind::heatbath &&
              last.update.kind != gf::UpdateKind::microcanonical,
          "algorithm " + o.algorithm +
              " cannot fix a gauge on its own (use relaxation, overrelaxation or stochastic; "
              "annealing goes with anneal_steps)");
  last.update.omega = o.omega;
  last.update.probability = o.sr_probability;
  last.sweeps = o.max_iterations;
  f.phases.push_back(last);
  gf::validate(f, gauge);
  return f;
}

GaugeFixingRecord record_of(const gf::FixResult& r, const FixOptions& o, const gf::World& world) {
  GaugeFixingRecord g;
  g.gauge = o.gauge;
  g.tolerance = o.tolerance;
  g.theta = r.final.theta;
  g.theta_max_slice = r.final.theta_max_slice;
  g.functional = r.final.functional;
  g.iterations = r.iterations;
  g.converged = r.converged;
  g.precision = o.precision;
  g.algorithm = o.algorithm;
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
    gf::EngineOptions eo;
    eo.gauge = parse_option("gauge", [&] { return gf::parse_gauge(options.gauge); });
    const gf::FixOptions sched = schedule(options, eo.gauge);
    eo.precision = precision_option(options.precision);
    eo.backend = backend_option(options.backend);
    const int reals =
        options.storage != 0 ? options.storage : gf::auto_storage_reals(sched, eo.backend);
    eo.storage = storage_option(reals, u.nc);
    eo.track_transform = options.transform;
    eo.seed = options.seed;
    check_tuning_option(options.tuning);
    const gf::ExchangePath path =
        parse_option("exchange", [&] { return gf::parse_exchange_path(options.exchange); });
    eo.node_rank = world.node_rank();
    if (world.size() > 1) eo.channel = gf::make_channel(world, path);
    gf::TuningSetup tuning = gf::make_tuning(options.tuning, eo.backend, eo.node_rank, nullptr);
    eo.tuner = tuning.tuner.get();

    // the links as given, or projected onto SU(N) (options.reproject): in SU(N) either way
    gf::HostField projected;
    if (options.reproject) {
      projected = u;
      gf::reunitarize_all(projected);
    }
    const gf::HostField& start = options.reproject ? projected : u;
    gf::check_in_su_n(options.reproject ? "links (reprojected)" : "links", start, 8, world);
    auto engine = gf::make_engine(start, eo);
    engine->prepare(gf::schedule_update_kinds(sched));
    std::function<void(const gf::Progress&)> progress;
    if (options.progress)
      progress = [&options](const gf::Progress& p) {
        options.progress(
            Progress{p.iteration, p.phase, p.temperature, public_condition(p.m), p.seconds});
      };
    const gf::FixResult r = gf::run_schedule(*engine, eo.gauge, u.nc, u.geom, sched, progress);
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

GaugeCondition measure(const Field& links, const std::string& gauge, const Communicator& comm) {
  return guarded("measure", [&] {
    const gf::World world = world_of(comm);
    const gf::GaugeKind kind = parse_option("gauge", [&] { return gf::parse_gauge(gauge); });
    return public_condition(
        gf::measure_gauge(checked_field(links, "links", 4, world), kind, world));
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
