// simd_apply_step.h: the CPU's move of the Fourier-accelerated fixing (ApplyStep,
// fourier_functors.h) on W sites at once, with Simd<T, W> reals (math/simd.h). Host only.
//
// Item i moves the sites W i ... W i + W - 1 in ApplyStep's order (t, parity, h): lane l holds
// site W i + l. The links are one vector access per real where the lanes' offsets are
// consecutive (W neighbouring sites of one half-slice, the common case), else gathered
// (lattice/lane_access.h); g(x) and g(x + mu) are gathered from the site-major step array and
// A_mu(x) is stored lane by lane. Every lane's arithmetic is ApplyStep's, the same IEEE
// operations in the same order (no contraction: math/simd.h), so the links, A_mu(x) and F are
// bitwise those of the scalar functor.
//
// run_simd_apply_step (declared in simd_apply.h): the sites / W full vectors in an OpenMP loop,
// then the remaining sites % W with the scalar functor; instantiated in fourier_cpu_simd.cpp.
// W = simd_apply_width: one SSE register of the problem type.
#pragma once
#include "backend/host_exec.h"
#include "fourier/simd_apply.h"
#include "lattice/lane_access.h"

namespace gf {

template <class Gauge, class S, class L, class R, int N, int W>
struct SimdApplyStep {
  using CL = Simd<L, W>;
  using CR = Simd<R, W>;
  using CD = Simd<double, W>;

  ApplyStep<Gauge, S, L, R, N> step;

  // g of every lane's site (t[l], s[l]) from the step array, one gather per real.
  Matrix<CR, N> gather_step(const int (&t)[W], const std::int64_t (&s)[W]) const {
    const FourierLayout& lay = step.lay;
    const std::int64_t element =
        2 * (lay.step_index(0, 1, N * N, 0) - lay.step_index(0, 0, N * N, 0));
    std::int64_t at[W]; // in reals
    for (int l = 0; l < W; ++l)
      at[l] = 2 * lay.step_index(t[l], 0, N * N, s[l]);
    const R* g = &step.g[0].re;
    Matrix<CR, N> e;
    for (int r = 0; r < N; ++r)
      for (int c = 0; c < N; ++c) {
        const R* first = g + (r * N + c) * element;
        e.m[r][c] = {CR::gather(first, at), CR::gather(first + 1, at)};
      }
    return e;
  }

  // A hint to fetch the step matrices 4 W sites further on in the slice than the lanes' sites
  // (two calls ahead: 2 W sites of one parity): a neighbour's g is a stream of its own.
  void prefetch_step(const int (&t)[W], const std::int64_t (&s)[W]) const {
    constexpr std::uintptr_t bytes = N * N * sizeof(Complex<R>);
    for (int l = 0; l < W; ++l) {
      prefetch_host_bytes(reinterpret_cast<std::uintptr_t>(
                              step.g + step.lay.step_index(t[l], 0, N * N, s[l] + 4 * W)),
                          bytes);
    }
  }

  static Matrix<double, N> lane_of(const Matrix<CD, N>& m, int l) {
    Matrix<double, N> one;
    for (int r = 0; r < N; ++r)
      for (int c = 0; c < N; ++c)
        one.m[r][c] = {m.m[r][c].re.lane(l), m.m[r][c].im.lane(l)};
    return one;
  }

  GF_FLATTEN void operator()(std::int64_t item) const {
    const FieldView<S, N>& links = step.links;
    const Geometry& geom = links.geom;
    const FourierLayout& lay = step.lay;
    int t[W], p[W];
    std::int64_t h[W], s[W];
    SiteCoords c[W];
    for (int l = 0; l < W; ++l) {
      geom.split_local_site(item * W + l, t[l], p[l], h[l]);
      c[l] = geom.coords(t[l], p[l], h[l]);
      s[l] = lay.spatial_index(c[l].x[0], c[l].x[1], c[l].x[2]);
    }
    const Matrix<CR, N> gx = gather_step(t, s);
    const Matrix<CL, N> left = matrix_cast<CL>(gx);
    CD f = CD(0.0);
    for (int mu = 0; mu < Gauge::n_functional_dirs; ++mu) {
      int tn[W];
      std::int64_t sn[W];
      LaneSlots<W> at;
      for (int l = 0; l < W; ++l) {
        const SiteCoords n = geom.forward(c[l], mu);
        tn[l] = mu == time_dir ? t[l] + 1 : t[l];
        sn[l] = lay.spatial_index(n.x[0], n.x[1], n.x[2]);
        at.set(l, links.offset(geom.slice_slot(t[l]), p[l], mu, 0, h[l]));
      }
      at.finish();
      prefetch_lanes_ahead(links, at);
      if (mu != 0) prefetch_step(tn, sn); // (x + x lies beside x)
      const Matrix<CL, N> right = adjoint(matrix_cast<CL>(gather_step(tn, sn)));
      const Matrix<CL, N> u =
          transformed_link(links.storage, left, load_lanes<CL>(links, at), right);
      save_lanes(links, at, u);
      // as a later load returns the new link (ApplyStep's as_loaded)
      Matrix<CD, N> v;
      if (std::is_same_v<S, L> && links.storage != Storage::params8) {
        v = matrix_cast<CD>(u);
        if (links.storage == Storage::rows) reunitarize(v);
      } else {
        v = load_lanes<CD>(links, at);
      }
      const Matrix<CD, N> a = Gauge::template algebra_field<CD, N>(v);
      for (int l = 0; l < W; ++l)
        step.alg.save(t[l], p[l], mu, h[l], lane_of(a, l));
      f = f + trace(v).re;
    }
    for (int l = 0; l < W; ++l)
      step.functional[item * W + l] = f.lane(l);
    if (step.transform.data) {
      LaneSlots<W> x;
      for (int l = 0; l < W; ++l)
        x.set(l, step.transform.offset(geom.slice_slot(t[l]), p[l], 0, 0, h[l]));
      x.finish();
      save_lanes(step.transform, x, gx * load_lanes<CR>(step.transform, x));
    }
  }
};

// Sites per call: one SSE register of the problem type (2 doubles, 4 floats); with SSE2 at
// 16^4 the fastest of 1, 2, 4 and 8 in double and mixed precision, within 7 % of 8 in single
// (docs/fourier.md).
template <class Prec>
constexpr int simd_apply_width = 16 / int(sizeof(typename Prec::problem));

template <class Gauge, class Prec, int N>
void run_simd_apply_step(const PrecApplyStep<Gauge, Prec, N>& scalar, std::int64_t sites,
                         const LaunchConfig& config) {
  constexpr int W = simd_apply_width<Prec>;
  const SimdApplyStep<Gauge, typename Prec::storage, typename Prec::link, typename Prec::problem, N,
                      W>
      f{scalar};
  parallel_for_lanes<W>(sites, f, scalar, config);
}

} // namespace gf
