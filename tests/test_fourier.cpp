// test_fourier.cpp: Fourier-accelerated gauge fixing (src/fourier) on the CPU.
//   - exp(iQ) against a Taylor series with scaling and squaring; tr(AB) of the components;
//   - the p^2 convention: the eigenvalue of the lattice Laplacian on plane waves, p = 0;
//   - FFTW transforms: signs against a direct sum, round trips;
//   - the transpose written straight into the receivers' arrays (*ToPeer*, GPUs of one
//     node), emulated in one process for 2 and 3 ranks, against the one-rank transpose;
//   - one preconditioned step against a direct evaluation without transforms (the kernel
//     p^2_max / p^2 summed in position space), element by element, on the whole lattice and,
//     under mpirun, on each rank's slab (suite FourierRanks: the distributed transpose);
//   - the step choice on a model functional: convergence, fixed steps that are too long taken
//     back, non-finite values stopping the run;
//   - FASD and FACG to theta < 1e-12 on the sample files, Landau and Coulomb, SU(3) and SU(2),
//     with plaquette and Polyakov loop unchanged and g(x) taking the input to the output;
//   - FACG with the single-precision preconditioner in a double fix: the same maximum in
//     about as many iterations;
//   - FACG on 1, 2 or 4 ranks: the same iterations, F, theta and links, bit for bit, with the
//     double and the single-precision preconditioner (FourierRanks).
// The FourierRanks tests also run on the CUDA backend (cuFFT) where a GPU is present: one
// GPU per rank under mpirun (EngineOptions::node_rank), the whole lattice on the same GPU.
#include "comm/decomposition.h"
#include "comm/mpi_channel.h"
#include "core/error.h"
#include "fix/random_transform.h"
#include "fix/schedule.h"
#include "fourier/fftw_fft.h"
#include "fourier/fourier_functors.h"
#include "fourier/momentum.h"
#include "gauge_file_test_util.h"
#include "io/gauge_file.h"
#include "math/hermitian.h"
#include "math/random.h"
#include "math/su_n.h"
#include "observables/observables.h"
#include "test_fields.h"
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <gtest/gtest.h>
#include <vector>

namespace gf {
namespace {

template <int N>
using M = Matrix<double, N>;

template <int N>
double max_abs(const M<N>& a) {
  double d = 0;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      d = std::max(d, std::sqrt(norm2(a.m[i][j])));
  return d;
}

template <int N>
M<N> scaled(const M<N>& a, Complex<double> s) {
  M<N> r;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      r.m[i][j] = s * a.m[i][j];
  return r;
}

// exp(X) by scaling and squaring a 30-term Taylor series: the reference.
template <int N>
M<N> series_exp(const M<N>& x) {
  int squarings = 0;
  double norm = max_abs(x) * N;
  while (norm > 0.5) {
    norm /= 2;
    ++squarings;
  }
  const M<N> y = scaled(x, {std::ldexp(1.0, -squarings), 0.0});
  M<N> sum = M<N>::identity(), term = M<N>::identity();
  for (int n = 1; n <= 30; ++n) {
    term = scaled(term * y, {1.0 / n, 0.0});
    sum = sum + term;
  }
  for (int k = 0; k < squarings; ++k)
    sum = sum * sum;
  return sum;
}

template <int N>
Algebra<double, N> random_algebra(std::uint64_t seed, double size) {
  Algebra<double, N> a;
  for (int k = 0; k < algebra_dim<N>; ++k) {
    const RandomKey key = {seed, static_cast<std::uint64_t>(k), 0, 0};
    a.v[k] = size * (2.0 * uniform4<double>(key, RandomPurpose::test, 0, 0).u[0] - 1.0);
  }
  return a;
}

template <int N>
void check_exponential(const Algebra<double, N>& q) {
  const M<N> g = exp_i(q);
  const M<N> want = series_exp(scaled(to_matrix(q), {0.0, 1.0}));
  const double size = max_abs(to_matrix(q));
  EXPECT_LT(max_abs(g - want), 1e-14 * std::max(1.0, size * size)) << "|Q| = " << size;
  EXPECT_LT(unitarity_deviation(g), 1e-14);
}

TEST(FourierAlgebra, ExponentialIsExact) {
  for (double size : {0.0, 1e-9, 1e-4, 2e-3, 0.05, 0.4, 1.0, 3.0, 10.0})
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      check_exponential(random_algebra<3>(seed, size));
      check_exponential(random_algebra<2>(seed, size));
    }
  // degenerate eigenvalues diag(a, a, -2a), either sign of det Q
  for (double a : {1e-5, 0.3, -0.3, 2.0}) {
    Algebra<double, 3> q = {{a, a, 0, 0, 0, 0, 0, 0}};
    check_exponential(q);
    q.v[2] = 1e-9; // nearly degenerate
    check_exponential(q);
  }
}

TEST(FourierAlgebra, ComponentsAndTraceProduct) {
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const Algebra<double, 3> a = random_algebra<3>(seed, 1.0),
                             b = random_algebra<3>(seed + 100, 1.0);
    EXPECT_NEAR(trace_product(a, b), trace(to_matrix(a) * to_matrix(b)).re, 1e-14);
    EXPECT_NEAR(trace(to_matrix(a)).re, 0.0, 1e-15);
    EXPECT_LT(max_abs(to_matrix(a) - adjoint(to_matrix(a))), 1e-15);
    const Algebra<double, 3> back = to_algebra(to_matrix(a));
    for (int k = 0; k < 8; ++k)
      EXPECT_EQ(back.v[k], a.v[k]);
    const Algebra<double, 2> c = random_algebra<2>(seed, 1.0),
                             d = random_algebra<2>(seed + 100, 1.0);
    EXPECT_NEAR(trace_product(c, d), trace(to_matrix(c) * to_matrix(d)).re, 1e-14);
  }
}

