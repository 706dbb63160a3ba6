// The Faddeev-Popov operator and the ghost propagator (src/measure/faddeev_popov.h,
// ghost_propagator.h): the unit field's G(p) = 1/p^2 and lowest eigenvalue; M's quadratic form
// against the second derivative of the Landau functional, M on constants against i[w, d.A], M
// against Zwanziger's component form (S^ab, f^abc A^c) of docs/measurements.md;
// symmetry, constants as zero modes and positivity on Landau-fixed fields (and their failure on
// unfixed ones); invariance of G and of the lowest eigenvalue under a global gauge rotation; the
// momenta of every cut with G = 1/p^2 at each on the unit field; the symmetric part H of M,
// symmetric on any field; the CG on slices of partial chunks, the GPU's tiles; the sample field's
// lowest eigenvalue at every Lanczos tolerance, never below it; the tridiagonal eigenpair of the
// Lanczos iteration; refused momenta and limits; two solvers side by side, bitwise one. Suite
// GhostRanks runs under mpirun too (tests/meson.build): each rank's slab against the whole lattice,
// bitwise.
#include "comm/decomposition.h"
#include "core/error.h"
#include "fixed_fields.h"
#include "gauge_file_test_util.h"
#include "io/gauge_file.h"
#include "math/random_group.h"
#include "measure/adjoint.h"
#include "measure/faddeev_popov.h"
#include "measure/ghost_cg.h"
#include "measure/ghost_propagator.h"
#include "measure/ghost_tiles.h"
#include "measure/tridiagonal.h"
#include "test_fields.h"
#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <random>

namespace gf {
namespace {

const int lattice[4] = {4, 4, 4, 8};
const double pi = 3.14159265358979323846;

std::vector<double> random_vector(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  std::vector<double> v(n);
  for (double& x : v)
    x = dist(gen);
  return v;
}

double max_abs(const std::vector<double>& v) {
  double m = 0;
  for (double x : v)
    m = std::max(m, std::abs(x));
  return m;
}

// exp(i eps h) for Hermitian h, by its Taylor series
template <int N>
Matrix<double, N> exp_i(double eps, const Matrix<double, N>& h) {
  Matrix<double, N> a, term = Matrix<double, N>::identity(), sum = term;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      a.m[i][j] = {-eps * h.m[i][j].im, eps * h.m[i][j].re};
  for (int k = 1; k < 30; ++k) {
    term = term * a;
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j)
        term.m[i][j] = (1.0 / k) * term.m[i][j];
    sum = sum + term;
  }
  return sum;
}

// sum_{x,mu} Re tr(g(x) U_mu(x) g(x + mu)^dagger) with g = exp(i eps w)
template <int N>
double landau_functional(const HostField& u, const std::vector<double>& w, double eps) {
  constexpr int D = N * N - 1;
  std::vector<Matrix<double, N>> g(static_cast<std::size_t>(u.local_sites()));
  for (std::int64_t s = 0; s < u.local_sites(); ++s) {
    Matrix<double, N> h;
    to_matrix(w.data() + s * D, h);
    g[s] = exp_i(eps, h);
  }
  double f = 0;
  for (std::int64_t s = 0; s < u.local_sites(); ++s)
    for (int mu = 0; mu < 4; ++mu) {
      const std::int64_t y = u.local_index(u.geom.forward(u.coords(s), mu));
      f += re_trace_product(g[s] * u.get<N>(s, mu), adjoint(g[y]));
    }
  return f;
}

template <int N>
void quadratic_form_is_the_hessian() {
  const HostField u = testing::random_field(lattice, N, 3, 0.7);
  const FaddeevPopov m(u, World::alone());
  const std::vector<double> w = random_vector(m.size(), 11);
  std::vector<double> mw;
  m.apply(w, mw);
  const double eps = 1e-3;
  const double second = (landau_functional<N>(u, w, eps) - 2 * landau_functional<N>(u, w, 0) +
                         landau_functional<N>(u, w, -eps)) /
                        (eps * eps);
  const double form = m.dot(w, mw);
  EXPECT_NEAR(second, -0.5 * form, 1e-5 * std::abs(form));
}

// twice_matrix is bitwise twice to_matrix: the operator's terms are formed from it and halved.
template <int N>
void twice_matrix_is_exact() {
  constexpr int D = N * N - 1;
  const std::vector<double> w = random_vector(64 * D, 21);
  for (int s = 0; s < 64; ++s) {
    Matrix<double, N> once, twice;
    to_matrix(w.data() + s * D, once);
    twice_matrix(w.data() + s * D, twice);
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j) {
        EXPECT_EQ(twice.m[i][j].re, 2 * once.m[i][j].re) << s << " " << i << j;
        EXPECT_EQ(twice.m[i][j].im, 2 * once.m[i][j].im) << s << " " << i << j;
      }
  }
}

