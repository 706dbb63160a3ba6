// link_update.h: the update of one link U = U_mu(x) of the Wilson gauge action
//   S = beta sum_P (1 - Re tr U_P / N),
// given its staple sum A (staple_sum), on host and device. The link's weight is
// exp((beta/N) Re tr(U A)). Cabibbo-Marinari: for each SU(2) subgroup s in turn, with
// W = U A and q = subgroup_projection(W, s), U <- G U where g
//   heatbath:        is drawn with weight exp((beta/N) (g q)_0), i.e. g = x g*, g* = q^dagger/|q|,
//                    x0 from draw_x0 with b = (beta/N)|q| (Creutz below b = 2, Kennedy-Pendleton
//                    above), the vector part of x uniform on the sphere of radius sqrt(1 - x0^2);
//   overrelaxation:  is the reflection g*^2, which keeps Re tr(U A) (microcanonical).
// For SU(2), |q| = 2 sqrt(det W) and b = beta sqrt(det A), the usual Creutz coupling; for
// SU(3) the subgroup's effective coupling is (2 beta/3) |q/2|.
// update_link returns the number of subgroups whose draw_x0 succeeded (heatbath; a failed
// draw leaves that subgroup unchanged).
#pragma once
#include "gauge/local_problem.h"
#include "lattice/field_view.h"
#include "math/subgroup.h"

namespace gf {

enum class LinkUpdateKind { heatbath, overrelaxation };

// The storage that a kernel's loads handle: the view's, decided at run time (AnyStorage: one
// kernel for every storage), or St alone (FixedStorage: a kernel compiled for that storage,
// without the other storages' code and registers).
struct AnyStorage {
  template <class V>
  GF_HD static Storage of(const V& v) {
    return v.storage;
  }
};
template <Storage St>
struct FixedStorage {
  template <class V>
  GF_HD static constexpr Storage of(const V&) {
    return St;
  }
};

// The staple sum of U_mu(x), links addressed by global coordinates (a slab reads its halo
// slices -1 and nt), loaded as Loads says (the view's storage either way):
//   A = sum_{nu != mu} [U_nu(x+mu) U_mu(x+nu)^dag U_nu(x)^dag
//                       + U_nu(x+mu-nu)^dag U_mu(x-nu)^dag U_nu(x-nu)].
template <class C, class Loads = AnyStorage, int N, class S>
GF_HD Matrix<C, N> staple_sum(const FieldView<S, N>& view, const SiteCoords& x, int mu) {
  const Geometry& g = view.geom;
  const Storage st = Loads::of(view);
  const auto link = [&](const SiteCoords& c, int nu) {
    return view.template load_at_in<C>(st, c, nu);
  };
  const SiteCoords xp = g.forward(x, mu);
  Matrix<C, N> a = Matrix<C, N>::zero();
  // the six staples in the order of the sum, rolled: one staple's three links live at a time
  // (unrolled over the directions, the SU(3) kernel in double spilled 1.8 KB a thread)
  GF_NO_UNROLL
  for (int k = 0; k < 6; ++k) {
    const int nu = k / 2 + (k / 2 >= mu ? 1 : 0);
    if (k % 2 == 0) {
      const Matrix<C, N> up = link(x, nu) * link(g.forward(x, nu), mu);
      a = a + link(xp, nu) * adjoint(up);
    } else {
      const SiteCoords xb = g.backward(x, nu);
      const Matrix<C, N> down = link(xb, mu) * link(g.backward(xp, nu), nu);
      a = a + adjoint(down) * link(xb, nu);
    }
  }
  return a;
}

// g with weight exp(coupling (g q)_0) under Haar measure; false if draw_x0 failed.
template <class C>
GF_HD bool heatbath_su2(const LinearProblem<C>& p, C coupling, const RandomKey& key, int s,
                        Quaternion<C>& g) {
  C x0;
  if (!LinearProblem<C>::draw_x0(coupling * std::sqrt(norm2(p.q)), key, s, x0)) return false;
  g = LinearProblem<C>::with_random_direction(x0, key, RandomPurpose::generator_direction, s) *
      p.maximizer();
  return true;
}

// coupling = beta / N.
template <class C, int N>
GF_HD int update_link(LinkUpdateKind kind, Matrix<C, N>& u, const Matrix<C, N>& staple, C coupling,
                      const RandomKey& key) {
  Matrix<C, N> w = u * staple;
  int accepted = 0;
  GF_UNROLL
  for (int s = 0; s < subgroup_count<N>; ++s) {
    const LinearProblem<C> p{subgroup_projection(w, s)};
    Quaternion<C> g = quaternion_identity<C>();
    if (kind == LinkUpdateKind::overrelaxation)
      g = p.reflection();
    else if (heatbath_su2(p, coupling, key, s, g))
      ++accepted;
    left_multiply(g, s, u);
    left_multiply(g, s, w);
  }
  return accepted;
}

} // namespace gf
