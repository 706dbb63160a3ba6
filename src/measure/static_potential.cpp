#include "measure/static_potential.h"
#include "core/error.h"
#include "math/su_n.h"
#include "measure/gathered_field.h"
#include <algorithm>
#include <cmath>
#include <limits>

namespace gf {

namespace {

template <int N>
std::vector<StaticPotentialRow> potential_n(const HostField& whole, int max_t) {
  const Geometry& g = whole.geom;
  const int* L = g.L;
  const int max_r = std::max({L[0], L[1], L[2]}) / 2;
  const std::int64_t sites = g.global_volume();
  std::vector<Matrix<double, N>> w(static_cast<std::size_t>(sites), Matrix<double, N>::identity());
  // c[T][r]: C(r, T) for T = 1 .. max_t + 1
  std::vector<std::vector<double>> c(max_t + 2, std::vector<double>(max_r + 1, 0.0));
  for (int T = 1; T <= max_t + 1; ++T) {
    // W(x, T) = W(x, T - 1) U_t(x + (T - 1) t)
#pragma omp parallel for schedule(static)
    for (std::int64_t s = 0; s < sites; ++s) {
      SiteCoords x = whole.coords(s);
      x.x[3] = (x.x[3] + T - 1) % L[3];
      w[s] = w[s] * whole.get<N>(g.natural_index(x), time_dir);
    }
    std::vector<double> per_slice(static_cast<std::size_t>(L[3]) * (max_r + 1), 0.0);
#pragma omp parallel for schedule(static)
    for (int t = 0; t < L[3]; ++t)
      for (int r = 0; r <= max_r; ++r) {
        double sum = 0;
        for (int i = 0; i < 3; ++i) {
          if (r > L[i] / 2) continue;
          for (std::int64_t s = t * g.v3; s < (t + 1) * g.v3; ++s) {
            SiteCoords y = whole.coords(s);
            y.x[i] = (y.x[i] + r) % L[i];
            sum += re_trace_product(w[s], adjoint(w[g.natural_index(y)]));
          }
        }
        per_slice[t * (max_r + 1) + r] = sum;
      }
    for (int r = 0; r <= max_r; ++r) {
      int axes = 0;
      for (int i = 0; i < 3; ++i)
        axes += r <= L[i] / 2;
      double sum = 0;
      for (int t = 0; t < L[3]; ++t)
        sum += per_slice[t * (max_r + 1) + r];
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
  const HostField whole = gather_whole(u, world);
  return whole.nc == 2 ? potential_n<2>(whole, max_t) : potential_n<3>(whole, max_t);
}

} // namespace gf
