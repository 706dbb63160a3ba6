// site_sweep.h: the body of a sweep (the paper's Steps 1 and 2 for the sites of one
// parity), one functor for every gauge, update kind, precision and backend, run by Lanes
// threads per site: 1 on the CPU; 1, 2, 4 or 8 on the GPU (the variants the tuner picks from).
//
// Slots. A site x touches 8 links: slot j = 2 mu + d holds U_mu(x) (d = 0, "up") or
// U_mu(x - mu) (d = 1, "down"). Lane l of a site owns the slots l S ... l S + S - 1,
// S = 8 / Lanes. Each lane keeps V_j = U (up) or U^dagger (down) in registers: the local
// problem then depends on every V_j alike, and g(x) acts on every one as V_j <- g V_j.
//
// Sums over the slots follow one fixed binary tree, ((V0 + V1) + (V2 + V3)) + ...: each
// lane sums its own slots in registers (tree_sum), then the lanes combine by butterfly
// exchanges (lane_sum.h). Every lane of a site therefore holds the same bits, and every
// choice of Lanes gives the bitwise same field: the tuner's choice never changes a result.
//
// Landau, Coulomb (Gauge::linear): K = sum_j k_contribution(V_j) is formed once; since
// K -> g K, the subgroup updates s = 0, 1, 2 run on K alone, G = g_2 g_1 g_0 is
// accumulated, and each lane applies G once to its links. With at least N lanes the lanes
// share K and G by columns (solve_by_columns); with fewer, each lane updates all of them and
// reads the block entries and G through a lane exchange with itself, so that every variant
// compiles the same arithmetic and gives the same bits.
// Maximally Abelian: the quadratic problem of subgroup s depends on the links after the
// update of subgroup s - 1, so each g_s is applied to the links before the next problem.
// g(x), if tracked, becomes G g(x) (lane 0 of the site, or the lane whose time slots are
// skipped, see below).
//
// Time slots. A gauge whose local problem has no time links (!Gauge::sweeps_time_links:
// Coulomb) never loads or stores slots 6 and 7 (mu = 3); they enter the sums as zero, so the
// tree and hence the bits are those of every other variant. The engine tracks g(x) for such a
// gauge and applies it to the time links at download (time_link_transform.h).
//
// Precision (precision_types.h): links loaded, summed and multiplied in Prec::link, and so
// are K and, in the linear gauges, G, which multiplies the links; the SU(2) problems and
// their solutions in Prec::problem (mixed precision: double), as is the MAG's G. The
// returned G is in Prec::problem, for g(x) <- G g(x). The update kinds come in two compiled
// families (local_update.h); params.kind picks the rule within the family.
//
// SiteUpdate holds what happens between the loads and the saves, for any real type: the
// CPU's SIMD sweep (simd_site_sweep.h) runs it on W sites at once with Simd<T, W> reals.
#pragma once
#include "backend/lane_sum.h"
#include "fix/precision_types.h"
#include "gauge/local_problem.h"
#include "lattice/field_view.h"
#include "math/subgroup.h"
#include "update/local_update.h"

namespace gf {

// x[0] + ... + x[M-1] in the tree ((x0 + x1) + (x2 + x3)) + ...; M a power of two.
template <int M, class T>
GF_INLINE T tree_sum(T (&x)[M]) {
  GF_UNROLL
  for (int w = 1; w < M; w *= 2)
    GF_UNROLL
  for (int k = 0; k + w < M; k += 2 * w)
    x[k] = x[k] + x[k + w];
  return x[0];
}

template <int Lanes, class T, int N>
GF_INLINE Matrix<T, N> lane_sum(Matrix<T, N> m) {
  GF_UNROLL
  for (int i = 0; i < N; ++i)
    GF_UNROLL
  for (int j = 0; j < N; ++j)
    m.m[i][j] = {lane_sum<Lanes>(m.m[i][j].re), lane_sum<Lanes>(m.m[i][j].im)};
  return m;
}

template <int Lanes, class T>
GF_INLINE QuadraticProblem<T> lane_sum(QuadraticProblem<T> h) {
  return {lane_sum<Lanes>(h.a),
          lane_sum<Lanes>(h.b),
          {lane_sum<Lanes>(h.c.re), lane_sum<Lanes>(h.c.im)}};
}

template <class To, class From>
GF_INLINE QuadraticProblem<To> problem_cast(const QuadraticProblem<From>& h) {
  return {To(h.a), To(h.b), complex_cast<To>(h.c)};
}

template <class To, class From>
GF_INLINE Quaternion<To> quaternion_cast(const Quaternion<From>& g) {
  return {{To(g[0]), To(g[1]), To(g[2]), To(g[3])}};
}

// Flop per site update quoted by the benchmarks and the tuner's reports: the paper's count
// for SU(3) Landau overrelaxation (its appendix), kept as the nominal figure.
constexpr double flops_per_site_update = 2274;

// The slots of one lane of a site and what the update does with them, for any real type
// (float, double, or Simd<T, W> for W sites at once, fix/simd_site_sweep.h): the part of
// the sweep shared by every backend and variant.
template <class Gauge, int N, int Lanes, UpdateFamily Family>
struct SiteUpdate {
  static constexpr int slots = 8 / Lanes; // links per lane

