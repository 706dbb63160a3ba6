// site_functors.h: the measurement and reprojection kernel bodies, run unchanged by
// every backend (the sweep's body is site_sweep.h).
//   SiteMeasure  per-site contributions to F and theta (both parities), for reductions;
//                it loads the gauge's directions only (Coulomb: no time links, no halo).
//   Reproject    reunitarises every stored matrix of a field.
//   LinkDeviationChunk  how far the stored links are from SU(N) (|1 - det U|, |U U^dagger - 1|),
//                sums and maxima over a chunk of a time slice's sites.
// Item index i runs over nt * V3 sites ordered (t, p, h) (SiteMeasure), nt * 2 * ndir * V3/2
// matrices (Reproject), or nt * chunks chunks (LinkDeviationChunk).
#pragma once
#include "lattice/field_view.h"
#include "math/subgroup.h"

namespace gf {

// The site's up and down links of the directions 0 .. Dirs - 1; the others are zero.
template <int Dirs, class C, int N, class S>
GF_HD void load_site_links(const FieldView<S, N>& links, int t, int p, std::int64_t h,
                           Matrix<C, N> (&up)[4], Matrix<C, N> (&down)[4]) {
  const SiteCoords c = links.geom.coords(t, p, h);
GF_UNROLL
  for (int mu = Dirs; mu < 4; ++mu) up[mu] = down[mu] = Matrix<C, N>::zero();
GF_UNROLL
  for (int mu = 0; mu < Dirs; ++mu) {
    up[mu] = links.template load<C>(t, p, mu, h);
    const SiteCoords b = links.geom.backward(c, mu);
    down[mu] = links.template load<C>(b.x[3] - links.geom.t0, 1 - p, mu, links.geom.half_index(b));
  }
}

template <class Gauge, class S, int N>
struct SiteMeasure {
  FieldView<S, N> links;
  double* functional; // per item
  double* theta;      // per item

  GF_HD void operator()(std::int64_t i) const {
    const Geometry& geom = links.geom;
    int t, p;
    std::int64_t h;
    geom.split_local_site(i, t, p, h);
    Matrix<double, N> up[4], down[4];
    load_site_links<Gauge::n_functional_dirs, double>(links, t, p, h, up, down);
    functional[i] = Gauge::template site_functional<double, N>(up);
    theta[i] = Gauge::template site_theta<double, N>(up, down);
  }
};

// Chunk c of slice t holds the sites t V3 + c + k chunks (k = 0, 1, ...) of the (t, p, h)
// order, so that neighbouring items read neighbouring sites; each item sums and maximises
// over its sites' up links of the directions 0 .. Dirs - 1 (the links the gauge's sweeps
// change), loaded as stored (FieldView::load_stored) in double, in a fixed order.
template <int Dirs, class S, int N>
struct LinkDeviationChunk {
  FieldView<S, N> links;
  int chunks;          // per time slice
  double* det_sum;     // per item: the sum over its links of |1 - det U|
  double* det_max;     // per item: the maximum of the same
  double* unitary_max; // per item: the maximum over its links of max_ij |(U U^dagger - 1)_ij|

  GF_HD void operator()(std::int64_t item) const {
    const Geometry& geom = links.geom;
    const std::int64_t first = (item / chunks) * geom.v3;
    double sum = 0, dmax = 0, umax = 0;
    for (std::int64_t k = item % chunks; k < geom.v3; k += chunks) {
      int t, p;
      std::int64_t h;
      geom.split_local_site(first + k, t, p, h);
      GF_UNROLL
      for (int mu = 0; mu < Dirs; ++mu) {
        const Matrix<double, N> u = links.template load_stored<double>(t, p, mu, h);
        const double d = determinant_deviation(u);
        const double e = unitary_deviation(u);
        sum += d;
        dmax = d > dmax || d != d ? d : dmax; // a NaN stays
        umax = e > umax || e != e ? e : umax;
      }
    }
    det_sum[item] = sum;
    det_max[item] = dmax;
    unitary_max[item] = umax;
  }
};

template <class S, class C, int N>
struct Reproject {
  FieldView<S, N> field;

  GF_HD void operator()(std::int64_t i) const {
    const std::int64_t per_parity = std::int64_t(field.ndir) * field.geom.v3h;
    const int t = static_cast<int>(i / (2 * per_parity));
    const int p = static_cast<int>((i / per_parity) % 2);
    const int mu = static_cast<int>((i / field.geom.v3h) % field.ndir);
    const std::int64_t h = i % field.geom.v3h;
    Matrix<C, N> u = field.template load<C>(t, p, mu, h);
    reunitarize(u);
    field.template save<C>(t, p, mu, h, u);
  }
};

} // namespace gf
