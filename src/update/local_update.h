// local_update.h: turns a gauge's LocalProblem into the SU(2) update g of one subgroup,
// according to the update kind. Works for LinearProblem and QuadraticProblem alike.
#pragma once
#include "gauge/local_problem.h"
#include "update/update_kind.h"

namespace gf {

// The paper's first-order g^omega: with g = (a0, a), b = (omega a0^2 + |a|^2) /
// (a0^2 + |a|^2), g^omega = (a0, b a) / sqrt(a0^2 + b^2 |a|^2).
template <class C>
GF_HD Quaternion<C> overrelax(const Quaternion<C>& g, C omega) {
  const C ai2 = g[1] * g[1] + g[2] * g[2] + g[3] * g[3];
  const C a02 = g[0] * g[0];
  const C b = (omega * a02 + ai2) / (a02 + ai2);
  const C c = C(1) / std::sqrt(a02 + b * b * ai2);
  return {{g[0] * c, g[1] * b * c, g[2] * b * c, g[3] * b * c}};
}

template <class C, class Problem>
GF_HD Quaternion<C> local_update(const Problem& problem, const UpdateParams& p,
                                 const RandomKey& key, int subgroup) {
  switch (p.kind) {
  case UpdateKind::relaxation:
    return problem.maximizer();
  case UpdateKind::overrelaxation:
    return overrelax(problem.maximizer(), C(p.omega));
  case UpdateKind::microcanonical:
    return problem.reflection();
  case UpdateKind::stochastic_relaxation: {
    const Uniform4<C> r = uniform4<C>(key, RandomPurpose::stochastic_choice, subgroup, 0);
    return r.u[0] < C(p.probability) ? problem.reflection() : problem.maximizer();
  }
  case UpdateKind::heatbath:
  default:
    return problem.heatbath(C(p.temperature), key, subgroup);
  }
}

} // namespace gf
