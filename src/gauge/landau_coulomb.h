// landau_coulomb.h: Landau and Coulomb gauge, as in the paper's section 2.1.
//   F = 1/(N_c N_d V) sum_{x, mu in D} Re tr U_mu(x),
//   Delta(x) = sum_{mu in D} [A_mu(x) - A_mu(x - mu)],
//   A_mu = traceless part of (U_mu - U_mu^dagger) / 2i,
//   theta = 1/(N_c V) sum_x tr[Delta Delta^dagger],
// with D = {x, y, z, t} (Landau, N_d = 4) or {x, y, z} (Coulomb, N_d = 3; theta and F are
// also reported per time slice). Step 1 for subgroup s: K = sum_{mu in D} [U_mu(x) +
// U_mu(x - mu)^dagger] projected onto the subgroup gives the LinearProblem. The sweep
// (fix/site_sweep.h) sums each link's projection (subgroup_term) and rotates the links by
// each subgroup's solution before the next subgroup's problem is summed.
// Coulomb gauge's local problem has no time links: its sweeps leave them alone
// (sweeps_time_links), and the engine applies the accumulated g(x) to them once, when the
// field is downloaded (fix/time_link_transform.h).
#pragma once
#include "gauge/gauge_kind.h"
#include "gauge/local_problem.h"
#include "lattice/geometry.h"
#include "math/subgroup.h"

namespace gf {

template <bool IncludeTime>
struct LinearGauge {
  static constexpr GaugeKind kind = IncludeTime ? GaugeKind::landau : GaugeKind::coulomb;
  static constexpr int n_functional_dirs = IncludeTime ? 4 : 3;
  static constexpr bool linear = true; // the local problem is linear in g (Fourier descent)
  static constexpr bool sweeps_time_links = IncludeTime; // Coulomb: time slices independent

  template <class C>
  using Problem = LinearProblem<C>;

  // The term of subgroup s's problem from one of the site's links, given as V = U_mu(x) or
  // U_mu(x - mu)^dagger: V's projection onto the subgroup (sums of its entries, no
  // products), or zero for a direction outside D.
  template <class C, int N>
  GF_HD static LinearProblem<C> subgroup_term(const Matrix<C, N>& v, int mu, int s) {
    const LinearProblem<C> zero = {{{C(0), C(0), C(0), C(0)}}};
    return mu < n_functional_dirs ? LinearProblem<C>{subgroup_projection(v, s)} : zero;
  }

  template <class C, int N>
  GF_HD static LinearProblem<C> problem(const Matrix<C, N> (&up)[4], const Matrix<C, N> (&down)[4],
                                        int s) {
    Quaternion<C> q = {{C(0), C(0), C(0), C(0)}};
GF_UNROLL
    for (int mu = 0; mu < n_functional_dirs; ++mu)
      q = q + subgroup_projection(up[mu], s) + subgroup_projection_adjoint(down[mu], s);
    return {q};
  }

  template <class C, int N>
  GF_HD static C site_functional(const Matrix<C, N> (&up)[4]) {
    C f = C(0);
GF_UNROLL
    for (int mu = 0; mu < n_functional_dirs; ++mu) f += trace(up[mu]).re;
    return f;
  }

  // (U - U^dagger) / 2i, made traceless.
  template <class C, int N>
  GF_HD static Matrix<C, N> algebra_field(const Matrix<C, N>& u) {
    Matrix<C, N> a;
GF_UNROLL
    for (int i = 0; i < N; ++i)
GF_UNROLL
      for (int j = 0; j < N; ++j) {
        const Complex<C> d = u.m[i][j] - conj(u.m[j][i]);
        a.m[i][j] = {d.im / C(2), -d.re / C(2)};
      }
    C tr = C(0);
GF_UNROLL
    for (int i = 0; i < N; ++i) tr += a.m[i][i].re;
GF_UNROLL
    for (int i = 0; i < N; ++i) a.m[i][i].re -= tr / C(N);
    return a;
  }

  // Delta(x) = sum_{mu in D} [A_mu(x) - A_mu(x - mu)], traceless Hermitian: the gradient of
  // the functional (Fourier-accelerated fixing, src/fourier).
  template <class C, int N>
  GF_HD static Matrix<C, N> site_delta(const Matrix<C, N> (&up)[4], const Matrix<C, N> (&down)[4]) {
    Matrix<C, N> delta = Matrix<C, N>::zero();
GF_UNROLL
    for (int mu = 0; mu < n_functional_dirs; ++mu)
      delta = delta + algebra_field(up[mu]) - algebra_field(down[mu]);
    return delta;
  }

  template <class C, int N>
  GF_HD static C site_theta(const Matrix<C, N> (&up)[4], const Matrix<C, N> (&down)[4]) {
    return theta_of(site_delta(up, down));
  }

  // tr[Delta Delta^dagger]
  template <class C, int N>
  GF_HD static C theta_of(const Matrix<C, N>& delta) {
    C s = C(0);
GF_UNROLL
    for (int i = 0; i < N; ++i)
GF_UNROLL
      for (int j = 0; j < N; ++j) s += norm2(delta.m[i][j]);
    return s;
  }
};

using LandauGauge = LinearGauge<true>;
using CoulombGauge = LinearGauge<false>;

} // namespace gf
