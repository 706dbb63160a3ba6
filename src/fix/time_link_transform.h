// time_link_transform.h: applies the gauge transformation g(x) to the time links,
//   U_t(x) <- g(x) U_t(x) g(x + t)^dagger,
// for gauges whose sweeps leave the time links alone (Coulomb: Gauge::sweeps_time_links is
// false). The engine runs it once per download on a copy of the links, so its links stay
// those of the start and g(x) the whole transformation since then. Item i runs over the
// nt * V3 sites ordered (t, p, h); g(x + t) of the last slice is the next slice of the
// transform's storage: slice 0 on one rank (periodic), the halo slice nt filled from the
// next rank on several (comm/next_slice.h).
#pragma once
#include "lattice/field_view.h"

namespace gf {

template <class S, class C, int N>
struct TimeLinkTransform {
  FieldView<S, N> links;     // 4 directions; mu = 3 is rewritten
  FieldView<S, N> transform; // g(x), 1 direction

  GF_HD void operator()(std::int64_t i) const {
    const Geometry& geom = links.geom;
    int t, p;
    std::int64_t h;
    geom.split_local_site(i, t, p, h);
    const SiteCoords f = geom.forward(geom.coords(t, p, h), time_dir);
    const Matrix<C, N> g = transform.template load<C>(t, p, 0, h);
    const Matrix<C, N> g_next =
        transform.template load<C>(f.x[3] - geom.t0, 1 - p, 0, geom.half_index(f));
    links.template save<C>(t, p, time_dir, h,
                           g * links.template load<C>(t, p, time_dir, h) * adjoint(g_next));
  }
};

} // namespace gf
