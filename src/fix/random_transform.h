// random_transform.h: a random point on the gauge orbit. U_mu(x) <- g(x) U_mu(x)
// g(x + mu)^dagger with g(x) a random SU(N) element drawn from (seed, global site): any
// rank can compute g on its neighbour's slices, so the result does not depend on the
// decomposition. Works on natural-order fields holding whole time slices.
#pragma once
#include "comm/world.h"
#include "lattice/host_field.h"
#include <cstdint>

namespace gf {

// Returns g(x) (ndir = 1) for the slab of `links`; applies it to the links.
HostField random_gauge_transform(HostField& links, std::uint64_t seed);
// U_mu(x) <- g(x) U_mu(x) g(x + mu)^dagger for a given g on the same slab as the links;
// g(x + t) of the slice after the slab comes from the next rank of `world` (collective).
void apply_gauge_transform(HostField& links, const HostField& g, const World& world);
// g(x) <- g(x) first(x): the transformation `first` followed by g (same slab, ndir = 1).
void compose_gauge_transforms(HostField& g, const HostField& first);

} // namespace gf