// The gradient sums A_mu(x) - A_mu(x - mu) on the link-algebra array's stored reals; theta
// and the components from those reals are bitwise LinearGauge::theta_of and to_algebra of the
// summed matrices.
template <int N>
void check_gradient_on_reals(std::uint64_t seed) {
  const Geometry geom = Geometry::whole(std::array<int, 4>{2, 2, 2, 2}.data());
  std::vector<double> data(LinkAlgebraView<N>{nullptr, geom, 4, true}.size());
  const LinkAlgebraView<N> alg{data.data(), geom, 4, true};
  Matrix<double, N> sum = Matrix<double, N>::zero();
  double reals[link_algebra_reals<N>] = {};
  for (int mu = 0; mu < 4; ++mu) {
    const Matrix<double, N> up =
        LandauGauge::algebra_field<double, N>(testing::random_link<N>(seed, 0, mu));
    const Matrix<double, N> down =
        LandauGauge::algebra_field<double, N>(testing::random_link<N>(seed, 1, mu));
    alg.save(0, 0, mu, 0, up);
    alg.save(0, 1, mu, 0, down);
    sum = sum + up - down;
    double a[link_algebra_reals<N>], b[link_algebra_reals<N>];
    alg.load_reals(0, 0, mu, 0, a);
    alg.load_reals(0, 1, mu, 0, b);
    for (int k = 0; k < link_algebra_reals<N>; ++k)
      reals[k] = reals[k] + a[k] - b[k];
  }
  EXPECT_EQ(theta_of_reals<N>(reals), (LandauGauge::theta_of<double, N>(sum))) << "seed " << seed;
  const Algebra<double, N> from_reals = algebra_of_reals<N>(reals), direct = to_algebra(sum);
  for (int k = 0; k < algebra_dim<N>; ++k)
    EXPECT_EQ(from_reals.v[k], direct.v[k]) << "seed " << seed << ", component " << k;
}

TEST(FourierAlgebra, GradientOnStoredRealsIsBitwiseTheMatrices) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    check_gradient_on_reals<3>(seed);
    check_gradient_on_reals<2>(seed);
  }
}

// p^2(k) is the eigenvalue of -Laplacian on exp(2 pi i k.x / L); p = 0 gets weight 0 and
// p^2_max = 4 d is reached where every k_mu = L_mu / 2.
TEST(FourierMomentum, LaplacianEigenvalueAndZeroMode) {
  const int L[4] = {4, 6, 2, 8};
  for (int mu = 0; mu < 4; ++mu)
    for (int k = 0; k < L[mu]; ++k) {
      // -[f(x + 1) + f(x - 1) - 2 f(x)] / f(x) for f = exp(i phi x), phi = 2 pi k / L
      const double phi = 2 * M_PI * k / L[mu];
      const double eigenvalue = 2.0 - 2.0 * std::cos(phi);
      EXPECT_NEAR(momentum2_1d(k, L[mu]), eigenvalue, 1e-14);
    }
  int zero[4] = {0, 0, 0, 0};
  EXPECT_EQ(preconditioner_weight(zero, L, 4), 0.0);
  EXPECT_EQ(preconditioner_weight(zero, L, 3), 0.0);
  int corner[4] = {2, 3, 1, 4};
  EXPECT_NEAR(preconditioner_weight(corner, L, 4), 1.0, 1e-15);
  EXPECT_NEAR(preconditioner_weight(corner, L, 3), 1.0, 1e-15);
  int one[4] = {0, 0, 0, 1}; // p^2 = 4 sin^2(pi / 8)
  EXPECT_NEAR(preconditioner_weight(one, L, 4), 16.0 / (4 * std::pow(std::sin(M_PI / 8), 2)),
              1e-12);
  EXPECT_EQ(preconditioner_weight(one, L, 3), 0.0); // Coulomb: t is not transformed
}

FourierLayout layout_for(const int (&L)[4], int comps) {
  FourierLayout l;
  for (int mu = 0; mu < 4; ++mu)
    l.L[mu] = L[mu];
  l.nt = L[3];
  l.comps = comps;
  l.ranks = 1;
  l.rank = 0;
  l.v3 = std::int64_t(L[0]) * L[1] * L[2];
  return l;
}

Complex<double> test_value(std::int64_t i) {
  const RandomKey key = {7, static_cast<std::uint64_t>(i), 0, 0};
  const Uniform4<double> r = uniform4<double>(key, RandomPurpose::test, 0, 0);
  return {r.u[0] - 0.5, r.u[1] - 0.5};
}

// The distributed transpose with the GPUs writing into each other's arrays (as between GPUs
// of one node), emulated with every rank's arrays in this process: each rank's kernel writes
// every element at its place in its receiver's units (SlicesToPeerUnits) or slices
// (UnitsToPeerSlices). Both directions must give the one-rank transpose (TransposeLocal)
// element for element, on 2 and 3 ranks (3: the 16 units split 5, 5, 6), with blocks of 1 and
// of 3 units in the unit layout (3: the last block of each rank padded; the padding stays 0).
void check_peer_transposes(int unit_group) {
  using C = Complex<double>;
  const int L[4] = {4, 2, 2, 6}, comps = 4;
  FourierLayout whole = layout_for(L, comps);
  whole.unit_group = unit_group;
  std::vector<C> slices_whole(whole.slice_elements(L[3])), units_whole(whole.unit_array_elements());
  for (std::size_t i = 0; i < slices_whole.size(); ++i)
    slices_whole[i] = test_value(std::int64_t(i));
  const TransposeLocal<double> local{whole, slices_whole.data(), units_whole.data(), true};
  for (std::int64_t i = 0; i < whole.units() * whole.unit_elements(); ++i)
    local(i);
  for (int ranks : {2, 3}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks, blocks of " + std::to_string(unit_group));
    std::vector<FourierLayout> lay(ranks, whole);
    std::vector<std::vector<C>> slices(ranks), units(ranks);
    PeerArrays<double> unit_arrays{}, slice_arrays{};
    for (int r = 0; r < ranks; ++r) {
      lay[r].ranks = ranks;
      lay[r].rank = r;
      lay[r].nt = L[3] / ranks;
      slices[r].assign(slices_whole.begin() + r * lay[r].slice_elements(lay[r].nt),
                       slices_whole.begin() + (r + 1) * lay[r].slice_elements(lay[r].nt));
      units[r].assign(lay[r].unit_array_elements(), C{0, 0});
      unit_arrays.array[r] = units[r].data();
      slice_arrays.array[r] = slices[r].data();
    }
    for (int r = 0; r < ranks; ++r) {
      const SlicesToPeerUnits<double> send{lay[r], slices[r].data(), unit_arrays};
      for (std::int64_t i = 0; i < lay[r].slice_elements(lay[r].nt); ++i)
        send(i);
    }
    for (int q = 0; q < ranks; ++q) {
      std::vector<C> expected(units[q].size(), C{0, 0});
      for (std::int64_t u = 0; u < lay[q].local_units(); ++u)
        for (int t = 0; t < L[3]; ++t)
          for (int x = 0; x < L[0]; ++x)
            expected[lay[q].unit_index(u, x, t)] =
                units_whole[whole.unit_index(lay[q].first_unit(q) + u, x, t)];
      for (std::size_t i = 0; i < units[q].size(); ++i)
        ASSERT_EQ(std::memcmp(&units[q][i], &expected[i], sizeof(C)), 0)
            << "slices -> units: rank " << q << ", unit array element " << i;
    }
    for (int r = 0; r < ranks; ++r)
      std::fill(slices[r].begin(), slices[r].end(), C{0, 0});
    for (int q = 0; q < ranks; ++q) {
      const UnitsToPeerSlices<double> send{lay[q], units[q].data(), slice_arrays};
      for (std::int64_t i = 0; i < lay[q].local_block_elements(); ++i)
        send(i);
    }
    for (int r = 0; r < ranks; ++r) {
      const std::int64_t first = r * lay[r].slice_elements(lay[r].nt);
      for (std::size_t i = 0; i < slices[r].size(); ++i)
        ASSERT_EQ(std::memcmp(&slices[r][i], &slices_whole[first + i], sizeof(C)), 0)
            << "units -> slices: rank " << r << ", slice element " << i;
    }
  }
}

