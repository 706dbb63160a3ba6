// host_halo.h: the time slice that follows a rank's slab of a natural-order HostField,
// fetched from the next rank (the slab's own first slice when one rank holds the whole
// lattice). Host-side computations that look one step forward in time (the plaquette,
// a gauge transformation of the temporal links) use it.
#pragma once
#include "comm/world.h"
#include "lattice/host_field.h"

namespace gf {

// A HostField holding the one global slice (t0 + nt) mod L_t.
HostField next_slice(const HostField& slab, const World& world);

} // namespace gf
