// bench_landau: Landau-gauge overrelaxation on one GPU (or the CPU), per precision, timed
// over a fixed number of sweeps after a warm-up, and quoted against the streaming
// bandwidth measured in the same run. Prints one table.
//   flop per site and sweep: 2274 (the paper's count for SU(3) overrelaxation);
//   bytes per site and sweep: 2 half-sweeps x 8 links x R reals x sizeof(storage) x 2
//   (read + write) / 2 sites-per-half-sweep = 16 R sizeof(S)  (R = 12 compressed).
// Usage: bench_landau [L] [sweeps] [backend]
#include "fix/random_transform.h"
#include "fix/schedule.h"
#include "../tests/test_fields.h"
#include "backend/stream_bandwidth.h"
#include <chrono>
#include <cstdio>
#include <ctime>
#include <string>

using namespace gf;

int main(int argc, char** argv) {
  const int l = argc > 1 ? std::stoi(argv[1]) : 32;
  const int sweeps = argc > 2 ? std::stoi(argv[2]) : 500;
  const Backend backend = parse_name<Backend>("backend", argc > 3 ? argv[3] : "cuda");
  const int L[4] = {l, l, l, l};
  const double stream = backend == Backend::cuda ? stream_bandwidth_gbs() : 0;
  char date[64];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S UTC", std::gmtime(&now));
  std::printf("# bench_landau  device: %s  date: %s\n", backend == Backend::cuda ? cuda_device_name() : "cpu", date);
  std::printf("# lattice %d^4 SU(3), Landau overrelaxation omega 1.7, 12-real storage, %d timed sweeps\n", l, sweeps);
  std::printf("# streaming in-place read+write bandwidth (same run): %.1f GB/s\n", stream);
  std::printf("%-8s %8s %10s %12s %10s %10s %9s %14s %20s\n", "prec", "sweeps", "seconds",
              "ms/sweep", "GFlop/s", "GB/s", "of_stream", "theta", "F");
  HostField start = testing::random_field(L, 3, 1, 0.4);
  random_gauge_transform(start, 2);
  for (Precision prec : {Precision::single, Precision::mixed, Precision::double_}) {
    HostField u = start;
    EngineOptions eo;
    eo.precision = prec;
    eo.backend = backend;
    auto e = make_engine(u, eo);
    UpdateParams up;
    for (int k = 0; k < 20; ++k) e->sweep(up, k); // warm-up
    e->synchronize();
    const auto t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < sweeps; ++k) e->sweep(up, 20 + k);
    e->synchronize();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const Measurement m = normalise(e->measure(), GaugeKind::landau, 3, u.geom);
    const double v = double(u.geom.global_volume());
    const double bytes = 16.0 * 12 * (prec == Precision::double_ ? 8 : 4) * v * sweeps;
    const double gbs = bytes / s / 1e9;
    std::printf("%-8s %8d %10.3f %12.4f %10.1f %10.1f %9.3f %14.4e %20.15f\n", name_of(prec),
                sweeps, s, 1e3 * s / sweeps, 2274.0 * v * sweeps / s / 1e9, gbs,
                stream > 0 ? gbs / stream : 0.0, m.theta, m.functional);
  }
  return 0;
}
