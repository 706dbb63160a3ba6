// fourier_functors.h: the element-wise kernels of the Fourier-accelerated fixing, written once
// with GF_HD and run by parallel_for on every backend (fourier_field.h launches them).
//   GradientSite        Delta(x) of the links (slice layout), and per site F, theta and the
//                       slope tr[D Delta]; items are sites ordered (t, parity, h), as in
//                       SiteMeasure, so that the per-slice sums are formed in that order;
//   SiteTraceProduct    per site tr[A B] of two slice-layout fields; items (t, s);
//   CombineDirection    D = Z + beta D, per complex element;
//   StepTransform       g(x) = exp(-i a D(x)) (math/hermitian.h), per site, into the step
//                       layout [t][element i N + j][s];
//   ApplyStep           U_mu(x) <- g(x) U_mu(x) g(x + mu)^dagger for the gauge's directions
//                       and G(x) <- g(x) G(x); items (t, parity, h); each item writes only its
//                       own links;
//   MomentumMultiply*   the preconditioner p^2_max / p^2 (momentum.h) divided by the volume of
//                       the transform, on the units (4-D) or the slices (3-D, Coulomb);
//   Transpose*          copies between the slice layout, the message arrays of the distributed
//                       transpose and the unit layout (fourier_layout.h).
#pragma once
#include "fix/site_functors.h"
#include "fourier/fourier_layout.h"
#include "fourier/momentum.h"
#include "lattice/field_view.h"
#include "math/hermitian.h"

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

template <class Gauge, class S, class R, int N>
struct GradientSite {
  FieldView<S, N> links;
  FourierLayout lay;
  Complex<R>* delta;
  const Complex<R>* direction; // null: slope 0
  double* functional;
  double* theta;
  double* slope;

  GF_HD void operator()(std::int64_t i) const {
    int t, p;
    std::int64_t h;
    links.geom.split_local_site(i, t, p, h);
    Matrix<double, N> up[4], down[4];
    load_site_links<Gauge::n_functional_dirs, double>(links, t, p, h, up, down);
    functional[i] = Gauge::template site_functional<double, N>(up);
    const Matrix<double, N> d = Gauge::template site_delta<double, N>(up, down);
    theta[i] = Gauge::template theta_of<double, N>(d);
    const SiteCoords c = links.geom.coords(t, p, h);
    const std::int64_t s = lay.spatial_index(c.x[0], c.x[1], c.x[2]);
    const Algebra<double, N> a = to_algebra(d);
    store_algebra(delta, lay, t, s, a);
    slope[i] = direction ? trace_product(a, load_algebra<double, N>(direction, lay, t, s)) : 0.0;
  }
};

template <class R, int N>
struct SiteTraceProduct {
  FourierLayout lay;
  const Complex<R>* a;
  const Complex<R>* b;
  double* out;

  GF_HD void operator()(std::int64_t i) const {
    const int t = static_cast<int>(i / lay.v3);
    const std::int64_t s = i - std::int64_t(t) * lay.v3;
    out[i] =
        trace_product(load_algebra<double, N>(a, lay, t, s), load_algebra<double, N>(b, lay, t, s));
  }
};

template <class R>
struct CombineDirection {
  const Complex<R>* z;
  Complex<R>* d;
  R beta;

  GF_HD void operator()(std::int64_t i) const {
    if (beta == R(0)) {
      d[i] = z[i];
    } else {
      d[i] = {z[i].re + beta * d[i].re, z[i].im + beta * d[i].im};
    }
  }
};

template <class R, int N>
struct StepTransform {
  FourierLayout lay;
  const Complex<R>* direction;
  Complex<R>* g; // [t][i N + j][s]
  R step;

  GF_HD void operator()(std::int64_t i) const {
    const int t = static_cast<int>(i / lay.v3);
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
      g[(std::int64_t(t) * N * N + r * N + c) * lay.v3 + s] = e.m[r][c];
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
    e.m[r][c] = g[(std::int64_t(t) * N * N + r * N + c) * lay.v3 + s];
  return e;
}

template <class Gauge, class S, class L, class R, int N>
struct ApplyStep {
  FieldView<S, N> links;
  FieldView<S, N> transform; // data null: not tracked
  FourierLayout lay;
  const Complex<R>* g;

