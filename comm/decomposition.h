// decomposition.h: how the time direction is split over the ranks of a World.
// Rank r holds the time slices [r nt, (r + 1) nt) with nt = L_t / ranks; with more than
// one rank every slab has one halo slice on each side (Geometry::halo), filled by the
// communicator. Limits (checked, with an Error naming them): positive extents whose product
// fits 64 bits, L_t divisible by the number of ranks, and at least 2 time slices per rank,
// so that a rank's first and last slice, which are updated before the exchange, are
// different slices.
#pragma once
#include "comm/world.h"
#include "lattice/geometry.h"

namespace gf {

constexpr int min_slices_per_rank = 2;

Geometry decompose_time(const int L[4], const World& world);

} // namespace gf