TEST(FaddeevPopov, TwiceMatrixIsBitwiseTwiceTheMatrixSu2) {
  twice_matrix_is_exact<2>();
}
TEST(FaddeevPopov, TwiceMatrixIsBitwiseTwiceTheMatrixSu3) {
  twice_matrix_is_exact<3>();
}

TEST(FaddeevPopov, QuadraticFormIsTheHessianOfTheLandauFunctionalSu2) {
  quadratic_form_is_the_hessian<2>();
}
TEST(FaddeevPopov, QuadraticFormIsTheHessianOfTheLandauFunctionalSu3) {
  quadratic_form_is_the_hessian<3>();
}

// M applied to a constant w is i[w, (d.A)(x)], (d.A)(x) = sum_mu A_mu(x) - A_mu(x - mu): on any
// field; zero in Landau gauge.
template <int N>
void constants_give_the_divergence() {
  constexpr int D = N * N - 1;
  const HostField u = testing::random_field(lattice, N, 4, 0.5);
  const FaddeevPopov m(u, World::alone());
  const std::vector<double> c = random_vector(D, 5);
  std::vector<double> w(m.size()), mw;
  for (std::size_t i = 0; i < w.size(); ++i)
    w[i] = c[i % D];
  m.apply(w, mw);
  Matrix<double, N> cm;
  to_matrix(c.data(), cm);
  auto a_of = [&](std::int64_t s, int mu) { // (U - U^dagger)/2i; its trace part commutes
    const Matrix<double, N> l = u.get<N>(s, mu), d = l - adjoint(l);
    Matrix<double, N> a;
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j)
        a.m[i][j] = {0.5 * d.m[i][j].im, -0.5 * d.m[i][j].re};
    return a;
  };
  double worst = 0, size = 0;
  for (std::int64_t s = 0; s < u.local_sites(); ++s) {
    Matrix<double, N> div = Matrix<double, N>::zero();
    for (int mu = 0; mu < 4; ++mu)
      div = div + a_of(s, mu) - a_of(u.local_index(u.geom.backward(u.coords(s), mu)), mu);
    const Matrix<double, N> comm = cm * div - div * cm; // i [c, div]: components of P[i comm]
    Matrix<double, N> i_comm;
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j)
        i_comm.m[i][j] = {-comm.m[i][j].im, comm.m[i][j].re};
    double want[D];
    algebra_components(i_comm, want);
    for (int a = 0; a < D; ++a) {
      worst = std::max(worst, std::abs(mw[s * D + a] - want[a]));
      size = std::max(size, std::abs(want[a]));
    }
  }
  EXPECT_GT(size, 0.1); // the field is far from Landau gauge
  EXPECT_LT(worst, 1e-13);
}

TEST(FaddeevPopov, ConstantsGiveTheCommutatorWithTheDivergenceSu2) {
  constants_give_the_divergence<2>();
}
TEST(FaddeevPopov, ConstantsGiveTheCommutatorWithTheDivergenceSu3) {
  constants_give_the_divergence<3>();
}

