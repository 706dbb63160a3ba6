#include "measure/static_potential.h"
#include "core/error.h"
#include "math/su_n.h"
#include "measure/slab_exchange.h"
#include <algorithm>
#include <cmath>
#include <limits>

namespace gf {

namespace {

// The temporal links U_t of this rank's slices and of the `ahead` slices after them
// (periodically), index (local slice * v3 + spatial site): the slab's own, then the slabs of
// the next ranks in turn, each passed on one rank backward per round.
template <int N>
std::vector<Matrix<double, N>> time_links_ahead(const HostField& u, int ahead, const World& world) {
  const Geometry& g = u.geom;
  const std::int64_t v3 = g.v3, slab_links = g.local_volume();
  const int rounds = (ahead + g.nt - 1) / g.nt;
  std::vector<Matrix<double, N>> links(static_cast<std::size_t>(slab_links * (1 + rounds)));
  for (std::int64_t s = 0; s < slab_links; ++s)
    links[s] = u.get<N>(s, time_dir);
  std::vector<Matrix<double, N>> unused(static_cast<std::size_t>(v3));
  const std::size_t slice_bytes = static_cast<std::size_t>(v3) * sizeof(Matrix<double, N>);
  for (int round = 1; round <= rounds; ++round) {
    const Matrix<double, N>* sent = links.data() + (round - 1) * slab_links;
    Matrix<double, N>* received = links.data() + round * slab_links;
    for (int t = 0; t < g.nt; ++t)
      exchange_boundary_slices(world, sent + t * v3, sent + t * v3, slice_bytes, unused.data(),
                               received + t * v3);
  }
  return links;
}

template <int N>
std::vector<StaticPotentialRow> potential_n(const HostField& u, int max_t, const World& world) {
  const Geometry& g = u.geom;
  const int* L = g.L;
  const int max_r = std::max({L[0], L[1], L[2]}) / 2;
  const std::int64_t v3 = g.v3, sites = g.local_volume();
  // W(x, max_t + 1) reaches max_t slices beyond x's
  const std::vector<Matrix<double, N>> links = time_links_ahead<N>(u, max_t, world);
  std::vector<Matrix<double, N>> w(static_cast<std::size_t>(sites), Matrix<double, N>::identity());
  // c[T][r]: C(r, T) for T = 1 .. max_t + 1
  std::vector<std::vector<double>> c(max_t + 2, std::vector<double>(max_r + 1, 0.0));
  for (int T = 1; T <= max_t + 1; ++T) {
    // W(x, T) = W(x, T - 1) U_t(x + (T - 1) t)
#pragma omp parallel for schedule(static)
    for (std::int64_t s = 0; s < sites; ++s)
      w[s] = w[s] * links[s + (T - 1) * v3];
    // per slice and r: the sum over the slice's sites in site order, then over the axes
    std::vector<double> per_slice(static_cast<std::size_t>(g.nt) * (max_r + 1), 0.0);
#pragma omp parallel for schedule(static)
    for (int t = 0; t < g.nt; ++t)
      for (int r = 0; r <= max_r; ++r) {
        double sum = 0;
        for (int i = 0; i < 3; ++i) {
          if (r > L[i] / 2) continue;
          for (std::int64_t s = t * v3; s < (t + 1) * v3; ++s) {
            SiteCoords y = u.coords(s);
            y.x[i] = (y.x[i] + r) % L[i];
            sum += re_trace_product(w[s], adjoint(w[u.local_index(y)]));
          }
        }
        per_slice[t * (max_r + 1) + r] = sum;
      }
    // every rank's slices in global order, added in that order
    const std::vector<double> all = world.gather_concat(per_slice);
    for (int r = 0; r <= max_r; ++r) {
      int axes = 0;
      for (int i = 0; i < 3; ++i)
        axes += r <= L[i] / 2;
      double sum = 0;
      for (int t = 0; t < L[3]; ++t)
        sum += all[t * (max_r + 1) + r];
      c[T][r] = sum / (double(axes) * double(L[3]));
    }
  }
  std::vector<StaticPotentialRow> rows;
  for (int T = 1; T <= max_t; ++T)
    for (int r = 0; r <= max_r; ++r) {
      const double ratio = c[T][r] / c[T + 1][r];
      rows.push_back(
          {r, T, c[T][r], ratio > 0 ? std::log(ratio) : std::numeric_limits<double>::quiet_NaN()});
    }
  return rows;
}

} // namespace

std::vector<StaticPotentialRow> static_potential(const HostField& u, int max_t,
                                                 const World& world) {
  if (u.ndir != 4 || (u.nc != 2 && u.nc != 3))
    throw Error("static potential: needs an SU(2) or SU(3) gauge field");
  if (max_t < 1 || max_t >= u.geom.L[3])
    throw Error("static potential: max_t (--max-t) = " + std::to_string(max_t) +
                " must be at least 1 and below L_t = " + std::to_string(u.geom.L[3]) +
                " (V(r, T) needs C(r, T + 1))");
  if (u.geom.halo || u.geom.nt < 1 || (world.size() == 1 && u.geom.nt != u.geom.L[time_dir]))
    throw Error("static potential: the field must hold whole time slices, the whole lattice on "
                "one rank");
  return u.nc == 2 ? potential_n<2>(u, max_t, world) : potential_n<3>(u, max_t, world);
}

} // namespace gf
