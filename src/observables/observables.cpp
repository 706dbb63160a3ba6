#include "observables/observables.h"
#include "comm/host_halo.h"
#include "math/su_n.h"
#include <algorithm>
#include <cmath>

namespace gf {

namespace {

// Sum over the local slices' partial sums of every rank, in global slice order.
double ordered_sum(const std::vector<double>& per_slice, const World& world) {
  double sum = 0;
  for (double v : world.gather_concat(per_slice))
    sum += v;
  return sum;
}

// The sites are visited in natural order with their forward neighbours stepped along
// (no coordinates decoded per site); the forward time neighbours of the last local slice
// come from `next`, which on one rank is a copy of slice t0.
template <int N>
double plaquette_n(const HostField& u, const World& world) {
  const HostField next = next_slice(u, world);
  const Geometry& g = u.geom;
  const std::int64_t step[3] = {1, g.L[0], std::int64_t(g.L[0]) * g.L[1]};
  std::vector<double> per_slice(static_cast<std::size_t>(g.nt));
#pragma omp parallel for schedule(static)
  for (int t = 0; t < g.nt; ++t) {
    double sum = 0;
    const std::int64_t slice = t * g.v3;
    std::int64_t s = slice;
    for (int z = 0; z < g.L[2]; ++z)
      for (int y = 0; y < g.L[1]; ++y)
        for (int x = 0; x < g.L[0]; ++x, ++s) {
          const int at[3] = {x, y, z};
          // U_nu(x + mu): the field and the index of the forward neighbour in direction mu.
          const auto forward = [&](int mu, int nu) {
            if (mu == 3) return t + 1 < g.nt ? u.get<N>(s + g.v3, nu) : next.get<N>(s - slice, nu);
            const std::int64_t n =
                at[mu] + 1 < g.L[mu] ? s + step[mu] : s - (g.L[mu] - 1) * step[mu];
            return u.get<N>(n, nu);
          };
          for (int mu = 0; mu < 4; ++mu)
            for (int nu = mu + 1; nu < 4; ++nu) {
              const Matrix<double, N> a = u.get<N>(s, mu) * forward(mu, nu);
              const Matrix<double, N> b = u.get<N>(s, nu) * forward(nu, mu);
              sum += re_trace_product(a, adjoint(b));
            }
        }
    per_slice[t] = sum;
  }
  return ordered_sum(per_slice, world) / (6.0 * N * static_cast<double>(g.global_volume()));
}

template <int N>
Complex<double> polyakov_n(const HostField& u, const World& world) {
  const std::int64_t v3 = u.geom.v3;
  // This rank's factor of the line at every spatial site, as 2 N N reals.
  std::vector<double> part(static_cast<std::size_t>(v3) * 2 * N * N);
#pragma omp parallel for schedule(static)
  for (std::int64_t s = 0; s < v3; ++s) {
    Matrix<double, N> p = Matrix<double, N>::identity();
    for (int t = 0; t < u.geom.nt; ++t)
      p = p * u.get<N>(s + t * v3, time_dir);
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j) {
        part[(s * N * N + i * N + j) * 2] = p.m[i][j].re;
        part[(s * N * N + i * N + j) * 2 + 1] = p.m[i][j].im;
      }
  }
  const std::vector<double> all = world.gather_concat(part);
  double re = 0, im = 0;
  for (std::int64_t s = 0; s < v3; ++s) {
    Matrix<double, N> p = Matrix<double, N>::identity();
    for (int r = 0; r < world.size(); ++r) {
      Matrix<double, N> f;
      const double* d = all.data() + (r * v3 + s) * 2 * N * N;
      for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j)
          f.m[i][j] = {d[(i * N + j) * 2], d[(i * N + j) * 2 + 1]};
      p = p * f;
    }
    const Complex<double> tr = trace(p);
    re += tr.re;
    im += tr.im;
  }
  return {re / (N * double(v3)), im / (N * double(v3))};
}

template <int N>
double max_violation_n(const HostField& u, const World& world) {
  const std::int64_t sites = u.local_sites();
  double worst = 0;
#pragma omp parallel for reduction(max : worst) schedule(static)
  for (std::int64_t s = 0; s < sites; ++s)
    for (int mu = 0; mu < u.ndir; ++mu) {
      const double d = unitarity_deviation(u.get<N>(s, mu));
      worst = std::max(worst, d == d ? d : HUGE_VAL); // a matrix with a NaN: infinitely far
    }
  return world.max(worst);
}

template <int N>
void reunitarize_n(HostField& u) {
  const std::int64_t sites = u.local_sites();
#pragma omp parallel for schedule(static)
  for (std::int64_t s = 0; s < sites; ++s)
    for (int mu = 0; mu < u.ndir; ++mu) {
      Matrix<double, N> m = u.get<N>(s, mu);
      reunitarize(m);
      u.set<N>(s, mu, m);
    }
}

} // namespace

double plaquette(const HostField& u, const World& world) {
  return u.nc == 2 ? plaquette_n<2>(u, world) : plaquette_n<3>(u, world);
}

double link_trace(const HostField& u, const World& world) {
  const Geometry& g = u.geom;
  const int n = u.nc;
  std::vector<double> per_slice(static_cast<std::size_t>(g.nt));
#pragma omp parallel for schedule(static)
  for (int t = 0; t < g.nt; ++t) {
    double sum = 0;
    for (std::int64_t s = t * g.v3; s < (t + 1) * g.v3; ++s)
      for (int mu = 0; mu < 4; ++mu) {
        const Complex<double>* m = u.matrix_data(s, mu);
        for (int i = 0; i < n; ++i)
          sum += m[i * n + i].re;
      }
    per_slice[t] = sum;
  }
  return ordered_sum(per_slice, world) / (4.0 * n * static_cast<double>(g.global_volume()));
}

Complex<double> polyakov_loop(const HostField& u, const World& world) {
  return u.nc == 2 ? polyakov_n<2>(u, world) : polyakov_n<3>(u, world);
}

double max_unitarity_violation(const HostField& u, const World& world) {
  return u.nc == 2 ? max_violation_n<2>(u, world) : max_violation_n<3>(u, world);
}

void reunitarize_all(HostField& u) {
  u.nc == 2 ? reunitarize_n<2>(u) : reunitarize_n<3>(u);
}

} // namespace gf
