#include "measure/slab_exchange.h"
#include "core/error.h"
#include <climits>
#include <cstring>
#include <string>

namespace gf {

void exchange_boundary_slices(const World& world, const void* first, const void* last,
                              std::size_t bytes, void* before, void* after) {
  if (world.size() == 1) {
    std::memcpy(before, last, bytes);
    std::memcpy(after, first, bytes);
    return;
  }
  if (bytes > static_cast<std::size_t>(INT_MAX))
    throw Error("slice exchange: a time slice of " + std::to_string(bytes) +
                " bytes is larger than one MPI message (2^31 - 1 bytes)");
  const int n = static_cast<int>(bytes);
  // first slice backwards (it is the previous rank's `after`), last slice forwards
  MPI_Sendrecv(first, n, MPI_BYTE, world.prev(), 81, after, n, MPI_BYTE, world.next(), 81,
               world.comm(), MPI_STATUS_IGNORE);
  MPI_Sendrecv(last, n, MPI_BYTE, world.next(), 82, before, n, MPI_BYTE, world.prev(), 82,
               world.comm(), MPI_STATUS_IGNORE);
}

} // namespace gf
