// bench_exchange: the inputs of the exchange model in docs/scaling.md, measured for the
// message sizes of a half-sweep's halo (one parity of one slice's temporal links,
// R = 12 reals per link): pinned host <-> device copy bandwidth on this rank's GPU, and
// the MPI bandwidth between ranks 0 and 1 (ping-pong of host buffers; half the round trip).
// Usage: mpirun -np 2 bench_exchange [L (spatial extent), default 64]
#include "comm/world.h"
#include "backend/stream_bandwidth.h"
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

using namespace gf;

int main(int argc, char** argv) {
  MpiSession mpi(argc, argv);
  const World world;
  const int l = argc > 1 ? std::stoi(argv[1]) : 64;
  if (world.rank() == 0) std::printf("# bench_exchange  ranks %d  device %s\n", world.size(), cuda_device_name());
  for (int bytes_per_real : {4, 8}) {
    const double v3h = double(l) * l * l / 2;
    const double message = 12 * v3h * bytes_per_real; // one parity, mu = t, 12 reals
    const double mib = message / (1 << 20);
    const double d2h = pinned_copy_gbs(mib, false), h2d = pinned_copy_gbs(mib, true);
    double mpi_gbs = 0;
    if (world.size() >= 2 && world.rank() < 2) {
      std::vector<char> buf(static_cast<std::size_t>(message));
      const int peer = 1 - world.rank(), reps = 20;
      MPI_Barrier(MPI_COMM_WORLD);
      const auto t0 = std::chrono::steady_clock::now();
      for (int r = 0; r < reps; ++r) {
        if (world.rank() == 0) {
          MPI_Send(buf.data(), int(buf.size()), MPI_BYTE, peer, 1, MPI_COMM_WORLD);
          MPI_Recv(buf.data(), int(buf.size()), MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
          MPI_Recv(buf.data(), int(buf.size()), MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          MPI_Send(buf.data(), int(buf.size()), MPI_BYTE, peer, 1, MPI_COMM_WORLD);
        }
      }
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      mpi_gbs = 2.0 * reps * message / s / 1e9;
    }
    if (world.rank() == 0)
      std::printf("L %d  bytes/real %d  message %.3f MB  d2h %.1f GB/s  h2d %.1f GB/s  mpi %.1f GB/s\n",
                  l, bytes_per_real, message / 1e6, d2h, h2d, mpi_gbs);
  }
  return 0;
}