TEST(FourierTranspose, PeerWritesGiveTheOneRankTranspose) {
  check_peer_transposes(1);
  check_peer_transposes(3);
}

TEST(FourierTransform, SignsAndRoundTrips) {
  const int L[4] = {4, 6, 2, 8};
  const FourierLayout lay = layout_for(L, 3);
  auto fft = make_fftw<double>(lay, true);
  Complex<double>* s = fft->slices();
  const std::int64_t n = lay.slice_elements(lay.nt);
  std::vector<Complex<double>> input(n);
  for (std::int64_t i = 0; i < n; ++i)
    s[i] = input[i] = test_value(i);
  fft->spatial(FftSign::forward);
  // slice 1, component 2 at k = (1, 2, 1): sum_x exp(-2 pi i k.x / L) f(x)
  Complex<double> direct = {0, 0};
  for (int z = 0; z < L[2]; ++z)
    for (int y = 0; y < L[1]; ++y)
      for (int x = 0; x < L[0]; ++x) {
        const double phase = -2 * M_PI * (1.0 * x / L[0] + 2.0 * y / L[1] + 1.0 * z / L[2]);
        direct += Complex<double>{std::cos(phase), std::sin(phase)} *
                  input[lay.slice_index(1, 2, lay.spatial_index(x, y, z))];
      }
  const Complex<double> got = s[lay.slice_index(1, 2, lay.spatial_index(1, 2, 1))];
  EXPECT_NEAR(got.re, direct.re, 1e-12);
  EXPECT_NEAR(got.im, direct.im, 1e-12);
  fft->spatial(FftSign::backward);
  for (std::int64_t i = 0; i < n; ++i) {
    EXPECT_NEAR(s[i].re, lay.v3 * input[i].re, 1e-12);
    EXPECT_NEAR(s[i].im, lay.v3 * input[i].im, 1e-12);
  }
  Complex<double>* u = fft->units();
  const std::int64_t m = lay.unit_array_elements();
  std::vector<Complex<double>> line(m);
  for (std::int64_t i = 0; i < m; ++i)
    u[i] = line[i] = test_value(i + n);
  fft->temporal(FftSign::forward);
  Complex<double> direct_t = {0, 0}; // unit 5, x = 3, k_t = 3
  for (int t = 0; t < L[3]; ++t) {
    const double phase = -2 * M_PI * 3.0 * t / L[3];
    direct_t += Complex<double>{std::cos(phase), std::sin(phase)} * line[lay.unit_index(5, 3, t)];
  }
  EXPECT_NEAR(u[lay.unit_index(5, 3, 3)].re, direct_t.re, 1e-12);
  EXPECT_NEAR(u[lay.unit_index(5, 3, 3)].im, direct_t.im, 1e-12);
  fft->temporal(FftSign::backward);
  for (std::int64_t i = 0; i < m; ++i) {
    EXPECT_NEAR(u[i].re, L[3] * line[i].re, 1e-12);
    EXPECT_NEAR(u[i].im, L[3] * line[i].im, 1e-12);
  }
  // single precision
  auto fftf = make_fftw<float>(lay, false);
  for (std::int64_t i = 0; i < n; ++i)
    fftf->slices()[i] = {float(input[i].re), float(input[i].im)};
  fftf->spatial(FftSign::forward);
  fftf->spatial(FftSign::backward);
  for (std::int64_t i = 0; i < n; ++i)
    EXPECT_NEAR(fftf->slices()[i].re / lay.v3, input[i].re, 1e-6);
}

// ---- one preconditioned step against a direct evaluation -------------------------------

// Delta(x) of the whole lattice from the definition (matrices, natural order).
template <int N>
std::vector<M<N>> direct_delta(const HostField& u, int dirs) {
  std::vector<M<N>> delta(u.local_sites(), M<N>::zero());
  auto algebra_field = [](const M<N>& v) {
    M<N> a = scaled(v - adjoint(v), {0.0, -0.5}); // (U - U^dagger) / 2i
    const Complex<double> tr = Complex<double>{1.0 / N, 0.0} * trace(a);
    for (int i = 0; i < N; ++i)
      a.m[i][i] -= tr;
    return a;
  };
  for (std::int64_t s = 0; s < u.local_sites(); ++s) {
    const SiteCoords c = u.coords(s);
    for (int mu = 0; mu < dirs; ++mu) {
      const std::int64_t b = u.local_index(u.geom.backward(c, mu));
      delta[s] = delta[s] + algebra_field(u.get<N>(s, mu)) - algebra_field(u.get<N>(b, mu));
    }
  }
  return delta;
}

