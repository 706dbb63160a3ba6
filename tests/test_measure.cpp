// test_measure.cpp: the measurements of src/measure/ (docs/measurements.md).
// - MomentumCut: GLU's psq, hypercubic and cylinder cuts (counts, order, symmetry, anisotropy).
// - GluonPropagator: zero on the unit field; a constant field only at p = 0; single Fourier
//   modes computed by hand (transverse and longitudinal, Landau and Coulomb; along x, and an
//   off-diagonal plane wave along every axis); the Landau
//   condition makes the longitudinal part vanish; a global gauge rotation leaves it alone and a
//   random g(x) changes it.
// - StaticPotential: hand-computed Wilson lines; C(0, T) = N_c on any field; a Coulomb-fixed
//   field's C(r, T) is invariant under the residual gauge freedom g(t) and changes under g(x).
// - MeasureOutput: the CSV text and the HDF5 file.
// - MeasureRanks (also under mpirun with 2 and 4 ranks): every rank's result equals one rank's
//   on the whole lattice, bit for bit.
// - MeasureOracle: the numbers GLU wrote for sample fields (tests/data/README.md) to 1e-10.
#include "comm/decomposition.h"
#include "fix/engine.h"
#include "fix/random_transform.h"
#include "fix/schedule.h"
#include "gauge_file_test_util.h"
#include "io/gauge_file.h"
#include "math/random_group.h"
#include "measure/gluon_propagator.h"
#include "measure/measure_output.h"
#include "measure/momentum_cut.h"
#include "measure/static_potential.h"
#include "test_fields.h"
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <hdf5.h>
#include <numbers>

