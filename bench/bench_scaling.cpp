// bench_scaling: Landau-gauge overrelaxation (omega 1.7, 12-real storage) on the ranks of
// an MPI run, one GPU per rank (or the CPU), for the weak- and strong-scaling tables of
// docs/scaling.md. Every rank holds L_t / ranks time slices. For each precision (single,
// mixed, double) the time per sweep is the slowest rank's, over a fixed number of sweeps
// after a warm-up, between barriers; with several ranks the same run is repeated with
// the halo messages switched off (wrong physics: it measures what the exchange costs).
// Usage: mpirun -np R bench_scaling Lx,Ly,Lz,Lt sweeps [backend [path]]
//   path: auto (default), staged, direct or peer (comm/channel.h).
// Prints one line per run: ranks, lattice, precision, exchange, halo path, ms/sweep,
// sites/s per rank, and GB/s per rank (bytes per site and sweep 16 R sizeof(S), R = 12).
#include "comm/decomposition.h"
#include "comm/mpi_channel.h"
#include "core/error.h"
#include "fix/engine.h"
#include <chrono>
#include <cstdio>
#include <sstream>
#include <string>

using namespace gf;

namespace {

void run(const HostField& u, Precision prec, bool exchange, int sweeps, Backend backend,
         ExchangePath path, const World& world) {
  EngineOptions eo;
  eo.precision = prec;
  eo.backend = backend;
  eo.channel = make_channel(world, path);
  eo.node_rank = world.node_rank();
  eo.exchange = exchange;
  auto e = make_engine(u, eo);
  const UpdateParams up;
  for (int k = 0; k < 10; ++k) e->sweep(up, k);
  e->synchronize();
  world.barrier();
  const auto t0 = std::chrono::steady_clock::now();
  for (int k = 0; k < sweeps; ++k) e->sweep(up, 10 + k);
  e->synchronize();
  const double mine = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double s = world.max(mine);
  const Geometry& g = u.geom;
  const double local_sites = double(g.local_volume());
  const double bytes = 16.0 * 12 * (prec == Precision::double_ ? 8 : 4) * local_sites * sweeps;
  if (world.rank() == 0)
    std::printf("ranks %d lattice %dx%dx%dx%d slices/rank %d precision %-6s exchange %-3s "
                "path %-8s ms/sweep %9.4f Msites/s/rank %9.1f GB/s/rank %8.1f\n",
                world.size(), g.L[0], g.L[1], g.L[2], g.L[3], g.nt, name_of(prec),
                exchange ? "on" : "off", e->halo_path(), 1e3 * s / sweeps,
                local_sites * sweeps / s / 1e6, bytes / s / 1e9);
  std::fflush(stdout);
}

} // namespace

int main(int argc, char** argv) {
  MpiSession mpi(argc, argv);
  const World world;
  try {
    if (argc < 3) throw Error("usage: bench_scaling Lx,Ly,Lz,Lt sweeps [backend [path]]");
    int L[4] = {0, 0, 0, 0};
    std::stringstream dims(argv[1]);
    std::string part;
    for (int d = 0; d < 4 && std::getline(dims, part, ','); ++d) L[d] = std::stoi(part);
    const int sweeps = std::stoi(argv[2]);
    const Backend backend = parse_name<Backend>("backend", argc > 3 ? argv[3] : "cuda");
    const ExchangePath path = parse_name<ExchangePath>("exchange", argc > 4 ? argv[4] : "auto");
    const Geometry slab = decompose_time(L, world);
    // The unit field: the cost of an overrelaxation sweep does not depend on the links.
    HostField u(slab, 3, 4);
#pragma omp parallel for schedule(static)
    for (std::int64_t s = 0; s < u.local_sites(); ++s)
      for (int mu = 0; mu < 4; ++mu) u.set<3>(s, mu, Matrix<double, 3>::identity());
    for (Precision prec : {Precision::single, Precision::mixed, Precision::double_}) {
      run(u, prec, true, sweeps, backend, path, world);
      if (world.size() > 1) run(u, prec, false, sweeps, backend, path, world);
    }
  } catch (const std::exception& ex) {
    world.abort_all(ex.what(), 1);
  }
  return 0;
}
