// bench_ghost_cg: the time of one conjugate-gradient iteration of the ghost propagator
// (src/measure/ghost_propagator.h) and of one application of the Faddeev-Popov operator, on an
// L^4 SU(2) or SU(3) field in Landau gauge (a smooth random field fixed by FACG to theta < 1e-10),
// on the CPU with the OpenMP threads of the environment, against a streaming triad on arrays as
// large as the link field. Prints every repetition's milliseconds, the minima, the bytes per
// iteration of the model in docs/measurements.md and the bandwidth they give at the minimum.
// Also the process's CPU time per CG iteration (with one thread: the time on the core, which
// other programs sharing it do not inflate). On a machine that others use, quote the minima.
// Usage: bench_ghost_cg L nc iterations reps
#include "../tests/test_fields.h"
#include "measure/faddeev_popov.h"
#include "measure/ghost_propagator.h"
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

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void print_times(const char* name, const std::vector<double>& ms) {
  std::printf("%s:", name);
  for (double m : ms)
    std::printf(" %.3f", m);
  std::vector<double> s = ms;
  std::sort(s.begin(), s.end());
  std::printf("  (min %.3f, median %.3f ms)\n", s.front(), s[s.size() / 2]);
}

} // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: bench_ghost_cg L nc iterations reps\n");
    return 1;
  }
  MpiSession mpi(argc, argv);
  const int l = std::stoi(argv[1]), nc = std::stoi(argv[2]);
  const int iterations = std::stoi(argv[3]), reps = std::stoi(argv[4]);
  const int L[4] = {l, l, l, l};
  HostField u = testing::random_field(L, nc, 1, 0.3);
  {
    EngineOptions eo;
    eo.storage = Storage::full;
    auto e = make_engine(u, eo);
    const FixResult r = run_schedule(*e, GaugeKind::landau, nc, u.geom,
                                     testing::descent_schedule(DescentMethod::facg, 1e-10), {});
    e->download(u, nullptr);
    std::printf("# fixed: theta %.3g after %ld FACG steps\n", r.final.theta, r.iterations);
  }
  char date[64];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S UTC", std::gmtime(&now));
  std::printf("# bench_ghost_cg %d^4 SU(%d), %d threads, %s; %d iterations x %d repetitions\n", l,
              nc, omp_get_max_threads(), date, iterations, reps);
  const FaddeevPopov m(u);
  const int d = m.components();
  const double sites = static_cast<double>(u.local_sites());
  std::vector<double> b(m.size(), 0.0), x, y;
  for (std::int64_t s = 0; s < u.local_sites(); ++s)
    b[s * d] = std::cos(6.283185307179586 * static_cast<double>(u.coords(s).x[0]) / l);
  m.project_out_constants(b);
  conjugate_gradient(m, b, x, 1e-30, 3); // warm-up
  std::vector<double> cg_ms, cg_cpu_ms, apply_ms, triad_ms;
  for (int r = 0; r < reps; ++r) {
    const double c0 = cpu_seconds();
    auto t0 = std::chrono::steady_clock::now();
    const SolveResult res = conjugate_gradient(m, b, x, 1e-30, iterations);
    cg_ms.push_back(1e3 * seconds_since(t0) / res.iterations);
    cg_cpu_ms.push_back(1e3 * (cpu_seconds() - c0) / res.iterations);
    t0 = std::chrono::steady_clock::now();
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
  print_times("cg iteration", cg_ms);
  print_times("cg iteration, process CPU time", cg_cpu_ms);
  print_times("M apply", apply_ms);
  print_times("triad", triad_ms);
  // bytes per site (docs/measurements.md): M reads 4 links and w and writes M w (with the sums
  // of the projection and <p|M p>); x and r are updated with <r|r> (4 vectors read, 2 written),
  // then p (2 read, 1 written)
  const double vec = 8.0 * d, link = 4 * 2 * nc * nc * 8.0;
  const double apply_bytes = link + 2 * vec;
  const double cg_bytes = apply_bytes + 6 * vec + 3 * vec;
  const double triad_bytes = 3 * 8.0 * static_cast<double>(n);
  auto best = [](const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); };
  std::printf("bytes per site: M %.0f, CG iteration %.0f; per iteration %.1f MB\n", apply_bytes,
              cg_bytes, cg_bytes * sites / 1e6);
  std::printf("bandwidth at the minima: CG %.2f GB/s, M %.2f GB/s, triad %.2f GB/s\n",
              cg_bytes * sites / best(cg_ms) / 1e6, apply_bytes * sites / best(apply_ms) / 1e6,
              triad_bytes / best(triad_ms) / 1e6);
  return 0;
}