namespace gf {
namespace {

using testing::random_field;
using testing::unit_field;

// diag(e^{i theta}, e^{-i theta}) (SU(2)) or diag(e^{i theta}, e^{-i theta}, 1) (SU(3)).
void set_diagonal_phase(HostField& u, std::int64_t s, int mu, double theta) {
  Complex<double>* m = u.matrix_data(s, mu);
  const int n = u.nc;
  for (int k = 0; k < n * n; ++k)
    m[k] = {0, 0};
  m[0] = {std::cos(theta), std::sin(theta)};
  m[n + 1] = {std::cos(theta), -std::sin(theta)};
  if (n == 3) m[8] = {1, 0};
}

HostField fixed_field(const int L[4], int nc, GaugeKind gauge, std::uint64_t seed) {
  HostField u = random_field(L, nc, seed, 0.3);
  EngineOptions eo;
  eo.gauge = gauge;
  auto engine = make_engine(u, eo);
  FixOptions fo;
  Phase p;
  p.update.kind = UpdateKind::overrelaxation;
  p.update.omega = 1.7;
  p.sweeps = 20000;
  fo.phases = {p};
  fo.tolerance = 1e-15;
  fo.check_interval = 20;
  const FixResult r = run_schedule(*engine, gauge, u.nc, u.geom, fo, nullptr);
  EXPECT_TRUE(r.converged);
  engine->download(u, nullptr);
  return u;
}

// The same g on every site of a time slice t: g(t) random, the residual freedom of Coulomb
// gauge. Returns the transformed links.
HostField slice_constant_transform(const HostField& u, std::uint64_t seed) {
  HostField g(u.geom, u.nc, 1);
  for (std::int64_t s = 0; s < g.local_sites(); ++s) {
    const int t = u.coords(s).x[3];
    const RandomKey key = {seed, static_cast<std::uint64_t>(t), 0, 0};
    if (u.nc == 2)
      g.set<2>(s, 0, random_sun<double, 2>(key, RandomPurpose::test));
    else
      g.set<3>(s, 0, random_sun<double, 3>(key, RandomPurpose::test));
  }
  HostField out = u;
  apply_gauge_transform(out, g, World::alone());
  return out;
}

double max_abs_transverse(const std::vector<LandauGluonRow>& rows) {
  double m = 0;
  for (const auto& r : rows)
    m = std::max(m, std::fabs(r.transverse));
  return m;
}

// ---------------------------------------------------------------------------------------

TEST(MomentumCut, PsqOnIsotropicLatticeInGluOrder) {
  const int L[4] = {4, 4, 4, 4};
  const auto m = cut_momenta(L, 4, {CutKind::psq, 1, 1.0});
  const std::vector<std::array<int, 4>> want = {{0, 0, 0, -1}, {0, 0, -1, 0}, {0, -1, 0, 0},
                                                {-1, 0, 0, 0}, {0, 0, 0, 0},  {1, 0, 0, 0},
                                                {0, 1, 0, 0},  {0, 0, 1, 0},  {0, 0, 0, 1}};
  EXPECT_EQ(m, want);
  EXPECT_EQ(cut_momenta(L, 4, {CutKind::psq, 0, 1.0}).size(), 1u);
  EXPECT_EQ(cut_momenta(L, 4, {CutKind::hypercubic, 1, 1.0}).size(), 81u); // |n_mu| <= 1
  EXPECT_EQ(cut_momenta(L, 3, {CutKind::psq, 1, 1.0}).size(), 7u);         // spatial only
  for (const auto& n : cut_momenta(L, 3, {CutKind::psq, 2, 1.0}))
    EXPECT_EQ(n[3], 0);
}

TEST(MomentumCut, ListsAreSymmetricAndScaledByTheSmallestExtent) {
  const int L[4] = {4, 4, 4, 8};
  const auto m = cut_momenta(L, 4, {CutKind::psq, 1, 1.0});
  // t counts half: n_t = +-1 and +-2 have (n_t/2)^2 <= 1
  EXPECT_EQ(m.size(), 11u);
  for (std::size_t i = 0; i < m.size(); ++i)
    for (int mu = 0; mu < 4; ++mu)
      EXPECT_EQ(m[i][mu], -m[m.size() - 1 - i][mu]);
  EXPECT_NE(std::find(m.begin(), m.end(), std::array<int, 4>{0, 0, 0, 2}), m.end());
}

TEST(MomentumCut, CylinderKeepsTheDiagonalAndDropsTheAxes) {
  const int L[4] = {8, 8, 8, 8};
  const auto narrow = cut_momenta(L, 4, {CutKind::cylinder, 4, 0.5});
  const auto has = [&](std::array<int, 4> n) {
    return std::find(narrow.begin(), narrow.end(), n) != narrow.end();
  };
  EXPECT_TRUE(has({1, 1, 1, 1}));
  EXPECT_TRUE(has({-1, -1, 1, 1}));
  EXPECT_TRUE(has({0, 0, 0, 0}));
  EXPECT_FALSE(has({1, 0, 0, 0})); // 0.663 from the diagonal, the width is 2 pi 0.5/8 = 0.39
  const auto wide = cut_momenta(L, 4, {CutKind::cylinder, 4, 2.0});
  EXPECT_NE(std::find(wide.begin(), wide.end(), std::array<int, 4>{1, 0, 0, 0}), wide.end());
  EXPECT_LE(wide.size(), cut_momenta(L, 4, {CutKind::psq, 4, 1.0}).size());
  EXPECT_THROW(parse_name<CutKind>("--cut", "sphere"), Error);
}

// ---------------------------------------------------------------------------------------

TEST(GluonPropagator, UnitFieldIsZero) {
  const int L[4] = {4, 4, 4, 8};
  for (int nc : {2, 3}) {
    const HostField u = unit_field(L, nc);
    for (const auto& r : landau_gluon_propagator(u, {CutKind::psq, 4, 1.0}, World::alone())) {
      EXPECT_EQ(r.transverse, 0.0);
      EXPECT_EQ(r.longitudinal, 0.0);
    }
    for (const auto& r : coulomb_gluon_propagator(u, {CutKind::psq, 4, 1.0}, World::alone())) {
      EXPECT_EQ(r.spatial, 0.0);
      EXPECT_EQ(r.temporal, 0.0);
    }
  }
}

// U = diag(e^{i theta}, e^{-i theta}) on every link: A = diag(sin, -sin) everywhere, so only
// p = 0 is populated: D(0) = 2/(3 4 V) 4 V^2 2 sin^2 = (4/3) V sin^2 theta.
TEST(GluonPropagator, ConstantFieldOnlyAtZeroMomentum) {
  const int L[4] = {4, 4, 4, 8};
  HostField u = unit_field(L, 2);
  const double theta = 0.3, v = double(u.geom.global_volume());
  for (std::int64_t s = 0; s < u.local_sites(); ++s)
    for (int mu = 0; mu < 4; ++mu)
      set_diagonal_phase(u, s, mu, theta);
  for (const auto& r : landau_gluon_propagator(u, {CutKind::psq, 3, 1.0}, World::alone())) {
    const bool zero = r.n == std::array<int, 4>{0, 0, 0, 0};
    EXPECT_NEAR(r.transverse, zero ? 4.0 / 3.0 * v * std::pow(std::sin(theta), 2) : 0.0, 1e-11);
    EXPECT_NEAR(r.longitudinal, 0.0, 1e-11);
    EXPECT_EQ(r.p2, zero ? 0.0 : r.p2);
  }
}

// A_mu(x) = eps cos(2 pi x/Lx) diag(1, -1) in one direction mu: the modes n = (+-1, 0, 0, 0)
// hold A_mu(p) = e^{i p_mu/2} eps V/2 diag(1, -1), tr A A^dagger = eps^2 V^2/2. For mu = y
// (transverse to p): transverse = 2/(3 3 V) eps^2 V^2/2 = eps^2 V/9, longitudinal 0; for
// mu = x (along p): transverse 0, longitudinal = 2/(3 V) eps^2 V^2/2 = eps^2 V/3.
TEST(GluonPropagator, SingleModeByHand) {
  const int L[4] = {8, 4, 4, 4};
  const double eps = 0.2;
  for (int mu : {0, 1}) {
    HostField u = unit_field(L, 2);
    const double v = double(u.geom.global_volume());
    for (std::int64_t s = 0; s < u.local_sites(); ++s) {
      const int x = u.coords(s).x[0];
      set_diagonal_phase(u, s, mu, std::asin(eps * std::cos(2 * std::numbers::pi * x / L[0])));
    }
    const auto rows = landau_gluon_propagator(u, {CutKind::psq, 2, 1.0}, World::alone());
    int checked = 0;
    for (const auto& r : rows) {
      const bool mode = std::abs(r.n[0]) == 1 && r.n[1] == 0 && r.n[2] == 0 && r.n[3] == 0;
      const double tr = mode ? eps * eps * v / 9 : 0.0, lo = mode ? eps * eps * v / 3 : 0.0;
      EXPECT_NEAR(r.transverse, mu == 1 ? tr : 0.0, 1e-12) << "mu " << mu;
      EXPECT_NEAR(r.longitudinal, mu == 0 ? lo : 0.0, 1e-12) << "mu " << mu;
      if (mode) {
        ++checked;
        EXPECT_DOUBLE_EQ(r.p2, std::pow(2 * std::sin(std::numbers::pi / L[0]), 2));
      }
    }
    EXPECT_EQ(checked, 2);
  }
}

// Coulomb: the same profile on a spatial link (y) or on the temporal link:
// spatial (resp. temporal) = 2/(3 2 V) Lt eps^2 V3^2/2 = eps^2 V3/6 at n = (+-1, 0, 0).
TEST(GluonPropagator, CoulombSingleModeByHand) {
  const int L[4] = {8, 4, 4, 6};
  const double eps = 0.2, v3 = 8 * 4 * 4;
  for (int mu : {1, 3}) {
    HostField u = unit_field(L, 3);
    for (std::int64_t s = 0; s < u.local_sites(); ++s) {
      const int x = u.coords(s).x[0];
      set_diagonal_phase(u, s, mu, std::asin(eps * std::cos(2 * std::numbers::pi * x / L[0])));
    }
    // SU(3): A = diag(sin, -sin, 0) has trace 0, so tr A A^dagger = 2 sin^2 as for SU(2), and
    // N^2 - 1 = 8: spatial = 2/(8 2 V) Lt eps^2 V3^2/2 = eps^2 V3/16
    for (const auto& r : coulomb_gluon_propagator(u, {CutKind::psq, 1, 1.0}, World::alone())) {
      const bool mode = std::abs(r.n[0]) == 1 && r.n[1] == 0 && r.n[2] == 0;
      const double want = mode ? eps * eps * v3 / 16 : 0.0;
      EXPECT_NEAR(r.spatial, mu == 1 ? want : 0.0, 1e-12) << "mu " << mu;
      EXPECT_NEAR(r.temporal, mu == 3 ? want : 0.0, 1e-12) << "mu " << mu;
    }
  }
}

// U_mu(x) = cos(theta) + i sin(theta) X on the rows and columns 0 and N - 1 (1 on the others),
// X = cos(alpha) sigma_1 + sin(alpha) sigma_2 there (X^2 = 1), sin(theta(x)) = eps cos(2 pi q.x/L
// + beta), in one direction mu: A_mu(x) = eps cos(2 pi q.x/L + beta) X, off the diagonal with
// real and imaginary parts, a plane wave along every axis. At n = +-q,
// A_mu(p) = e^{i p_mu/2} e^{-+i beta} eps V/2 X and tr A A^dagger = eps^2 V^2/2: Landau
// transverse = eps^2 V (1 - p_mu^2/p^2)/(3 (N^2 - 1)), longitudinal = eps^2 V (p_mu^2/p^2)/(N^2 -
// 1); Coulomb (n = +-q's spatial part, every slice alike) eps^2 V3/(2 (N^2 - 1)) in mu's column.
TEST(GluonPropagator, OffDiagonalPlaneWaveByHand) {
  const int L[4] = {4, 4, 4, 8};
  const std::array<int, 4> q = {1, 0, -1, 1};
  const double eps = 0.3, alpha = 0.7, beta = 0.4;
  for (int nc : {2, 3})
    for (int mu : {0, 2, 3}) {
      HostField u = unit_field(L, nc);
      const double v = double(u.geom.global_volume()), v3 = double(u.geom.v3), groups = nc * nc - 1;
      for (std::int64_t s = 0; s < u.local_sites(); ++s) {
        const SiteCoords c = u.coords(s);
        double phase = 0;
        for (int d = 0; d < 4; ++d)
          phase += 2 * std::numbers::pi * q[d] * c.x[d] / L[d];
        const double theta = std::asin(eps * std::cos(phase + beta));
        Complex<double>* m = u.matrix_data(s, mu);
        m[0] = m[nc * nc - 1] = {std::cos(theta), 0};
        // i sin(theta) X: i s e^{-i alpha} above the diagonal, i s e^{i alpha} below
        m[nc - 1] = {std::sin(theta) * std::sin(alpha), std::sin(theta) * std::cos(alpha)};
        m[(nc - 1) * nc] = {-std::sin(theta) * std::sin(alpha), std::sin(theta) * std::cos(alpha)};
      }
      double p[4], p2 = 0;
      for (int d = 0; d < 4; ++d) {
        p[d] = 2 * std::sin(std::numbers::pi * q[d] / L[d]);
        p2 += p[d] * p[d];
      }
      int landau_modes = 0;
      for (const auto& r : landau_gluon_propagator(u, {CutKind::psq, 3, 1.0}, World::alone())) {
        const bool mode = r.n == q || r.n == std::array<int, 4>{-q[0], -q[1], -q[2], -q[3]};
        landau_modes += mode;
        const double along = p[mu] * p[mu] / p2;
        EXPECT_NEAR(r.transverse, mode ? eps * eps * v * (1 - along) / (3 * groups) : 0.0, 1e-12)
            << "SU(" << nc << ") mu " << mu;
        EXPECT_NEAR(r.longitudinal, mode ? eps * eps * v * along / groups : 0.0, 1e-12)
            << "SU(" << nc << ") mu " << mu;
      }
      EXPECT_EQ(landau_modes, 2);
      int coulomb_modes = 0;
      for (const auto& r : coulomb_gluon_propagator(u, {CutKind::psq, 2, 1.0}, World::alone())) {
        const bool mode = std::abs(r.n[0]) == 1 && r.n[1] == 0 && r.n[2] == -r.n[0];
        coulomb_modes += mode;
        const double want = mode ? eps * eps * v3 / (2 * groups) : 0.0;
        EXPECT_NEAR(r.spatial, mu < 3 ? want : 0.0, 1e-12) << "SU(" << nc << ") mu " << mu;
        EXPECT_NEAR(r.temporal, mu == 3 ? want : 0.0, 1e-12) << "SU(" << nc << ") mu " << mu;
      }
      EXPECT_EQ(coulomb_modes, 2);
    }
}

TEST(GluonPropagator, LandauGaugeHasNoLongitudinalPart) {
  const int L[4] = {4, 4, 4, 8};
  for (int nc : {2, 3}) {
    const HostField u = fixed_field(L, nc, GaugeKind::landau, 5);
    const auto rows = landau_gluon_propagator(u, {CutKind::psq, 6, 1.0}, World::alone());
    const double scale = max_abs_transverse(rows);
    EXPECT_GT(scale, 1e-3);
    for (const auto& r : rows) {
      EXPECT_LT(std::fabs(r.longitudinal), 1e-9 * scale)
          << "n " << r.n[0] << r.n[1] << r.n[2] << r.n[3];
      EXPECT_GE(r.transverse, 0.0);
    }
    // not so for the same field away from the gauge
    HostField moved = u;
    random_gauge_transform(moved, 77);
    double longitudinal = 0;
    for (const auto& r : landau_gluon_propagator(moved, {CutKind::psq, 6, 1.0}, World::alone()))
      longitudinal = std::max(longitudinal, std::fabs(r.longitudinal));
    EXPECT_GT(longitudinal, 1e-3 * scale);
  }
}

TEST(GluonPropagator, GlobalRotationKeepsItRandomTransformChangesIt) {
  const int L[4] = {4, 4, 4, 4};
  const HostField u = random_field(L, 3, 8, 0.4);
  const auto before = landau_gluon_propagator(u, {CutKind::psq, 3, 1.0}, World::alone());
  HostField g(u.geom, 3, 1);
  const Matrix<double, 3> h = random_sun<double, 3>({4, 0, 0, 0}, RandomPurpose::test);
  for (std::int64_t s = 0; s < g.local_sites(); ++s)
    g.set<3>(s, 0, h);
  HostField rotated = u;
  apply_gauge_transform(rotated, g, World::alone());
  const auto after = landau_gluon_propagator(rotated, {CutKind::psq, 3, 1.0}, World::alone());
  HostField moved = u;
  random_gauge_transform(moved, 9);
  const auto changed = landau_gluon_propagator(moved, {CutKind::psq, 3, 1.0}, World::alone());
  ASSERT_EQ(before.size(), after.size());
  double most = 0;
  for (std::size_t i = 0; i < before.size(); ++i) {
    EXPECT_NEAR(after[i].transverse, before[i].transverse, 1e-12 * (1 + before[i].transverse));
    EXPECT_NEAR(after[i].longitudinal, before[i].longitudinal,
                1e-12 * (1 + before[i].longitudinal));
    most = std::max(most,
                    std::fabs(changed[i].transverse - before[i].transverse) / before[i].transverse);
  }
  EXPECT_GT(most, 0.1);
}

// ---------------------------------------------------------------------------------------

// U_t(x) = diag(e^{i phi}, e^{-i phi}) with phi = 2 pi x/Lx, the same at every t:
// tr W(x, T) W(x + r, T)^dagger = 2 cos(T 2 pi r/Lx) along x and 2 along y and z, so
// C(r, T) = V3 (2/3)(cos(2 pi T r/Lx) + 2) (GLU's normalisation: summed over space).
TEST(StaticPotential, WilsonLinesByHand) {
  const int L[4] = {8, 8, 8, 6};
  HostField u = unit_field(L, 2);
  for (std::int64_t s = 0; s < u.local_sites(); ++s)
    set_diagonal_phase(u, s, time_dir, 2 * std::numbers::pi * u.coords(s).x[0] / L[0]);
  const auto rows = static_potential(u, 3, World::alone());
  ASSERT_EQ(rows.size(), 3u * 5u); // T = 1..3, r = 0..4
  for (const auto& r : rows) {
    const double v3 = 8 * 8 * 8;
    const double c = v3 * 2.0 / 3.0 * (std::cos(2 * std::numbers::pi * r.t * r.r / L[0]) + 2);
    const double next =
        v3 * 2.0 / 3.0 * (std::cos(2 * std::numbers::pi * (r.t + 1) * r.r / L[0]) + 2);
    EXPECT_NEAR(r.correlator, c, 1e-13 * v3) << "r " << r.r << " T " << r.t;
    EXPECT_NEAR(r.potential, std::log(c / next), 1e-12) << "r " << r.r << " T " << r.t;
  }
  for (const auto& r : static_potential(unit_field(L, 3), 2, World::alone())) {
    EXPECT_DOUBLE_EQ(r.correlator, 3.0 * 8 * 8 * 8);
    EXPECT_EQ(r.potential, 0.0);
  }
  EXPECT_THROW(static_potential(u, 6, World::alone()), Error); // needs T + 1 <= Lt
  EXPECT_THROW(static_potential(u, 0, World::alone()), Error);
}

TEST(StaticPotential, ResidualCoulombFreedomKeepsItRandomTransformChangesIt) {
  const int L[4] = {4, 4, 4, 8};
  for (int nc : {2, 3}) {
    const HostField u = fixed_field(L, nc, GaugeKind::coulomb, 12);
    const auto before = static_potential(u, 4, World::alone());
    const auto after = static_potential(slice_constant_transform(u, 31), 4, World::alone());
    HostField moved = u;
    random_gauge_transform(moved, 32);
    const auto changed = static_potential(moved, 4, World::alone());
    ASSERT_EQ(before.size(), after.size());
    double most = 0;
    for (std::size_t i = 0; i < before.size(); ++i) {
      EXPECT_NEAR(after[i].correlator, before[i].correlator, 1e-12 * 64);
      if (before[i].r == 0) {
        EXPECT_NEAR(before[i].correlator, nc * 64, 1e-12 * 64); // tr W W^dagger = N_c, V3 = 64
        EXPECT_NEAR(changed[i].correlator, nc * 64, 1e-12 * 64);
      } else {
        most = std::max(most, std::fabs(changed[i].correlator - before[i].correlator));
      }
    }
    EXPECT_GT(most, 1.0);
  }
}

// ---------------------------------------------------------------------------------------

TEST(MeasureOutput, CsvHasRecordHeaderAndExactNumbers) {
  const Table t = table_of(std::vector<StaticPotentialRow>{{0, 1, 3.0, 0.0}, {1, 1, 0.1, 0.25}});
  const std::string text = csv_text(t, {{"input", "cfg\n1"}, {"gauge", "coulomb"}});
  EXPECT_EQ(text, "# input: cfg 1\n# gauge: coulomb\nr,t,correlator,potential\n0,1,3,0\n1,1,0.1,"
                  "0.25\n");
  EXPECT_EQ(table_of(std::vector<LandauGluonRow>{}).columns,
            (std::vector<std::string>{"nx", "ny", "nz", "nt", "p2", "transverse", "longitudinal"}));
}

TEST(MeasureOutput, FilesAppearWhole) {
  testing::TempDir dir;
  const Table t = table_of(std::vector<StaticPotentialRow>{{0, 1, 3.0, 0.0}, {2, 1, 0.1, 0.5}});
  write_table(dir.file("c.csv"), t, {{"input", "x"}}, World::alone());
  std::ifstream in(dir.file("c.csv"));
  std::string first;
  std::getline(in, first);
  EXPECT_EQ(first, "# input: x");
  write_table(dir.file("c.h5"), t, {{"input", "x"}}, World::alone());
  hid_t f = H5Fopen(dir.file("c.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  hid_t d = H5Dopen2(f, "correlator", H5P_DEFAULT);
  ASSERT_GE(d, 0);
  double v[2] = {0, 0};
  EXPECT_GE(H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v), 0);
  EXPECT_EQ(v[0], 3.0);
  EXPECT_EQ(v[1], 0.1);
  H5Dclose(d);
  H5Fclose(f);
  std::size_t entries = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.file("")))
    entries += e.is_regular_file();
  EXPECT_EQ(entries, 2u); // no temporary file left
}

// ---------------------------------------------------------------------------------------

// Every number of the two tables bit for bit (their rows as table_of lays them out).
template <class Row>
bool same_bits(const std::vector<Row>& a, const std::vector<Row>& b) {
  const Table ta = table_of(a), tb = table_of(b);
  if (ta.rows.size() != tb.rows.size() || ta.rows.empty()) return false;
  for (std::size_t r = 0; r < ta.rows.size(); ++r)
    if (std::memcmp(ta.rows[r].data(), tb.rows[r].data(), ta.rows[r].size() * sizeof(double)))
      return false;
  return true;
}

TEST(MeasureRanks, EveryRankGetsTheWholeLatticeResult) {
  const World world;
  const int L[4] = {4, 4, 4, 8};
  for (int nc : {2, 3}) {
    const HostField whole = random_field(L, nc, 21, 0.5);
    const Geometry g = decompose_time(L, world);
    const HostField slab = whole.slab(g.t0, g.nt);
    // hypercubic 4: every mode of the lattice, n_mu = -L_mu/2 included
    for (const MomentumCut cut :
         {MomentumCut{CutKind::psq, 5, 1.0}, MomentumCut{CutKind::hypercubic, 4, 1.0}}) {
      EXPECT_TRUE(same_bits(landau_gluon_propagator(slab, cut, world),
                            landau_gluon_propagator(whole, cut, World::alone())));
      EXPECT_TRUE(same_bits(coulomb_gluon_propagator(slab, cut, world),
                            coulomb_gluon_propagator(whole, cut, World::alone())));
    }
    // max_t 7: the Wilson lines wrap around the lattice, through every other rank's slab
    for (int max_t : {1, 3, 7})
      EXPECT_TRUE(same_bits(static_potential(slab, max_t, world),
                            static_potential(whole, max_t, World::alone())))
          << "max_t " << max_t;
  }
}

// ---------------------------------------------------------------------------------------
// GLU's output files (cut_output.c): big-endian; uint32 count, then per momentum
// int32 dims and dims int32 components; then blocks of uint32 count and count reals
// (gluon propagator: transverse, then longitudinal; static potential: uint32 T-1, then per
// T the complex correlator and the complex trace-trace correlator).

struct GluReader {
  std::ifstream in;
  explicit GluReader(const std::string& path) : in(path, std::ios::binary) {}
  std::uint32_t u32() {
    unsigned char b[4] = {0, 0, 0, 0};
    in.read(reinterpret_cast<char*>(b), 4);
    return std::uint32_t(b[0]) << 24 | std::uint32_t(b[1]) << 16 | std::uint32_t(b[2]) << 8 | b[3];
  }
  double f64() {
    unsigned char b[8];
    in.read(reinterpret_cast<char*>(b), 8);
    std::uint64_t bits = 0;
    for (unsigned char c : b)
      bits = bits << 8 | c;
    double v;
    std::memcpy(&v, &bits, 8);
    return v;
  }
  std::vector<std::array<int, 4>> momenta() {
    std::vector<std::array<int, 4>> m(u32());
    for (auto& n : m) {
      n = {0, 0, 0, 0};
      const int dims = int(u32());
      for (int mu = 0; mu < dims; ++mu)
        n[mu] = int(std::int32_t(u32()));
    }
    return m;
  }
};

TEST(MeasureOracle, LandauGluonPropagatorAsGlu) {
  GF_SAMPLE(field, "lat..400.landau");
  GF_SAMPLE(glu, "glu_G2F2_landau.bin");
  const HostField u = read_gauge_file(field, World::alone());
  GluReader r(glu);
  const auto modes = r.momenta();
  std::vector<double> transverse(r.u32()), longitudinal;
  for (double& v : transverse)
    v = r.f64();
  longitudinal.resize(r.u32());
  for (double& v : longitudinal)
    v = r.f64();
  ASSERT_TRUE(r.in.good());
  const auto rows = landau_gluon_propagator(u, {CutKind::psq, 3, 1.0}, World::alone());
  ASSERT_EQ(rows.size(), modes.size());
  ASSERT_EQ(transverse.size(), modes.size());
  ASSERT_EQ(longitudinal.size(), modes.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i].n, modes[i]);
    EXPECT_NEAR(rows[i].transverse, transverse[i], 1e-10 * std::fabs(transverse[i])) << i;
    // ~0 in Landau gauge: compared on the scale of the transverse part
    EXPECT_NEAR(rows[i].longitudinal, longitudinal[i], 1e-10 * std::fabs(transverse[i])) << i;
  }
}

