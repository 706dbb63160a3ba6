#include "fix/random_transform.h"
#include "comm/host_halo.h"
#include "math/random_group.h"

namespace gf {

namespace {

template <int N>
Matrix<double, N> g_at(const Geometry& geom, const SiteCoords& c, std::uint64_t seed) {
  const RandomKey key = {seed, static_cast<std::uint64_t>(geom.natural_index(c)), 0, 0};
  return random_sun<double, N>(key, RandomPurpose::gauge_transform);
}

template <int N>
HostField random_transform_n(HostField& u, std::uint64_t seed) {
  HostField g(u.geom, N, 1);
  const std::int64_t sites = u.local_sites();
#pragma omp parallel for schedule(static)
  for (std::int64_t s = 0; s < sites; ++s) {
    const SiteCoords c = u.coords(s);
    const Matrix<double, N> gx = g_at<N>(u.geom, c, seed);
    g.set<N>(s, 0, gx);
    for (int mu = 0; mu < 4; ++mu) {
      const Matrix<double, N> gy = g_at<N>(u.geom, u.geom.forward(c, mu), seed);
      u.set<N>(s, mu, gx * u.get<N>(s, mu) * adjoint(gy));
    }
  }
  return g;
}

// g(x + mu) of the slice after the slab comes from `g_next` (comm/host_halo.h).
template <int N>
void apply_n(HostField& u, const HostField& g, const HostField& g_next) {
  const Geometry& geom = u.geom;
  const std::int64_t sites = u.local_sites();
#pragma omp parallel for schedule(static)
  for (std::int64_t s = 0; s < sites; ++s) {
    const SiteCoords c = u.coords(s);
    for (int mu = 0; mu < 4; ++mu) {
      const SiteCoords y = geom.forward(c, mu);
      const bool in_slab = y.x[3] >= geom.t0 && y.x[3] < geom.t0 + geom.nt;
      const Matrix<double, N> gy =
          in_slab
              ? g.get<N>(g.local_index(y), 0)
              : g_next.get<N>(y.x[0] + geom.L[0] * (y.x[1] + std::int64_t(geom.L[1]) * y.x[2]), 0);
      u.set<N>(s, mu, g.get<N>(s, 0) * u.get<N>(s, mu) * adjoint(gy));
    }
  }
}

template <int N>
void compose_n(HostField& g, const HostField& first) {
  const std::int64_t sites = g.local_sites();
#pragma omp parallel for schedule(static)
  for (std::int64_t s = 0; s < sites; ++s)
    g.set<N>(s, 0, g.get<N>(s, 0) * first.get<N>(s, 0));
}

} // namespace

HostField random_gauge_transform(HostField& links, std::uint64_t seed) {
  return links.nc == 2 ? random_transform_n<2>(links, seed) : random_transform_n<3>(links, seed);
}

void apply_gauge_transform(HostField& links, const HostField& g, const World& world) {
  const HostField g_next = next_slice(g, world);
  links.nc == 2 ? apply_n<2>(links, g, g_next) : apply_n<3>(links, g, g_next);
}

void compose_gauge_transforms(HostField& g, const HostField& first) {
  g.nc == 2 ? compose_n<2>(g, first) : compose_n<3>(g, first);
}

} // namespace gf