// Z = K * Delta with K(r) = 1/V sum_k w(k) cos(2 pi k.r / L), w = p^2_max / p^2 (0 at k = 0),
// summed in position space (4-D for Landau; 3-D within each time slice for Coulomb).
template <int N>
std::vector<M<N>> direct_preconditioned(const HostField& u, const std::vector<M<N>>& delta,
                                        int dirs) {
  const Geometry& g = u.geom;
  const int ext[4] = {g.L[0], g.L[1], g.L[2], dirs == 4 ? g.L[3] : 1};
  const std::int64_t volume = std::int64_t(ext[0]) * ext[1] * ext[2] * ext[3];
  std::vector<double> kernel(volume, 0.0);
  auto split = [&](std::int64_t i, int(&x)[4]) {
    for (int mu = 0; mu < 4; ++mu) {
      x[mu] = static_cast<int>(i % ext[mu]);
      i /= ext[mu];
    }
  };
  for (std::int64_t r = 0; r < volume; ++r) {
    int x[4];
    split(r, x);
    double sum = 0;
    for (std::int64_t q = 1; q < volume; ++q) {
      int k[4];
      split(q, k);
      double p2 = 0, phase = 0;
      for (int mu = 0; mu < dirs; ++mu) {
        p2 += 4 * std::pow(std::sin(M_PI * k[mu] / ext[mu]), 2);
        phase += 2 * M_PI * double(k[mu]) * x[mu] / ext[mu];
      }
      sum += 4.0 * dirs / p2 * std::cos(phase);
    }
    kernel[r] = sum / volume;
  }
  std::vector<M<N>> z(u.local_sites(), M<N>::zero());
  for (std::int64_t s = 0; s < u.local_sites(); ++s) {
    const SiteCoords a = u.coords(s);
    for (std::int64_t t = 0; t < u.local_sites(); ++t) {
      const SiteCoords b = u.coords(t);
      if (dirs == 3 && a.x[3] != b.x[3]) continue;
      std::int64_t r = 0;
      for (int mu = 3; mu >= 0; --mu)
        r = r * ext[mu] + ((a.x[mu] - b.x[mu] + ext[mu] * 4) % ext[mu]) % ext[mu];
      z[s] = z[s] + scaled(delta[t], {kernel[r], 0.0});
    }
  }
  return z;
}

template <int N>
void check_step_against_direct(GaugeKind gauge, Backend backend) {
  const World world;
  const int L[4] = {6, 2, 4, 12};
  const int dirs = gauge == GaugeKind::landau ? 4 : 3;
  const HostField whole = testing::random_field(L, N, 31, 0.5);
  const std::vector<M<N>> delta = direct_delta<N>(whole, dirs);
  const std::vector<M<N>> z = direct_preconditioned<N>(whole, delta, dirs);

  const Geometry slab = decompose_time(L, world);
  EngineOptions opt;
  opt.gauge = gauge;
  opt.backend = backend;
  opt.node_rank = world.node_rank();
  opt.track_transform = true;
  if (world.size() > 1) opt.channel = make_channel(world, ExchangePath::automatic);
  const HostField mine = whole.slab(slab.t0, slab.nt);
  auto engine = make_engine(mine, opt);
  DescentField& field = engine->descent_field();
  const DescentSums sums = field.evaluate();
  double theta = 0, dz = 0;
  for (std::int64_t s = 0; s < whole.local_sites(); ++s) {
    theta += trace(delta[s] * delta[s]).re;
    dz += trace(delta[s] * z[s]).re;
  }
  double theta_sum = 0;
  for (double v : sums.theta)
    theta_sum += v;
  EXPECT_NEAR(theta_sum, theta, 1e-12 * theta);
  field.precondition();
  EXPECT_NEAR(field.dot_gradient(DescentOperand::preconditioned), dz, 1e-12 * dz);
  field.set_direction(0);
  EXPECT_NEAR(field.dot_gradient(DescentOperand::direction), dz, 1e-12 * dz);
  const double step = 0.7;
  field.move(step);

  HostField links(mine.geom, N, 4), g(mine.geom, N, 1);
  engine->download(links, &g);
  double worst_g = 0, worst_link = 0;
  for (std::int64_t s = 0; s < mine.local_sites(); ++s) {
    const SiteCoords c = mine.coords(s);
    const std::int64_t w = whole.local_index(c);
    const M<N> want = series_exp(scaled(z[w], {0.0, -step}));
    worst_g = std::max(worst_g, max_abs(g.get<N>(s, 0) - want));
    for (int mu = 0; mu < 4; ++mu) {
      const SiteCoords f = whole.geom.forward(c, mu);
      const M<N> g_next = series_exp(scaled(z[whole.local_index(f)], {0.0, -step}));
      const M<N> moved = want * whole.get<N>(w, mu) * adjoint(g_next);
      worst_link = std::max(worst_link, max_abs(links.get<N>(s, mu) - moved));
    }
  }
  EXPECT_LT(worst_g, 1e-12) << name_of(backend) << " rank " << world.rank();
  EXPECT_LT(worst_link, 1e-12) << name_of(backend) << " rank " << world.rank();
}

TEST(FourierRanks, PreconditionedStepMatchesDirectEvaluation) {
  check_step_against_direct<3>(GaugeKind::landau, Backend::cpu);
  check_step_against_direct<2>(GaugeKind::landau, Backend::cpu);
  check_step_against_direct<3>(GaugeKind::coulomb, Backend::cpu);
  check_step_against_direct<2>(GaugeKind::coulomb, Backend::cpu);
}

TEST(FourierRanks, PreconditionedStepMatchesDirectEvaluationOnGpu) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  check_step_against_direct<3>(GaugeKind::landau, Backend::cuda);
  check_step_against_direct<2>(GaugeKind::landau, Backend::cuda);
  check_step_against_direct<3>(GaugeKind::coulomb, Backend::cuda);
  check_step_against_direct<2>(GaugeKind::coulomb, Backend::cuda);
}

