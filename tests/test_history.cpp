// The convergence history: Engine::measure_link_deviation against the definition computed on
// the host (|1 - det U|, max_ij |(U U^dagger - 1)_ij| of the links as stored: 18 reals as
// they are, 12 reals with the last row rebuilt from the stored rows; Coulomb gauge: the
// spatial links), the same numbers bit for bit on 1, 2 and 4 ranks (the suite's name holds
// "Decomposition": run under mpirun); and the rows run_schedule records (FixOptions::
// record_history): one per check, then the final measurement, which is the result, and the
// field not changed by recording.
#include "comm/decomposition.h"
#include "comm/mpi_channel.h"
#include "fix/engine.h"
#include "fix/schedule.h"
#include "math/su_n.h"
#include "test_fields.h"
#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>

namespace gf {
namespace {

const int lattice[4] = {4, 4, 4, 8};

// A smooth SU(3) field with some links scaled by 1 + k 1e-6 (k = 1 .. 5): off SU(3) by a known
// amount, in every direction.
HostField perturbed_field() {
  HostField u = testing::random_field(lattice, 3, 5, 0.3);
  for (std::int64_t s = 0; s < u.local_sites(); ++s)
    for (int mu = 0; mu < 4; ++mu)
      if ((s * 4 + mu) % 7 == 0) {
        const double f = 1 + 1e-6 * double(1 + s % 5);
        Complex<double>* m = u.matrix_data(s, mu);
        for (int i = 0; i < 9; ++i)
          m[i] = f * m[i];
      }
  return u;
}

// The definition, on the host, over the whole lattice.
LinkDeviation expected(const HostField& u, Storage storage, int dirs) {
  LinkDeviation d;
  for (std::int64_t s = 0; s < u.local_sites(); ++s)
    for (int mu = 0; mu < dirs; ++mu) {
      Matrix<double, 3> m = u.get<3>(s, mu);
      if (storage == Storage::rows) reconstruct_last_row(m);
      const double det = determinant_deviation(m);
      d.det_mean += det;
      d.det_max = std::max(d.det_max, det);
      d.unitary_max = std::max(d.unitary_max, unitary_deviation(m));
    }
  d.det_mean /= double(dirs) * double(u.local_sites());
  return d;
}

struct Case {
  GaugeKind gauge;
  Storage storage;
};

class LinkDeviationDecomposition : public ::testing::TestWithParam<Case> {};

TEST_P(LinkDeviationDecomposition, MatchesTheDefinitionOnEveryRankCount) {
  const Case c = GetParam();
  const World world;
  const HostField whole = perturbed_field();
  EngineOptions opt;
  opt.gauge = c.gauge;
  opt.storage = c.storage;
  const LinkDeviation one = make_engine(whole, opt)->measure_link_deviation();
  const LinkDeviation want = expected(whole, c.storage, c.gauge == GaugeKind::coulomb ? 3 : 4);
  EXPECT_GT(want.det_max, 4e-6); // the perturbation is seen
  EXPECT_EQ(one.det_max, want.det_max);
  EXPECT_EQ(one.unitary_max, want.unitary_max);
  EXPECT_NEAR(one.det_mean, want.det_mean, 1e-12 * want.det_mean);

  const Geometry slab = decompose_time(lattice, world);
  if (world.size() > 1) opt.channel = make_channel(world, ExchangePath::automatic);
  const LinkDeviation ranks =
      make_engine(whole.slab(slab.t0, slab.nt), opt)->measure_link_deviation();
  EXPECT_EQ(ranks.det_mean, one.det_mean) << world.size() << " ranks";
  EXPECT_EQ(ranks.det_max, one.det_max);
  EXPECT_EQ(ranks.unitary_max, one.unitary_max);
}

INSTANTIATE_TEST_SUITE_P(Storages, LinkDeviationDecomposition,
                         ::testing::Values(Case{GaugeKind::landau, Storage::full},
                                           Case{GaugeKind::landau, Storage::rows},
                                           Case{GaugeKind::coulomb, Storage::full},
                                           Case{GaugeKind::mag, Storage::rows}),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return std::string(name_of(info.param.gauge)) + "_storage" +
                                  std::to_string(storage_option(info.param.storage));
                         });

FixOptions annealed_then_relaxed(bool history) {
  FixOptions fix;
  Phase relax;
  relax.update.kind = UpdateKind::overrelaxation;
  relax.sweeps = 200;
  fix.phases = {testing::annealing_phase(20, 2.0, 0.1, 2), relax};
  fix.tolerance = 1e-11;
  fix.check_interval = 10;
  fix.reproject_interval = 15;
  fix.record_history = history;
  return fix;
}

TEST(History, OneRowPerCheckThenTheResult) {
  const HostField u = testing::random_field(lattice, 3, 8, 0.4);
  EngineOptions opt;
  opt.precision = Precision::single;
  opt.storage = Storage::full;
  std::vector<Progress> reported;
  const FixResult r =
      run_schedule(*make_engine(u, opt), GaugeKind::landau, 3, u.geom, annealed_then_relaxed(true),
                   [&](const Progress& p) { reported.push_back(p); });
  ASSERT_TRUE(r.converged);
  ASSERT_EQ(r.history.size(), reported.size() + 1);
  for (std::size_t i = 0; i < reported.size(); ++i) {
    const HistoryRow& h = r.history[i];
    EXPECT_EQ(h.iteration, reported[i].iteration);
    EXPECT_EQ(h.phase, reported[i].phase);
    EXPECT_EQ(h.temperature, reported[i].temperature);
    EXPECT_EQ(h.functional, reported[i].m.functional);
    EXPECT_EQ(h.theta, reported[i].m.theta);
    EXPECT_EQ(h.seconds, reported[i].seconds);
    EXPECT_GE(h.theta_max_slice, h.theta);
    EXPECT_GT(h.links.det_max, 0.0) << "single precision, 18 reals: links off SU(3) by rounding";
    EXPECT_LT(h.links.det_max, 1e-4);
    EXPECT_LE(h.links.det_mean, h.links.det_max);
  }
  // annealing: 2 checks of 10 steps of 1 + 2 sweeps, T falling
  EXPECT_EQ(r.history[0].phase, "anneal");
  EXPECT_EQ(r.history[0].iteration, 30);
  EXPECT_EQ(r.history[1].iteration, 60);
  EXPECT_LT(r.history[1].temperature, r.history[0].temperature);
  EXPECT_EQ(r.history[2].phase, "overrelaxation");
  EXPECT_EQ(r.history[2].temperature, 0.0);
  const HistoryRow& last = r.history.back();
  EXPECT_EQ(last.phase, "final");
  EXPECT_EQ(last.iteration, r.iterations);
  EXPECT_EQ(last.functional, r.final.functional);
  EXPECT_EQ(last.theta, r.final.theta);
  EXPECT_EQ(last.theta_max_slice, r.final.theta_max_slice);
  EXPECT_EQ(last.seconds, r.seconds);
}

TEST(History, RecordingChangesNothing) {
  const HostField u = testing::random_field(lattice, 3, 8, 0.4);
  EngineOptions opt;
  opt.seed = 4;
  const FixResult with = run_schedule(*make_engine(u, opt), GaugeKind::mag, 3, u.geom,
                                      annealed_then_relaxed(true), {});
  const FixResult without = run_schedule(*make_engine(u, opt), GaugeKind::mag, 3, u.geom,
                                         annealed_then_relaxed(false), {});
  EXPECT_TRUE(without.history.empty());
  EXPECT_FALSE(with.history.empty());
  EXPECT_EQ(with.iterations, without.iterations);
  EXPECT_EQ(with.final.functional, without.final.functional);
  EXPECT_EQ(with.final.theta, without.final.theta);
}

} // namespace
} // namespace gf
