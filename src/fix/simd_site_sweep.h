// simd_site_sweep.h: the CPU's SIMD sweep, W sites of one parity per call, and its launch.
// Host only; included by the translation units that instantiate simd_sweep (simd_sweep.h).
//
// SimdSiteSweep<Gauge, Prec, N, W> runs SiteUpdate (site_sweep.h), the update every backend
// shares, on Simd<T, W> reals (math/simd.h): lane l holds site first_site + W item + l.
// Item i covers W consecutive site indices, which may span rows, slices and parities of the
// neighbours: each lane's neighbours are found as the scalar sweep finds them, and each
// link is one vector access per real where the lanes' offsets are consecutive, else gathered
// (lattice/lane_access.h). Sites of one parity share no link, so the lanes are independent.
// The update kinds of the local family run lane-wise without branches (select, math/real.h);
// stochastic relaxation draws each lane's number from its site's key, as the scalar sweep
// does. The heatbath (rejection loop) has no SIMD form: the engine never offers it here.
// Every lane's result is bitwise the scalar sweep's (math/simd.h: same IEEE operations, no
// contraction), so the variant never changes a field.
//
// run_simd_sweep: the loop over the sites / W full vectors (OpenMP, the schedule of the
// LaunchConfig, host_exec.h; a chunk of k sites becomes k / W vectors), then the remaining
// sites % W sites with the scalar functor.
#pragma once
#include "backend/host_exec.h"
#include "fix/simd_sweep.h"
#include "fix/site_sweep.h"
#include "lattice/lane_access.h"

namespace gf {

template <class Gauge, class Prec, int N, int W>
struct SimdSiteSweep {
  using S = typename Prec::storage;
  using C = Simd<typename Prec::link, W>;
  using P = Simd<typename Prec::problem, W>;
  using Update = SiteUpdate<Gauge, N, 1, UpdateFamily::local>;

  FieldView<S, N> links;
  FieldView<S, N> transform; // data == nullptr when g(x) is not tracked
  int parity;
  std::int64_t first_site; // item i updates sites first_site + W i ... + W - 1 of this parity
  UpdateParams params;
  std::uint64_t seed;
  std::uint32_t sweep;

  void operator()(std::int64_t item) const {
    const Geometry& geom = links.geom;
    // FieldView::offset in steps: the next direction, parity, stored slice (ndir = 4)
    const std::int64_t dir = std::int64_t(links.reals()) * links.pitch, par = 4 * dir,
                       slice = 2 * par;
    SiteCoords c[W];
    int slot[W];
    std::int64_t h[W], up[W], back_time[W], back_space[W];
    for (int l = 0; l < W; ++l) {
      int t;
      geom.split_site(first_site + item * W + l, t, h[l]);
      c[l] = geom.coords(t, parity, h[l]);
      slot[l] = geom.slice_slot(t);
      up[l] = slot[l] * slice + parity * par + h[l];
      back_time[l] = geom.slice_slot(t - 1) * slice + (1 - parity) * par + h[l];
      back_space[l] = slot[l] * slice + (1 - parity) * par;
    }
    LaneKeys<W> keys{};
    if (params.kind == UpdateKind::stochastic_relaxation)
      for (int l = 0; l < W; ++l)
        keys.k[l] = {seed, static_cast<std::uint64_t>(geom.natural_index(c[l])), sweep, 0};
    const LocalDraws<P, subgroup_count<N>> draws = local_draws<P, subgroup_count<N>>(params, keys);

    LaneSlots<W> at[8];
    Matrix<C, N> v[8];
    for (int k = 0; k < 8; ++k) {
      if (Update::empty_slot(0, k)) {
        v[k] = Matrix<C, N>::zero();
        continue;
      }
      const int mu = Update::direction(0, k);
      for (int l = 0; l < W; ++l) {
        if (!Update::is_down(0, k))
          at[k].set(l, up[l] + mu * dir);
        else if (mu == time_dir)
          at[k].set(l, back_time[l] + mu * dir);
        else
          at[k].set(l, back_space[l] + mu * dir + geom.half_index(geom.backward(c[l], mu)));
      }
      at[k].finish();
      prefetch_lanes_ahead(links, at[k]);
      const Matrix<C, N> u = load_lanes<C>(links, at[k]);
      v[k] = Update::is_down(0, k) ? adjoint(u) : u;
    }

    Quaternion<P> gs[subgroup_count<N>];
    Update::template apply<C, P>(v, 0, params, draws, gs);

    for (int k = 0; k < 8; ++k) {
      if (Update::empty_slot(0, k)) continue;
      save_lanes(links, at[k], Update::is_down(0, k) ? adjoint(v[k]) : v[k]);
    }
    // g(x), where tracked: with one lane it is never in a slot (site_sweep.h)
    if (transform.data) {
      LaneSlots<W> g_at; // ndir = 1: the next parity is `dir` on, the next slice 2 dir
      for (int l = 0; l < W; ++l)
        g_at.set(l, (2 * std::int64_t(slot[l]) + parity) * dir + h[l]);
      g_at.finish();
      Matrix<C, N> g = load_lanes<C>(transform, g_at);
      Update::rotate_transform(gs, g);
      save_lanes(transform, g_at, g);
    }
  }
};

template <class Gauge, class Prec, int N, int W>
void run_simd_sweep(const ScalarLocalSweep<Gauge, Prec, N>& scalar, std::int64_t sites,
                    const LaunchConfig& config) {
  const SimdSiteSweep<Gauge, Prec, N, W> f{scalar.links,      scalar.transform, scalar.parity,
                                           scalar.first_site, scalar.params,    scalar.seed,
                                           scalar.sweep};
  parallel_for_lanes<W>(sites, f, scalar, config);
}

template <class Gauge, class Prec, int N>
void simd_sweep(int width, const ScalarLocalSweep<Gauge, Prec, N>& scalar, std::int64_t sites,
                const LaunchConfig& config) {
  static_assert(std::size(simd_sweep_widths) == 3);
  switch (width) {
  case simd_sweep_widths[0]:
    return run_simd_sweep<Gauge, Prec, N, simd_sweep_widths[0]>(scalar, sites, config);
  case simd_sweep_widths[1]:
    return run_simd_sweep<Gauge, Prec, N, simd_sweep_widths[1]>(scalar, sites, config);
  case simd_sweep_widths[2]:
    return run_simd_sweep<Gauge, Prec, N, simd_sweep_widths[2]>(scalar, sites, config);
  default:
    throw Error("the CPU has no SIMD sweep of " + std::to_string(width) + " sites");
  }
}

} // namespace gf
