// reference_fixer.h: the slow, obviously correct oracle (test code only). Full N x N
// matrices in natural order, sites visited in plain loops, every formula written in
// matrix form straight from the paper:
//   K(x) = sum_mu [U_mu(x) + U_mu(x - mu)^dagger];  for each subgroup the 2 x 2 block W of
//   K is projected onto span SU(2), P = (W + cof W) / 2, and the local maximum is
//   g = P^dagger / sqrt(det P^dagger) (the paper's Eq. for SU(2)); overrelaxation takes
//   g = a0 + i a.s to a0 + b i a.s, normalised (first order in the paper's sense).
//   theta and F from A_mu(x) = traceless part of (U - U^dagger) / 2i.
#pragma once
#include "lattice/host_field.h"
#include "math/su_n.h"
#include <cmath>

namespace gf::reference {

template <int N>
using M = Matrix<double, N>;

inline void subgroup_pair(int n, int s, int& i, int& j) {
  const int pairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
  i = n == 2 ? 0 : pairs[s][0];
  j = n == 2 ? 1 : pairs[s][1];
}

template <int N>
M<N> embed2(const Matrix<double, 2>& g, int i, int j) {
  M<N> e = M<N>::identity();
  e.m[i][i] = g.m[0][0];
  e.m[i][j] = g.m[0][1];
  e.m[j][i] = g.m[1][0];
  e.m[j][j] = g.m[1][1];
  return e;
}

// g maximising Re tr(g W) over SU(2), then raised to omega to first order.
inline Matrix<double, 2> local_optimum(const Matrix<double, 2>& w, double omega) {
  Matrix<double, 2> cof; // (adj W)^dagger
  cof.m[0][0] = conj(w.m[1][1]);
  cof.m[0][1] = -conj(w.m[1][0]);
  cof.m[1][0] = -conj(w.m[0][1]);
  cof.m[1][1] = conj(w.m[0][0]);
  Matrix<double, 2> p = w + cof;
  Matrix<double, 2> g = adjoint(p);
  const double det = determinant(g).re; // real and positive for span SU(2)
  for (auto& row : g.m)
    for (auto& z : row) z = (1.0 / std::sqrt(det)) * z;
  const double a0 = trace(g).re / 2;
  const double a2 = 1 - a0 * a0;
  const double b = (omega * a0 * a0 + a2) / (a0 * a0 + a2);
  const double c = 1 / std::sqrt(a0 * a0 + b * b * a2);
  Matrix<double, 2> r;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      const Complex<double> vec = g.m[i][j] - Complex<double>{i == j ? a0 : 0.0, 0.0};
      r.m[i][j] = c * (Complex<double>{i == j ? a0 : 0.0, 0.0} + b * vec);
    }
  return r;
}

// One even/odd overrelaxation sweep for Landau (ndirs = 4) or Coulomb (ndirs = 3) gauge.
template <int N>
void sweep(HostField& u, int ndirs, double omega) {
  for (int parity = 0; parity < 2; ++parity)
    for (std::int64_t s = 0; s < u.local_sites(); ++s) {
      const SiteCoords c = u.coords(s);
      if (((c.x[0] + c.x[1] + c.x[2] + c.x[3]) & 1) != parity) continue;
      std::int64_t back[4];
      for (int mu = 0; mu < 4; ++mu) back[mu] = u.local_index(u.geom.backward(c, mu));
      for (int sg = 0; sg < (N == 2 ? 1 : 3); ++sg) {
        M<N> k = M<N>::zero();
        for (int mu = 0; mu < ndirs; ++mu) k = k + u.get<N>(s, mu) + adjoint(u.get<N>(back[mu], mu));
        int i, j;
        subgroup_pair(N, sg, i, j);
        Matrix<double, 2> w;
        w.m[0][0] = k.m[i][i];
        w.m[0][1] = k.m[i][j];
        w.m[1][0] = k.m[j][i];
        w.m[1][1] = k.m[j][j];
        const M<N> g = embed2<N>(local_optimum(w, omega), i, j);
        for (int mu = 0; mu < 4; ++mu) {
          u.set<N>(s, mu, g * u.get<N>(s, mu));
          u.set<N>(back[mu], mu, u.get<N>(back[mu], mu) * adjoint(g));
        }
      }
    }
}

template <int N>
M<N> algebra(const M<N>& u) {
  const M<N> d = u - adjoint(u);
  M<N> a;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) a.m[i][j] = {d.m[i][j].im / 2, -d.m[i][j].re / 2}; // d / 2i
  Complex<double> tr = trace(a);
  for (int i = 0; i < N; ++i) a.m[i][i] = a.m[i][i] - (1.0 / N) * tr;
  return a;
}

// theta = 1/(N V) sum_x tr[Delta Delta^dagger]; F = 1/(N ndirs V) sum Re tr U.
template <int N>
void measure(const HostField& u, int ndirs, double& functional, double& theta) {
  functional = theta = 0;
  for (std::int64_t s = 0; s < u.local_sites(); ++s) {
    const SiteCoords c = u.coords(s);
    M<N> delta = M<N>::zero();
    for (int mu = 0; mu < ndirs; ++mu) {
      functional += trace(u.get<N>(s, mu)).re;
      delta = delta + algebra<N>(u.get<N>(s, mu)) -
              algebra<N>(u.get<N>(u.local_index(u.geom.backward(c, mu)), mu));
    }
    theta += trace(delta * adjoint(delta)).re;
  }
  const double v = static_cast<double>(u.local_sites());
  functional /= N * ndirs * v;
  theta /= N * v;
}

} // namespace gf::reference
