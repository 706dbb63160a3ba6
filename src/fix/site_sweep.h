// site_sweep.h: the body of a sweep (the paper's Steps 1 and 2 for the sites of one
// parity), one functor for every gauge, update kind, precision and backend, run by Lanes
// threads per site: 1 on the CPU; 1, 2, 4 or 8 on the GPU (the variants the tuner picks from).
//
// Slots. A site x touches 8 links: slot j = 2 mu + d holds U_mu(x) (d = 0, "up") or
// U_mu(x - mu) (d = 1, "down"). Lane l of a site owns the slots l S ... l S + S - 1,
// S = 8 / Lanes. Each lane keeps V_j = U (up) or U^dagger (down) in registers: the local
// problem then depends on every V_j alike, and g(x) acts on every one as V_j <- g V_j.
//
// Sums over the slots (of the slots' terms t_j of a problem) follow one fixed binary tree,
// ((t0 + t1) + (t2 + t3)) + ...: each lane sums its own slots' terms in registers (tree_sum),
// then the lanes combine by butterfly exchanges (lane_sum.h). Every lane of a site therefore
// holds the same bits, and every choice of Lanes gives the bitwise same field: the tuner's
// choice never changes a result.
//
// Every gauge: for each subgroup s in turn, the problem is summed from the terms of the
// lane's links (Gauge::subgroup_term: for Landau and Coulomb the links' projections onto the
// subgroup, for MAG a quadratic form), solved in Prec::problem, and its solution g_s applied
// to every link (left_multiply, V <- g_s V, the same in every gauge) before the next subgroup's
// problem is summed. The terms and the rotations are compiled alike in every variant (the
// linear gauges' terms are sums only, MAG's unfused products; the rotations a fixed chain of
// fused multiply-adds, math/subgroup.h), so the problems, and every bit, agree. g(x), if tracked,
// is rotated as a link is: g(x) <- g_s g(x) for s = 0, 1, 2 in turn, in Prec::link (by lane 0 after
// the links, or in the transform slot, below).
//
// Time slots. A gauge whose local problem has no time links (!Gauge::sweeps_time_links:
// Coulomb) never loads or stores the time links of slots 6 and 7 (mu = 3); they enter the sums
// as zero, so the tree and hence the bits are those of every other variant. The engine always
// tracks g(x) for such a gauge and applies it to the time links at download
// (time_link_transform.h). Where several lanes share a site, g(x) takes the place of the up
// time link in slot 6 (the transform slot): its lane loads, rotates and saves it with the same
// instructions with which the other lanes move their links, instead of after them while they
// wait.
//
// Precision (precision_types.h): links and g(x) loaded, summed and rotated in Prec::link, and
// so are the problems' terms; the SU(2) problems and their solutions in Prec::problem (mixed
// precision: double). The update kinds come in two compiled families (local_update.h);
// params.kind picks the rule within the family.
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

template <int Lanes, class T>
GF_INLINE LinearProblem<T> lane_sum(LinearProblem<T> p) {
  return {{{lane_sum<Lanes>(p.q[0]), lane_sum<Lanes>(p.q[1]), lane_sum<Lanes>(p.q[2]),
            lane_sum<Lanes>(p.q[3])}}};
}

template <class To, class From>
GF_INLINE Quaternion<To> quaternion_cast(const Quaternion<From>& g) {
  return {{To(g[0]), To(g[1]), To(g[2]), To(g[3])}};
}

template <class To, class From>
GF_INLINE LinearProblem<To> problem_cast(const LinearProblem<From>& p) {
  return {quaternion_cast<To>(p.q)};
}

// Flop per site update quoted by the benchmarks and the tuner's reports: the paper's count
// for SU(3) Landau overrelaxation (its appendix), kept as the nominal figure.
constexpr double flops_per_site_update = 2274;

// The slots of one lane of a site and what the update does with them, for any real type
// (float, double, or Simd<T, W> for W sites at once, fix/simd_site_sweep.h): the part of
// the sweep shared by every backend and variant.
// OverrelaxationOnly: compiled for overrelaxation alone (local_update.h's family_update).
template <class Gauge, int N, int Lanes, UpdateFamily Family, bool OverrelaxationOnly = false>
struct SiteUpdate {
  static constexpr int slots = 8 / Lanes; // links per lane

