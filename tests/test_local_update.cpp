// Tier 1: every local update against the definition of the local functional. The local
// problem's value must equal the change of the dense functional of the 2 N_d links; the
// relaxation step must be the maximum (analytic value, and no random element does
// better); the microcanonical step must keep the value; overrelaxation with omega = 1 is
// relaxation.
#include "core/error.h"
#include "gauge/landau_coulomb.h"
#include "gauge/mag.h"
#include "math/random_group.h"
#include "test_fields.h"
#include "update/local_update.h"
#include <gtest/gtest.h>

namespace gf {
namespace {

template <int N>
struct Site {
  Matrix<double, N> up[4], down[4];
  explicit Site(std::uint64_t seed) {
    for (int mu = 0; mu < 4; ++mu) {
      up[mu] = testing::random_link<N>(seed, 1, mu);
      down[mu] = testing::random_link<N>(seed, 2, mu);
    }
  }
};

// Dense local functional of site x after G acts on its links, for gauge G.
template <class Gauge, int N>
double dense_local(const Site<N>& site, const Matrix<double, N>& g) {
  double f = 0;
  for (int mu = 0; mu < Gauge::n_functional_dirs; ++mu) {
    const Matrix<double, N> a = g * site.up[mu], b = site.down[mu] * adjoint(g);
    if constexpr (Gauge::kind == GaugeKind::mag) {
      for (int i = 0; i < N; ++i) f += norm2(a.m[i][i]) + norm2(b.m[i][i]);
    } else {
      f += trace(a).re + trace(b).re;
    }
  }
  return f;
}

template <class Gauge, int N>
void check_gauge() {
  for (int trial = 0; trial < 20; ++trial) {
    const Site<N> site(100 + trial);
    for (int s = 0; s < subgroup_count<N>; ++s) {
      const auto problem = Gauge::template problem<double, N>(site.up, site.down, s);
      const double f1 = dense_local<Gauge, N>(site, Matrix<double, N>::identity());
      const double v1 = problem.value(quaternion_identity<double>());
      auto delta = [&](const Quaternion<double>& g) {
        return dense_local<Gauge, N>(site, embed<double, N>(g, s)) - f1;
      };
      // the problem's value is the dense functional (up to a constant)
      for (int k = 0; k < 10; ++k) {
        const Quaternion<double> g = random_su2<double>({1, std::uint64_t(k), 0, 0}, RandomPurpose::test, s);
        EXPECT_NEAR(problem.value(g) - v1, delta(g), 1e-12);
      }
      // relaxation is the maximum
      const Quaternion<double> best = problem.maximizer();
      EXPECT_NEAR(norm2(best), 1.0, 1e-14);
      for (int k = 0; k < 2000; ++k) {
        const Quaternion<double> g = random_su2<double>({2, std::uint64_t(k), 0, 0}, RandomPurpose::test, s);
        EXPECT_LE(delta(g), delta(best) + 1e-12);
      }
      // microcanonical keeps it, and is a group element
      const Quaternion<double> refl = problem.reflection();
      EXPECT_NEAR(norm2(refl), 1.0, 1e-13);
      EXPECT_NEAR(delta(refl), 0.0, 1e-12);
      // overrelaxation: omega = 1 is relaxation; omega in (1, 2) still improves
      EXPECT_LT(norm2(overrelax(best, 1.0) + scale(best, -1.0)), 1e-28);
      EXPECT_GE(delta(overrelax(best, 1.7)), -1e-12);
      EXPECT_NEAR(norm2(overrelax(best, 1.7)), 1.0, 1e-13);
    }
  }
}

TEST(LocalUpdate, LandauSU3) { check_gauge<LandauGauge, 3>(); }
TEST(LocalUpdate, LandauSU2) { check_gauge<LandauGauge, 2>(); }
TEST(LocalUpdate, CoulombSU3) { check_gauge<CoulombGauge, 3>(); }
TEST(LocalUpdate, MagSU3) { check_gauge<MagGauge, 3>(); }
TEST(LocalUpdate, MagSU2) { check_gauge<MagGauge, 2>(); }

TEST(LocalUpdate, LinearMaximumIsNormOfProjection) {
  const Site<3> site(5);
  const auto problem = LandauGauge::problem<double, 3>(site.up, site.down, 1);
  EXPECT_NEAR(problem.value(problem.maximizer()), std::sqrt(norm2(problem.q)), 1e-13);
}

TEST(LocalUpdate, QuadraticMaximumIsTopEigenvalue) {
  const Site<2> site(6);
  const auto p = MagGauge::problem<double, 2>(site.up, site.down, 0);
  const double top = (p.a + p.b) / 2 + std::sqrt((p.a - p.b) * (p.a - p.b) / 4 + norm2(p.c));
  EXPECT_NEAR(p.value(p.maximizer()), top, 1e-12);
}

TEST(LocalUpdate, ParameterValidation) {
  UpdateParams p;
  p.omega = 2.0;
  EXPECT_THROW(validate(p), Error);
  p.omega = 0.9;
  EXPECT_THROW(validate(p), Error);
  p.omega = 1.5;
  p.probability = 1.1;
  EXPECT_THROW(validate(p), Error);
  p.probability = -0.1;
  EXPECT_THROW(validate(p), Error);
  p.probability = 0.5;
  EXPECT_NO_THROW(validate(p));
}

} // namespace
} // namespace gf

namespace gf {
namespace {

// The division-free overrelaxed maximiser of the linear problem equals the paper's
// formula applied to the maximiser, for random problems and omega in [1, 2).
TEST(LocalUpdate, OverrelaxedMaximizerMatchesFormula) {
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    const Uniform4<double> r = uniform4<double>({seed, 3, 0, 0}, RandomPurpose::test, 0, 0);
    const LinearProblem<double> p = {{{4 * r.u[0] - 2, 4 * r.u[1] - 2, 4 * r.u[2] - 2, 4 * r.u[3] - 2}}};
    for (double omega : {1.0, 1.3, 1.7, 1.95}) {
      const Quaternion<double> a = p.overrelaxed_maximizer(omega), b = overrelax(p.maximizer(), omega);
      for (int i = 0; i < 4; ++i) EXPECT_NEAR(a[i], b[i], 1e-14) << seed << " " << omega;
    }
  }
  EXPECT_EQ(LinearProblem<double>{}.overrelaxed_maximizer(1.7)[0], 1.0); // q = 0: identity
}

} // namespace
} // namespace gf
