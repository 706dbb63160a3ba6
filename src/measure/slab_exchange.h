// slab_exchange.h: the time slices just outside a rank's slab, for computations on the host
// that look one slice backward and forward (the Faddeev-Popov operator's neighbours, the
// monopole currents' divergence). `first` and `last` are this rank's first and last slice,
// `bytes` long each; `before` receives the previous rank's last slice (global t0 - 1) and
// `after` the next rank's first slice (global t0 + nt), periodically in time. On one rank
// (World::size() == 1) they are copies of this rank's own last and first slice, without MPI.
// Collective: every rank of `world` calls it with the same `bytes`.
#pragma once
#include "comm/world.h"
#include <cstddef>

namespace gf {

void exchange_boundary_slices(const World& world, const void* first, const void* last,
                              std::size_t bytes, void* before, void* after);

} // namespace gf