  // Whether slot k of a lane holds a down link: known at compile time unless every lane
  // holds one slot (8 lanes), so that the other kernels carry no selects.
  GF_INLINE static bool is_down(int lane, int k) { return slots > 1 ? k % 2 == 1 : lane % 2 == 1; }
  // Whether slot k of a lane is a time slot the sweep leaves alone (no time link in it).
  GF_INLINE static bool time_slot(int lane, int k) {
    return !Gauge::sweeps_time_links && (lane * slots + k) / 2 == time_dir;
  }
  // Whether g(x) takes the place of the up time link (slot 6, the transform slot): in the
  // gauges without time slots, which always track g(x), where several lanes share a site, so
  // that the slot's registers are held for the other lanes' links anyway. With one lane the
  // slot would hold g(x) through the solve for nothing; g(x) is rotated after the links.
  static constexpr bool transform_in_slot = Lanes > 1 && !Gauge::sweeps_time_links;
  GF_INLINE static bool transform_slot(int lane, int k) {
    return transform_in_slot && lane * slots + k == 2 * time_dir;
  }
  // Whether slot k of a lane holds nothing (zero): a time slot other than the transform slot.
  GF_INLINE static bool empty_slot(int lane, int k) {
    return time_slot(lane, k) && !transform_slot(lane, k);
  }
  GF_INLINE static int direction(int lane, int k) { return (lane * slots + k) / 2; }

  // The lane that rotates a g(x) held apart from the slots (rotate_transform): lane 0.
  static constexpr int transform_lane = 0;

  // Updates the lane's matrices v (V_j; g(x) in the transform slot; the other time slots zero)
  // in place. For each subgroup s in turn, the problem is the sum of every slot's term
  // (Gauge::subgroup_term; zero for the time slots) over the one tree, and its solution gs[s]
  // is applied to every link and to g(x) (V <- g_s V). C: link arithmetic, P: the SU(2)
  // problems and their solutions. Draws: family_draws' of the site (local_update.h).
  template <class C, class P, class Draws>
  GF_INLINE static void apply(Matrix<C, N> (&v)[slots], int lane, const UpdateParams& params,
                              const Draws& draws, Quaternion<P> (&gs)[subgroup_count<N>]) {
    GF_UNROLL
    for (int s = 0; s < subgroup_count<N>; ++s) {
      typename Gauge::template Problem<C> part[slots];
      GF_UNROLL
      for (int k = 0; k < slots; ++k)
        part[k] = Gauge::subgroup_term(v[k], direction(lane, k), s);
      const auto problem = problem_cast<P>(lane_sum<Lanes>(tree_sum(part)));
      gs[s] = family_update<Family, P, OverrelaxationOnly>(problem, params, draws, s);
      const Quaternion<C> gc = quaternion_cast<C>(gs[s]);
      GF_UNROLL
      for (int k = 0; k < slots; ++k)
        if (!empty_slot(lane, k)) left_multiply(gc, s, v[k]);
    }
  }

  // g(x) <- g_2 g_1 g_0 g(x) for the solutions apply() returned, applied one at a time in the
  // links' arithmetic C exactly as apply() rotates a link (and g(x) in the transform slot), for a
  // g(x) held apart from the slots.
  template <class C, class P>
  GF_INLINE static void rotate_transform(const Quaternion<P> (&gs)[subgroup_count<N>],
                                         Matrix<C, N>& g) {
    GF_UNROLL
    for (int s = 0; s < subgroup_count<N>; ++s)
      left_multiply(quaternion_cast<C>(gs[s]), s, g);
  }
};

// RowsOverrelaxation: compiled for links and g(x) stored as rows (12 reals for SU(3)) and for
// overrelaxation alone (the variants "siteN-rows"), so that the loads and saves carry no branch
// on the storage and no decode of the others, and the other rules of the local family hold no
// registers (mixed precision, Landau, 4 lanes: 72 registers instead of 77); the engine runs the
// other rules with the kernel that branches. The arithmetic, and hence every bit, is that of
// the kernel that branches.
template <class Gauge, class Prec, int N, int Lanes, UpdateFamily Family,
          bool RowsOverrelaxation = false>
