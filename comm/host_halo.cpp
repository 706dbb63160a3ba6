#include "comm/host_halo.h"
#include <algorithm>
#include <cstring>

namespace gf {

HostField next_slice(const HostField& slab, const World& world) {
  const Geometry& g = slab.geom;
  const int t_next = (g.t0 + g.nt) % g.L[3];
  HostField out(Geometry::slab(g.L, t_next, 1, false), slab.nc, slab.ndir);
  const std::size_t slice = out.data.size();
  if (world.size() == 1) {
    std::copy_n(slab.data.begin(), slice, out.data.begin()); // periodic: own slice 0
    return out;
  }
  // Send my first slice backwards, receive the next rank's first slice.
  const int bytes = static_cast<int>(slice * sizeof(Complex<double>));
  MPI_Sendrecv(slab.data.data(), bytes, MPI_BYTE, world.prev(), 71, out.data.data(), bytes,
               MPI_BYTE, world.next(), 71, world.comm(), MPI_STATUS_IGNORE);
  return out;
}

} // namespace gf