  GF_HD void operator()(std::int64_t i) const {
    const Geometry& geom = links.geom;
    int t, p;
    std::int64_t h;
    geom.split_local_site(i, t, p, h);
    const SiteCoords c = geom.coords(t, p, h);
    const Matrix<R, N> gx = load_step<R, N>(g, lay, t, lay.spatial_index(c.x[0], c.x[1], c.x[2]));
    const Matrix<L, N> left = matrix_cast<L>(gx);
GF_UNROLL
    for (int mu = 0; mu < Gauge::n_functional_dirs; ++mu) {
      const SiteCoords f = geom.forward(c, mu);
      const int tf = mu == time_dir ? t + 1 : t;
      const Matrix<L, N> right = adjoint(
          matrix_cast<L>(load_step<R, N>(g, lay, tf, lay.spatial_index(f.x[0], f.x[1], f.x[2]))));
      links.template save<L>(t, p, mu, h, left * links.template load<L>(t, p, mu, h) * right);
    }
    if (transform.data)
      transform.template save<R>(t, p, 0, h, gx * transform.template load<R>(t, p, 0, h));
  }
};

template <class R>
struct MomentumMultiplyUnits {
  FourierLayout lay;
  Complex<R>* units;

  GF_HD void operator()(std::int64_t i) const {
    const int t = static_cast<int>(i % lay.L[3]);
    const int x = static_cast<int>((i / lay.L[3]) % lay.L[0]);
    const std::int64_t u = lay.first_unit(lay.rank) + i / (std::int64_t(lay.L[3]) * lay.L[0]);
    const int y = static_cast<int>(u % lay.L[1]);
    const int z = static_cast<int>((u / lay.L[1]) % lay.L[2]);
    const int k[4] = {x, y, z, t};
    const double w = preconditioner_weight(k, lay.L, 4) / (double(lay.v3) * lay.L[3]);
    units[i] = {static_cast<R>(w * units[i].re), static_cast<R>(w * units[i].im)};
  }
};

template <class R>
struct MomentumMultiplySlices {
  FourierLayout lay;
  Complex<R>* slices;

  GF_HD void operator()(std::int64_t i) const {
    const std::int64_t s = i % lay.v3;
    const int x = static_cast<int>(s % lay.L[0]);
    const int y = static_cast<int>((s / lay.L[0]) % lay.L[1]);
    const int z = static_cast<int>(s / (std::int64_t(lay.L[0]) * lay.L[1]));
    const int k[4] = {x, y, z, 0};
    const double w = preconditioner_weight(k, lay.L, 3) / double(lay.v3);
    slices[i] = {static_cast<R>(w * slices[i].re), static_cast<R>(w * slices[i].im)};
  }
};

// Slice layout <-> message [unit][local t][x] over every unit of the lattice.
template <class R>
struct TransposeSlices {
  FourierLayout lay;
  Complex<R>* slices;
  Complex<R>* message;
  bool to_message;

  GF_HD void operator()(std::int64_t i) const {
    const int x = static_cast<int>(i % lay.L[0]);
    const int t = static_cast<int>((i / lay.L[0]) % lay.nt);
    const std::int64_t u = i / (std::int64_t(lay.L[0]) * lay.nt);
    const std::int64_t rows = std::int64_t(lay.L[1]) * lay.L[2];
    const int c = static_cast<int>(u / rows);
    const std::int64_t index = lay.slice_index(t, c, x + lay.L[0] * (u % rows));
    if (to_message) {
      message[i] = slices[index];
    } else {
      slices[index] = message[i];
    }
  }
};

// Message [source rank][own unit][source's local t][x] <-> unit layout.
template <class R>
struct TransposeUnits {
  FourierLayout lay;
  Complex<R>* units;
  Complex<R>* message;
  bool to_message;

  GF_HD void operator()(std::int64_t i) const {
    const int x = static_cast<int>(i % lay.L[0]);
    const int tl = static_cast<int>((i / lay.L[0]) % lay.nt);
    const std::int64_t rest = i / (std::int64_t(lay.L[0]) * lay.nt);
    const std::int64_t n = lay.local_units();
    const std::int64_t unit = rest % n;
    const int source = static_cast<int>(rest / n);
    const std::int64_t index = lay.unit_index(unit, x, source * lay.nt + tl);
    if (to_message) {
      message[i] = units[index];
    } else {
      units[index] = message[i];
    }
  }
};

} // namespace gf