// Zwanziger's component form of docs/measurements.md, with S^ab, A^c and f^abc computed from
// the generators, against the matrix-free operator, on a field far from Landau gauge.
template <int N>
void component_form() {
  constexpr int D = N * N - 1;
  const HostField u = testing::random_field(lattice, N, 14, 0.6);
  const FaddeevPopov m(u, World::alone());
  const std::vector<double> w = random_vector(m.size(), 15);
  std::vector<double> mw;
  m.apply(w, mw);
  Matrix<double, N> t[D];
  for (int a = 0; a < D; ++a) {
    double e[D] = {};
    e[a] = 1;
    to_matrix(e, t[a]);
  }
  // f^abc = -2i tr([T^a, T^b] T^c)
  std::vector<double> f(D * D * D);
  for (int a = 0; a < D; ++a)
    for (int b = 0; b < D; ++b)
      for (int c = 0; c < D; ++c) {
        const Complex<double> tr = trace((t[a] * t[b] - t[b] * t[a]) * t[c]);
        f[(a * D + b) * D + c] = 2 * tr.im;
      }
  auto s_ab = [&](const Matrix<double, N>& l, int a, int b) {
    return re_trace_product(t[a] * t[b] + t[b] * t[a], l);
  };
  auto a_c = [&](const Matrix<double, N>& l, int c) { // 2 tr(T^c (U - U^dagger)/2i)
    return trace(t[c] * (l - adjoint(l))).im;
  };
  double worst = 0;
  for (std::int64_t s = 0; s < u.local_sites(); ++s) {
    const SiteCoords x = u.coords(s);
    for (int a = 0; a < D; ++a) {
      double v = 0;
      for (int mu = 0; mu < 4; ++mu) {
        const std::int64_t xf = u.local_index(u.geom.forward(x, mu));
        const std::int64_t xb = u.local_index(u.geom.backward(x, mu));
        const Matrix<double, N> up = u.get<N>(s, mu), down = u.get<N>(xb, mu);
        for (int b = 0; b < D; ++b) {
          v += s_ab(up, a, b) * (w[s * D + b] - w[xf * D + b]) +
               s_ab(down, a, b) * (w[s * D + b] - w[xb * D + b]);
          for (int c = 0; c < D; ++c) {
            const double fabc = f[(a * D + b) * D + c];
            v -= 0.5 * fabc * (a_c(up, c) * w[xf * D + b] - a_c(down, c) * w[xb * D + b]);
            v -= 0.5 * fabc * (a_c(up, c) - a_c(down, c)) * w[s * D + b]; // (d.A)^c w^b
          }
        }
      }
      worst = std::max(worst, std::abs(v - mw[s * D + a]));
    }
  }
  EXPECT_LT(worst, 1e-12);
}

TEST(FaddeevPopov, ZwanzigerComponentFormSu2) {
  component_form<2>();
}
TEST(FaddeevPopov, ZwanzigerComponentFormSu3) {
  component_form<3>();
}

// Symmetric, constants annihilated and positive semi-definite on a Landau-fixed field; neither
// of the first two before the fix.
void landau_fixed_properties(int nc) {
  const HostField u = testing::random_field(lattice, nc, 6, 0.8);
  const testing::FixedField fixed = testing::fixed_field(u, GaugeKind::landau, 1e-24);
  ASSERT_TRUE(fixed.result.converged);
  const int d = nc * nc - 1;
  for (const HostField* field : {&u, &fixed.links}) {
    const bool is_fixed = field == &fixed.links;
    const FaddeevPopov m(*field, World::alone());
    const std::vector<double> a = random_vector(m.size(), 7), b = random_vector(m.size(), 8);
    std::vector<double> ma, mb, c(m.size()), mc;
    m.apply(a, ma);
    m.apply(b, mb);
    const double asymmetry =
        std::abs(m.dot(a, mb) - m.dot(ma, b)) / std::sqrt(m.dot(a, a) * m.dot(mb, mb));
    for (std::size_t i = 0; i < c.size(); ++i)
      c[i] = 1.0 + 0.1 * static_cast<double>(i % d);
    m.apply(c, mc);
    const double on_constants = max_abs(mc) / max_abs(c);
    if (is_fixed) {
      EXPECT_LT(asymmetry, 1e-10);
      EXPECT_LT(on_constants, 1e-10);
      const EigenResult e = lowest_eigenvalue(m, 1e-9, 3000);
      EXPECT_TRUE(e.converged) << e.iterations << " iterations, residual " << e.residual;
      EXPECT_GE(e.eigenvalue, -1e-9);
      EXPECT_LT(e.eigenvalue, 4 * std::sin(pi / 8) * std::sin(pi / 8)); // below the free one
    } else {
      EXPECT_GT(asymmetry, 1e-4);
      EXPECT_GT(on_constants, 1e-2);
    }
  }
}

TEST(FaddeevPopov, LandauFixedFieldSymmetricPositiveConstantsZeroModesSu2) {
  landau_fixed_properties(2);
}
TEST(FaddeevPopov, LandauFixedFieldSymmetricPositiveConstantsZeroModesSu3) {
  landau_fixed_properties(3);
}