// The gradient after a move reads the A_mu(x) that the move stored (CPU) or the links
// themselves (GPU, GradientFromLinks): its F and theta must be bitwise the engine's own
// measurement of the moved links (SiteMeasure, which loads every link), for every storage,
// and again after the links changed outside the descent (reprojection) and after a second
// move.
template <int N>
void check_cached_algebra(GaugeKind gauge, Storage storage, Precision precision,
                          Backend backend = Backend::cpu) {
  const int L[4] = {4, 6, 2, 8};
  const HostField u = testing::random_field(L, N, 17, 0.4);
  EngineOptions opt;
  opt.backend = backend;
  opt.gauge = gauge;
  opt.storage = storage;
  opt.precision = precision;
  auto engine = make_engine(u, opt);
  DescentField& field = engine->descent_field();
  auto same = [&](const DescentSums& d, const char* when) {
    const SliceSums m = engine->measure();
    ASSERT_EQ(d.functional.size(), m.functional.size());
    for (std::size_t t = 0; t < m.functional.size(); ++t) {
      EXPECT_EQ(d.functional[t], m.functional[t]) << when << ", slice " << t;
      EXPECT_EQ(d.theta[t], m.theta[t]) << when << ", slice " << t;
    }
  };
  same(field.evaluate(), "before moving");
  field.precondition();
  field.set_direction(0);
  field.move(0.3);
  same(field.evaluate(), "after a move");
  engine->reproject();
  same(field.evaluate(), "after reprojection");
  field.precondition();
  field.set_direction(0);
  field.move(0.2);
  field.move(-0.1); // two moves without a gradient between them
  same(field.evaluate(), "after two moves");
}

TEST(FourierField, GradientAfterAMoveIsBitwiseTheLinksGradient) {
  for (Storage s : {Storage::rows, Storage::full}) {
    check_cached_algebra<3>(GaugeKind::landau, s, Precision::double_);
    check_cached_algebra<3>(GaugeKind::coulomb, s, Precision::double_);
    check_cached_algebra<2>(GaugeKind::landau, s, Precision::double_);
    check_cached_algebra<3>(GaugeKind::landau, s, Precision::mixed);
    check_cached_algebra<3>(GaugeKind::landau, s, Precision::single);
  }
  check_cached_algebra<3>(GaugeKind::landau, Storage::params8, Precision::double_);
}

TEST(FourierField, GradientAfterAMoveIsBitwiseTheLinksGradientOnGpu) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  for (Storage s : {Storage::rows, Storage::full}) {
    check_cached_algebra<3>(GaugeKind::landau, s, Precision::double_, Backend::cuda);
    check_cached_algebra<3>(GaugeKind::coulomb, s, Precision::double_, Backend::cuda);
    check_cached_algebra<2>(GaugeKind::landau, s, Precision::double_, Backend::cuda);
    check_cached_algebra<3>(GaugeKind::landau, s, Precision::mixed, Backend::cuda);
    check_cached_algebra<3>(GaugeKind::landau, s, Precision::single, Backend::cuda);
  }
}

// ---- the step choice on a model: F(x) = -1/2 sum_i lambda_i x_i^2 ----------------------

class QuadraticField final : public DescentField {
public:
  QuadraticField(std::vector<double> lambda, std::vector<double> precondition,
                 std::vector<double> x)
      : lambda_(std::move(lambda)), p_(std::move(precondition)), x_(std::move(x)),
        delta_(x_.size()), z_(x_.size()), d_(x_.size()) {}
  double breaks_at = 1e300; // a move beyond this step gives NaN

  DescentSums evaluate() override {
    double f = 0, th = 0, sl = 0;
    for (std::size_t i = 0; i < x_.size(); ++i) {
      delta_[i] = -lambda_[i] * x_[i];
      f += -0.5 * lambda_[i] * x_[i] * x_[i];
      th += delta_[i] * delta_[i];
      sl += d_[i] * delta_[i];
    }
    return {{f}, {th}, {sl}};
  }
  void precondition() override {
    for (std::size_t i = 0; i < x_.size(); ++i)
      z_[i] = p_[i] * delta_[i];
  }
  double dot_gradient(DescentOperand o) override {
    double s = 0;
    for (std::size_t i = 0; i < x_.size(); ++i)
      s += delta_[i] * (o == DescentOperand::direction ? d_[i] : z_[i]);
    return s;
  }
  void set_direction(double beta) override {
    for (std::size_t i = 0; i < x_.size(); ++i)
      d_[i] = z_[i] + beta * d_[i];
  }
  void move(double a) override {
    for (std::size_t i = 0; i < x_.size(); ++i)
      x_[i] = a > breaks_at ? NAN : x_[i] + a * d_[i];
  }
  double rounding() const override { return 1e-13; }
  DescentTimes times() const override { return {}; }
  const char* transpose_path() const override { return "none"; }
  const char* preconditioner_precision() const override { return "double"; }
  // x (the "links"), Z and D
  void save_state(std::vector<unsigned char>& out) const override {
    for (const std::vector<double>* v : {&x_, &z_, &d_}) {
      const auto* b = reinterpret_cast<const unsigned char*>(v->data());
      out.insert(out.end(), b, b + v->size() * sizeof(double));
    }
  }
  std::size_t restore_state(const std::vector<unsigned char>& in, std::size_t at) override {
    for (std::vector<double>* v : {&x_, &z_, &d_}) {
      const std::size_t n = v->size() * sizeof(double);
      if (in.size() - at < n) throw Error("QuadraticField: state too short");
      std::memcpy(v->data(), in.data() + at, n);
      at += n;
    }
    return at;
  }

private:
  std::vector<double> lambda_, p_, x_, delta_, z_, d_;
};

QuadraticField model() {
  std::vector<double> lambda, p, x;
  for (int i = 0; i < 40; ++i) {
    lambda.push_back(1.0 + i * i);          // condition number 1600
    p.push_back(1.0 / (1.0 + 0.8 * i * i)); // an imperfect preconditioner
    x.push_back(std::cos(0.7 * i) + 0.1);
  }
  return QuadraticField(lambda, p, x);
}

