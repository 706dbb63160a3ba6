// bench_variants: every sweep variant (threads per site x block size x carve-out) of one
// gauge, update kind, precision and storage on one GPU, timed over a fixed number of sweeps
// after a warm-up, against the streaming bandwidth measured in the same run. Prints one
// line per candidate and the fastest last.
//   bytes per site and sweep: 16 R sizeof(storage) (8 links read and written per site
//   update, two half-sweeps, R reals per link; see docs/kernels.md).
// Usage: bench_variants L LT gauge kind precision storage [sweeps [lanes block min_blocks]]
// (the last three restrict the run to one variant, e.g. for a profiler).
#include "fix/engine.h"
#include "fix/random_transform.h"
#include "../tests/test_fields.h"
#include "backend/stream_bandwidth.h"
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

using namespace gf;

int main(int argc, char** argv) {
  if (argc < 7) {
    std::fprintf(stderr, "usage: bench_variants L LT gauge kind precision storage [sweeps]\n");
    return 1;
  }
  const int l = std::stoi(argv[1]), lt = std::stoi(argv[2]);
  const GaugeKind gauge = parse_name<GaugeKind>("gauge", argv[3]);
  UpdateParams up;
  up.kind = parse_update_kind(argv[4]);
  up.temperature = 0.5;
  const Precision prec = parse_name<Precision>("precision", argv[5]);
  const int storage = std::stoi(argv[6]);
  const int sweeps = argc > 7 ? std::stoi(argv[7]) : 40;
  const int L[4] = {l, l, l, lt};
  const double stream = stream_bandwidth_gbs();
  HostField u = testing::random_field(L, 3, 1, 0.4);
  random_gauge_transform(u, 2);
  EngineOptions eo;
  eo.gauge = gauge;
  eo.precision = prec;
  eo.backend = Backend::cuda;
  eo.storage = parse_storage(storage);
  auto e = make_engine(u, eo);
  const double bytes = 16.0 * storage * (prec == Precision::double_ ? 8 : 4) * double(u.geom.global_volume());
  std::printf("# %s %dx%dx%dx%d %s %s %s storage %d stream %.1f GB/s\n", cuda_device_name(), l, l, l,
              lt, argv[3], argv[4], argv[5], storage, stream);
  double best = 1e30;
  std::string best_name;
  std::uint32_t k = 0;
  const bool one = argc > 10;
  const auto pick = [&](int arg, std::vector<int> all) {
    return one ? std::vector<int>{std::stoi(argv[arg])} : all;
  };
  for (int lanes : pick(8, {1, 2, 4, 8}))
    for (int block : pick(9, {64, 128, 256, 512}))
      for (int min_blocks : pick(10, {0, 2, 3, 4})) {
        const int carveout = -1;
        SweepVariant v{lanes, {block, min_blocks, carveout}};
        e->set_sweep_variant(v);
        try {
          for (int w = 0; w < 3; ++w) e->sweep(up, k++);
          e->synchronize();
        } catch (const std::exception& ex) {
          std::printf("lanes %d block %4d minb %d  not launchable: %s\n", lanes, block, min_blocks, ex.what());
          continue;
        }
        const auto t0 = std::chrono::steady_clock::now();
        for (int s = 0; s < sweeps; ++s) e->sweep(up, k++);
        e->synchronize();
        const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / sweeps;
        const double gbs = bytes / sec / 1e9;
        std::printf("lanes %d block %4d minb %d  %9.4f ms/sweep %8.1f GB/s %6.3f of stream\n", lanes,
                    block, min_blocks, 1e3 * sec, gbs, gbs / stream);
        if (sec < best) {
          best = sec;
          best_name = "lanes " + std::to_string(lanes) + " block " + std::to_string(block) +
                      " minb " + std::to_string(min_blocks);
        }
      }
  std::printf("best %s %s %s %d: %s %.4f ms/sweep %.3f of stream\n", argv[3], argv[4], argv[5], storage,
              best_name.c_str(), 1e3 * best, bytes / best / 1e9 / stream);
  return 0;
}