// H = (M + M^T)/2 on any field: symmetric where M is not (a field far from Landau gauge), the
// same quadratic form; H = M on the unit field.
TEST(FaddeevPopov, SymmetricPartIsSymmetricOnAnyField) {
  for (int nc : {2, 3}) {
    const HostField u = testing::random_field(lattice, nc, 5, 0.8);
    const FaddeevPopov m(u, World::alone());
    const std::vector<double> a = random_vector(m.size(), 14), b = random_vector(m.size(), 15);
    std::vector<double> ma, mb, ha, hb;
    m.apply(a, ma);
    m.apply(b, mb);
    m.apply(a, ha, FaddeevPopov::Part::symmetric);
    m.apply(b, hb, FaddeevPopov::Part::symmetric);
    const double scale = std::sqrt(m.dot(a, a) * m.dot(mb, mb));
    EXPECT_GT(std::abs(m.dot(a, mb) - m.dot(ma, b)), 1e-4 * scale) << nc;
    EXPECT_LT(std::abs(m.dot(a, hb) - m.dot(ha, b)), 1e-13 * scale) << nc;
    EXPECT_NEAR(m.dot(a, hb), 0.5 * (m.dot(a, mb) + m.dot(ma, b)), 1e-13 * scale) << nc;
    EXPECT_NEAR(m.dot(a, ha), m.dot(a, ma), 1e-13 * scale) << nc;
    const HostField unit = testing::unit_field(lattice, nc);
    const FaddeevPopov m1(unit, World::alone());
    m1.apply(a, ma);
    m1.apply(a, ha, FaddeevPopov::Part::symmetric);
    EXPECT_EQ(ma, ha) << nc;
  }
}

// Lanczos run far below the field's departure from Landau gauge (theta = 8.7e-15, |d.A| ~ 1e-7)
// stays on the non-trivial spectrum: no negative eigenvalue (docs/measurements.md, "Lowest
// eigenvalue": with M itself and without the projection it went to -1.05e-7 at 1e-8).
TEST(GhostPropagator, LowestEigenvalueOfTheSampleFieldAtEveryTolerance) {
  GF_SAMPLE(path, "lat..400.landau");
  const HostField u = read_gauge_file(path, World::alone());
  const FaddeevPopov m(u, World::alone());
  for (double tolerance : {1e-6, 1e-8, 1e-10, 1e-12}) {
    const EigenResult e = lowest_eigenvalue(m, tolerance, 5000);
    EXPECT_TRUE(e.converged) << tolerance << ": " << e.iterations << " steps";
    EXPECT_GE(e.eigenvalue, -tolerance) << tolerance;
    EXPECT_NEAR(e.eigenvalue, 0.0621332543, 1e-9) << tolerance;
  }
}

TEST(GhostPropagator, UnitFieldIsOneOverMomentumSquared) {
  for (int nc : {2, 3}) {
    const HostField u = testing::unit_field(lattice, nc);
    const FaddeevPopov m(u, World::alone());
    // (0,0,0,4) and (2,0,0,0): the sine source vanishes
    const std::vector<Momentum> momenta = {{1, 0, 0, 0}, {0, 0, 0, 1}, {1, 2, -1, 3},
                                           {0, 0, 0, 4}, {2, 0, 0, 0}, {-1, 0, 5, 0}};
    const std::vector<GhostPoint> g = ghost_propagator(m, momenta, 1e-13, 100);
    ASSERT_EQ(g.size(), momenta.size());
    for (const GhostPoint& p : g) {
      double p2 = 0;
      for (int mu = 0; mu < 4; ++mu)
        p2 += 4 * std::pow(std::sin(pi * p.n[mu] / lattice[mu]), 2);
      EXPECT_NEAR(p.p2, p2, 1e-14);
      EXPECT_NEAR(p.propagator, 1 / p2, 1e-12 / p2)
          << "momentum " << p.n[0] << p.n[1] << p.n[2] << p.n[3];
      EXPECT_TRUE(p.converged);
      const bool sine_vanishes = p.n == Momentum{0, 0, 0, 4} || p.n == Momentum{2, 0, 0, 0};
      EXPECT_EQ(p.solves, (sine_vanishes ? 1 : 2) * (nc * nc - 1));
    }
  }
}

