// fourier_functors.h: the element-wise kernels of the Fourier-accelerated fixing, written once
// with GF_HD and run by parallel_for on every backend (fourier_field.h launches them).
//   LinkAlgebraSite     A_mu(x) of every link of the gauge's directions into the link-algebra
//                       array (LinkAlgebraView), and per site F; items (t, parity, h);
//   HaloLinkAlgebra     the same for the time links of the halo slice t = -1 (several ranks,
//                       Landau gauge), after the links' halo was refreshed;
//   GradientSite        Delta(x) from the link-algebra array (slice layout), and per site
//                       theta and the slope tr[D Delta]; items are sites ordered (t, parity,
//                       h), as in SiteMeasure, so that the per-slice sums are formed in that
//                       order;
//   GradientFromLinks   the same from the links themselves, and per site F (a GPU's: no
//                       link-algebra array, fewer bytes moved per move and gradient);
//   SiteTraceProduct    per site tr[A B] of two slice-layout fields; items (t, s);
//   CombineDirection    D = Z + beta D, per complex element (Z in the transform's type);
//   ConvertToTransform  Delta into the transform's slices where these are of another real
//                       type (float, a double fix's single-precision preconditioner);
//   StepTransform       g(x) = exp(-i a D(x)) (math/hermitian.h), per site, into the step
//                       layout (FourierLayout::step_index);
//   ApplyStep           U_mu(x) <- g(x) U_mu(x) g(x + mu)^dagger for the gauge's directions
//                       and G(x) <- g(x) G(x); items (t, parity, h); each item writes only its
//                       own links, and, from each new link as a later load returns it, its
//                       A_mu(x) and the site's F (what LinkAlgebraSite would give), so that
//                       the gradient after a move loads no link (where the array exists);
//   MomentumTermsFill   the table of 4 sin^2(pi k / L_mu) (MomentumTerms, momentum.h), once;
//   MomentumMultiply*   f(k) times the preconditioner p^2_max / p^2 divided by the volume of
//                       the transform, per element of the units (4-D) or the slices (3-D,
//                       Coulomb), the weight formed from the table;
//   Transpose*          copies between the slice layout, the message arrays of the distributed
//                       transpose and the unit layout (fourier_layout.h); TransposeLocal is
//                       the two in one pass on one rank;
//   *ToPeer*            the distributed transpose between GPUs of one node: each element
//                       written straight into its place in the receiver's array (run in
//                       parts, ItemsFrom, as the transforms deliver them).
// Every number is computed by the same operations in the same order as the direct evaluation
// from the links (Gauge::site_delta, theta_of, site_functional): the link-algebra array keeps
// the N^2 reals of A_mu that its matrix holds (the diagonal's real parts and the upper
// triangle; the lower triangle is the exact conjugate and the diagonal's imaginary parts are
// zero), so Delta, theta and F are bitwise those of the links.
#pragma once
#include "fix/site_functors.h"
#include "fourier/fourier_layout.h"
#include "fourier/momentum.h"
#include "gauge/landau_coulomb.h"
#include "lattice/field_view.h"
#include "math/hermitian.h"
#include "math/su_n.h"
#include <type_traits>

// GF_FLATTEN on a kernel's operator(): the host compiler inlines every call in it (the
// views' loads and saves, the small-matrix algebra), so that the matrices stay in registers;
// nvcc inlines device functions by itself.
#if defined(__CUDACC__) || !defined(__GNUC__)
#define GF_FLATTEN
#else
#define GF_FLATTEN __attribute__((flatten))
#endif