TEST(MeasureOracle, CoulombGluonPropagatorAsGlu) {
  GF_SAMPLE(field, "lat..400.coulomb");
  GF_SAMPLE(glu, "glu_G2spG2t_coulomb.bin");
  const HostField u = read_gauge_file(field, World::alone());
  GluReader r(glu);
  const auto modes = r.momenta();
  std::vector<double> spatial(r.u32()), temporal;
  for (double& v : spatial)
    v = r.f64();
  temporal.resize(r.u32());
  for (double& v : temporal)
    v = r.f64();
  ASSERT_TRUE(r.in.good());
  const auto rows = coulomb_gluon_propagator(u, {CutKind::psq, 3, 1.0}, World::alone());
  ASSERT_EQ(rows.size(), modes.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i].n[0], modes[i][0]);
    EXPECT_EQ(rows[i].n[1], modes[i][1]);
    EXPECT_EQ(rows[i].n[2], modes[i][2]);
    EXPECT_NEAR(rows[i].spatial, spatial[i], 1e-10 * std::fabs(spatial[i])) << i;
    EXPECT_NEAR(rows[i].temporal, temporal[i], 1e-10 * std::fabs(temporal[i])) << i;
  }
}

// GLU's correlator of separation r is (1/L_t) sum_x tr[W(x + r) W(x)^dagger] per vector r; its
// real part, averaged over the on-axis vectors +-r e_i, is C(r, T).
TEST(MeasureOracle, StaticPotentialAsGlu) {
  GF_SAMPLE(field, "lat..400.coulomb");
  GF_SAMPLE(glu, "glu_STATPOT_coulomb.bin");
  const HostField u = read_gauge_file(field, World::alone());
  GluReader r(glu);
  const auto vectors = r.momenta();
  const int lines = int(r.u32()); // T = 1 .. lines
  std::vector<std::vector<double>> re(lines, std::vector<double>(vectors.size()));
  for (int T = 0; T < lines; ++T) {
    ASSERT_EQ(r.u32(), vectors.size());
    for (std::size_t i = 0; i < vectors.size(); ++i) {
      re[T][i] = r.f64();
      r.f64(); // imaginary part
    }
    ASSERT_EQ(r.u32(), vectors.size());
    for (std::size_t i = 0; i < 2 * vectors.size(); ++i)
      r.f64(); // trace-trace correlator
  }
  ASSERT_TRUE(r.in.good());
  ASSERT_GE(lines, 2);
  const auto rows = static_potential(u, lines - 1, World::alone());
  int compared = 0;
  for (const auto& row : rows) {
    double sum = 0;
    int count = 0;
    for (std::size_t i = 0; i < vectors.size(); ++i) {
      const auto& v = vectors[i];
      const int nonzero = (v[0] != 0) + (v[1] != 0) + (v[2] != 0);
      const int length = std::abs(v[0]) + std::abs(v[1]) + std::abs(v[2]);
      if ((row.r == 0 && length == 0) || (nonzero == 1 && length == row.r)) {
        sum += re[row.t - 1][i];
        ++count;
      }
    }
    ASSERT_GT(count, 0) << "GLU's file has no vector of length " << row.r;
    EXPECT_NEAR(row.correlator, sum / count, 1e-10 * std::fabs(sum / count))
        << "r " << row.r << " T " << row.t;
    ++compared;
  }
  EXPECT_EQ(compared, int(rows.size()));
}

} // namespace
} // namespace gf