// The CG's sum chunks of 128 sites of a slice (chunk_sums.h) where a slice is not a whole number
// of chunks (9 x 6 x 5 = 270 sites), and a tile layout of 32 sites (ghost_tiles.h, the GPU's)
// where it is not a whole number of tiles, on one thread (4 slices) and on several (16): on
// the unit field M = -Laplacian, so a sum of three plane waves of different p^2 (in x, z and t,
// in different colours) is solved in three iterations by x = sum_k b_k / p_k^2.
TEST(GhostPropagator, ConjugateGradientOnPartialTilesAndChunks) {
  const TileLayout<32> l = TileLayout<32>::of(270, 8);
  EXPECT_EQ(l.tiles, 9);
  EXPECT_EQ(l.at(1, 269, 7), ((9 + 8) * 8 + 7) * 32 + 13);
  std::vector<double> natural(2 * 270 * 8), tiled(2 * l.slice(), -1.0), back(natural.size());
  for (std::size_t i = 0; i < natural.size(); ++i)
    natural[i] = static_cast<double>(i);
  tile(natural.data(), l, 2, 270, tiled.data());
  untile(tiled.data(), l, 2, 270, back.data());
  EXPECT_EQ(back, natural);
  EXPECT_EQ(tiled[l.at(1, 33, 2)], natural[(270 + 33) * 8 + 2]);
  for (int nt : {4, 16})
    for (int nc : {2, 3}) {
      const int L[4] = {9, 6, 5, nt};
      const HostField u = testing::unit_field(L, nc);
      const FaddeevPopov m(u, World::alone());
      const int d = m.components();
      const Momentum n[3] = {{1, 0, 0, 0}, {0, 0, 2, 0}, {0, 0, 0, 1}};
      std::vector<double> b(m.size(), 0.0), expected(m.size(), 0.0), x;
      for (std::int64_t s = 0; s < u.local_sites(); ++s)
        for (int k = 0; k < 3; ++k) {
          double phase = 0;
          for (int mu = 0; mu < 4; ++mu)
            phase += 2 * pi * n[k][mu] * u.coords(s).x[mu] / L[mu];
          const std::size_t i = static_cast<std::size_t>(s * d + k % d);
          b[i] += std::cos(phase);
          expected[i] += std::cos(phase) / lattice_momentum_squared(L, n[k]);
        }
      const SolveResult r = conjugate_gradient(m, b, x, 1e-12, 10);
      EXPECT_TRUE(r.converged) << "SU(" << nc << ") nt " << nt;
      EXPECT_EQ(r.iterations, 3) << "SU(" << nc << ") nt " << nt;
      ASSERT_EQ(x.size(), expected.size());
      double worst = 0;
      for (std::size_t i = 0; i < x.size(); ++i)
        worst = std::max(worst, std::abs(x[i] - expected[i]));
      EXPECT_LT(worst, 1e-10) << "SU(" << nc << ") nt " << nt;
    }
}

// A colour's source written from a plane wave on the backend (GhostCg::start_colour) is bitwise
// the source built and projected on the host (project_out_constants), and so is the solve from
// it; FaddeevPopov::mean is the mean the projection subtracts.
TEST(GhostPropagator, WaveSourcesAreTheProjectedSourcesBitwise) {
  for (int nc : {2, 3}) {
    const int L[4] = {4, 6, 4, 8};
    const HostField u = testing::random_field(L, nc, 7, 0.3);
    const FaddeevPopov m(u, World::alone());
    const int d = m.components();
    const std::int64_t sites = u.local_sites();
    std::mt19937_64 rng(3);
    std::uniform_real_distribution<double> uniform(-1, 1);
    std::vector<double> wave(static_cast<std::size_t>(sites));
    for (double& w : wave)
      w = uniform(rng);
    const double mean = m.mean(wave);
    GhostCg<HostExec> from_host(m), from_wave(m);
    from_wave.load_wave(wave);
    for (int colour : {0, d - 1}) {
      std::vector<double> b(m.size(), 0.0);
      for (std::int64_t s = 0; s < sites; ++s)
        b[s * d + colour] = wave[s];
      m.project_out_constants(b);
      for (std::int64_t s = 0; s < sites; ++s)
        ASSERT_EQ(b[s * d + colour], wave[s] - mean) << "SU(" << nc << ") site " << s;
      const SolveResult r1 = from_host.solve(b, 1e-300, 6);
      from_wave.start_colour(colour, mean);
      const SolveResult r2 = from_wave.iterate(1e-300, 6);
      EXPECT_EQ(r1.iterations, r2.iterations);
      EXPECT_EQ(r1.residual, r2.residual);
      std::vector<double> x1, x2;
      from_host.solution(x1);
      from_wave.solution(x2);
      EXPECT_EQ(x1, x2) << "SU(" << nc << ") colour " << colour;
      EXPECT_EQ(from_host.source_dot_solution(), from_wave.source_dot_solution());
    }
  }
}

