// local_update.h: turns a gauge's LocalProblem into the SU(2) update g of one subgroup,
// according to the update kind (family_update); the local family's random choices are drawn
// before the site's links are loaded (family_draws). Works for LinearProblem and
// QuadraticProblem alike.
#pragma once
#include "gauge/local_problem.h"
#include "update/update_kind.h"
#include <type_traits>

namespace gf {

// The update kinds fall into two families compiled as separate kernels: the heatbath
// (transcendental functions, rejection loop: many registers) and the rest (a few
// multiplications and a square root), so that no sweep pays the heatbath's registers.
enum class UpdateFamily { local, thermal };

constexpr UpdateFamily update_family(UpdateKind k) {
  return k == UpdateKind::heatbath ? UpdateFamily::thermal : UpdateFamily::local;
}

// The random choices of the local family's rules for one site, drawn before its links are
// loaded: stochastic relaxation's choice, for each of the S subgroups, of the reflection
// (probability p) or the maximiser. Drawn apart from the update, the generator runs while no
// link is held in registers, so that the local family's kernels need no more registers than
// overrelaxation alone (single precision, 4 lanes a site: 64 against 88 with the draw inside
// the update). For C = Simd<T, W>, masks of W sites.
template <class C, int S>
struct LocalDraws {
  decltype(C(0) < C(0)) reflect[S];
};

// Key: a RandomKey, or for C = Simd<T, W> one key per lane (LaneKeys<W>, math/simd.h). The
// draws of uniform4<C>(key, stochastic_choice, s, 0), only where the rule draws.
template <class C, int S, class Key>
GF_HD LocalDraws<C, S> local_draws(const UpdateParams& p, const Key& key) {
  LocalDraws<C, S> d;
  GF_UNROLL
  for (int s = 0; s < S; ++s)
    d.reflect[s] = C(0) < C(0);
  if (p.kind == UpdateKind::stochastic_relaxation) {
    GF_UNROLL
    for (int s = 0; s < S; ++s)
      d.reflect[s] =
          uniform4<C>(key, RandomPurpose::stochastic_choice, s, 0).u[0] < C(p.probability);
  }
  return d;
}

// What a family's update takes besides the problem: for the local family its draws
// (local_draws), for the thermal family the key (the heatbath draws until it accepts).
template <UpdateFamily Family, class C, int S, class Key>
GF_HD auto family_draws(const UpdateParams& p, const Key& key) {
  if constexpr (Family == UpdateFamily::thermal)
    return key;
  else
    return local_draws<C, S>(p, key);
}

// OverrelaxationOnly: a kernel compiled for overrelaxation alone (the local family's other
// rules are not compiled in, so that their registers are not held: fix/site_sweep.h); the
// caller runs it only for UpdateKind::overrelaxation.
template <UpdateFamily Family, class C, bool OverrelaxationOnly = false, class Problem, class Draws>
GF_HD Quaternion<C> family_update(const Problem& problem, const UpdateParams& p, const Draws& draws,
                                  int subgroup) {
  if constexpr (Family == UpdateFamily::thermal) {
    return problem.heatbath(C(p.temperature), draws, subgroup);
  } else if constexpr (OverrelaxationOnly) {
    return problem.overrelaxed_maximizer(C(p.omega));
  } else {
    switch (p.kind) {
    case UpdateKind::relaxation:
      return problem.maximizer();
    case UpdateKind::microcanonical:
      return problem.reflection();
    case UpdateKind::stochastic_relaxation:
      if constexpr (std::is_same_v<std::remove_cvref_t<decltype(draws.reflect[0])>, bool>) {
        // one site: a branch, so that the two candidates are never held at once (80 against
        // 95 registers in mixed precision with 4 lanes a site)
        if (draws.reflect[subgroup]) return problem.reflection();
        return problem.maximizer();
      } else {
        return select(draws.reflect[subgroup], problem.reflection(), problem.maximizer());
      }
    case UpdateKind::overrelaxation:
    default:
      return problem.overrelaxed_maximizer(C(p.omega));
    }
  }
}

} // namespace gf
