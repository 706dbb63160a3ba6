// Engine::upload: an engine that has run a schedule on one field and is then given another
// (a batch of configurations, Gribov copies) continues exactly as an engine built for the
// second field: after the same schedule, bitwise the same links, g(x), F and theta. Every
// gauge (Coulomb keeps its time links at the download and g(x) from the start), SU(2) and
// SU(3), double and mixed precision, 8-real storage, annealing; on 1 rank and, under mpirun
// (the suite's name holds "Decomposition"), on 2 and 4 ranks. A field of another lattice is
// refused.
#include "comm/decomposition.h"
#include "comm/mpi_channel.h"
#include "core/error.h"
#include "fix/engine.h"
#include "fix/schedule.h"
#include "test_fields.h"
#include <cstring>
#include <gtest/gtest.h>

namespace gf {
namespace {

const int lattice[4] = {4, 4, 4, 8};

struct Case {
  GaugeKind gauge;
  int nc;
  Precision precision;
  Storage storage = Storage::rows;
};

FixOptions annealed_schedule() {
  FixOptions fix;
  const Phase anneal = testing::annealing_phase(6, 1.0, 0.1, 1);
  Phase relax;
  relax.update.kind = UpdateKind::overrelaxation;
  relax.sweeps = 40;
  fix.phases = {anneal, relax};
  fix.tolerance = 1e-30; // never reached: every sweep runs
  fix.check_interval = 10;
  fix.reproject_interval = 7;
  return fix;
}

bool same_bits(const HostField& a, const HostField& b) {
  return a.data.size() == b.data.size() &&
         std::memcmp(a.data.data(), b.data.data(), a.data.size() * sizeof(a.data[0])) == 0;
}

class UploadDecomposition : public ::testing::TestWithParam<Case> {};

TEST_P(UploadDecomposition, ContinuesAsAFreshEngine) {
  const Case c = GetParam();
  const World world;
  const Geometry slab = decompose_time(lattice, world);
  const HostField first = testing::random_field(lattice, c.nc, 3, 0.7).slab(slab.t0, slab.nt);
  const HostField second = testing::random_field(lattice, c.nc, 4, 0.5).slab(slab.t0, slab.nt);
  EngineOptions opt;
  opt.gauge = c.gauge;
  opt.precision = c.precision;
  opt.storage = c.storage;
  opt.track_transform = true;
  opt.seed = 9;
  if (world.size() > 1) opt.channel = make_channel(world, ExchangePath::automatic);
  const FixOptions fix = annealed_schedule();

  auto reused = make_engine(first, opt);
  run_schedule(*reused, c.gauge, c.nc, slab, fix, {});
  reused->upload(second);
  const FixResult a = run_schedule(*reused, c.gauge, c.nc, slab, fix, {});
  auto fresh = make_engine(second, opt);
  const FixResult b = run_schedule(*fresh, c.gauge, c.nc, slab, fix, {});
  EXPECT_EQ(a.iterations, b.iterations);
  EXPECT_EQ(a.final.functional, b.final.functional);
  EXPECT_EQ(a.final.theta, b.final.theta);

  HostField links_a(slab, c.nc, 4), g_a(slab, c.nc, 1), links_b(slab, c.nc, 4), g_b(slab, c.nc, 1);
  reused->download(links_a, &g_a);
  fresh->download(links_b, &g_b);
  EXPECT_TRUE(same_bits(links_a, links_b)) << "links differ on rank " << world.rank();
  EXPECT_TRUE(same_bits(g_a, g_b)) << "g(x) differs on rank " << world.rank();
}

TEST(EngineUpload, RefusesAnotherLattice) {
  const int other[4] = {4, 4, 4, 4};
  const HostField u = testing::random_field(other, 3, 1, 0.3);
  EngineOptions opt;
  auto engine = make_engine(u, opt);
  const int bigger[4] = {4, 4, 6, 4};
  EXPECT_THROW(engine->upload(testing::random_field(bigger, 3, 1, 0.3)), Error);
  EXPECT_THROW(engine->upload(testing::random_field(other, 2, 1, 0.3)), Error);
}

INSTANTIATE_TEST_SUITE_P(
    Fields, UploadDecomposition,
    ::testing::Values(Case{GaugeKind::landau, 3, Precision::double_},
                      Case{GaugeKind::coulomb, 3, Precision::double_},
                      Case{GaugeKind::mag, 3, Precision::double_},
                      Case{GaugeKind::landau, 2, Precision::mixed},
                      Case{GaugeKind::coulomb, 2, Precision::double_},
                      Case{GaugeKind::landau, 3, Precision::mixed, Storage::params8},
                      Case{GaugeKind::mag, 3, Precision::single, Storage::full}),
    [](const ::testing::TestParamInfo<Case>& info) {
      return std::string(name_of(info.param.gauge)) + "_su" + std::to_string(info.param.nc) + "_" +
             name_of(info.param.precision) + "_storage" +
             std::to_string(storage_option(info.param.storage));
    });

} // namespace
} // namespace gf