namespace gf {

template <int N>
constexpr int complex_components = (algebra_dim<N> + 1) / 2;

template <class T, int N, class R>
GF_INLINE Algebra<T, N> load_algebra(const Complex<R>* f, const FourierLayout& lay, int t,
                                     std::int64_t s) {
  Algebra<T, N> a;
  GF_UNROLL
  for (int k = 0; k < algebra_dim<N>; ++k) {
    const Complex<R> z = f[lay.slice_index(t, k / 2, s)];
    a.v[k] = static_cast<T>(k % 2 == 0 ? z.re : z.im);
  }
  return a;
}

template <class T, int N, class R>
GF_INLINE void store_algebra(Complex<R>* f, const FourierLayout& lay, int t, std::int64_t s,
                             const Algebra<T, N>& a) {
  GF_UNROLL
  for (int c = 0; c < complex_components<N>; ++c) {
    const R re = static_cast<R>(a.v[2 * c]);
    const R im = 2 * c + 1 < algebra_dim<N> ? static_cast<R>(a.v[2 * c + 1]) : R(0);
    f[lay.slice_index(t, c, s)] = {re, im};
  }
}

// A_mu(x) of the links of the gauge's directions, N^2 doubles each (link_algebra_reals), in
// the links' slots (lattice/field_view.h: halo slices -1 and nt on several ranks), either
//   [slot][parity][mu][real r][h]   (real-major: a GPU's neighbouring threads, consecutive h,
//                                    read neighbouring addresses), or
//   [slot][parity][h][mu][real r]   (site-major: a site's A_mu in one piece, so that a CPU
//                                    core streams through few arrays).
// Reals: the diagonal's real parts, then the real and imaginary parts of the upper triangle
// (i < j) row by row.
template <int N>
constexpr int link_algebra_reals = N* N;

template <int N>
struct LinkAlgebraView {
  double* data;
  Geometry geom;
  int dirs;
  bool site_major;