// Two solvers side by side (GhostCg::iterate_together, as on one GPU) give each solve the bits
// it has alone: G(p), the iteration counts and residuals, where the two solves of a pair end at
// different iterations, where a momentum has an odd number of sources (SU(2) with the sine
// vanishing: 3) and next to a solve of a zero source (no iterations, x = 0).
TEST(GhostPropagator, SolversSideBySideGiveTheOneSolversBits) {
  for (int nc : {2, 3}) {
    const HostField fixed =
        testing::fixed_field(testing::random_field(lattice, nc, 43, 0.6), GaugeKind::landau, 1e-24)
            .links;
    const FaddeevPopov m(fixed, World::alone());
    const std::vector<Momentum> momenta = {{1, 0, 0, 0}, {0, 0, 0, 4}};
    const std::vector<GhostPoint> one = ghost_points<HostExec>(m, momenta, 1e-11, 2000, {}, 1);
    const std::vector<GhostPoint> two = ghost_points<HostExec>(m, momenta, 1e-11, 2000, {}, 2);
    ASSERT_EQ(one.size(), two.size());
    for (std::size_t k = 0; k < one.size(); ++k) {
      EXPECT_TRUE(one[k].converged && two[k].converged);
      EXPECT_EQ(one[k].propagator, two[k].propagator) << "SU(" << nc << ") momentum " << k;
      EXPECT_EQ(one[k].solves, two[k].solves);
      EXPECT_EQ(one[k].total_iterations, two[k].total_iterations);
      EXPECT_EQ(one[k].max_iterations, two[k].max_iterations);
      EXPECT_EQ(one[k].max_residual, two[k].max_residual);
    }
    EXPECT_EQ(one[1].solves, nc == 2 ? 3 : 8);
    // the solves of a momentum end at different iterations
    EXPECT_NE(one[0].total_iterations, one[0].solves * one[0].max_iterations);

    std::vector<double> b(m.size(), 0.0), zero(m.size(), 0.0), x_alone, x_pair, x_zero;
    for (std::int64_t s = 0; s < fixed.local_sites(); ++s)
      b[s * m.components()] = std::cos(0.25 * 6.283185307179586 * fixed.coords(s).x[0]);
    m.project_out_constants(b);
    GhostCg<HostExec> alone(m), beside(m), with(m, beside.links());
    alone.start(b);
    const SolveResult r = alone.iterate(1e-11, 2000);
    beside.start(zero);
    with.start(b);
    const std::vector<SolveResult> rs =
        GhostCg<HostExec>::iterate_together({&beside, &with}, 1e-11, 2000);
    EXPECT_TRUE(rs[0].converged);
    EXPECT_EQ(rs[0].iterations, 0);
    EXPECT_TRUE(r.converged && rs[1].converged);
    EXPECT_EQ(rs[1].iterations, r.iterations);
    EXPECT_EQ(rs[1].residual, r.residual);
    alone.solution(x_alone);
    with.solution(x_pair);
    beside.solution(x_zero);
    EXPECT_EQ(x_alone, x_pair);
    EXPECT_EQ(x_zero, zero);
  }
}

// The momenta of each cut (momentum_cut.h) on 4^3 x 8, where n_t = +-2 counts as n_mu = +-1
// in space, and G(p) = 1/p^2 on the unit field at every one of them.
TEST(GhostPropagator, EveryCutsMomentaOnTheUnitField) {
  struct Case {
    MomentumCut cut;
    std::size_t count;
    std::vector<Momentum> in, out;
  };
  const std::vector<Case> cases = {
      // n^2 <= 1: the 6 spatial unit vectors and n_t = +-1, +-2
      {{CutKind::psq, 1, 1.0}, 10, {{0, 0, 0, 2}, {-1, 0, 0, 0}}, {{1, 1, 0, 0}, {0, 0, 0, 3}}},
      // |n_i| <= 1, |n_t| <= 2: 3^3 x 5 - 1
      {{CutKind::hypercubic, 1, 1.0}, 134, {{1, 1, 1, 2}, {-1, 0, 1, -2}}, {{0, 0, 0, 3}}},
      // n^2 <= 4 within pi/4 of a diagonal: (+-1, +-1, +-1, +-1 or +-2) and (0, 0, 0, +-1)
      {{CutKind::cylinder, 4, 0.5},
       34,
       {{1, 1, 1, 1}, {-1, 1, -1, -2}, {0, 0, 0, -1}},
       {{1, 0, 0, 0}, {1, 1, 0, 0}, {0, 0, 0, 2}}},
  };
  const HostField u = testing::unit_field(lattice, 2);
  const FaddeevPopov m(u, World::alone());
  for (const Case& c : cases) {
    const std::vector<Momentum> momenta = ghost_momenta(lattice, c.cut);
    EXPECT_EQ(momenta.size(), c.count) << gaugefix::to_string(c.cut.kind);
    const auto has = [&](const Momentum& n) {
      return std::find(momenta.begin(), momenta.end(), n) != momenta.end();
    };
    EXPECT_FALSE(has({0, 0, 0, 0})) << gaugefix::to_string(c.cut.kind);
    for (const Momentum& n : momenta) {
      const Momentum minus = {-n[0], -n[1], -n[2], -n[3]};
      const bool inside =
          std::abs(n[0]) < 2 && std::abs(n[1]) < 2 && std::abs(n[2]) < 2 && std::abs(n[3]) < 4;
      EXPECT_TRUE(!inside || has(minus)) << gaugefix::to_string(c.cut.kind);
    }
    for (const Momentum& n : c.in)
      EXPECT_TRUE(has(n)) << gaugefix::to_string(c.cut.kind) << " lacks " << n[0] << n[1] << n[2]
                          << n[3];
    for (const Momentum& n : c.out)
      EXPECT_FALSE(has(n)) << gaugefix::to_string(c.cut.kind) << " has " << n[0] << n[1] << n[2]
                           << n[3];
    for (const GhostPoint& p : ghost_propagator(m, momenta, 1e-12, 200)) {
      EXPECT_TRUE(p.converged);
      EXPECT_NEAR(p.propagator * p.p2, 1.0, 1e-10)
          << gaugefix::to_string(c.cut.kind) << " at " << p.n[0] << p.n[1] << p.n[2] << p.n[3];
    }
  }
}