  // Whether slot k of a lane holds a down link: known at compile time unless every lane
  // holds one slot (8 lanes), so that the other kernels carry no selects.
  GF_INLINE static bool is_down(int lane, int k) { return slots > 1 ? k % 2 == 1 : lane % 2 == 1; }
  // Whether slot k of a lane is a time link the sweep leaves alone.
  GF_INLINE static bool skipped(int lane, int k) {
    return !Gauge::sweeps_time_links && (lane * slots + k) / 2 == time_dir;
  }
  GF_INLINE static int direction(int lane, int k) { return (lane * slots + k) / 2; }

  // The lane that updates g(x): lane 0, or where the time slots are skipped the lane that
  // owns them (slot 6), so that its loads take the place of the time links'.
  static constexpr int transform_lane = Gauge::sweeps_time_links ? 0 : 6 / slots;

  // The subgroup updates of a linear gauge with the lanes sharing the work: lane c keeps
  // column c of K and of G (lanes past N - 1 repeat the last column), reads the four entries
  // of each subgroup's block from their lanes, and rotates its own column. Every entry goes
  // through the operations of the one-lane path (left_multiply is rotate_pair per column), so
  // the bits are the same; G is gathered from the column lanes at the end. K and G are link
  // arithmetic (C); only the block's problem and its solution are in P.
  template <class C, class P, class Key>
  GF_INLINE static Matrix<C, N> solve_by_columns(const Matrix<C, N>& big_k, int lane,
                                                 const UpdateParams& params, const Key& key) {
    const int own = lane < N ? lane : N - 1;
    Complex<C> k_col[N], g_col[N];
    GF_UNROLL
    for (int r = 0; r < N; ++r) {
      k_col[r] = big_k.m[r][0];
      g_col[r] = {C(r == 0 ? 1 : 0), C(0)};
      GF_UNROLL
      for (int c = 1; c < N; ++c)
        if (own == c) {
          k_col[r] = big_k.m[r][c];
          g_col[r] = {C(r == c ? 1 : 0), C(0)};
        }
    }
    GF_UNROLL
    for (int s = 0; s < subgroup_count<N>; ++s) {
      int i, j;
      subgroup_rows<N>(s, i, j);
      const auto entry = [&](int row, int col) {
        return complex_cast<P>(
            Complex<C>{lane_read<Lanes>(k_col[row].re, col), lane_read<Lanes>(k_col[row].im, col)});
      };
      const LinearProblem<P> problem = {
          block_projection(entry(i, i), entry(i, j), entry(j, i), entry(j, j))};
      const Quaternion<C> gs =
          quaternion_cast<C>(family_update<Family, P>(problem, params, key, s));
      rotate_pair(gs, k_col[i], k_col[j]);
      rotate_pair(gs, g_col[i], g_col[j]);
    }
    Matrix<C, N> g;
    GF_UNROLL
    for (int r = 0; r < N; ++r)
      GF_UNROLL
    for (int c = 0; c < N; ++c)
      g.m[r][c] = {lane_read<Lanes>(g_col[r].re, c), lane_read<Lanes>(g_col[r].im, c)};
    return g;
  }