  GF_HD std::int64_t size() const {
    return std::int64_t(geom.stored_slices()) * 2 * dirs * link_algebra_reals<N> * geom.v3h;
  }
  // real r lies r * stride() further
  GF_HD std::int64_t stride() const { return site_major ? 1 : geom.v3h; }
  GF_HD std::int64_t offset(int t, int p, int mu, std::int64_t h) const {
    const std::int64_t half = std::int64_t(geom.slice_slot(t)) * 2 + p;
    return site_major ? ((half * geom.v3h + h) * dirs + mu) * link_algebra_reals<N>
                      : (half * dirs + mu) * link_algebra_reals<N> * geom.v3h + h;
  }
  // Host, site-major: a hint to fetch A_mu of the site `sites` further on in h (a neighbour's
  // A_mu is a stream of its own, more than the hardware prefetcher follows).
  GF_HD void prefetch_ahead(int t, int p, int mu, std::int64_t h, int sites) const {
    if (!site_major) return;
    const auto a = reinterpret_cast<std::uintptr_t>(data + offset(t, p, mu, h));
    const std::uintptr_t bytes = link_algebra_reals<N> * sizeof(double);
    prefetch_host_bytes(a + std::uintptr_t(sites) * dirs * bytes, bytes);
  }
  // The stored reals of A_mu(x), in the order above.
  GF_HD void load_reals(int t, int p, int mu, std::int64_t h,
                        double (&r)[link_algebra_reals<N>]) const {
    const double* a = data + offset(t, p, mu, h);
    const std::int64_t v = stride();
    GF_UNROLL
    for (int k = 0; k < link_algebra_reals<N>; ++k)
      r[k] = a[k * v];
  }
  GF_HD void save(int t, int p, int mu, std::int64_t h, const Matrix<double, N>& m) const {
    double r[link_algebra_reals<N>];
    reals_of(m, r);
    double* a = data + offset(t, p, mu, h);
    const std::int64_t v = stride();
    GF_UNROLL
    for (int k = 0; k < link_algebra_reals<N>; ++k)
      a[k * v] = r[k];
  }
  // The stored reals of a Hermitian matrix m, in the order above.
  GF_HD static void reals_of(const Matrix<double, N>& m, double (&r)[link_algebra_reals<N>]) {
    int k = N;
    GF_UNROLL
    for (int i = 0; i < N; ++i) {
      r[i] = m.m[i][i].re;
      GF_UNROLL
      for (int j = i + 1; j < N; ++j) {
        r[k] = m.m[i][j].re;
        r[k + 1] = m.m[i][j].im;
        k += 2;
      }
    }
  }
};

// The first of the two reals of the upper-triangle element (i, j), i < j, in LinkAlgebraView's
// order.
template <int N>
GF_HD constexpr int upper_real(int i, int j) {
  return N + 2 * (i * (2 * N - i - 1) / 2 + j - i - 1);
}

// LinearGauge::theta_of and to_algebra of the traceless Hermitian matrix whose stored reals are
// d: the same operations in the same order as on that matrix (its lower triangle is the exact
// conjugate of the upper, its diagonal imaginary parts zero), so the same bits.
template <int N>
GF_INLINE double theta_of_reals(const double (&d)[link_algebra_reals<N>]) {
  double s = 0.0;
  GF_UNROLL
  for (int i = 0; i < N; ++i)
    GF_UNROLL
  for (int j = 0; j < N; ++j) {
    if (i == j) {
      s += d[i] * d[i] + 0.0 * 0.0;
    } else {
      const int k = i < j ? upper_real<N>(i, j) : upper_real<N>(j, i);
      s += d[k] * d[k] + d[k + 1] * d[k + 1];
    }
  }
  return s;
}

template <int N>
GF_INLINE Algebra<double, N> algebra_of_reals(const double (&d)[link_algebra_reals<N>]) {
  Algebra<double, N> a;
  if constexpr (N == 2) {
    a.v[0] = d[0];
    a.v[1] = d[2];
    a.v[2] = d[3];
  } else { // to_algebra's order: the first two diagonal reals, then the upper triangle
    a.v[0] = d[0];
    a.v[1] = d[1];
    GF_UNROLL
    for (int k = 2; k < algebra_dim<N>; ++k)
      a.v[k] = d[k + 1];
  }
  return a;
}

// A_mu(x) of one link, stored; returns Re tr U.
template <class Gauge, int N>
GF_INLINE double store_link_algebra(const LinkAlgebraView<N>& alg, int t, int p, int mu,
                                    std::int64_t h, const Matrix<double, N>& u) {
  alg.save(t, p, mu, h, Gauge::template algebra_field<double, N>(u));
  return trace(u).re;
}

// A_mu(x) of the site's links of the gauge's directions (loaded in double, as every reader
// of the links does) into the link-algebra array; returns the site's F, summed as
// Gauge::site_functional sums it.
template <class Gauge, class S, int N>
GF_INLINE double store_link_algebra(const FieldView<S, N>& links, const LinkAlgebraView<N>& alg,
                                    int t, int p, std::int64_t h) {
  double f = 0.0;
  GF_UNROLL
  for (int mu = 0; mu < Gauge::n_functional_dirs; ++mu)
    f += store_link_algebra<Gauge>(alg, t, p, mu, h, links.template load<double>(t, p, mu, h));
  return f;
}

// What FieldView::load<double> returns for a matrix u just saved by save<L>, without reading
// it back where that is exact: with S = L the stored reals are u's, and 18 reals load as
// stored, 12 reals as their rows reunitarised (reunitarize reads only the first N - 1 rows);
// 8 reals (or S != L) are read back.
template <class S, class L, int N>
GF_INLINE Matrix<double, N> as_loaded(const FieldView<S, N>& links, int t, int p, int mu,
                                      std::int64_t h, const Matrix<L, N>& u) {
  if constexpr (std::is_same_v<S, L>) {
    if (links.storage != Storage::params8) {
      Matrix<double, N> v = matrix_cast<double>(u);
      if (links.storage == Storage::rows) reunitarize(v);
      return v;
    }
  }
  return links.template load<double>(t, p, mu, h);
}

template <class Gauge, class S, int N>
struct LinkAlgebraSite {
  FieldView<S, N> links;
  LinkAlgebraView<N> alg;
  double* functional;

  GF_FLATTEN GF_HD void operator()(std::int64_t i) const {
    int t, p;
    std::int64_t h;
    links.geom.split_local_site(i, t, p, h);
    functional[i] = store_link_algebra<Gauge>(links, alg, t, p, h);
  }
};

// The halo slice t = -1: its time links only (the gradient of slice 0 reads A_t(x - t));
// items (parity, h).
template <class Gauge, class S, int N>
struct HaloLinkAlgebra {
  FieldView<S, N> links;
  LinkAlgebraView<N> alg;

