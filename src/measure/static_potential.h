// static_potential.h: the static quark-antiquark potential from the temporal Wilson lines of
// a Coulomb-gauge-fixed field (GLU's STATIC_POTENTIAL, RJHudspith/GLU src/Field/POLY.c, with
// its normalisation: no 1/N_c, summed over space and averaged over time; docs/measurements.md).
//   W(x, T) = U_t(x) U_t(x + t) ... U_t(x + (T-1) t)                    (periodic in t)
//   C(r, T) = 1/(d L_t) sum_{i} sum_x Re tr[W(x, T) W(x + r e_i, T)^dagger]
//   V(r, T) = log(C(r, T) / C(r, T + 1))
// for on-axis separations r = 0, 1, ..., max_i L_i/2 along the spatial axes i with
// r <= L_i/2 (d of them), and T = 1, ..., max_t (1 <= max_t < L_t: C(r, max_t + 1) is
// computed for V). C(0, T) = N_c V3. Rows ordered by T, then r. V is NaN where the ratio is not
// positive (a noisy correlator at large T).
// The field is this rank's slab (whole time slices without halo, the whole lattice on one
// rank); every rank calls and gets the same rows. The temporal links of the max_t slices after
// the slab come from the next ranks (passed on one rank backward at a time, by slices:
// slab_exchange.h), the lines W are built on the slab, and the sums are formed per time slice
// and added in global slice order: the result does not depend on the number of threads or
// ranks. Memory: the slab's temporal links and those of the next ceil(max_t / nt) slabs, and W
// on the slab. Throws gf::Error naming max_t (--max-t) where it is out of range, and for a
// field that is not a slab of whole time slices.
#pragma once
#include "comm/world.h"
#include "lattice/host_field.h"
#include <vector>

namespace gf {

struct StaticPotentialRow {
  int r;
  int t;
  double correlator;
  double potential;
};

std::vector<StaticPotentialRow> static_potential(const HostField& u, int max_t,
                                                 const World& world = World());

} // namespace gf
