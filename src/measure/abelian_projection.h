// abelian_projection.h: the Abelian projection of a field in the maximally Abelian gauge and
// what is measured on it (docs/measurements.md, "Abelian projection and monopoles"), SU(2) and
// SU(3), on the host in double.
//
// Link angles: phi_i = arg U_mu(x)_ii in (-pi, pi] (atan2; 0 where U_ii = 0), Phi = sum_i phi_i,
// k = round(Phi / 2 pi) (half away from zero), and
//   theta^i_mu(x) = phi_i - (Phi - 2 pi k) / N, reduced to (-pi, pi],
// so that sum_i theta^i = 0 mod 2 pi: diag(e^{i theta^i}) is the element of U(1)^{N-1} in
// SU(N) with the phases of the diagonal of U moved by the smallest common angle
// (|Phi - 2 pi k| / N <= pi / N). For SU(2), theta^2 = -theta^1.
// Plaquette angles: theta^i_mn(x) = theta^i_m(x) + theta^i_n(x + m) - theta^i_m(x + n) -
// theta^i_n(x).
//   abelian_plaquette = 1/(6 N V) sum_x sum_{m<n} sum_i cos theta^i_mn(x)
//   abelian polyakov loop of colour i = 1/V3 sum_xvec exp(i sum_t theta^i_t(xvec, t))
// (the angles summed in the order t = 0, 1, ..., L_t - 1 on any number of ranks).
// Monopole currents (DeGrand and Toussaint): each plaquette's angles are split as
// theta^i_mn = thetabar^i_mn + 2 pi n^i_mn with integers n^i_mn (the Dirac strings): for SU(2)
// and SU(3) alike n^i = round(theta^i / 2 pi) and then, if sum_i n^i differs from
// K = round(sum_i theta^i / 2 pi), the n^i whose thetabar^i lies furthest on the side of the
// excess (lowest colour first among equals) moves by one until the sums agree. This is the split
// with sum_i thetabar^i = 0 that has the smallest sum_i (thetabar^i)^2; each thetabar^i is in
// [-pi, pi] except where the constraint moves one, and for SU(2) thetabar^2 = -thetabar^1.
// The current on the dual link from *x = x + (1/2, 1/2, 1/2, 1/2) in direction m,
//   m^i_m(x) = 1/(4 pi) eps_mnrs [thetabar^i_rs(x + m + n) - thetabar^i_rs(x + m)]
//            = -sum_{n != m} eps_mnrs [n^i_rs(x + m + n) - n^i_rs(x + m)]   (r < s, eps_0123 = 1),
// is an integer (the Dirac strings leaving the elementary 3-cube at x + m orthogonal to m),
// sum_i m^i = 0, and it is conserved: sum_m [m^i_m(x) - m^i_m(x - m)] = 0 at every x.
// The density of colour i is the fraction of the 4V dual links with m^i != 0.
// Functions with a World are collective (neighbouring slices from the next and previous
// ranks, sums per slice in slice order) and give bitwise the one rank's result; they throw Error
// unless the field holds whole time slices (the whole lattice on one rank) of 4 links of SU(2)
// or SU(3).
#pragma once
#include "comm/world.h"
#include "lattice/host_field.h"
#include <cstdint>
#include <vector>

namespace gf {

// theta^i_mu(x) of this rank's slab, index ((local site * 4 + mu) * N + i). Throws Error
// unless the field has 4 links of SU(2) or SU(3) per site.
std::vector<double> abelian_angles(const HostField& u);

double abelian_plaquette(const HostField& u, const World& world = World());

// Per colour i = 0 .. N-1.
std::vector<Complex<double>> abelian_polyakov_loops(const HostField& u,
                                                    const World& world = World());

struct MonopoleCurrents {
  int nc = 0;
  std::vector<int> m;           // m^i_mu(x) of this rank's slab, index ((site * 4 + mu) * N + i)
  std::vector<double> density;  // per colour, over the whole lattice
  std::int64_t unconserved = 0; // sites and colours of the lattice where the divergence is not 0
};

MonopoleCurrents monopole_currents(const HostField& u, const World& world = World());

// Everything above in one call, for the measurement's output.
struct AbelianMeasurement {
  double plaquette = 0;
  std::vector<Complex<double>> polyakov; // per colour
  Complex<double> polyakov_mean{0, 0};   // 1/N sum_i: the full Polyakov loop of a diagonal field
  std::vector<double> monopole_density;  // per colour
  bool currents_conserved = false;
  std::int64_t unconserved = 0; // sites and colours where they are not (MonopoleCurrents)
};

AbelianMeasurement measure_abelian(const HostField& u, const World& world = World());

} // namespace gf