  GF_FLATTEN GF_HD void operator()(std::int64_t i) const {
    const int p = static_cast<int>(i / links.geom.v3h);
    const std::int64_t h = i - std::int64_t(p) * links.geom.v3h;
    const Matrix<double, N> u = links.template load<double>(-1, p, time_dir, h);
    alg.save(-1, p, time_dir, h, Gauge::template algebra_field<double, N>(u));
  }
};

// The end of a gradient (GradientSite, GradientFromLinks): from Delta's stored reals d at site
// c of slice t, its theta, Delta in the slice layout, and the slope tr[D Delta] (0 without D).
template <int N, class R>
GF_INLINE void store_gradient(const double (&d)[link_algebra_reals<N>], const FourierLayout& lay,
                              int t, const SiteCoords& c, Complex<R>* delta,
                              const Complex<R>* direction, double& theta, double& slope) {
  theta = theta_of_reals<N>(d);
  const std::int64_t s = lay.spatial_index(c.x[0], c.x[1], c.x[2]);
  const Algebra<double, N> a = algebra_of_reals<N>(d);
  store_algebra(delta, lay, t, s, a);
  slope = direction ? trace_product(a, load_algebra<double, N>(direction, lay, t, s)) : 0.0;
}

template <class Gauge, class R, int N>
struct GradientSite {
  static constexpr int prefetch_sites = 4; // how far ahead the neighbours' A_mu are fetched
  LinkAlgebraView<N> alg;
  FourierLayout lay;
  Complex<R>* delta;
  const Complex<R>* direction; // null: slope 0
  double* theta;
  double* slope;

  GF_FLATTEN GF_HD void operator()(std::int64_t i) const {
    const Geometry& geom = alg.geom;
    int t, p;
    std::int64_t h;
    geom.split_local_site(i, t, p, h);
    const SiteCoords c = geom.coords(t, p, h);
    // as Gauge::site_delta: the sum over mu of A_mu(x) - A_mu(x - mu), on the stored reals
    constexpr int reals = link_algebra_reals<N>;
    double d[reals] = {};
    GF_UNROLL
    for (int mu = 0; mu < Gauge::n_functional_dirs; ++mu) {
      const SiteCoords b = geom.backward(c, mu);
      double up[reals], down[reals];
      alg.load_reals(t, p, mu, h, up);
      const std::int64_t bh = geom.half_index(b);
      alg.prefetch_ahead(b.x[3] - geom.t0, 1 - p, mu, bh, prefetch_sites);
      alg.load_reals(b.x[3] - geom.t0, 1 - p, mu, bh, down);
      GF_UNROLL
      for (int k = 0; k < reals; ++k)
        d[k] = d[k] + up[k] - down[k];
    }
    store_gradient<N>(d, lay, t, c, delta, direction, theta[i], slope[i]);
  }
};

// GradientSite's Delta, theta and slope, and the site's F (as LinkAlgebraSite sums it), from
// the links as loaded: A_mu(x) and A_mu(x - mu) formed from them and summed on the same stored
// reals, so the numbers are bitwise those of the link-algebra array. Several ranks, Landau
// gauge: the time links of the halo slice t = -1 are read (refreshed before).
template <class Gauge, class S, class R, int N>
struct GradientFromLinks {
  FieldView<S, N> links;
  FourierLayout lay;
  Complex<R>* delta;
  const Complex<R>* direction; // null: slope 0
  double* functional;
  double* theta;
  double* slope;

  GF_FLATTEN GF_HD void operator()(std::int64_t i) const {
    const Geometry& geom = links.geom;
    int t, p;
    std::int64_t h;
    geom.split_local_site(i, t, p, h);
    const SiteCoords c = geom.coords(t, p, h);
    constexpr int reals = link_algebra_reals<N>;
    double d[reals] = {};
    double f = 0.0;
    GF_NO_UNROLL // one direction's two links live at a time: registers for more warps
    for (int mu = 0; mu < Gauge::n_functional_dirs; ++mu) {
      const Matrix<double, N> u = links.template load<double>(t, p, mu, h);
      f += trace(u).re;
      double up[reals], down[reals];
      LinkAlgebraView<N>::reals_of(Gauge::template algebra_field<double, N>(u), up);
      const SiteCoords b = geom.backward(c, mu);
      const Matrix<double, N> ub =
          links.template load<double>(b.x[3] - geom.t0, 1 - p, mu, geom.half_index(b));
      LinkAlgebraView<N>::reals_of(Gauge::template algebra_field<double, N>(ub), down);
      GF_UNROLL
      for (int k = 0; k < reals; ++k)
        d[k] = d[k] + up[k] - down[k];
    }
    functional[i] = f;
    store_gradient<N>(d, lay, t, c, delta, direction, theta[i], slope[i]);
  }
};

// b may be of another real type than a (Z in the transform's float), read into double.
template <class R, int N, class RB = R>
struct SiteTraceProduct {
  FourierLayout lay;
  const Complex<R>* a;
  const Complex<RB>* b;
  double* out;

