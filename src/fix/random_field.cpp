#include "fix/random_field.h"
#include "math/random_group.h"
#include "math/su_n.h"

namespace gf {

namespace {

template <int N>
void fill(HostField& u, std::uint64_t seed, double eps, RandomPurpose purpose) {
  const Matrix<double, N> one = Matrix<double, N>::identity();
  const std::int64_t first = std::int64_t(u.geom.t0) * u.geom.v3; // global index of site 0
#pragma omp parallel for schedule(static)
  for (std::int64_t s = 0; s < u.local_sites(); ++s)
    for (int mu = 0; mu < 4; ++mu) {
      const RandomKey key = {seed, static_cast<std::uint64_t>(first + s), 0,
                             static_cast<std::uint32_t>(mu)};
      Matrix<double, N> r = random_sun<double, N>(key, purpose);
      for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j) r.m[i][j] = one.m[i][j] + eps * (r.m[i][j] - one.m[i][j]);
      reunitarize(r);
      u.set<N>(s, mu, r);
    }
}

} // namespace

HostField random_field(const int L[4], int nc, std::uint64_t seed, double eps, RandomPurpose purpose) {
  return random_field(Geometry::whole(L), nc, seed, eps, purpose);
}

HostField random_field(const Geometry& slab, int nc, std::uint64_t seed, double eps,
                       RandomPurpose purpose) {
  HostField u(slab, nc, 4);
  if (nc == 2) fill<2>(u, seed, eps, purpose);
  else fill<3>(u, seed, eps, purpose);
  return u;
}

} // namespace gf
