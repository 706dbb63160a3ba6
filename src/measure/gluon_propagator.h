// gluon_propagator.h: the gluon propagator of a gauge-fixed field, exactly as GLU defines it
// (RJHudspith/GLU: src/Cuts/cuts.c, glueprop.c, 3Dcuts.c, pspace_landau.c; docs/measurements.md
// gives the formulas). N = N_c, V = Lx Ly Lz Lt, V3 = Lx Ly Lz.
//   A_mu(x + mu/2) = traceless part of (U_mu(x) - U_mu(x)^dagger)/(2i)   (the linear definition)
//   p_mu = 2 sin(pi n_mu / L_mu)
// Landau (landau_gluon_propagator), with A_mu(p) = e^{i p_mu/2} sum_x e^{i p.x} A_mu(x) (GLU's
// sign: FFTW's backward transform and the half-link phase), P_mu nu = delta_mu nu - p_mu p_nu/p^2:
//   transverse   = c sum_mu,nu P_mu nu Re tr[A_mu(p) A_nu(p)^dagger],
//                  c = 2/((N^2-1) 3 V) for p != 0, 2/((N^2-1) 4 V) at p = 0 (P = 1 there)
//   longitudinal = 2/((N^2-1) V) sum_mu,nu (p_mu p_nu/p^2) Re tr[A_mu(p) A_nu(p)^dagger]
//                  (0 at p = 0)
// for every n of cut_momenta(L, 4, cut) (momentum_cut.h), in that order.
// Coulomb (coulomb_gluon_propagator), equal-time, with the 3-D transform of each time slice
// A_mu(p, t) = sum_xvec e^{i p.xvec} A_mu(xvec, t) and n of cut_momenta(L, 3, cut):
//   spatial  = c sum_t sum_{i<3} tr[A_i(p, t) A_i(p, t)^dagger]
//   temporal = c sum_t tr[A_t(p, t) A_t(p, t)^dagger]
//   c = 2/((N^2-1) 2 V) for p != 0, 2/((N^2-1) 3 V) at p = 0 (GLU's normalisation for both).
// The field is this rank's slab; every rank calls and gets the same rows, bitwise those of one
// rank (collective). The transforms are the separable partial DFT of partial_fourier.h at the
// cut's modes only: A_mu's N^2 - 1 real components per direction transformed in x, y and z on
// each time slice of the slab, the slices' transforms gathered to every rank (Landau: then
// transformed in t; Coulomb: their traces per slice, added in global slice order). Memory
// besides the field: the slab's transforms after x and y (nt Lz |(n_x, n_y)| complex numbers per
// component) and the gathered slices (L_t |(n_x, n_y, n_z)| per component). Deterministic: every
// number is summed by one thread in a fixed order, independent of threads and ranks.
#pragma once
#include "comm/world.h"
#include "lattice/host_field.h"
#include "measure/momentum_cut.h"
#include <array>
#include <vector>

namespace gf {

struct LandauGluonRow {
  std::array<int, 4> n;
  double p2; // sum_mu p_mu^2
  double transverse;
  double longitudinal;
};

struct CoulombGluonRow {
  std::array<int, 3> n;
  double p2; // sum_i p_i^2
  double spatial;
  double temporal;
};

std::vector<LandauGluonRow> landau_gluon_propagator(const HostField& u, const MomentumCut& cut,
                                                    const World& world = World());
std::vector<CoulombGluonRow> coulomb_gluon_propagator(const HostField& u, const MomentumCut& cut,
                                                      const World& world = World());

} // namespace gf