  // Updates the lane's links v (V_j, skipped slots zero) in place; returns G, the product of
  // the subgroup updates (g(x) <- G g(x)). C: link arithmetic, P: the SU(2) problems.
  template <class C, class P, class Key>
  GF_INLINE static Matrix<P, N> apply(Matrix<C, N> (&v)[slots], int lane,
                                      const UpdateParams& params, const Key& key) {
    Matrix<P, N> g = Matrix<P, N>::identity();
    if constexpr (Gauge::linear) {
      Matrix<C, N> part[slots];
      GF_UNROLL
      for (int k = 0; k < slots; ++k)
        part[k] = Gauge::k_contribution(v[k], direction(lane, k));
      Matrix<C, N> big_k = lane_sum<Lanes>(tree_sum(part));
      Matrix<C, N> gc = Matrix<C, N>::identity();
      if constexpr (Lanes >= N) {
        gc = solve_by_columns<C, P>(big_k, lane, params, key);
      } else {
        // every lane updates all of K and G; what the column lanes read from each other
        // is read from the lane itself, so that every variant compiles the same arithmetic
        const auto own = [&](const Complex<C>& z) {
          return Complex<C>{lane_read<Lanes>(z.re, lane), lane_read<Lanes>(z.im, lane)};
        };
        GF_UNROLL
        for (int s = 0; s < subgroup_count<N>; ++s) {
          int i, j;
          subgroup_rows<N>(s, i, j);
          const LinearProblem<P> problem = {block_projection(
              complex_cast<P>(own(big_k.m[i][i])), complex_cast<P>(own(big_k.m[i][j])),
              complex_cast<P>(own(big_k.m[j][i])), complex_cast<P>(own(big_k.m[j][j])))};
          const Quaternion<C> gs =
              quaternion_cast<C>(family_update<Family, P>(problem, params, key, s));
          left_multiply(gs, s, big_k);
          left_multiply(gs, s, gc);
        }
        GF_UNROLL
        for (int r = 0; r < N; ++r)
          GF_UNROLL
        for (int c = 0; c < N; ++c)
          gc.m[r][c] = own(gc.m[r][c]);
      }
      GF_UNROLL
      for (int k = 0; k < slots; ++k)
        if (!skipped(lane, k)) v[k] = gc * v[k];
      g = matrix_cast<P>(gc);
    } else {
      GF_UNROLL
      for (int s = 0; s < subgroup_count<N>; ++s) {
        QuadraticProblem<C> part[slots];
        GF_UNROLL
        for (int k = 0; k < slots; ++k)
          part[k] = Gauge::h_contribution(v[k], s);
        const QuadraticProblem<P> problem = problem_cast<P>(lane_sum<Lanes>(tree_sum(part)));
        const Quaternion<P> gs = family_update<Family, P>(problem, params, key, s);
        const Quaternion<C> gc = quaternion_cast<C>(gs);
        GF_UNROLL
        for (int k = 0; k < slots; ++k)
          Gauge::apply_subgroup(gc, s, v[k]);
        left_multiply(gs, s, g);
      }
    }
    return g;
  }
};

// RowsOnly: compiled for links and g(x) stored as rows (12 reals for SU(3)) alone, so that the
// loads and saves carry no branch on the storage and no decode of the others (the variants
// "siteN-rows"); the arithmetic, and hence every bit, is that of the kernel that branches.
template <class Gauge, class Prec, int N, int Lanes, UpdateFamily Family, bool RowsOnly = false>
struct SiteSweep {
  using S = typename Prec::storage;
  using C = typename Prec::link;
  using P = typename Prec::problem;
  using Update = SiteUpdate<Gauge, N, Lanes, Family>;
  static constexpr int lanes = Lanes;
  static constexpr int slots = Update::slots;

  FieldView<S, N> links;
  FieldView<S, N> transform; // data == nullptr when g(x) is not tracked
  int parity;
  std::int64_t first_site; // item i updates site first_site + i / Lanes of this parity
  UpdateParams params;
  std::uint64_t seed;
  std::uint32_t sweep;

  GF_HD void operator()(std::int64_t item) const {
    // the storage of links and g(x), a constant in the RowsOnly kernels
    const Storage stored = RowsOnly ? Storage::rows : links.storage;
    const Geometry& geom = links.geom;
    const std::int64_t site = first_site + item / Lanes;
    const int lane = static_cast<int>(item % Lanes);
    int t;
    std::int64_t h;
    geom.split_site(site, t, h);
    const SiteCoords c = geom.coords(t, parity, h);

    int at_t[slots], at_p[slots];
    std::int64_t at_h[slots];
    Matrix<C, N> v[slots];
    GF_UNROLL
    for (int k = 0; k < slots; ++k) {
      const int mu = Update::direction(lane, k);
      if (Update::skipped(lane, k)) {
        v[k] = Matrix<C, N>::zero();
        continue;
      }
      if (!Update::is_down(lane, k)) {
        at_t[k] = t;
        at_p[k] = parity;
        at_h[k] = h;
      } else {
        const SiteCoords b = geom.backward(c, mu);
        at_t[k] = b.x[3] - geom.t0;
        at_p[k] = 1 - parity;
        at_h[k] = geom.half_index(b);
      }
      const Matrix<C, N> u = links.template load_in<C>(stored, at_t[k], at_p[k], mu, at_h[k]);
      v[k] = Update::is_down(lane, k) ? adjoint(u) : u;
    }

    const RandomKey key = {seed, static_cast<std::uint64_t>(geom.natural_index(c)), sweep, 0};
    const Matrix<P, N> g = Update::template apply<C, P>(v, lane, params, key);

    GF_UNROLL
    for (int k = 0; k < slots; ++k) {
      if (Update::skipped(lane, k)) continue;
      links.template save_in<C>(stored, at_t[k], at_p[k], Update::direction(lane, k), at_h[k],
                                Update::is_down(lane, k) ? adjoint(v[k]) : v[k]);
    }
    if (transform.data && lane == Update::transform_lane)
      transform.template save_in<P>(stored, t, parity, 0, h,
                                    g * transform.template load_in<P>(stored, t, parity, 0, h));
  }
};

} // namespace gf