TEST(GhostPropagator, UnitFieldLowestEigenvalueIsTheSmallestMomentum) {
  for (int nc : {2, 3}) {
    const HostField u = testing::unit_field(lattice, nc);
    const FaddeevPopov m(u, World::alone());
    const EigenResult e = lowest_eigenvalue(m, 1e-10, 2000);
    EXPECT_TRUE(e.converged);
    EXPECT_NEAR(e.eigenvalue, 4 * std::pow(std::sin(pi / 8), 2), 1e-9);
    EXPECT_LE(e.residual, 1e-10);
  }
}

// A global rotation U -> g U g^dagger rotates M in colour space: G(p), a trace over colours,
// and the spectrum do not change.
TEST(GhostPropagator, GlobalGaugeRotationKeepsPropagatorAndSpectrum) {
  const HostField u = testing::random_field(lattice, 3, 9, 0.6);
  const HostField fixed = testing::fixed_field(u, GaugeKind::landau, 1e-24).links;
  HostField rotated = fixed;
  const Matrix<double, 3> g = random_sun<double, 3>({77, 0, 0, 0}, RandomPurpose::test);
  for (std::int64_t s = 0; s < rotated.local_sites(); ++s)
    for (int mu = 0; mu < 4; ++mu)
      rotated.set<3>(s, mu, g * fixed.get<3>(s, mu) * adjoint(g));
  const FaddeevPopov m1(fixed, World::alone()), m2(rotated, World::alone());
  const std::vector<Momentum> momenta = {{1, 0, 0, 0}, {0, 1, 1, 1}};
  const std::vector<GhostPoint> g1 = ghost_propagator(m1, momenta, 1e-11, 1000);
  const std::vector<GhostPoint> g2 = ghost_propagator(m2, momenta, 1e-11, 1000);
  for (std::size_t k = 0; k < momenta.size(); ++k) {
    EXPECT_TRUE(g1[k].converged && g2[k].converged);
    EXPECT_GT(g1[k].propagator, 0);
    EXPECT_NEAR(g1[k].propagator, g2[k].propagator, 1e-9 * g1[k].propagator);
  }
  const EigenResult e1 = lowest_eigenvalue(m1, 1e-9, 3000), e2 = lowest_eigenvalue(m2, 1e-9, 3000);
  EXPECT_TRUE(e1.converged && e2.converged);
  EXPECT_NEAR(e1.eigenvalue, e2.eigenvalue, 1e-8);
  // another Landau-fixed field has another spectrum: the comparison can fail
  const HostField other =
      testing::fixed_field(testing::random_field(lattice, 3, 10, 0.6), GaugeKind::landau, 1e-24)
          .links;
  const EigenResult e0 = lowest_eigenvalue(FaddeevPopov(other, World::alone()), 1e-9, 3000);
  EXPECT_TRUE(e0.converged);
  EXPECT_GT(std::abs(e0.eigenvalue - e1.eigenvalue), 1e-4);
}

