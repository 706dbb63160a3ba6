// rank_failure: the failure path of a multi-rank run. Rank 1 fails (as on an unreadable
// file) while the other ranks wait in a collective; World::abort_all, which main() of
// gaugefix calls on every error, must stop them all with a non-zero exit instead of a hang.
// Registered as a should_fail test under mpirun with a short timeout (tests/meson.build).
#include "comm/world.h"
#include "core/error.h"

int main(int argc, char** argv) {
  gf::MpiSession mpi(argc, argv);
  const gf::World world;
  try {
    if (world.rank() == 1 || world.size() == 1) throw gf::Error("rank_failure: rank 1 fails on purpose");
    world.barrier(); // never completes: rank 1 does not arrive
  } catch (const gf::Error& e) {
    world.abort_all(e.what(), 1);
  }
  return 0;
}
