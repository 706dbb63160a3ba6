// bench_ghost_cg: the time of one conjugate-gradient iteration of the ghost propagator
// (src/measure/ghost_cg.h) on an L^4 SU(2) or SU(3) field in Landau gauge (a smooth random field
// fixed by FACG to theta < 1e-10), on the CPU with the OpenMP threads of the environment or on
// the GPU (backend cuda), against the streaming rate measured in the same run: on the CPU a
// triad on arrays as large as the link field, on the GPU stream_bandwidth_gbs (an in-place read
// and write). Prints every repetition's milliseconds, the minima, the bytes per site of one
// iteration (ghost_cg_bytes_per_site, docs/measurements.md) and the bandwidth and fraction of
// the streaming rate they give at the minimum. The iterations are timed without each solve's
// start (time_ghost_cg: the source's copy to the backend is not an iteration's work). On the
// CPU also the time of one application of the host operator (FaddeevPopov::apply, Lanczos's)
// and the process's CPU time per CG iteration (with one thread: the time on the core, which
// other programs sharing it do not inflate); on the GPU also the time per iteration of two solves
// side by side (iterate_together, as the ghost propagator runs them on one GPU). On a machine
// that others use, quote the minima.
// Usage: bench_ghost_cg L nc iterations reps [cpu|cuda]
#include "../tests/test_fields.h"
#include "measure/faddeev_popov.h"
#include "measure/ghost_cg.h"
#include "measure/ghost_propagator.h"
#ifdef GAUGEFIX_HAVE_CUDA
#include "backend/stream_bandwidth.h"
#endif
#include "bench_timing.h"
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <omp.h>
#include <string>
#include <vector>

using namespace gf;

namespace {

double cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

} // namespace

int main(int argc, char** argv) {
  if (argc != 5 && argc != 6) {
    std::fprintf(stderr, "usage: bench_ghost_cg L nc iterations reps [cpu|cuda]\n");
    return 1;
  }
  MpiSession mpi(argc, argv);
  const int l = std::stoi(argv[1]), nc = std::stoi(argv[2]);
  const int iterations = std::stoi(argv[3]), reps = std::stoi(argv[4]);
  const std::string backend = argc == 6 ? argv[5] : "cpu";
  if (l < 2 || (nc != 2 && nc != 3) || iterations < 1 || reps < 1) {
    std::fprintf(stderr,
                 "bench_ghost_cg: L %d (at least 2), nc %d (2 or 3), iterations %d and "
                 "reps %d (at least 1)\n",
                 l, nc, iterations, reps);
    return 1;
  }
  if (backend != "cpu" && backend != "cuda") {
    std::fprintf(stderr, "bench_ghost_cg: backend '%s' (cpu or cuda)\n", backend.c_str());
    return 1;
  }
  const bool gpu = backend == "cuda";
  if (gpu && !cuda_available()) {
    std::fprintf(stderr, "bench_ghost_cg: backend cuda, but no CUDA device (or no CUDA build)\n");
    return 1;
  }
  const int L[4] = {l, l, l, l};
  HostField u = testing::random_field(L, nc, 1, 0.3);
  {
    EngineOptions eo;
    eo.storage = Storage::full;
    eo.backend = gpu ? Backend::cuda : Backend::cpu;
    auto e = make_engine(u, eo);
    const FixResult r = run_schedule(*e, GaugeKind::landau, nc, u.geom,
                                     testing::descent_schedule(DescentMethod::facg, 1e-10), {});
    e->download(u, nullptr);
    std::printf("# fixed: theta %.3g after %ld FACG steps\n", r.final.theta, r.iterations);
  }
  char date[64];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S UTC", std::gmtime(&now));
  std::printf("# bench_ghost_cg %d^4 SU(%d), %s, %d threads, %s; %d iterations x %d repetitions\n",
              l, nc, backend.c_str(), omp_get_max_threads(), date, iterations, reps);
  const FaddeevPopov m(u);
  const int d = m.components();
  const double sites = static_cast<double>(u.local_sites());
  std::vector<double> b(m.size(), 0.0), y;
  for (std::int64_t s = 0; s < u.local_sites(); ++s)
    b[s * d] = std::cos(6.283185307179586 * static_cast<double>(u.coords(s).x[0]) / l);
  m.project_out_constants(b);
  auto best = [](const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); };
  const double cg_bytes = ghost_cg_bytes_per_site(nc) * sites;
  std::vector<double> cg_ms, pair_ms;
  double stream_gbs = 0;
  if (gpu) {
#ifdef GAUGEFIX_HAVE_CUDA
    for (double sec : time_ghost_cg_cuda(m, b, iterations, reps, 1))
      cg_ms.push_back(1e3 * sec);
    for (double sec : time_ghost_cg_cuda(m, b, iterations, reps, 2))
      pair_ms.push_back(1e3 * sec);
    stream_gbs = stream_bandwidth_gbs();
    std::printf("# %s; streaming in-place read+write (same run): %.1f GB/s\n", cuda_device_name(),
                stream_gbs);
#endif
  } else {
    const double c0 = cpu_seconds();
    for (double sec : time_ghost_cg<HostExec>(m, b, iterations, reps))
      cg_ms.push_back(1e3 * sec);
    std::vector<double> apply_ms, triad_ms;
    const double cg_cpu_ms = 1e3 * (cpu_seconds() - c0) / (reps * iterations + 2.0); // 2: warm-up
    for (int r = 0; r < reps; ++r) {
      const auto t0 = std::chrono::steady_clock::now();
      for (int k = 0; k < iterations; ++k)
        m.apply(b, y);
      apply_ms.push_back(1e3 * seconds_since(t0) / iterations);
    }
    // streaming reference: a[i] = b[i] + s c[i] over arrays of the link field's size
    const std::size_t n = u.data.size() * 2;
    std::vector<double> ta(n, 0.0), tb(n, 1.0), tc(n, 2.0);
    for (int r = 0; r < reps; ++r) {
      const auto t0 = std::chrono::steady_clock::now();
      for (int k = 0; k < iterations; ++k) {
        const double s = 1e-3 * k;
#pragma omp parallel for schedule(static)
        for (std::size_t i = 0; i < n; ++i)
          ta[i] = tb[i] + s * tc[i];
      }
      triad_ms.push_back(1e3 * seconds_since(t0) / iterations);
    }
    print_times("M apply (host operator)", apply_ms, 3);
    print_times("triad", triad_ms, 3);
    std::printf("cg iteration, process CPU time (warm-up included): %.3f ms\n", cg_cpu_ms);
    stream_gbs = 3 * 8.0 * static_cast<double>(n) / best(triad_ms) / 1e6;
  }
  std::printf("bytes per site of a CG iteration %.0f; per iteration %.1f MB\n",
              ghost_cg_bytes_per_site(nc), cg_bytes / 1e6);
  auto report = [&](const char* what, const std::vector<double>& ms) {
    if (ms.empty()) return;
    print_times(what, ms, 3);
    const double gbs = cg_bytes / best(ms) / 1e6;
    std::printf("seconds per CG iteration (%s) %.4g; %.2f GB/s, %.3f of the streaming %.1f GB/s\n",
                what, 1e-3 * best(ms), gbs, stream_gbs > 0 ? gbs / stream_gbs : 0.0, stream_gbs);
  };
  report("cg iteration", cg_ms);
  report("cg iteration, two solves side by side", pair_ms);
  return 0;
}
