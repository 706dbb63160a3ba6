#include "measure/gathered_field.h"
#include "core/error.h"
#include <climits>
#include <cstring>

namespace gf {

HostField gather_whole(const HostField& slab, const World& world) {
  HostField whole(Geometry::whole(slab.geom.L), slab.nc, slab.ndir);
  if (world.size() == 1) {
    whole.data = slab.data;
    return whole;
  }
  const std::size_t reals = whole.data.size() * 2;
  if (reals >= std::size_t(INT_MAX))
    throw Error(
        "measurements on several ranks gather the whole field on every rank, which must hold fewer "
        "than 2^31 reals (this one holds " +
        std::to_string(reals) + ")");
  std::vector<double> part(slab.data.size() * 2);
  std::memcpy(part.data(), slab.data.data(), part.size() * sizeof(double));
  const std::vector<double> all = world.gather_concat(part);
  if (all.size() != reals)
    throw Error("gathering the field: the ranks' slabs do not tile the lattice");
  std::memcpy(whole.data.data(), all.data(), reals * sizeof(double));
  return whole;
}

} // namespace gf
