// generate of the public API: a start field (fix/random_field.h, as `gaugefix generate
// --start cold|hot` and `gaugefix fix --generate smooth` make it) updated by the quenched
// generator (gen/generator.h) as run_ensemble (gen/ensemble.cpp) updates it before its first
// configuration, so that the result is that configuration bit for bit.
#include "api/api_internal.h"
#include "api/option_values.h"
#include "comm/decomposition.h"
#include "comm/mpi_channel.h"
#include "fix/random_field.h"
#include "gen/generator.h"
#include "observables/observables.h"
#include "tuning/tuning_setup.h"
#include <cmath>

namespace gaugefix {

namespace {

// The eps of random_field: 0 the unit field, 0.2 smooth, 1 hot.
double start_eps(Start start) {
  switch (start) {
  case Start::cold:
    return 0.0;
  case Start::smooth:
    return 0.2;
  case Start::hot:
    return 1.0;
  }
  throw gf::Error("start: not a start (" + std::to_string(static_cast<int>(start)) + ")");
}

int group_nc(Group group) {
  return group == Group::su2 ? 2 : 3;
}

} // namespace

Field generate(const GenerateOptions& o) {
  return guarded("generate", [&] {
    const gf::World world = world_of(o.communicator);
    const int nc = group_nc(o.group);
    const double eps = start_eps(o.start);
    for (int d = 0; d < 4; ++d)
      require(o.lattice[d] >= 2 && o.lattice[d] % 2 == 0,
              "lattice: extent " + std::to_string(o.lattice[d]) + " in direction " +
                  std::to_string(d) + " must be even and >= 2 (checkerboard updates)");
    require_at_least("sweeps", o.sweeps, 0);
    require_at_least("or_sweeps", o.or_sweeps, 0);
    require(o.sweeps == 0 || (std::isfinite(o.beta) && o.beta > 0),
            "beta must be > 0 (got " + std::to_string(o.beta) + ")");
    gf::GeneratorOptions g;
    g.beta = o.beta;
    g.precision = o.precision;
    g.backend = o.backend;
    g.storage = storage_option(o.storage, nc);
    g.seed = o.seed;

    gf::HostField u = gf::random_field(gf::decompose_time(o.lattice.data(), world), nc, o.seed, eps,
                                       gf::RandomPurpose::generator);
    if (o.sweeps == 0) return FieldAccess::wrap(std::move(u));
    g.node_rank = world.node_rank();
    if (world.size() > 1) g.channel = gf::make_channel(world, gf::ExchangePath::automatic);
    gf::TuningSetup tuning = gf::make_tuning(o.tuning, g.backend, g.node_rank, nullptr);
    g.tuner = tuning.tuner.get();
    std::unique_ptr<gf::Generator> gen = gf::make_generator(u, g);
    std::vector<gf::LinkUpdateKind> kinds = {gf::LinkUpdateKind::heatbath};
    if (o.or_sweeps > 0) kinds.push_back(gf::LinkUpdateKind::overrelaxation);
    gen->prepare(kinds);
    for (int sweep = 1; sweep <= o.sweeps; ++sweep) {
      gen->sweep(gf::LinkUpdateKind::heatbath, static_cast<std::uint32_t>(sweep));
      for (int k = 0; k < o.or_sweeps; ++k)
        gen->sweep(gf::LinkUpdateKind::overrelaxation, static_cast<std::uint32_t>(sweep));
    }
    gen->download(u);
    gf::reunitarize_all(u);
    return FieldAccess::wrap(std::move(u));
  });
}

} // namespace gaugefix
