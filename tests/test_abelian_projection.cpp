// The Abelian projection after the maximally Abelian gauge (src/measure/abelian_projection.h):
// the link angles' convention; on diagonal fields the Abelian plaquette and Polyakov loop are the
// full ones; a diagonal gauge transformation keeps the Abelian plaquette, Polyakov loops and
// monopole currents (a general one does not); DeGrand-Toussaint currents against an oracle of
// their definition (real-valued, with the Dirac strings found by search), conserved at every
// site, summing to zero over colours, absent on unit and smooth fields, and an elementary loop
// built by hand found where it is. Suite AbelianRanks runs under mpirun too (tests/meson.build).
#include "comm/decomposition.h"
#include "core/error.h"
#include "fix/random_transform.h"
#include "fixed_fields.h"
#include "measure/abelian_projection.h"
#include "observables/observables.h"
#include "test_fields.h"
#include <cmath>
#include <gtest/gtest.h>
#include <random>

namespace gf {
namespace {

const int lattice[4] = {4, 4, 4, 8};
const double pi = 3.14159265358979323846;

// diag(e^{i chi_1}, ..., e^{-i sum chi}) with chi uniform in (-pi, pi)
HostField diagonal_field(int nc, std::uint64_t seed, int ndir = 4) {
  HostField u(Geometry::whole(lattice), nc, ndir);
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> dist(-pi, pi);
  for (std::int64_t s = 0; s < u.local_sites(); ++s)
    for (int mu = 0; mu < ndir; ++mu) {
      double last = 0;
      for (int i = 0; i < nc; ++i) {
        const double chi = i + 1 < nc ? dist(gen) : -last;
        last += chi;
        u.matrix_data(s, mu)[i * nc + i] = {std::cos(chi), std::sin(chi)};
      }
    }
  return u;
}

HostField mag_fixed_hot_field(int nc, std::uint64_t seed) {
  return testing::fixed_field(testing::random_field(lattice, nc, seed, 1.0), GaugeKind::mag, 1e-10,
                              3000)
      .links;
}

int permutation_sign(const int p[4]) {
  int inv = 0;
  for (int a = 0; a < 4; ++a)
    for (int b = a + 1; b < 4; ++b)
      inv += p[a] > p[b];
  return inv % 2 ? -1 : 1;
}

// thetabar of the plaquette angles theta (sum a multiple of 2 pi): the integers n with
// sum n = round(sum theta / 2 pi) and the smallest sum (theta - 2 pi n)^2, by search
std::vector<double> reduced(const std::vector<double>& theta) {
  const int nc = static_cast<int>(theta.size());
  double sum = 0;
  for (double t : theta)
    sum += t;
  const int k = static_cast<int>(std::lround(sum / (2 * pi)));
  std::vector<double> best;
  double best_cost = HUGE_VAL;
  int n[3];
  for (n[0] = -3; n[0] <= 3; ++n[0])
    for (n[1] = -3; n[1] <= 3; ++n[1])
      for (n[2] = -3; n[2] <= (nc == 3 ? 3 : -3); ++n[2]) {
        int total = 0;
        double cost = 0;
        std::vector<double> bar(nc);
        for (int i = 0; i < nc; ++i) {
          total += n[i];
          bar[i] = theta[i] - 2 * pi * n[i];
          cost += bar[i] * bar[i];
        }
        if (total == k && cost < best_cost) best_cost = cost, best = bar;
      }
  return best;
}

// The real-valued currents 1/(4 pi) eps d thetabar on the whole lattice, index ((s*4+mu)*nc+i).
std::vector<double> oracle_currents(const HostField& u) {
  const int nc = u.nc;
  const std::vector<double> theta = abelian_angles(u);
  const Geometry& g = u.geom;
  auto fwd_wrapped = [&](std::int64_t s, int mu) {
    SiteCoords c = g.forward(u.coords(s), mu);
    c.x[3] = (c.x[3] + g.L[3]) % g.L[3];
    return u.local_index(c);
  };
  auto bar = [&](std::int64_t s, int r, int q) {
    std::vector<double> t(nc);
    for (int i = 0; i < nc; ++i)
      t[i] = theta[(s * 4 + r) * nc + i] + theta[(fwd_wrapped(s, r) * 4 + q) * nc + i] -
             theta[(fwd_wrapped(s, q) * 4 + r) * nc + i] - theta[(s * 4 + q) * nc + i];
    return reduced(t);
  };
  std::vector<double> k(static_cast<std::size_t>(u.local_sites() * 4 * nc), 0.0);
  for (std::int64_t s = 0; s < u.local_sites(); ++s)
    for (int mu = 0; mu < 4; ++mu)
      for (int nu = 0; nu < 4; ++nu)
        for (int r = 0; r < 4; ++r)
          for (int q = 0; q < 4; ++q) {
            const int p[4] = {mu, nu, r, q};
            if (mu == nu || mu == r || mu == q || nu == r || nu == q || r == q) continue;
            const std::int64_t xm = fwd_wrapped(s, mu), xmn = fwd_wrapped(xm, nu);
            const std::vector<double> a = bar(xmn, r, q), b = bar(xm, r, q);
            for (int i = 0; i < nc; ++i)
              k[(s * 4 + mu) * nc + i] += permutation_sign(p) * (a[i] - b[i]) / (4 * pi);
          }
  return k;
}

TEST(AbelianProjection, AnglesSumToZeroAndKeepTheDiagonalPhases) {
  for (int nc : {2, 3}) {
    const HostField u = testing::random_field(lattice, nc, 31, 1.0);
    const std::vector<double> theta = abelian_angles(u);
    for (std::int64_t l = 0; l < u.local_sites() * 4; ++l) {
      double sum = 0;
      const Complex<double>* m = u.data.data() + l * nc * nc;
      // theta_i - arg U_ii: one shift of at most pi/N for every i, modulo 2 pi
      double shift0 = 0;
      for (int i = 0; i < nc; ++i) {
        const double t = theta[l * nc + i];
        ASSERT_GT(t, -pi);
        ASSERT_LE(t, pi);
        sum += t;
        const double shift =
            std::remainder(t - std::atan2(m[i * nc + i].im, m[i * nc + i].re), 2 * pi);
        EXPECT_LE(std::abs(shift), pi / nc + 1e-12);
        if (i == 0) shift0 = shift;
        EXPECT_NEAR(std::remainder(shift - shift0, 2 * pi), 0, 1e-12);
      }
      EXPECT_NEAR(std::remainder(sum, 2 * pi), 0, 1e-12);
    }
  }
}

TEST(AbelianProjection, DiagonalFieldGivesTheFullPlaquetteAndPolyakovLoop) {
  for (int nc : {2, 3}) {
    const HostField u = diagonal_field(nc, 40 + nc);
    const AbelianMeasurement a = measure_abelian(u, World::alone());
    EXPECT_NEAR(a.plaquette, plaquette(u, World::alone()), 1e-14);
    const Complex<double> p = polyakov_loop(u, World::alone());
    EXPECT_NEAR(a.polyakov_mean.re, p.re, 1e-14);
    EXPECT_NEAR(a.polyakov_mean.im, p.im, 1e-14);
    EXPECT_GT(std::abs(p.re) + std::abs(p.im), 1e-3); // not trivially zero
    // a field that is not diagonal: the Abelian plaquette is another number
    const HostField r = testing::random_field(lattice, nc, 41, 0.5);
    EXPECT_GT(std::abs(abelian_plaquette(r, World::alone()) - plaquette(r, World::alone())), 1e-3);
  }
}

TEST(AbelianProjection, DiagonalGaugeTransformationKeepsPlaquetteLoopsAndCurrents) {
  for (int nc : {2, 3}) {
    const HostField u = mag_fixed_hot_field(nc, 50 + nc);
    const HostField g = diagonal_field(nc, 60 + nc, 1);
    HostField v = u;
    apply_gauge_transform(v, g, World::alone());
    const AbelianMeasurement a = measure_abelian(u, World::alone());
    const AbelianMeasurement b = measure_abelian(v, World::alone());
    EXPECT_NEAR(a.plaquette, b.plaquette, 1e-13);
    for (int i = 0; i < nc; ++i) {
      EXPECT_NEAR(a.polyakov[i].re, b.polyakov[i].re, 1e-13);
      EXPECT_NEAR(a.polyakov[i].im, b.polyakov[i].im, 1e-13);
    }
    EXPECT_EQ(monopole_currents(u, World::alone()).m, monopole_currents(v, World::alone()).m);
    // a general gauge transformation mixes the colours: the Abelian plaquette changes
    HostField w = u;
    random_gauge_transform(w, 70);
    EXPECT_GT(std::abs(abelian_plaquette(w, World::alone()) - a.plaquette), 1e-3);
  }
}

TEST(MonopoleCurrents, NoneOnUnitAndSmoothFields) {
  for (int nc : {2, 3})
    for (const HostField& u :
         {testing::unit_field(lattice, nc), testing::random_field(lattice, nc, 80, 0.05)}) {
      const MonopoleCurrents m = monopole_currents(u, World::alone());
      for (int k : m.m)
        ASSERT_EQ(k, 0);
      for (double d : m.density)
        EXPECT_EQ(d, 0.0);
      EXPECT_EQ(m.unconserved, 0);
    }
}

TEST(MonopoleCurrents, IntegerConservedSumToZeroAsDefined) {
  for (int nc : {2, 3}) {
    const HostField u = mag_fixed_hot_field(nc, 90 + nc);
    const MonopoleCurrents m = monopole_currents(u, World::alone());
    const std::vector<double> k = oracle_currents(u);
    ASSERT_EQ(k.size(), m.m.size());
    for (std::size_t l = 0; l < k.size(); ++l) {
      EXPECT_NEAR(k[l], std::round(k[l]), 1e-10) << "not an integer at " << l;
      ASSERT_EQ(m.m[l], static_cast<int>(std::lround(k[l]))) << "at " << l;
    }
    std::vector<std::int64_t> nonzero(nc, 0);
    for (std::int64_t s = 0; s < u.local_sites(); ++s)
      for (int i = 0; i < nc; ++i) {
        int div = 0, colour_sum = 0;
        for (int mu = 0; mu < 4; ++mu) {
          const std::int64_t b = u.local_index(u.geom.backward(u.coords(s), mu));
          div += m.m[(s * 4 + mu) * nc + i] - m.m[(b * 4 + mu) * nc + i];
          nonzero[i] += m.m[(s * 4 + mu) * nc + i] != 0;
        }
        EXPECT_EQ(div, 0) << "site " << s << " colour " << i;
        for (int mu = 0; mu < 4; ++mu) {
          colour_sum = 0;
          for (int j = 0; j < nc; ++j)
            colour_sum += m.m[(s * 4 + mu) * nc + j];
          EXPECT_EQ(colour_sum, 0);
        }
      }
    EXPECT_EQ(m.unconserved, 0);
    for (int i = 0; i < nc; ++i) {
      EXPECT_GT(nonzero[i], 0) << "a hot field has monopoles";
      EXPECT_EQ(m.density[i], static_cast<double>(nonzero[i]) / (4.0 * u.local_sites()));
    }
  }
}

// One plaquette P (plane 01 at x) with angle 4 alpha > pi in colour 0: a single Dirac string, and
// the current around the dual plaquette of P: -1 on m_2(x - 2 - 3), +1 on m_2(x - 2), +1 on
// m_3(x - 2 - 3), -1 on m_3(x - 3); the other colours as their angles say.
TEST(MonopoleCurrents, ElementaryLoopBuiltByHand) {
  for (int nc : {2, 3}) {
    HostField u = testing::unit_field(lattice, nc);
    const std::vector<double> phase = nc == 2 ? std::vector<double>{0.3 * pi, -0.3 * pi}
                                              : std::vector<double>{0.3 * pi, 0.2 * pi, -0.5 * pi};
    const std::vector<int> colour_sign =
        nc == 2 ? std::vector<int>{1, -1} : std::vector<int>{1, 0, -1};
    const SiteCoords x = {{1, 1, 1, 2}};
    auto at = [&](SiteCoords c, int mu, int shift) {
      c.x[mu] = (c.x[mu] + shift + lattice[mu]) % lattice[mu];
      return c;
    };
    auto set_link = [&](const SiteCoords& c, int mu, int sign) {
      Complex<double>* m = u.matrix_data(u.local_index(c), mu);
      for (int i = 0; i < nc; ++i)
        m[i * nc + i] = {std::cos(sign * phase[i]), std::sin(sign * phase[i])};
    };
    set_link(x, 0, 1);
    set_link(at(x, 0, 1), 1, 1);
    set_link(at(x, 1, 1), 0, -1);
    set_link(x, 1, -1);
    const MonopoleCurrents m = monopole_currents(u, World::alone());
    std::vector<int> want(m.m.size(), 0);
    auto put = [&](const SiteCoords& c, int mu, int value) {
      for (int i = 0; i < nc; ++i)
        want[(u.local_index(c) * 4 + mu) * nc + i] = value * colour_sign[i];
    };
    put(at(at(x, 2, -1), 3, -1), 2, -1);
    put(at(x, 2, -1), 2, 1);
    put(at(at(x, 2, -1), 3, -1), 3, 1);
    put(at(x, 3, -1), 3, -1);
    EXPECT_EQ(m.m, want);
    EXPECT_EQ(m.unconserved, 0);
    EXPECT_EQ(m.density[0], 4.0 / (4.0 * u.local_sites()));
  }
}

TEST(AbelianProjection, RefusesOtherFields) {
  const HostField g = diagonal_field(3, 1, 1); // a gauge transformation, not links
  EXPECT_THROW(abelian_angles(g), Error);
  const HostField u = testing::unit_field(lattice, 3);
  EXPECT_THROW(abelian_plaquette(u.slab(0, 4), World::alone()), Error); // half the lattice
  EXPECT_THROW(monopole_currents(HostField(u.geom, 4, 4), World::alone()), Error); // SU(4)
}

TEST(AbelianRanks, SlabsMatchTheWholeLatticeBitwise) {
  const World world;
  const Geometry slab = decompose_time(lattice, world);
  for (int nc : {2, 3}) {
    const HostField u = mag_fixed_hot_field(nc, 100 + nc);
    const HostField part = u.slab(slab.t0, slab.nt);
    const AbelianMeasurement a = measure_abelian(u, World::alone()),
                             b = measure_abelian(part, world);
    EXPECT_EQ(a.plaquette, b.plaquette);
    for (int i = 0; i < nc; ++i) {
      EXPECT_EQ(a.polyakov[i].re, b.polyakov[i].re);
      EXPECT_EQ(a.polyakov[i].im, b.polyakov[i].im);
    }
    EXPECT_EQ(a.monopole_density, b.monopole_density);
    EXPECT_TRUE(b.currents_conserved);
    const MonopoleCurrents m1 = monopole_currents(u, World::alone()),
                           m2 = monopole_currents(part, world);
    const std::size_t first = static_cast<std::size_t>(slab.t0 * slab.v3 * 4 * nc);
    EXPECT_TRUE(std::equal(m2.m.begin(), m2.m.end(), m1.m.begin() + first));
    EXPECT_EQ(m2.unconserved, 0);
  }
}

} // namespace
} // namespace gf
