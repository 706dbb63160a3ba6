// random_field.h: gauge fields made on the spot, for the command line's default input and
// for the tests. Each link is reunitarise(1 + eps (R - 1)) with R a random SU(N) element
// drawn from (seed, natural site index, mu, purpose): eps = 0 gives the unit field, small
// eps a smooth field, eps = 1 a hot one. Natural order, double; the whole lattice, or the
// slab of time slices of one rank (the same links as in the whole lattice).
#pragma once
#include "lattice/host_field.h"
#include "math/random.h"

namespace gf {

HostField random_field(const int L[4], int nc, std::uint64_t seed, double eps, RandomPurpose purpose);
HostField random_field(const Geometry& slab, int nc, std::uint64_t seed, double eps,
                       RandomPurpose purpose);

} // namespace gf
