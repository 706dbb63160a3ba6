// gen_functors.h: the generator's kernel bodies, run unchanged by every backend.
//   LinkSubSweep   one (mu, parity) sub-sweep, or its slices first_slice ..: item i is the
//                  site t = first_slice + i / (V3/2), h = i % (V3/2) of that parity; it updates U_mu(x) from its staple
//                  (update_link) with the key {seed, natural index of x, sweep, mu}. The
//                  staple of U_mu(x) uses U_mu only at the other parity, so the items are
//                  independent. A heatbath sub-sweep also records, per site, the number of
//                  successful draw_x0 calls of the current sweep (mu = 0 overwrites).
//   SitePlaquette  per site (items ordered (t, p, h)), sum_{mu<nu} Re tr P_mu,nu(x), in double.
#pragma once
#include "gen/link_update.h"

namespace gf {

template <class S, class C, int N>
struct LinkSubSweep {
  FieldView<S, N> links;
  double* accepted; // per site, ordered (t, p, h)
  LinkUpdateKind kind;
  int mu;
  int parity;
  C coupling; // beta / N
  std::uint64_t seed;
  std::uint32_t sweep;
  int first_slice;

  GF_HD void operator()(std::int64_t i) const {
    const Geometry& geom = links.geom;
    int t;
    std::int64_t h;
    geom.split_site(i + std::int64_t(first_slice) * geom.v3h, t, h);
    const SiteCoords x = geom.coords(t, parity, h);
    const Matrix<C, N> a = staple_sum<C>(links, x, mu);
    Matrix<C, N> u = links.template load<C>(t, parity, mu, h);
    const RandomKey key = {seed, static_cast<std::uint64_t>(geom.natural_index(x)), sweep,
                           static_cast<std::uint32_t>(mu)};
    const int n = update_link(kind, u, a, coupling, key);
    links.template save<C>(t, parity, mu, h, u);
    if (kind == LinkUpdateKind::heatbath) {
      double& count = accepted[(std::int64_t(t) * 2 + parity) * geom.v3h + h];
      count = (mu == 0 ? 0.0 : count) + n;
    }
  }
};

template <class S, int N>
struct SitePlaquette {
  FieldView<S, N> links;
  double* out; // per site, ordered (t, p, h)

  GF_HD void operator()(std::int64_t i) const {
    const Geometry& geom = links.geom;
    int t, p;
    std::int64_t h;
    geom.split_local_site(i, t, p, h);
    const SiteCoords x = geom.coords(t, p, h);
    double sum = 0;
GF_UNROLL
    for (int mu = 0; mu < 4; ++mu)
GF_UNROLL
      for (int nu = mu + 1; nu < 4; ++nu) {
        const Matrix<double, N> a = links.template load_at<double>(x, mu) *
                                    links.template load_at<double>(geom.forward(x, mu), nu);
        const Matrix<double, N> b = links.template load_at<double>(x, nu) *
                                    links.template load_at<double>(geom.forward(x, nu), mu);
        sum += re_trace_product(a, adjoint(b));
      }
    out[i] = sum;
  }
};

} // namespace gf
