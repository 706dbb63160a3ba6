// momentum.h: the lattice momenta of the Fourier preconditioner, host and device.
// A field f(x) on extents L_mu has the discrete transform
//   f~(k) = sum_x exp(-2 pi i sum_mu k_mu x_mu / L_mu) f(x),   0 <= k_mu < L_mu
// (FFTW's and cuFFT's forward sign; the backward transform has the opposite sign and no
// factor, so that backward(forward(f)) = V f). The squared lattice momentum is
//   p^2(k) = sum_mu 4 sin^2(pi k_mu / L_mu)      (= sum_mu (2 - 2 cos(2 pi k_mu / L_mu))),
// the eigenvalue of minus the lattice Laplacian sum_mu [f(x + mu) + f(x - mu) - 2 f(x)] on the
// plane wave exp(2 pi i k.x / L). Every extent is even, so p^2_max = 4 d, reached at
// k_mu = L_mu / 2 in each of the d directions (d = 4 for Landau, 3 for Coulomb).
// The preconditioner multiplies f~(k) by p^2_max / p^2(k), and by 0 at k = 0: the zero mode of
// the gradient, sum_x Delta(x), vanishes identically (Delta is a lattice divergence), so it
// is removed rather than amplified.
#pragma once
#include "core/qualifiers.h"
#include <cmath>

namespace gf {

// 4 sin^2(pi k / L)
GF_INLINE double momentum2_1d(int k, int extent) {
  const double s = std::sin(3.14159265358979323846 * k / extent);
  return 4.0 * s * s;
}

// p^2_max / p^2(k) over the first `dims` directions of k and L; 0 at k = 0.
GF_INLINE double preconditioner_weight(const int (&k)[4], const int (&L)[4], int dims) {
  double p2 = 0;
  for (int mu = 0; mu < dims; ++mu)
    p2 += momentum2_1d(k[mu], L[mu]);
  return p2 > 0 ? 4.0 * dims / p2 : 0.0;
}

// The terms 4 sin^2(pi k / L_mu) of every direction, [L_0 | L_1 | L_2 | L_3] (computed once,
// by the backend that reads them, with momentum2_1d), and the weights from them: the same
// sums in the same order as preconditioner_weight, so the same numbers.
struct MomentumTerms {
  const double* terms;
  int L[4];

  GF_HD int offset(int mu) const {
    int o = 0;
    for (int nu = 0; nu < mu; ++nu)
      o += L[nu];
    return o;
  }
  GF_HD double weight(const int (&k)[4], int dims) const {
    double p2 = 0;
    for (int mu = 0; mu < dims; ++mu)
      p2 += terms[offset(mu) + k[mu]];
    return p2 > 0 ? 4.0 * dims / p2 : 0.0;
  }
};

} // namespace gf
