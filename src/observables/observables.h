// observables.h: gauge-invariant and diagnostic quantities of a natural-order field,
// computed on the host in double precision (the conventions of docs/conventions.md):
//   plaquette   (1/6V) sum_x sum_{mu<nu} Re tr P_mu_nu(x) / N_c
//   link_trace  (1/4V) sum_{x,mu} Re tr U_mu(x) / N_c
//   polyakov    (1/V3) sum_xvec tr prod_t U_t(xvec, t) / N_c   (complex)
//   max_unitarity_violation  max over links of unitarity_deviation (su_n.h); a link with a
//                            NaN counts as infinitely far from SU(N)
// The field is this rank's slab of the lattice (the whole lattice on one rank); every rank
// of `world` calls the function and gets the global value. Sums are formed per time slice
// and added in slice order, so the results do not depend on the number of threads or on
// the decomposition.
#pragma once
#include "comm/world.h"
#include "lattice/host_field.h"

namespace gf {

double plaquette(const HostField& u, const World& world = World());
double link_trace(const HostField& u, const World& world = World());
Complex<double> polyakov_loop(const HostField& u, const World& world = World());
double max_unitarity_violation(const HostField& u, const World& world = World());
// Reprojects every local link to SU(N) (used on reading single-precision files).
void reunitarize_all(HostField& u);

} // namespace gf