TEST(GhostPropagator, RefusesTheConstantModeAndBadLimits) {
  const HostField u = testing::unit_field(lattice, 2);
  const FaddeevPopov m(u, World::alone());
  try {
    ghost_propagator(m, {{1, 0, 0, 0}, {4, 0, -4, 8}}, 1e-10, 10);
    FAIL() << "the constant mode was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("momentum (4,0,-4,8) is the constant mode"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(ghost_propagator(m, {{1, 0, 0, 0}}, 0.0, 10), Error);
  EXPECT_THROW(ghost_propagator(m, {{1, 0, 0, 0}}, 1e-10, 0), Error);
  EXPECT_THROW(lowest_eigenvalue(m, -1.0, 10), Error);
  HostField g(u.geom, 2, 1);
  EXPECT_THROW(FaddeevPopov(g, World::alone()), Error);
}

// Far from Landau gauge M is not positive: the CG stops with an error that names the iteration,
// never with a G(p) from a form <p|M p> <= 0.
TEST(GhostPropagator, StopsWhereTheOperatorIsNotPositive) {
  const HostField u = testing::random_field(lattice, 3, 7, 1.0); // rough, not gauge fixed
  const FaddeevPopov m(u, World::alone());
  try {
    ghost_propagator(m, {{1, 0, 0, 0}}, 1e-10, 1000);
    FAIL() << "a CG on a field far from Landau gauge ended without an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("the Faddeev-Popov operator is not positive"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find(" at iteration "), std::string::npos) << e.what();
  }
}

// diagonal 2, off-diagonal -1: eigenvalues 2 - 2 cos(k pi/(n+1)), eigenvectors sin(i k pi/(n+1))
TEST(Tridiagonal, LowestEigenpairOfTheLaplacianChain) {
  for (int n : {1, 2, 7, 100}) {
    const std::vector<double> a(n, 2.0), b(n - 1, -1.0);
    const LowestEigenpair e = lowest_eigenpair(a, b);
    const double h = pi / (n + 1);
    EXPECT_NEAR(e.value, 2 - 2 * std::cos(h), 1e-14) << n;
    EXPECT_NEAR(e.last_component, std::sqrt(2.0 / (n + 1)) * std::sin(n * h), 1e-12) << n;
  }
  // the lowest of two well separated blocks joined weakly
  const LowestEigenpair e = lowest_eigenpair({5, 5, -1, -1}, {0.5, 1e-9, 0.5});
  EXPECT_NEAR(e.value, -1.5, 1e-12);
  EXPECT_NEAR(e.last_component, std::sqrt(0.5), 1e-8);
}

// Several ranks: each rank's slab gives bitwise the whole lattice's M w, G(p) and Lanczos steps.
TEST(GhostRanks, SlabsMatchTheWholeLatticeBitwise) {
  const World world;
  const Geometry slab = decompose_time(lattice, world);
  for (int nc : {2, 3}) {
    const int d = nc * nc - 1;
    const HostField fixed =
        testing::fixed_field(testing::random_field(lattice, nc, 12, 0.6), GaugeKind::landau, 1e-24)
            .links;
    const HostField part = fixed.slab(slab.t0, slab.nt);
    const FaddeevPopov whole(fixed, World::alone()), mine(part, world);
    const std::vector<double> w = random_vector(whole.size(), 13);
    const std::size_t first = static_cast<std::size_t>(slab.t0 * slab.v3 * d);
    const std::vector<double> w_part(w.begin() + first, w.begin() + first + mine.size());
    std::vector<double> mw, mw_part;
    whole.apply(w, mw);
    mine.apply(w_part, mw_part);
    EXPECT_TRUE(std::equal(mw_part.begin(), mw_part.end(), mw.begin() + first));
    EXPECT_EQ(whole.dot(w, mw), mine.dot(w_part, mw_part));

    // a few CG iterations per solve: every iteration must agree, converged or not
    const std::vector<Momentum> momenta = {{1, 0, 0, 0}, {0, 0, 1, 3}};
    const std::vector<GhostPoint> g1 = ghost_propagator(whole, momenta, 1e-10, 25);
    const std::vector<GhostPoint> g2 = ghost_propagator(mine, momenta, 1e-10, 25);
    for (std::size_t k = 0; k < momenta.size(); ++k) {
      EXPECT_EQ(g1[k].propagator, g2[k].propagator);
      EXPECT_EQ(g1[k].total_iterations, g2[k].total_iterations);
    }
    const EigenResult e1 = lowest_eigenvalue(whole, 1e-14, 40),
                      e2 = lowest_eigenvalue(mine, 1e-14, 40);
    EXPECT_EQ(e1.iterations, 40);
    EXPECT_EQ(e1.eigenvalue, e2.eigenvalue);
    EXPECT_EQ(e1.residual, e2.residual);
  }
}

} // namespace
} // namespace gf
