// test_simd_apply.cpp: the CPU's SIMD move of the Fourier-accelerated fixing
// (fourier/simd_apply_step.h) against the scalar ApplyStep it replaces: the same links, g(x),
// A_mu(x) and F, bit for bit, for Landau and Coulomb gauge, SU(2) and SU(3), every precision
// and storage, on a lattice whose half-slices are not consecutive in memory (the CPU's padded
// pitch) and whose rows have 3 sites.
#include "backend/host_exec.h"
#include "fix/layout_transfer.h"
#include "fourier/simd_apply.h"
#include "gauge/landau_coulomb.h"
#include "test_fields.h"
#include <cstring>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace gf {
namespace {

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

// Everything a move writes, after one move from the same start.
template <class S>
struct Moved {
  std::vector<S> links, transform;
  std::vector<double> algebra, functional;
};

template <class Gauge, class Prec, int N>
Moved<typename Prec::storage> move_once(Storage storage, bool simd) {
  using S = typename Prec::storage;
  using R = typename Prec::problem;
  const int L[4] = {6, 4, 4, 4}; // half-slices of 48 sites: double links padded to 56
  const Geometry geom = Geometry::whole(L);
  const HostField start = testing::random_field(L, N, 23, 0.8);
  Moved<S> m;
  const FieldView<S, N> layout = layout_view<HostExec, S, N>(nullptr, geom, 4, storage);
  m.links.assign(static_cast<std::size_t>(layout.size()), S(0));
  FieldView<S, N> links = layout;
  links.data = m.links.data();
  FieldView<S, N> transform = layout_view<HostExec, S, N>(nullptr, geom, 1, storage);
  m.transform.assign(static_cast<std::size_t>(transform.size()), S(0));
  transform.data = m.transform.data();
  for (std::int64_t s = 0; s < start.local_sites(); ++s) {
    const SiteCoords c = start.coords(s);
    for (int mu = 0; mu < 4; ++mu)
      links.template save_at<double>(c, mu, start.get<N>(s, mu));
    transform.template save_at<double>(c, 0, testing::random_link<N>(5, s, 0));
  }

  FourierLayout lay;
  for (int mu = 0; mu < 4; ++mu)
    lay.L[mu] = L[mu];
  lay.nt = geom.nt;
  lay.comps = complex_components<N>;
  lay.ranks = 1;
  lay.rank = 0;
  lay.v3 = geom.v3;
  lay.site_major = true;
  // g(x) of every slice and of the slice after the last (Landau gauge reads it)
  std::vector<Complex<R>> g(static_cast<std::size_t>((geom.nt + 1) * N * N * geom.v3));
  for (int t = 0; t <= geom.nt; ++t)
    for (std::int64_t s = 0; s < geom.v3; ++s) {
      const Matrix<double, N> e = testing::random_link<N>(7, t * geom.v3 + s, 1);
      for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j)
          g[lay.step_index(t, i * N + j, N * N, s)] = complex_cast<R>(e.m[i][j]);
    }
  LinkAlgebraView<N> alg{nullptr, geom, Gauge::n_functional_dirs, true};
  m.algebra.assign(static_cast<std::size_t>(alg.size()), 0.0);
  alg.data = m.algebra.data();
  m.functional.assign(static_cast<std::size_t>(geom.local_volume()), 0.0);

  const PrecApplyStep<Gauge, Prec, N> step{links,    transform, lay,
                                           g.data(), alg,       m.functional.data()};
  if (simd) {
    run_simd_apply_step<Gauge, Prec, N>(step, geom.local_volume(), LaunchConfig{});
  } else {
    for (std::int64_t i = 0; i < geom.local_volume(); ++i)
      step(i);
  }
  return m;
}

template <class Gauge, class Prec, int N>
void check(Storage storage, const std::string& what) {
  const auto scalar = move_once<Gauge, Prec, N>(storage, false);
  const auto simd = move_once<Gauge, Prec, N>(storage, true);
  EXPECT_TRUE(same_bits(scalar.links, simd.links)) << what << ": links";
  EXPECT_TRUE(same_bits(scalar.transform, simd.transform)) << what << ": g(x)";
  EXPECT_TRUE(same_bits(scalar.algebra, simd.algebra)) << what << ": A_mu(x)";
  EXPECT_TRUE(same_bits(scalar.functional, simd.functional)) << what << ": F";
  // the move did something: F is that of moved links, not zero
  double f = 0;
  for (double v : simd.functional)
    f += v;
  EXPECT_NE(f, 0.0) << what;
}

template <class Gauge, int N>
void check_all(const std::string& gauge) {
  for (Storage st : {Storage::rows, Storage::full, Storage::params8}) {
    if (st == Storage::params8 && N != 3) continue;
    const std::string what = gauge + " SU(" + std::to_string(N) + ") " +
                             std::to_string(reals_per_matrix<N>(st)) + " reals";
    check<Gauge, SinglePrecision, N>(st, what + " single");
    check<Gauge, MixedPrecision, N>(st, what + " mixed");
    check<Gauge, DoublePrecision, N>(st, what + " double");
  }
}

TEST(SimdApplyStep, EqualsTheScalarMoveBitwise) {
  check_all<LandauGauge, 3>("landau");
  check_all<LandauGauge, 2>("landau");
  check_all<CoulombGauge, 3>("coulomb");
  check_all<CoulombGauge, 2>("coulomb");
}

} // namespace
} // namespace gf