  GF_HD void operator()(std::int64_t i) const {
    const int t = static_cast<int>(index_div(i, lay.v3));
    const std::int64_t s = i - std::int64_t(t) * lay.v3;
    out[i] =
        trace_product(load_algebra<double, N>(a, lay, t, s), load_algebra<double, N>(b, lay, t, s));
  }
};

// Z in the transform's real type T, converted to D's R (exact where T = R).
template <class R, class T = R>
struct CombineDirection {
  const Complex<T>* z;
  Complex<R>* d;
  R beta;

  GF_HD void operator()(std::int64_t i) const {
    const R re = static_cast<R>(z[i].re), im = static_cast<R>(z[i].im);
    if (beta == R(0)) {
      d[i] = {re, im};
    } else {
      d[i] = {re + beta * d[i].re, im + beta * d[i].im};
    }
  }
};

// Delta (R) into the transform's slices (T, here float): rounded to nearest.
template <class T, class R>
struct ConvertToTransform {
  const Complex<R>* from;
  Complex<T>* to;

  GF_HD void operator()(std::int64_t i) const {
    to[i] = {static_cast<T>(from[i].re), static_cast<T>(from[i].im)};
  }
};

template <class R, int N>
struct StepTransform {
  FourierLayout lay;
  const Complex<R>* direction;
  Complex<R>* g; // [t][i N + j][s]
  R step;

  GF_FLATTEN GF_HD void operator()(std::int64_t i) const {
    const int t = static_cast<int>(index_div(i, lay.v3));
    const std::int64_t s = i - std::int64_t(t) * lay.v3;
    Algebra<R, N> q = load_algebra<R, N>(direction, lay, t, s);
    GF_UNROLL
    for (int k = 0; k < algebra_dim<N>; ++k)
      q.v[k] *= -step;
    const Matrix<R, N> e = exp_i(q);
    GF_UNROLL
    for (int r = 0; r < N; ++r)
      GF_UNROLL
    for (int c = 0; c < N; ++c)
      g[lay.step_index(t, r * N + c, N * N, s)] = e.m[r][c];
  }
};

template <class R, int N>
GF_INLINE Matrix<R, N> load_step(const Complex<R>* g, const FourierLayout& lay, int t,
                                 std::int64_t s) {
  Matrix<R, N> e;
  GF_UNROLL
  for (int r = 0; r < N; ++r)
    GF_UNROLL
  for (int c = 0; c < N; ++c)
    e.m[r][c] = g[lay.step_index(t, r * N + c, N * N, s)];
  return e;
}

// g U g'^dagger as far as the storage keeps it: rows storage keeps the first N - 1 rows (and a
// load rebuilds the last from them), so only those rows are computed, bitwise those of the
// whole product; the last row is zero.
template <class T, int N>
GF_INLINE Matrix<T, N> transformed_link(Storage st, const Matrix<T, N>& left, const Matrix<T, N>& u,
                                        const Matrix<T, N>& right) {
  if (st == Storage::rows) return product_rows<N - 1>(product_rows<N - 1>(left, u), right);
  return left * u * right;
}

template <class Gauge, class S, class L, class R, int N>
struct ApplyStep {
  FieldView<S, N> links;
  FieldView<S, N> transform; // data null: not tracked
  FourierLayout lay;
  const Complex<R>* g;
  LinkAlgebraView<N> alg; // data null: no link-algebra array (nor F: GradientFromLinks)
  double* functional;

