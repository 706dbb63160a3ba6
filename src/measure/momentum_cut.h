// momentum_cut.h: the Fourier modes n (or spatial separations) a measurement keeps, chosen
// exactly as GLU chooses them (RJHudspith/GLU, src/Cuts/cut_routines.c, get_mom_veclist and
// safe_momenta; docs/measurements.md):
//   - the candidates are n_mu in [-L_mu/2, L_mu/2) for the first `dims` directions (the
//     others 0), in GLU's order: x fastest, each coordinate from -L_mu/2 upwards;
//   - with s = min_{mu<dims} L_mu and r_mu = s/L_mu (GLU's ratios; 1 on an isotropic
//     lattice), n2 = sum_{mu<dims} (r_mu n_mu)^2;
//   - psq:        n2 <= max_n2;
//   - hypercubic: |r_mu n_mu| <= sqrt(max_n2) for every mu < dims;
//   - cylinder:   n2 <= max_n2 and the lattice momentum p_mu = 2 sin(pi n_mu/L_mu) lies within
//                 2 pi w/s of one of the body diagonals (GLU's cylinder_DF, w the width).
// The list is symmetric under n -> -n where every kept n has |n_mu| < L_mu/2.
// The cuts' names: core/option_names.h.
#pragma once
#include "core/option_names.h"
#include <array>
#include <string>
#include <vector>

namespace gf {

using CutKind = gaugefix::Cut;

struct MomentumCut {
  CutKind kind = CutKind::psq;
  int max_n2 = 0;
  double cylinder_width = 1.0;
};

// p = 2 sin(pi n/L), evaluated as GLU evaluates it (2 sin((n 2pi/L)/2)).
double lattice_momentum(int n, int L);

std::vector<std::array<int, 4>> cut_momenta(const int L[4], int dims, const MomentumCut& cut);

} // namespace gf
