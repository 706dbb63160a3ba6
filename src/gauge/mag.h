// mag.h: maximally Abelian gauge, as in the paper's section 2.1, in its practical form
//   F = 1/(N_c N_d V) sum_{x, mu, i} |U_mu(x)_ii|^2.
// Its stationarity condition: with W(x) = sum_mu [U_mu(x) D_mu(x)^dagger
// - D_mu(x - mu)^dagger U_mu(x - mu)], D = diag(U), the off-diagonal part of W - W^dagger
// vanishes. We report
//   theta = 1/(N_c V) sum_x sum_{i<j} |(W - W^dagger)_ij|^2,
// which for SU(2) is the paper's (1/(N_c V)) sum_x |X_12(x)|^2 exactly.
// Step 1 for subgroup s (rows i, j): with B the 2 x 2 block of a link, the local
// functional sum |(G U)_ii|^2 + |(G U)_jj|^2 + |(U' G^dag)_ii|^2 + |(U' G^dag)_jj|^2 is
// v^dag H v in the first row v of G, with H summed below; the QuadraticProblem solves it
// exactly (for SU(3) too, where the paper's SU(2) formula would be an approximation).
#pragma once
#include "gauge/gauge_kind.h"
#include "gauge/local_problem.h"
#include "math/subgroup.h"
#include "math/unfused.h"

namespace gf {

struct MagGauge {
  static constexpr GaugeKind kind = GaugeKind::mag;
  static constexpr int n_functional_dirs = 4;
  static constexpr bool sweeps_time_links = true;

  template <class C>
  using Problem = QuadraticProblem<C>;

  static constexpr bool linear = false; // the problem is quadratic in g

  // The term of H for subgroup s from one of the site's links (of direction mu, every one
  // counts), given as V = U_mu(x) or V = U_mu(x - mu)^dagger (the down link's term in U'
  // equals the up term in U'^dagger): |g00 b11 + g01 b21|^2 + |g00 b22* - g01 b12*|^2 with b
  // the (i, j) block of V, with unfused products (math/unfused.h) so that every sweep variant
  // forms the same bits.
  template <class C, int N>
  GF_HD static QuadraticProblem<C> subgroup_term(const Matrix<C, N>& v, int /*mu*/, int s) {
    int i, j;
    subgroup_rows<N>(s, i, j);
    const Complex<C> b11 = v.m[i][i], b12 = v.m[i][j], b21 = v.m[j][i], b22 = v.m[j][j];
    return {unfused_norm2(b11) + unfused_norm2(b22), unfused_norm2(b21) + unfused_norm2(b12),
            unfused_conj_mul(b11, b21) - unfused_conj_mul(b12, b22)};
  }

  template <class C, int N>
  GF_HD static QuadraticProblem<C> problem(const Matrix<C, N> (&up)[4],
                                           const Matrix<C, N> (&down)[4], int s) {
    QuadraticProblem<C> h = {C(0), C(0), {C(0), C(0)}};
GF_UNROLL
    for (int mu = 0; mu < 4; ++mu)
      h = h + subgroup_term(up[mu], mu, s) + subgroup_term(adjoint(down[mu]), mu, s);
    return h;
  }

  template <class C, int N>
  GF_HD static C site_functional(const Matrix<C, N> (&up)[4]) {
    C f = C(0);
GF_UNROLL
    for (int mu = 0; mu < 4; ++mu)
GF_UNROLL
      for (int i = 0; i < N; ++i) f += norm2(up[mu].m[i][i]);
    return f;
  }

  template <class C, int N>
  GF_HD static C site_theta(const Matrix<C, N> (&up)[4], const Matrix<C, N> (&down)[4]) {
    Matrix<C, N> w = Matrix<C, N>::zero();
GF_UNROLL
    for (int mu = 0; mu < 4; ++mu)
GF_UNROLL
      for (int i = 0; i < N; ++i)
GF_UNROLL
        for (int k = 0; k < N; ++k) {
          w.m[i][k] += up[mu].m[i][k] * conj(up[mu].m[k][k]);      // U D^dagger
          w.m[i][k] -= conj_mul(down[mu].m[i][i], down[mu].m[i][k]); // D'^dagger U'
        }
    C s = C(0);
GF_UNROLL
    for (int i = 0; i < N; ++i)
GF_UNROLL
      for (int j = i + 1; j < N; ++j) s += norm2(w.m[i][j] - conj(w.m[j][i]));
    return s;
  }
};

} // namespace gf