  GF_FLATTEN GF_HD void operator()(std::int64_t i) const {
    const Geometry& geom = links.geom;
    int t, p;
    std::int64_t h;
    geom.split_local_site(i, t, p, h);
    const SiteCoords c = geom.coords(t, p, h);
    const Matrix<R, N> gx = load_step<R, N>(g, lay, t, lay.spatial_index(c.x[0], c.x[1], c.x[2]));
    const Matrix<L, N> left = matrix_cast<L>(gx);
    double f = 0.0;
    GF_UNROLL
    for (int mu = 0; mu < Gauge::n_functional_dirs; ++mu) {
      const SiteCoords n = geom.forward(c, mu);
      const int tn = mu == time_dir ? t + 1 : t;
      const Matrix<L, N> right = adjoint(
          matrix_cast<L>(load_step<R, N>(g, lay, tn, lay.spatial_index(n.x[0], n.x[1], n.x[2]))));
      const Matrix<L, N> u =
          transformed_link(links.storage, left, links.template load<L>(t, p, mu, h), right);
      links.template save<L>(t, p, mu, h, u);
      if (alg.data)
        f += store_link_algebra<Gauge>(alg, t, p, mu, h, as_loaded(links, t, p, mu, h, u));
    }
    if (alg.data) functional[i] = f; // of the new links, as a load returns them
    if (transform.data)
      transform.template save<R>(t, p, 0, h, gx * transform.template load<R>(t, p, 0, h));
  }
};

// The table of MomentumTerms: item i is entry i of [L_0 | L_1 | L_2 | L_3].
struct MomentumTermsFill {
  int L[4];
  double* terms;

  GF_HD void operator()(std::int64_t i) const {
    int mu = 0, k = static_cast<int>(i);
    while (k >= L[mu])
      k -= L[mu++];
    terms[i] = momentum2_1d(k, L[mu]);
  }
};

// f(k) <- p^2_max / p^2(k) / V f(k) over the unit array (4-D); padding is left as it is (zero).
template <class R>
struct MomentumMultiplyUnits {
  FourierLayout lay;
  MomentumTerms momenta;
  Complex<R>* f;

  GF_HD void operator()(std::int64_t i) const {
    std::int64_t local;
    int x, t;
    if (!lay.unit_position(i, local, x, t)) return;
    const std::int64_t u = lay.first_unit(lay.rank) + local;
    const std::int64_t zy = index_div(u, lay.L[1]);
    const int k[4] = {x, static_cast<int>(u - zy * lay.L[1]),
                      static_cast<int>(zy - index_div(zy, lay.L[2]) * lay.L[2]), t};
    const double w = momenta.weight(k, 4) / (double(lay.v3) * lay.L[3]);
    f[i] = {static_cast<R>(w * f[i].re), static_cast<R>(w * f[i].im)};
  }
};

// The same per time slice (3-D, Coulomb gauge) over the slice layout.
template <class R>
struct MomentumMultiplySlices {
  FourierLayout lay;
  MomentumTerms momenta;
  Complex<R>* f;

  GF_HD void operator()(std::int64_t i) const {
    const std::int64_t s = i - index_div(i, lay.v3) * lay.v3;
    const std::int64_t zy = index_div(s, lay.L[0]), z = index_div(zy, lay.L[1]);
    const int k[4] = {static_cast<int>(s - zy * lay.L[0]), static_cast<int>(zy - z * lay.L[1]),
                      static_cast<int>(z), 0};
    const double w = momenta.weight(k, 3) / double(lay.v3);
    f[i] = {static_cast<R>(w * f[i].re), static_cast<R>(w * f[i].im)};
  }
};

// Slice layout <-> message [unit][local t][x] over every unit of the lattice.
template <class R>
struct TransposeSlices {
  FourierLayout lay;
  Complex<R>* slices;
  Complex<R>* message;
  bool to_message;

  // The slice-layout index of message element i.
  GF_HD std::int64_t layout_index(std::int64_t i) const {
    const std::int64_t ut = index_div(i, lay.L[0]), u = index_div(ut, lay.nt);
    const int x = static_cast<int>(i - ut * lay.L[0]);
    const int t = static_cast<int>(ut - u * lay.nt);
    const std::int64_t rows = std::int64_t(lay.L[1]) * lay.L[2];
    const std::int64_t c = index_div(u, rows);
    return lay.slice_index(t, static_cast<int>(c), x + lay.L[0] * (u - c * rows));
  }
  GF_HD void operator()(std::int64_t i) const {
    if (to_message) {
      message[i] = slices[layout_index(i)];
    } else {
      slices[layout_index(i)] = message[i];
    }
  }
};

// Message [source rank][own unit][source's local t][x] <-> unit layout; on the sending side
// the first index is the destination rank.
template <class R>
struct TransposeUnits {
  FourierLayout lay;
  Complex<R>* units;
  Complex<R>* message;
  bool to_message;

