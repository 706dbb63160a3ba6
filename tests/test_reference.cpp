// Tier 3: the fast path (device layout, compressed storage, quaternion subgroup code)
// against the slow reference implementation, and driver-level physics checks.
#include "fix/random_transform.h"
#include "fix/schedule.h"
#include "observables/observables.h"
#include "reference_fixer.h"
#include "test_fields.h"
#include <gtest/gtest.h>

namespace gf {
namespace {

template <int N>
void compare_with_reference(GaugeKind gauge, Storage storage) {
  const int L[4] = {4, 4, 2, 6};
  HostField fast = testing::random_field(L, N, 21, 0.6);
  HostField ref = fast;
  EngineOptions eo;
  eo.gauge = gauge;
  eo.storage = storage;
  auto engine = make_engine(fast, eo);
  UpdateParams up;
  up.kind = UpdateKind::overrelaxation;
  up.omega = 1.6;
  const int ndirs = gauge == GaugeKind::landau ? 4 : 3;
  for (int k = 0; k < 10; ++k) {
    engine->sweep(up, k);
    reference::sweep<N>(ref, ndirs, up.omega);
  }
  const Measurement m = normalise(engine->measure(), gauge, N, fast.geom);
  engine->download(fast, nullptr);
  double worst = 0;
  for (std::size_t i = 0; i < fast.data.size(); ++i)
    worst = std::max(worst, std::sqrt(norm2(fast.data[i] - ref.data[i])));
  EXPECT_LT(worst, 1e-12);
  double f, theta;
  reference::measure<N>(ref, ndirs, f, theta);
  EXPECT_NEAR(m.functional, f, 1e-13);
  EXPECT_NEAR(m.theta, theta, 1e-13 * std::max(1.0, theta));
}

TEST(Reference, LandauSU3Compressed) { compare_with_reference<3>(GaugeKind::landau, Storage::rows); }
TEST(Reference, LandauSU3Full) { compare_with_reference<3>(GaugeKind::landau, Storage::full); }
TEST(Reference, LandauSU3Params8) { compare_with_reference<3>(GaugeKind::landau, Storage::params8); }
TEST(Reference, CoulombSU3) { compare_with_reference<3>(GaugeKind::coulomb, Storage::rows); }
TEST(Reference, LandauSU2) { compare_with_reference<2>(GaugeKind::landau, Storage::rows); }

FixResult run(HostField& u, GaugeKind gauge, std::vector<Phase> phases, double tol,
              Precision prec = Precision::double_, int reproject = 0,
              std::vector<Measurement>* history = nullptr) {
  EngineOptions eo;
  eo.gauge = gauge;
  eo.precision = prec;
  eo.seed = 5;
  auto engine = make_engine(u, eo);
  FixOptions fo;
  fo.phases = std::move(phases);
  fo.tolerance = tol;
  fo.check_interval = 1;
  fo.reproject_interval = reproject;
  const FixResult r = run_schedule(*engine, gauge, u.nc, u.geom, fo, [&](const Progress& p) {
    if (history) history->push_back(p.m);
  });
  engine->download(u, nullptr);
  return r;
}

Phase phase(UpdateKind k, int sweeps) {
  Phase p;
  p.update.kind = k;
  p.sweeps = sweeps;
  return p;
}

TEST(Driver, FunctionalNeverDecreasesUnderRelaxation) {
  const int L[4] = {4, 4, 4, 4};
  for (GaugeKind g : {GaugeKind::landau, GaugeKind::coulomb, GaugeKind::mag}) {
    HostField u = testing::random_field(L, 3, 8, 1.0);
    std::vector<Measurement> h;
    run(u, g, {phase(UpdateKind::relaxation, 60)}, 1e-30, Precision::double_, 0, &h);
    ASSERT_EQ(h.size(), 60u);
    for (std::size_t i = 1; i < h.size(); ++i)
      EXPECT_GE(h[i].functional, h[i - 1].functional - 1e-15) << name_of(g) << " sweep " << i;
  }
}

TEST(Driver, TransformedUnitFieldReturnsToUnitFunctional) {
  const int L[4] = {4, 4, 4, 4};
  HostField u = testing::unit_field(L, 3);
  random_gauge_transform(u, 1234);
  const FixResult r = run(u, GaugeKind::landau, {phase(UpdateKind::overrelaxation, 5000)}, 1e-14);
  EXPECT_TRUE(r.converged);
  EXPECT_NEAR(r.final.functional, 1.0, 1e-12);
}

TEST(Driver, AnnealingStochasticAndOverrelaxationSchedule) {
  const int L[4] = {4, 4, 4, 4};
  for (GaugeKind g : {GaugeKind::landau, GaugeKind::mag}) {
    HostField u = testing::random_field(L, 3, 3, 0.5);
    random_gauge_transform(u, 7);
    const double plaq = plaquette(u);
    const FixResult r = run(u, g,
                            {testing::annealing_phase(50, 2, 0.01, 3),
                             phase(UpdateKind::stochastic_relaxation, 50),
                             phase(UpdateKind::overrelaxation, 10000)},
                            1e-12);
    EXPECT_TRUE(r.converged) << name_of(g);
    EXPECT_GE(r.iterations, 50 * 4 + 1);
    EXPECT_NEAR(plaquette(u), plaq, 1e-12);
  }
}

TEST(Driver, SingleAndMixedPrecisionWithReprojection) {
  const int L[4] = {4, 4, 4, 4};
  HostField start = testing::random_field(L, 3, 4, 0.5);
  random_gauge_transform(start, 9);
  HostField d = start;
  const FixResult rd = run(d, GaugeKind::landau, {phase(UpdateKind::overrelaxation, 5000)}, 1e-13);
  ASSERT_TRUE(rd.converged);
  for (Precision p : {Precision::single, Precision::mixed}) {
    HostField u = start;
    const FixResult r = run(u, GaugeKind::landau, {phase(UpdateKind::overrelaxation, 3000)}, 1e-9, p, 50);
    EXPECT_TRUE(r.converged) << name_of(p);
    EXPECT_NEAR(r.final.functional, rd.final.functional, 1e-5) << name_of(p);
    EXPECT_LT(max_unitarity_violation(u), 1e-5) << name_of(p);
  }
}

TEST(Driver, NonConvergenceIsReported) {
  const int L[4] = {4, 4, 4, 4};
  HostField u = testing::random_field(L, 3, 4, 1.0);
  const FixResult r = run(u, GaugeKind::landau, {phase(UpdateKind::relaxation, 3)}, 1e-14);
  EXPECT_FALSE(r.converged);
  EXPECT_EQ(r.iterations, 3);
}

TEST(Driver, TrackedTransformReproducesFixedField) {
  const int L[4] = {4, 4, 4, 4};
  HostField original = testing::random_field(L, 3, 6, 0.7);
  HostField u = original;
  EngineOptions eo;
  eo.track_transform = true;
  auto engine = make_engine(u, eo);
  UpdateParams up;
  for (int k = 0; k < 20; ++k) engine->sweep(up, k);
  HostField g(u.geom, 3, 1);
  engine->download(u, &g);
  apply_gauge_transform(original, g, World(MPI_COMM_SELF));
  double worst = 0;
  for (std::size_t i = 0; i < u.data.size(); ++i)
    worst = std::max(worst, std::sqrt(norm2(u.data[i] - original.data[i])));
  EXPECT_LT(worst, 1e-12);
}

} // namespace
} // namespace gf
