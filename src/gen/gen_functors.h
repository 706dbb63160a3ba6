// gen_functors.h: the generator's kernel bodies, run unchanged by every backend.
//   LinkSubSweep   one (mu, parity) sub-sweep, or its slices first_slice ..: item i is the
//                  site t = first_slice + i / (V3/2), h = i % (V3/2) of that parity; it
//                  updates U_mu(x) from its staple (update_link) with the key {seed, natural
//                  index of x, sweep, mu}. The staple of U_mu(x) uses U_mu only at the other
//                  parity, so the items are independent. A heatbath sub-sweep also records,
//                  per site, the number of successful draw_x0 calls of the current sweep
//                  (mu = 0 overwrites). With StapleFrom::computed it sums the staple itself
//                  (variant "site1"); with StapleFrom::stored it reads the staple that
//                  StapleSums wrote (variant "split": two kernels, each with fewer registers
//                  than the one, the same bits).
//   StapleSums     the first kernel of a split sub-sweep: the staple of each item's link, in
//                  compute precision, to `staples` (StapleStore).
//   SitePlaquette  per site (items ordered (t, p, h)), sum_{mu<nu} Re tr P_mu,nu(x), in double.
// Loads (link_update.h) is the storage the loads and saves handle: the generator compiles the
// staples' kernels (the one kernel of site1, StapleSums) and SitePlaquette for the field's
// storage alone (FixedStorage), which saves the other storages' registers (SU(3) in double:
// 168 instead of 236 a thread with 12 reals), and the split variant's update for any
// (AnyStorage).
#pragma once
#include "gen/link_update.h"

namespace gf {

// The staples of one sub-sweep's items (the whole slab: item g = t v3h + h), component-major
// so that a warp's loads are coalesced: entry (r, c) of item g at (2 (r N + c) + part) items + g,
// part 0 the real and 1 the imaginary part.
template <class C, int N>
struct StapleStore {
  C* data;
  std::int64_t items; // nt v3h

  static constexpr int reals = 2 * N * N;
  GF_HD void save(std::int64_t g, const Matrix<C, N>& a) const {
    GF_UNROLL
    for (int e = 0; e < N * N; ++e) {
      data[(2 * e) * items + g] = a.m[e / N][e % N].re;
      data[(2 * e + 1) * items + g] = a.m[e / N][e % N].im;
    }
  }
  GF_HD Matrix<C, N> load(std::int64_t g) const {
    Matrix<C, N> a;
    GF_UNROLL
    for (int e = 0; e < N * N; ++e)
      a.m[e / N][e % N] = {data[(2 * e) * items + g], data[(2 * e + 1) * items + g]};
    return a;
  }
};

// Item i of a sub-sweep over slices first_slice ..: its index g in the whole slab (t v3h + h,
// the staples' index), its slice t and its site h in the half slice.
struct SubSweepItem {
  std::int64_t g;
  int t;
  std::int64_t h;
};
GF_HD inline SubSweepItem sub_sweep_item(const Geometry& geom, int first_slice, std::int64_t i) {
  SubSweepItem item;
  item.g = i + std::int64_t(first_slice) * geom.v3h;
  geom.split_site(item.g, item.t, item.h);
  return item;
}

enum class StapleFrom { computed, stored };

// The launch variant of a sub-sweep as two kernels (StapleSums, then LinkSubSweep).
inline constexpr const char* split_variant = "split";

template <class S, class C, int N, class Loads = AnyStorage>
struct StapleSums {
  FieldView<S, N> links;
  StapleStore<C, N> staples;
  int mu;
  int parity;
  int first_slice;

  GF_HD void operator()(std::int64_t i) const {
    const auto [g, t, h] = sub_sweep_item(links.geom, first_slice, i);
    staples.save(g, staple_sum<C, Loads>(links, links.geom.coords(t, parity, h), mu));
  }
};

template <class S, class C, int N, StapleFrom From = StapleFrom::computed, class Loads = AnyStorage>
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
  StapleStore<C, N> staples; // StapleFrom::stored: StapleSums' output; else unused

  GF_HD void operator()(std::int64_t i) const {
    const Geometry& geom = links.geom;
    const auto [g, t, h] = sub_sweep_item(geom, first_slice, i);
    const SiteCoords x = geom.coords(t, parity, h);
    Matrix<C, N> a;
    if constexpr (From == StapleFrom::stored)
      a = staples.load(g);
    else
      a = staple_sum<C, Loads>(links, x, mu);
    const Storage st = Loads::of(links);
    Matrix<C, N> u = links.template load_in<C>(st, t, parity, mu, h);
    const RandomKey key = {seed, static_cast<std::uint64_t>(geom.natural_index(x)), sweep,
                           static_cast<std::uint32_t>(mu)};
    const int n = update_link(kind, u, a, coupling, key);
    links.template save_in<C>(st, t, parity, mu, h, u);
    if (kind == LinkUpdateKind::heatbath) {
      double& count = accepted[(std::int64_t(t) * 2 + parity) * geom.v3h + h];
      count = (mu == 0 ? 0.0 : count) + n;
    }
  }
};

template <class S, int N, class Loads = AnyStorage>
struct SitePlaquette {
  FieldView<S, N> links;
  double* out; // per site, ordered (t, p, h)

  GF_HD void operator()(std::int64_t i) const {
    const Geometry& geom = links.geom;
    int t, p;
    std::int64_t h;
    geom.split_local_site(i, t, p, h);
    const SiteCoords x = geom.coords(t, p, h);
    const Storage st = Loads::of(links);
    const auto link = [&](const SiteCoords& c, int mu) {
      return links.template load_at_in<double>(st, c, mu);
    };
    double sum = 0;
    // the six plaquettes (mu, nu) = (0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3) in the order
    // of the sum, rolled: one plaquette's four links live at a time
    GF_NO_UNROLL
    for (int k = 0; k < 6; ++k) {
      const int mu = k < 3 ? 0 : k < 5 ? 1 : 2;
      const int nu = k < 3 ? k + 1 : k < 5 ? k - 1 : 3;
      const Matrix<double, N> a = link(x, mu) * link(geom.forward(x, mu), nu);
      const Matrix<double, N> b = link(x, nu) * link(geom.forward(x, nu), mu);
      sum += re_trace_product(a, adjoint(b));
    }
    out[i] = sum;
  }
};

} // namespace gf