struct SiteSweep {
  using S = typename Prec::storage;
  using C = typename Prec::link;
  using P = typename Prec::problem;
  using Update = SiteUpdate<Gauge, N, Lanes, Family, RowsOverrelaxation>;
  static constexpr int lanes = Lanes;
  static constexpr int slots = Update::slots;

  FieldView<S, N> links;
  FieldView<S, N> transform; // data == nullptr when g(x) is not tracked
  int parity;
  std::int64_t first_site; // item i updates site first_site + i / Lanes of this parity
  UpdateParams params;
  std::uint64_t seed;
  std::uint32_t sweep;

  // The address of slot k's matrix at (t, p, h): g(x) in the transform slot (a field of the
  // links' pitch), else the slot's link.
  GF_INLINE S* matrix_at(Storage stored, int lane, int k, int t, int p, std::int64_t h) const {
    return Update::transform_slot(lane, k)
               ? transform.matrix_in(stored, t, p, 0, h)
               : links.matrix_in(stored, t, p, Update::direction(lane, k), h);
  }

  GF_HD void operator()(std::int64_t item) const {
    // the storage of links and g(x), a constant in the RowsOverrelaxation kernels
    const Storage stored = RowsOverrelaxation ? Storage::rows : links.storage;
    const Geometry& geom = links.geom;
    const std::int64_t site = first_site + item / Lanes;
    const int lane = static_cast<int>(item % Lanes);
    int t;
    std::int64_t h;
    geom.split_site(site, t, h);
    const SiteCoords c = geom.coords(t, parity, h);
    // the update's random numbers first, while no link is held (local_update.h)
    const RandomKey key = {seed, static_cast<std::uint64_t>(geom.natural_index(c)), sweep, 0};
    const auto draws = family_draws<Family, P, subgroup_count<N>>(params, key);

    // Where each slot's matrix lies: a link, or g(x) of the site in the transform slot. The
    // saves find it again from its coordinates, or, where g(x) has the transform slot, from its
    // address kept through the solve: that way each kernel takes the fewer registers
    // (-Xptxas -v, 4 lanes: Coulomb 64 instead of 72 in single precision, 102 instead of 116 in
    // double; Landau with kept addresses 80 instead of 64 in single).
    static constexpr bool keep_addresses = Update::transform_in_slot;
    int at_t[slots], at_p[slots];
    std::int64_t at_h[slots];
    S* at[slots];
    Matrix<C, N> v[slots];
    GF_UNROLL
    for (int k = 0; k < slots; ++k) {
      if (Update::empty_slot(lane, k)) {
        v[k] = Matrix<C, N>::zero();
        continue;
      }
      if (!Update::is_down(lane, k)) {
        at_t[k] = t;
        at_p[k] = parity;
        at_h[k] = h;
      } else {
        const SiteCoords b = geom.backward_unrolled(c, Update::direction(lane, k));
        at_t[k] = b.x[3] - geom.t0;
        at_p[k] = 1 - parity;
        at_h[k] = geom.half_index(b);
      }
      at[k] = matrix_at(stored, lane, k, at_t[k], at_p[k], at_h[k]);
      const Matrix<C, N> u = links.template load_from<C>(stored, at[k]);
      v[k] = Update::is_down(lane, k) ? adjoint(u) : u;
    }

    Quaternion<P> gs[subgroup_count<N>];
    Update::template apply<C, P>(v, lane, params, draws, gs);

    GF_UNROLL
    for (int k = 0; k < slots; ++k) {
      if (Update::empty_slot(lane, k)) continue;
      S* const to = keep_addresses ? at[k] : matrix_at(stored, lane, k, at_t[k], at_p[k], at_h[k]);
      links.template save_to<C>(stored, to, Update::is_down(lane, k) ? adjoint(v[k]) : v[k]);
    }
    if (!Update::transform_in_slot && transform.data && lane == Update::transform_lane) {
      S* const g_at = transform.matrix_in(stored, t, parity, 0, h);
      Matrix<C, N> g = transform.template load_from<C>(stored, g_at);
      Update::rotate_transform(gs, g);
      transform.template save_to<C>(stored, g_at, g);
    }
  }
};

} // namespace gf