// Iterations until theta < 1e-20, at most `most`. F never decreases from step to step, except
// with FASD's automatic step, where it never falls below F at the start of any of the last
// 10 steps (descent.h).
int descend(QuadraticField& q, DescentParams p, int most = 500) {
  const bool nonmonotone = p.method == DescentMethod::fasd && p.alpha <= 0;
  FourierDescent d(q, p);
  std::vector<double> f = {d.start().functional[0]};
  for (int k = 1; k <= most; ++k) {
    const FourierDescent::Step s = d.step();
    const double floor =
        nonmonotone ? *std::min_element(f.end() - std::min<std::ptrdiff_t>(10, f.size()), f.end())
                    : f.back();
    EXPECT_GE(s.sums->functional[0], floor - 1e-13 * std::abs(floor)) << "step " << k;
    f.push_back(s.sums->functional[0]);
    if (s.sums->theta[0] < 1e-20 || s.stalled) return k;
  }
  return most;
}

// Neither method needs a step: FACG converges fast, and FASD's automatic (Barzilai-Borwein)
// step beats every fixed step, the best of them included.
TEST(FourierDescentModel, ConvergesWithoutAStepToChoose) {
  QuadraticField cg = model(), sd = model();
  const int cg_steps = descend(cg, {DescentMethod::facg, 0.0});
  const int sd_steps = descend(sd, {DescentMethod::fasd, 0.0});
  EXPECT_LT(cg_steps, 60);
  int best_fixed = 1 << 30;
  for (double alpha : {0.25, 0.5, 1.0, 1.5, 2.0}) {
    QuadraticField q = model();
    best_fixed = std::min(best_fixed, descend(q, {DescentMethod::fasd, alpha}, 5000));
  }
  EXPECT_LT(sd_steps, best_fixed);
  std::printf("  model: facg %d, fasd %d, fasd at the best fixed step %d steps\n", cg_steps,
              sd_steps, best_fixed);
}

// A descent saved between two steps (the field's arrays and FourierDescent::State) and resumed
// on a fresh field ends bitwise where the uninterrupted one does: FACG's direction and
// <Delta, Z>, FASD's step and nonmonotone window all come back.
TEST(FourierDescentModel, ResumedDescentIsBitwiseTheUninterruptedOne) {
  for (const DescentParams p :
       {DescentParams{DescentMethod::facg, 0.0}, DescentParams{DescentMethod::fasd, 0.0},
        DescentParams{DescentMethod::fasd, 0.5}}) {
    QuadraticField whole = model(), first = model(), second = model();
    FourierDescent a(whole, p);
    a.start();
    for (int k = 0; k < 10; ++k) // before either method converges (about 15 and 11 steps)
      a.step();
    FourierDescent b(first, p);
    b.start();
    for (int k = 0; k < 5; ++k)
      b.step();
    std::vector<unsigned char> saved;
    first.save_state(saved);
    const FourierDescent::State st = b.state();
    ASSERT_EQ(second.restore_state(saved, 0), saved.size());
    FourierDescent c(second, p);
    c.resume(st);
    for (int k = 5; k < 10; ++k)
      c.step();
    std::vector<unsigned char> end_whole, end_resumed;
    whole.save_state(end_whole);
    second.save_state(end_resumed);
    EXPECT_EQ(end_whole, end_resumed) << descent_name(p.method) << " alpha " << p.alpha;
    EXPECT_EQ(a.step_length(), c.step_length());
    if (p.alpha > 0) continue; // a fixed FASD step: nothing carries over from step to step
    // the descent's own state matters: the arrays alone, started afresh, end elsewhere
    QuadraticField third = model();
    third.restore_state(saved, 0);
    FourierDescent e(third, p);
    e.start();
    for (int k = 5; k < 10; ++k)
      e.step();
    std::vector<unsigned char> end_afresh;
    third.save_state(end_afresh);
    EXPECT_NE(end_whole, end_afresh) << descent_name(p.method) << " alpha " << p.alpha;
  }
}

TEST(FourierDescentModel, TooLongFixedStepIsTakenBackAndHalved) {
  QuadraticField q = model();
  const DescentParams too_long = {DescentMethod::fasd, 50.0}; // far beyond 2 / lambda_max of P A
  descend(q, too_long, 100); // F never decreases from step to step (checked by descend)
  FourierDescent d(q, too_long);
  d.start();
  d.step();
  EXPECT_LT(d.step_length(), 50.0 / 2);
}

TEST(FourierDescentModel, NonFiniteValuesStopTheRun) {
  QuadraticField q = model();
  q.breaks_at = 0.01;
  FourierDescent d(q, {DescentMethod::facg, 0.0});
  d.start();
  EXPECT_THROW(d.step(), Error);
}

// ---- the full fix on the samples --------------------------------------------------------

struct SampleCase {
  const char* file;
  GaugeKind gauge;
  DescentMethod method;
};

class FourierSamples : public ::testing::TestWithParam<SampleCase> {};

TEST_P(FourierSamples, ReachesThetaKeepingInvariants) {
  const SampleCase c = GetParam();
  GF_SAMPLE(path, c.file);
  const HostField u = read_gauge_file(path, testing::self_world());
  EngineOptions eo;
  eo.gauge = c.gauge;
  eo.track_transform = true;
  auto engine = make_engine(u, eo);
  const FixResult r = run_schedule(*engine, c.gauge, u.nc, u.geom,
                                   testing::descent_schedule(c.method, 1e-12), nullptr);
  HostField fixed = u, g(u.geom, u.nc, 1);
  engine->download(fixed, &g);
  EXPECT_TRUE(r.converged) << "theta = " << r.final.theta << " after " << r.iterations;
  EXPECT_LT(c.gauge == GaugeKind::coulomb ? r.final.theta_max_slice : r.final.theta, 1e-12);
  EXPECT_GT(r.final.functional,
            normalise(make_engine(u, eo)->measure(), c.gauge, u.nc, u.geom).functional);
  EXPECT_NEAR(plaquette(fixed), plaquette(u), 1e-12);
  EXPECT_NEAR(polyakov_loop(fixed).re, polyakov_loop(u).re, 1e-12);
  EXPECT_NEAR(polyakov_loop(fixed).im, polyakov_loop(u).im, 1e-12);
  EXPECT_LT(max_unitarity_violation(fixed), 1e-12);
  EXPECT_LT(max_unitarity_violation(g), 1e-12);
  const double v = testing::max_transform_violation(u, g, fixed);
  EXPECT_LT(v, 1e-12);
  std::printf("  %s %s %s: %ld iterations, %.3f s, theta %.3e\n", c.file, name_of(c.gauge),
              descent_name(c.method), r.iterations, r.seconds, r.final.theta);
}

