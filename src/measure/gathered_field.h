// gathered_field.h: the whole lattice of a field that the ranks of a World hold in time slabs
// (comm/decomposition.h), on every rank: the slabs concatenated in rank order, which is the
// order of their time slices. Collective. This is how the gluon propagators
// (gluon_propagator.h) run on several ranks: every rank computes the same result from the same
// whole field, so that the results do not depend on the number of ranks. Memory: the whole field (V
// 4 N^2 complex doubles: 576 bytes a site for SU(3)) on every rank, plus the same again while it is
// gathered; World::gather_concat counts in int, so the field must hold fewer than 2^31 reals.
#pragma once
#include "comm/world.h"
#include "lattice/host_field.h"

namespace gf {

HostField gather_whole(const HostField& slab, const World& world);

} // namespace gf
