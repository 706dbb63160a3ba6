// bench_cpu_sweep: the CPU sweep's variants (scalar, SIMD widths, OpenMP schedules) on one
// field, each timed `reps` times over `sweeps` sweeps after two warm-up sweeps; prints every
// repetition's wall-clock ms per sweep, the minimum and the median, the minimum of the
// process's CPU time per sweep (with one thread: the time on the core, which other programs
// sharing it do not inflate), and a checksum of the links after the warm-up (equal for every
// variant: they give the same bits). On a machine that others use, quote the minima.
// Usage: bench_cpu_sweep L gauge kind precision storage sweeps reps [variant ...]
//   variant: default (the engine's choice without a tuner) or launch parameters as the tune
//   cache writes them, e.g. "variant=simd8 block=0 minb=0 carveout=-1 loads=cache"
//   (block 0: static schedule; k: dynamic chunks of k sites). Without variants: default.
//   The lattice is L^4, SU(3), a random gauge copy of a smooth field.
// Builds against an earlier gaugefix too (only `default` there): the variant parsing needs
// fix/simd_sweep.h.
#include "../tests/test_fields.h"
#include "fix/engine.h"
#include "fix/random_transform.h"
#include "tuning/device_identity.h"
#include "tuning/tune_key.h"
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <omp.h>
#include <string>
#include <vector>
#if __has_include("fix/simd_sweep.h")
#include "fix/simd_sweep.h"
#define GF_BENCH_VARIANTS 1
#endif

using namespace gf;

double cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

int main(int argc, char** argv) {
  if (argc < 8) {
    std::fprintf(
        stderr,
        "usage: bench_cpu_sweep L gauge kind precision storage sweeps reps [variant ...]\n");
    return 1;
  }
  const int l = std::stoi(argv[1]);
  const GaugeKind gauge = parse_name<GaugeKind>("gauge", argv[2]);
  UpdateParams up;
  up.kind = parse_update_kind(argv[3]);
  up.temperature = 0.5;
  const Precision prec = parse_name<Precision>("precision", argv[4]);
  const int storage = std::stoi(argv[5]);
  const int sweeps = std::stoi(argv[6]), reps = std::stoi(argv[7]);
  std::vector<std::string> variants;
  for (int i = 8; i < argc; ++i)
    variants.push_back(argv[i]);
  if (variants.empty()) variants.push_back("default");

  const int L[4] = {l, l, l, l};
  HostField u = testing::random_field(L, 3, 1, 0.4);
  random_gauge_transform(u, 2);
  char date[64];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S UTC", std::gmtime(&now));
  std::printf("# bench_cpu_sweep %s, %d threads, build: %s, %s\n", host_identity().name.c_str(),
              omp_get_max_threads(), compiled_build_options().c_str(), date);
  std::printf("# %d^4 SU(3) %s %s %s storage %d: %d sweeps x %d repetitions per variant\n", l,
              argv[2], argv[3], argv[4], storage, sweeps, reps);
  for (const std::string& name : variants) {
    EngineOptions eo;
    eo.gauge = gauge;
    eo.precision = prec;
    eo.storage = parse_storage(storage);
    auto e = make_engine(u, eo);
    if (name != "default") {
#ifdef GF_BENCH_VARIANTS
      e->set_sweep_variant(sweep_variant(parse_launch_params(name)));
#else
      std::fprintf(stderr, "this build offers the default variant only\n");
      return 1;
#endif
    }
    std::uint32_t k = 0;
    for (int w = 0; w < 2; ++w)
      e->sweep(up, k++);
    HostField after = u;
    e->download(after, nullptr);
    double checksum = 0;
    for (const auto& z : after.data)
      checksum += z.re * 0.5 + z.im * 0.25;
    std::vector<double> ms, cpu_ms;
    for (int r = 0; r < reps; ++r) {
      const double c0 = cpu_seconds();
      const auto t0 = std::chrono::steady_clock::now();
      for (int s = 0; s < sweeps; ++s)
        e->sweep(up, k++);
      e->synchronize();
      ms.push_back(1e3 *
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() /
                   sweeps);
      cpu_ms.push_back(1e3 * (cpu_seconds() - c0) / sweeps);
    }
    std::printf("%s:", name.c_str());
    for (double m : ms)
      std::printf(" %.2f", m);
    std::vector<double> sorted = ms;
    std::sort(sorted.begin(), sorted.end());
    std::printf("\n  min %.2f ms/sweep  median %.2f  cpu min %.2f  checksum %.17g\n",
                sorted.front(), sorted[sorted.size() / 2],
                *std::min_element(cpu_ms.begin(), cpu_ms.end()), checksum);
    std::fflush(stdout);
  }
  return 0;
}