std::vector<SampleCase> sample_cases() {
  std::vector<SampleCase> v;
  for (const char* f : {"lat..400", "nersc.l8t4b3360", "HILAT.nersc"})
    for (GaugeKind g : {GaugeKind::landau, GaugeKind::coulomb})
      for (DescentMethod m : {DescentMethod::fasd, DescentMethod::facg})
        v.push_back({f, g, m});
  return v;
}

INSTANTIATE_TEST_SUITE_P(Samples, FourierSamples, ::testing::ValuesIn(sample_cases()),
                         [](const ::testing::TestParamInfo<SampleCase>& info) {
                           std::string f = info.param.file;
                           for (char& ch : f)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return f + "_" + name_of(info.param.gauge) + "_" +
                                  descent_name(info.param.method);
                         });

// A fixed step and the hybrid schedule (annealing, then FACG) converge as well; MAG is refused.
TEST(FourierSchedule, FixedStepHybridAndMag) {
  const int L[4] = {4, 4, 4, 8};
  HostField u = testing::random_field(L, 3, 17, 0.3);
  random_gauge_transform(u, 5);
  EngineOptions eo;
  FixOptions fasd = testing::descent_schedule(DescentMethod::fasd, 1e-12);
  fasd.phases[0].descent.alpha = 0.08;
  auto engine = make_engine(u, eo);
  EXPECT_TRUE(run_schedule(*engine, GaugeKind::landau, 3, u.geom, fasd, nullptr).converged);

  FixOptions hybrid = testing::descent_schedule(DescentMethod::facg, 1e-12);
  hybrid.phases.insert(hybrid.phases.begin(), testing::annealing_phase(20, 1.0, 0.01, 3));
  engine = make_engine(u, eo);
  const FixResult r = run_schedule(*engine, GaugeKind::landau, 3, u.geom, hybrid, nullptr);
  EXPECT_TRUE(r.converged);
  EXPECT_GT(r.iterations, 80); // 20 x (1 + 3) annealing sweeps, then FACG
  // The cost of the FACG phase: a gradient at its start and at least one per step; the
  // transposes (Landau gauge) are part of the preconditioning.
  const long facg_steps = r.iterations - 80;
  EXPECT_GE(r.fourier.gradients, facg_steps + 1);
  EXPECT_LE(r.fourier.gradients, 1 + FourierDescent::max_line_points * facg_steps);
  EXPECT_GT(r.fourier.transpose_seconds, 0.0);
  EXPECT_LT(r.fourier.transpose_seconds, r.fourier.precondition_seconds);
  EXPECT_EQ(r.fourier.transpose_path, "local");
  FixOptions annealing_only;
  annealing_only.phases = {testing::annealing_phase(2, 1.0, 0.5, 0)};
  const FixResult sweeps_only =
      run_schedule(*make_engine(u, eo), GaugeKind::landau, 3, u.geom, annealing_only, nullptr);
  EXPECT_EQ(sweeps_only.fourier.gradients, 0);
  EXPECT_EQ(sweeps_only.fourier.precondition_seconds, 0.0);
  EXPECT_EQ(sweeps_only.fourier.transpose_path, "");

  eo.gauge = GaugeKind::mag;
  engine = make_engine(u, eo);
  EXPECT_THROW(run_schedule(*engine, GaugeKind::mag, 3, u.geom, fasd, nullptr), Error);
  EXPECT_THROW(engine->descent_field(), Error);
}

// Single and mixed precision: FACG reaches theta < 1e-9 (the links are stored as floats).
TEST(FourierSchedule, SingleAndMixedPrecision) {
  const int L[4] = {4, 4, 4, 8};
  HostField u = testing::random_field(L, 3, 23, 0.3);
  random_gauge_transform(u, 3);
  for (Precision p : {Precision::single, Precision::mixed}) {
    for (GaugeKind gauge : {GaugeKind::landau, GaugeKind::coulomb}) {
      EngineOptions eo;
      eo.precision = p;
      eo.gauge = gauge;
      auto engine = make_engine(u, eo);
      const FixResult r = run_schedule(
          *engine, gauge, 3, u.geom, testing::descent_schedule(DescentMethod::facg, 1e-9), nullptr);
      EXPECT_TRUE(r.converged) << name_of(p) << " " << name_of(gauge)
                               << ": theta = " << r.final.theta;
    }
  }
}

