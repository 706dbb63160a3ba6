// test_fields.h: small gauge fields for the tests: the unit field, a smooth field
// (links close to 1) and a rough ("hot") field of random links, SU(2) or SU(3); the
// schedules the tests share (annealing, Fourier-accelerated descent); how far a fixed field
// is from the field transformed by its g(x); and the backends a test can run on here (the
// CPU, and CUDA where a device is present).
#pragma once
#include "fix/engine.h"
#include "fix/random_field.h"
#include "fix/schedule.h"
#include "lattice/host_field.h"
#include "math/random_group.h"
#include <algorithm>
#include <cmath>
#include <vector>

namespace gf::testing {

inline HostField unit_field(const int L[4], int nc) {
  HostField u(Geometry::whole(L), nc, 4);
  for (std::int64_t s = 0; s < u.local_sites(); ++s)
    for (int mu = 0; mu < 4; ++mu)
      for (int i = 0; i < nc; ++i) u.matrix_data(s, mu)[i * nc + i] = {1.0, 0.0};
  return u;
}

template <int N>
Matrix<double, N> random_link(std::uint64_t seed, std::int64_t site, int mu) {
  const RandomKey key = {seed, static_cast<std::uint64_t>(site), 0, static_cast<std::uint32_t>(mu)};
  return random_sun<double, N>(key, RandomPurpose::test);
}

// Links = reunitarise(1 + eps (R - 1)) with R random: smooth for small eps, hot for eps = 1.
inline HostField random_field(const int L[4], int nc, std::uint64_t seed, double eps) {
  return gf::random_field(L, nc, seed, eps, RandomPurpose::test);
}

// An annealing phase (fix/schedule.h): `sweeps` heatbath steps from t_max down to t_min, each
// followed by micro_steps microcanonical sweeps.
inline Phase annealing_phase(int sweeps, double t_max, double t_min, int micro_steps) {
  Phase anneal;
  anneal.update.kind = UpdateKind::heatbath;
  anneal.sweeps = sweeps;
  anneal.t_max = t_max;
  anneal.t_min = t_min;
  anneal.micro_steps = micro_steps;
  return anneal;
}

// One Fourier-accelerated phase (fourier/descent.h): at most `steps` steps of `method` to
// `tolerance`, measured every 50.
inline FixOptions descent_schedule(DescentMethod method, double tolerance, int steps = 3000) {
  FixOptions fo;
  Phase p;
  p.descent.method = method;
  p.sweeps = steps;
  fo.phases = {p};
  fo.tolerance = tolerance;
  fo.check_interval = 50;
  return fo;
}

// max over x, mu, i, j of |(g(x) U_mu(x) g(x + mu)^dagger - fixed_mu(x))_ij|: how far `fixed`
// is from u transformed by g.
template <int N>
double max_transform_violation(const HostField& u, const HostField& g, const HostField& fixed) {
  double d = 0;
  for (std::int64_t s = 0; s < u.local_sites(); ++s) {
    const SiteCoords c = u.coords(s);
    for (int mu = 0; mu < 4; ++mu) {
      const std::int64_t y = g.local_index(u.geom.forward(c, mu));
      const Matrix<double, N> diff =
          g.get<N>(s, 0) * u.get<N>(s, mu) * adjoint(g.get<N>(y, 0)) - fixed.get<N>(s, mu);
      for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j)
          d = std::max(d, std::sqrt(norm2(diff.m[i][j])));
    }
  }
  return d;
}

inline double max_transform_violation(const HostField& u, const HostField& g,
                                      const HostField& fixed) {
  return u.nc == 2 ? max_transform_violation<2>(u, g, fixed)
                   : max_transform_violation<3>(u, g, fixed);
}

inline std::vector<Backend> available_backends() {
  std::vector<Backend> b = {Backend::cpu};
  if (cuda_available()) b.push_back(Backend::cuda);
  return b;
}

} // namespace gf::testing
