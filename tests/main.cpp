// The GoogleTest entry point of every gaugefix test binary. MPI is initialised also without
// a launcher (MpiSession::Start::always), so that the same binary runs as one rank of MPI or,
// under mpirun, as several (the multi-rank suites); World::alone() tests the world without MPI.
#include "comm/world.h"
#include <gtest/gtest.h>

int main(int argc, char** argv) {
  gf::MpiSession mpi(argc, argv, gf::MpiSession::Start::always);
  ::testing::InitGoogleTest(&argc, argv);
  if (gf::World().rank() != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  return RUN_ALL_TESTS();
}
