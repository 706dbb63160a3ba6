// local_update.h: turns a gauge's LocalProblem into the SU(2) update g of one subgroup,
// according to the update kind. Works for LinearProblem and QuadraticProblem alike.
#pragma once
#include "gauge/local_problem.h"
#include "update/update_kind.h"

namespace gf {

// The update kinds fall into two families compiled as separate kernels: the heatbath
// (transcendental functions, rejection loop: many registers) and the rest (a few
// multiplications and a square root), so that no sweep pays the heatbath's registers.
enum class UpdateFamily { local, thermal };

constexpr UpdateFamily update_family(UpdateKind k) {
  return k == UpdateKind::heatbath ? UpdateFamily::thermal : UpdateFamily::local;
}

// Key: a RandomKey, or for C = Simd<T, W> one key per lane (LaneKeys<W>, math/simd.h).
template <UpdateFamily Family, class C, class Problem, class Key>
GF_HD Quaternion<C> family_update(const Problem& problem, const UpdateParams& p, const Key& key,
                                  int subgroup) {
  if constexpr (Family == UpdateFamily::thermal) {
    return problem.heatbath(C(p.temperature), key, subgroup);
  } else {
    switch (p.kind) {
    case UpdateKind::relaxation:
      return problem.maximizer();
    case UpdateKind::microcanonical:
      return problem.reflection();
    case UpdateKind::stochastic_relaxation: {
      const Uniform4<C> r = uniform4<C>(key, RandomPurpose::stochastic_choice, subgroup, 0);
      return select(r.u[0] < C(p.probability), problem.reflection(), problem.maximizer());
    }
    case UpdateKind::overrelaxation:
    default:
      return problem.overrelaxed_maximizer(C(p.omega));
    }
  }
}

template <class C, class Problem>
GF_HD Quaternion<C> local_update(const Problem& problem, const UpdateParams& p,
                                 const RandomKey& key, int subgroup) {
  return update_family(p.kind) == UpdateFamily::thermal
             ? family_update<UpdateFamily::thermal, C>(problem, p, key, subgroup)
             : family_update<UpdateFamily::local, C>(problem, p, key, subgroup);
}

} // namespace gf
