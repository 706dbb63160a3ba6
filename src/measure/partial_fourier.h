// partial_fourier.h: the Fourier transform of real fields on a rank's time slab at a few
// momenta only (the gluon propagators' cuts, gluon_propagator.h), separably, direction by
// direction:
//   f_c(n) = sum_x e^{i 2 pi sum_mu n_mu x_mu / L_mu} a_c(x)    (FFTW's backward sign,
//                                                                 unnormalised)
// for the C real components a_c of every site and the modes n of a list (n_mu in
// [-L_mu/2, L_mu/2)). Within each time slice of the slab (slice_transforms): x for the distinct
// n_x of the list, then y for its distinct (n_x, n_y), then z for its distinct (n_x, n_y, n_z)
// (ModePrefixes); then t (time_transforms) over the slices of every rank, gathered in slice
// order (gather_slices). A prefix whose negative comes earlier in its list is not summed but
// conjugated from it (the fields are real), and each sum over x, y or z pairs the terms x and
// L - x (cos times their sum, i sin times their difference). Every number is summed by one thread
// in coordinate order, so the results depend neither on the number of threads nor on the
// decomposition. Layout: one complex C-vector is 2C doubles, the C real parts, then the C imaginary
// parts.
#pragma once
#include "comm/world.h"
#include "lattice/geometry.h"
#include <array>
#include <cstdint>
#include <functional>
#include <vector>

namespace gf {

// The prefixes of a list of modes that the stages transform, each a parent in the level
// before (-1 for n_x), its last coordinate and the earlier prefix that is its negative (-1
// where there is none: it is summed).
struct ModePrefix {
  int parent;
  int n;
  int mirror;
};

struct ModePrefixes {
  std::vector<ModePrefix> x, xy, xyz;
  std::vector<int> spatial_of_mode; // each mode's index in xyz
  explicit ModePrefixes(const std::vector<std::array<int, 4>>& modes);
};

// Fills out[k * C + c], k < count, with the components of the local sites site .. site + count - 1
// (one line in x).
using LineComponents = std::function<void(std::int64_t site, int count, double* out)>;

// For every local slice t of the slab g and every spatial prefix s (prefixes.xyz), the
// spatial transform sum_xvec e^{i 2 pi n.xvec/L} a_c(xvec, t) of the C components: nt * |xyz|
// complex C-vectors, slice-major.
std::vector<double> slice_transforms(const Geometry& g, const ModePrefixes& prefixes,
                                     int components, const LineComponents& line);

// slice_transforms of every rank concatenated in rank order, i.e. for the L_t slices of the
// lattice in order. Collective.
std::vector<double> gather_slices(const std::vector<double>& mine, const World& world);

// For every mode, sum_t e^{i 2 pi n_t t/L_t} of the gathered slice transforms (t = 0 .. L_t - 1
// in order): |modes| complex C-vectors.
std::vector<double> time_transforms(const std::vector<std::array<int, 4>>& modes,
                                    const ModePrefixes& prefixes, int lt, int components,
                                    const std::vector<double>& slices);

} // namespace gf
