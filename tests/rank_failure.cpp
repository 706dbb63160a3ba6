// rank_failure [LOG_FILE]: the failure path of a multi-rank run. Rank 1 fails (as on an
// unreadable file) while the other ranks wait in a collective; World::abort_all, which main()
// of gaugefix calls on every error, must stop them all with its exit status (1) instead of a
// hang, and print the error once, from rank 1. With LOG_FILE every rank opens it as
// --log-file does (log::open_file, then a barrier): rank 0 writes it, and rank 1's error must
// be appended to it. Run under mpirun by tests/cli_ranks.sh (case rank_failure).
#include "comm/world.h"
#include "core/error.h"
#include "core/log.h"

int main(int argc, char** argv) {
  gf::MpiSession mpi(argc, argv);
  const gf::World world;
  try {
    if (argc > 1) {
      gf::log::open_file(argv[1]);
      world.barrier();
      gf::log::result("rank_failure: started on {} ranks", world.size());
    }
    if (world.rank() == 1 || world.size() == 1)
      throw gf::Error("rank_failure: rank 1 fails on purpose");
    world.barrier(); // never completes: rank 1 does not arrive
  } catch (const gf::Error& e) {
    world.abort_all(e.what(), 1);
  }
  return 0;
}