// The single-precision preconditioner in a double fix (the transforms in float, Z read into
// double): FACG reaches theta < 2.5e-13 at the same maximum (F to 1e-12) in about as many
// iterations as with the double preconditioner, on a thermalised field and a random gauge
// transform of a smooth one, Landau and Coulomb; the summary's precision says which ran. A
// double preconditioner in a single fix is refused.
TEST(FourierSchedule, SinglePreconditionerInADoubleFix) {
  GF_SAMPLE(path, "nersc.l8t4b3360");
  const int L[4] = {4, 4, 6, 8};
  HostField smooth = testing::random_field(L, 3, 31, 0.3);
  random_gauge_transform(smooth, 13);
  const HostField thermalised = read_gauge_file(path, testing::self_world());
  constexpr double tolerance = 2.5e-13;
  for (const HostField* u : std::initializer_list<const HostField*>{&thermalised, &smooth})
    for (GaugeKind gauge : {GaugeKind::landau, GaugeKind::coulomb}) {
      EngineOptions eo;
      eo.gauge = gauge;
      const FixOptions fo = testing::descent_schedule(DescentMethod::facg, tolerance);
      const FixResult dbl = run_schedule(*make_engine(*u, eo), gauge, u->nc, u->geom, fo, nullptr);
      eo.preconditioner = PreconditionerPrecision::single;
      const FixResult sgl = run_schedule(*make_engine(*u, eo), gauge, u->nc, u->geom, fo, nullptr);
      const std::string what = std::string(u == &smooth ? "smooth " : "thermalised ") +
                               name_of(gauge) + ": " + std::to_string(dbl.iterations) +
                               " (double) against " + std::to_string(sgl.iterations) +
                               " (single) iterations";
      ASSERT_TRUE(dbl.converged) << what;
      ASSERT_TRUE(sgl.converged) << what;
      const auto theta = [gauge](const FixResult& r) {
        return gauge == GaugeKind::coulomb ? r.final.theta_max_slice : r.final.theta;
      };
      EXPECT_LT(theta(sgl), tolerance) << what;
      EXPECT_NEAR(sgl.final.functional, dbl.final.functional, 1e-12) << what;
      EXPECT_LE(std::abs(sgl.iterations - dbl.iterations), 2 + dbl.iterations / 10) << what;
      EXPECT_EQ(dbl.fourier.preconditioner_precision, "double");
      EXPECT_EQ(sgl.fourier.preconditioner_precision, "single");
      std::printf("  %s\n", what.c_str());
    }
  EngineOptions single;
  single.precision = Precision::single;
  single.preconditioner = PreconditionerPrecision::double_;
  EXPECT_THROW(make_engine(smooth, single)->descent_field(), Error);
  single.preconditioner = PreconditionerPrecision::single; // its own: allowed
  EXPECT_STREQ(make_engine(smooth, single)->descent_field().preconditioner_precision(), "single");
}

// ---- decomposition ----------------------------------------------------------------------

void check_fix_against_whole_lattice(
    Backend backend, Precision precision,
    PreconditionerPrecision preconditioner = PreconditionerPrecision::automatic) {
  const World world;
  const int L[4] = {4, 4, 6, 12};
  for (GaugeKind gauge : {GaugeKind::landau, GaugeKind::coulomb})
    for (int nc : {3, 2}) {
      HostField whole = testing::random_field(L, nc, 41, 0.3);
      random_gauge_transform(whole, 9);
      const Geometry slab = decompose_time(L, world);
      const FixOptions fo = testing::descent_schedule(
          DescentMethod::facg, precision == Precision::double_ ? 1e-12 : 1e-9);
      EngineOptions opt;
      opt.gauge = gauge;
      opt.backend = backend;
      opt.precision = precision;
      opt.preconditioner = preconditioner;
      opt.node_rank = world.node_rank();
      opt.track_transform = true;
      auto reference = make_engine(whole, opt);
      const FixResult r1 = run_schedule(*reference, gauge, nc, whole.geom, fo, nullptr);
      if (world.size() > 1) opt.channel = make_channel(world, ExchangePath::automatic);
      auto distributed = make_engine(whole.slab(slab.t0, slab.nt), opt);
      const FixResult r2 = run_schedule(*distributed, gauge, nc, slab, fo, nullptr);
      const std::string what = std::string(name_of(backend)) + " " + name_of(precision) + " " +
                               name_of(gauge) + " SU(" + std::to_string(nc) + "), preconditioner " +
                               name_of(preconditioner);
      EXPECT_TRUE(r1.converged) << what;
      EXPECT_EQ(r1.iterations, r2.iterations) << what;
      EXPECT_EQ(r1.final.functional, r2.final.functional) << what;
      EXPECT_EQ(r1.final.theta, r2.final.theta) << what;
      // The transposes' path: one rank in place; several through the all-to-all, which MPI
      // reads where it can (the CPU, a CUDA-aware MPI), else GPU to GPU (every rank of these
      // tests is on one node).
      std::string path = gauge == GaugeKind::coulomb ? "none" : "local";
      EXPECT_EQ(r1.fourier.transpose_path, path) << what;
      if (path == "local" && world.size() > 1)
        path = backend == Backend::cpu || opt.channel->device_pointers() ? "pointers" : "peer";
      EXPECT_EQ(r2.fourier.transpose_path, path) << what;
      HostField ref_links = whole, ref_g(whole.geom, nc, 1);
      reference->download(ref_links, &ref_g);
      HostField links(slab, nc, 4), g(slab, nc, 1);
      distributed->download(links, &g);
      const HostField want = ref_links.slab(slab.t0, slab.nt),
                      want_g = ref_g.slab(slab.t0, slab.nt);
      EXPECT_EQ(0, std::memcmp(links.data.data(), want.data.data(),
                               links.data.size() * sizeof(links.data[0])))
          << what << ": links differ on rank " << world.rank();
      EXPECT_EQ(0,
                std::memcmp(g.data.data(), want_g.data.data(), g.data.size() * sizeof(g.data[0])))
          << what << ": g(x) differs on rank " << world.rank();
    }
}

TEST(FourierRanks, FixMatchesTheWholeLatticeBitwise) {
  check_fix_against_whole_lattice(Backend::cpu, Precision::double_);
}

// The single-precision preconditioner of a double fix: float transforms, transposes and
// messages, the same fixed plans, so the same bits on any number of ranks.
TEST(FourierRanks, SinglePreconditionerMatchesTheWholeLatticeBitwise) {
  check_fix_against_whole_lattice(Backend::cpu, Precision::double_,
                                  PreconditionerPrecision::single);
}

// cuFFT: every slice and line by one fixed plan whatever the decomposition (cufft_fft.h).
TEST(FourierRanks, FixMatchesTheWholeLatticeBitwiseOnGpu) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  for (Precision p : {Precision::double_, Precision::mixed, Precision::single})
    check_fix_against_whole_lattice(Backend::cuda, p);
}

// cuFFT's float (C2C) plans: as fixed as its double ones.
TEST(FourierRanks, SinglePreconditionerMatchesTheWholeLatticeBitwiseOnGpu) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  for (Precision p : {Precision::double_, Precision::mixed})
    check_fix_against_whole_lattice(Backend::cuda, p, PreconditionerPrecision::single);
}

} // namespace
} // namespace gf