  GF_HD std::int64_t layout_index(std::int64_t i) const {
    const std::int64_t rt = index_div(i, lay.L[0]), rest = index_div(rt, lay.nt);
    const int x = static_cast<int>(i - rt * lay.L[0]);
    const int tl = static_cast<int>(rt - rest * lay.nt);
    const std::int64_t n = lay.local_units();
    const std::int64_t source = index_div(rest, n);
    const std::int64_t unit = rest - source * n;
    return lay.unit_index(unit, x, static_cast<int>(source) * lay.nt + tl);
  }
  GF_HD void operator()(std::int64_t i) const {
    if (to_message) {
      message[i] = units[layout_index(i)];
    } else {
      units[layout_index(i)] = message[i];
    }
  }
};

// Every rank's array of one kind (slices or units), mapped into this process
// (comm/peer_memory.h; ours at our rank).
template <class R>
struct PeerArrays {
  static constexpr int max_ranks = 8;
  Complex<R>* array[max_ranks];
};

// Items [first, first + n) of f, as items [0, n): a part of a kernel's items (the pipelined
// transposes, fourier_field.h).
template <class F>
struct ItemsFrom {
  F f;
  std::int64_t first;
  GF_HD void operator()(std::int64_t i) const { f(i + first); }
};

// Slices -> units between GPUs of one node: item i is element i of this rank's slices,
// [local t][unit][x] (fourier_layout.h); it is written at its place in the unit layout of the
// rank holding its unit. Neighbouring items read and write neighbouring addresses.
template <class R>
struct SlicesToPeerUnits {
  FourierLayout lay;
  const Complex<R>* slices;
  PeerArrays<R> units;

  GF_HD void operator()(std::int64_t i) const {
    const std::int64_t row = index_div(i, lay.L[0]), t = index_div(row, lay.units());
    const int x = static_cast<int>(i - row * lay.L[0]);
    const std::int64_t u = row - t * lay.units();
    const int q = lay.unit_owner(u);
    const int global_t = lay.rank * lay.nt + static_cast<int>(t);
    units.array[q][lay.unit_index(u - lay.first_unit(q), x, global_t)] = slices[i];
  }
};

// Units -> slices between GPUs of one node: item i is element i of this rank's unit array
// (its blocks; padding is skipped), written at its place in the slices of the rank holding
// its time slice.
template <class R>
struct UnitsToPeerSlices {
  FourierLayout lay;
  const Complex<R>* units;
  PeerArrays<R> slices;

  GF_HD void operator()(std::int64_t i) const {
    std::int64_t local;
    int x, t;
    if (!lay.unit_position(i, local, x, t)) return; // padding
    const int r = t / lay.nt;
    const std::int64_t u = lay.first_unit(lay.rank) + local;
    slices.array[r][(std::int64_t(t - r * lay.nt) * lay.units() + u) * lay.L[0] + x] = units[i];
  }
};

// Slice layout <-> unit layout on one rank (every unit and every slice here): the two
// transposes through the message array in one pass; item i is (unit, t, x), x fastest.
template <class R>
struct TransposeLocal {
  FourierLayout lay;
  Complex<R>* slices;
  Complex<R>* units;
  bool to_units;

  GF_HD void operator()(std::int64_t i) const {
    const std::int64_t ut = index_div(i, lay.L[0]), u = index_div(ut, lay.L[3]);
    const int x = static_cast<int>(i - ut * lay.L[0]);
    const int t = static_cast<int>(ut - u * lay.L[3]);
    const std::int64_t rows = std::int64_t(lay.L[1]) * lay.L[2];
    const std::int64_t c = index_div(u, rows);
    const std::int64_t index =
        lay.slice_index(t, static_cast<int>(c), x + lay.L[0] * (u - c * rows));
    const std::int64_t unit = lay.unit_index(u, x, t);
    if (to_units) {
      units[unit] = slices[index];
    } else {
      slices[index] = units[unit];
    }
  }
};

} // namespace gf
