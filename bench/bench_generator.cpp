// bench_generator: the generator's sweeps (src/gen) on one GPU, per sub-sweep launch variant
// ("site1": one kernel; "split": the staples, then the updates; gen/generator_impl.h) and
// block size,
// against the streaming rate measured in the same run (stream_bandwidth_gbs: an in-place read
// and write). A hot L^4 field at beta 6.0 is updated by `sweeps` heatbath sweeps, then
// `sweeps` overrelaxation sweeps, for each launch; prints the milliseconds of one sweep of
// each kind (the median over the sweeps, each synchronised), the fraction of the streaming
// rate of the bytes a sweep must move (8 sub-sweeps, each reading the V/2 updated links and
// their staples' 7 V/2 links once and writing the updated ones: 9 V/2 links, and a double a
// site for the heatbath's acceptance counts), the same for one measurement (the plaquette
// kernel: 4 links a site read, a double written; its launch the tuner's default, or the
// first candidate), and whether the field and the plaquette are bitwise those of the first
// launch.
// Usage: bench_generator L nc single|mixed|double storage(8|12|18) sweeps
#include "backend/stream_bandwidth.h"
#include "bench_timing.h"
#include "fix/random_field.h"
#include "gen/generator.h"
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace gf;

int main(int argc, char** argv) {
  if (argc != 6) {
    std::fprintf(stderr,
                 "usage: bench_generator L nc single|mixed|double storage(8|12|18) sweeps\n");
    return 1;
  }
  const int l = std::atoi(argv[1]), nc = std::atoi(argv[2]);
  const std::string prec = argv[3];
  const int storage = std::atoi(argv[4]), sweeps = std::atoi(argv[5]);
  const int L[4] = {l, l, l, l};
  GeneratorOptions opt;
  opt.beta = 6.0;
  opt.backend = Backend::cuda;
  opt.precision = prec == "single"  ? Precision::single
                  : prec == "mixed" ? Precision::mixed
                                    : Precision::double_;
  opt.storage = parse_storage(storage);
  opt.seed = 7;
  const HostField start = random_field(L, nc, 3, 1.0, RandomPurpose::test);
  const double stored_bytes = opt.precision == Precision::double_ ? 8.0 : 4.0;
  const int reals = nc == 3 ? reals_per_matrix<3>(opt.storage) : reals_per_matrix<2>(opt.storage);
  const double link_bytes = reals * stored_bytes;
  const double half = static_cast<double>(start.geom.global_volume()) / 2;
  const double bytes[2] = {8 * half * (9 * link_bytes + 8), 8 * half * 9 * link_bytes};
  const double plaquette_bytes = 2 * half * (4 * link_bytes + 8);
  const double stream = stream_bandwidth_gbs();
  std::printf("# %s; streaming in-place read+write (same run): %.1f GB/s\n", cuda_device_name(),
              stream);
  std::printf("# %d^4 SU(%d) %s, %d reals a link; bytes a sweep: heatbath %.4g, "
              "overrelaxation %.4g\n",
              l, nc, prec.c_str(), reals, bytes[0], bytes[1]);
  std::printf("%-8s %5s %12s %8s %12s %8s %12s %8s %s\n", "variant", "block", "heatbath_ms",
              "of_strm", "overrel_ms", "of_strm", "plaq_ms", "of_strm", "bits as first");
  HostField first;
  double first_plaquette = 0;
  for (const char* variant : {"site1", "split"})
    for (int block : {64, 128, 256}) {
      opt.sub_sweep_launch = LaunchParams{variant, block};
      HostField u = start;
      auto gen = make_generator(u, opt);
      double ms[2];
      for (int k = 0; k < 2; ++k) {
        const LinkUpdateKind kind =
            k == 0 ? LinkUpdateKind::heatbath : LinkUpdateKind::overrelaxation;
        std::vector<double> times;
        for (int s = 1; s <= sweeps; ++s) {
          gen->synchronize();
          const auto t0 = std::chrono::steady_clock::now();
          gen->sweep(kind, static_cast<std::uint32_t>(s));
          gen->synchronize();
          times.push_back(1e3 * seconds_since(t0));
        }
        std::sort(times.begin(), times.end());
        ms[k] = times[times.size() / 2];
      }
      std::vector<double> measure_ms;
      double plaquette = 0;
      for (int s = 0; s < sweeps; ++s) {
        gen->synchronize();
        const auto t0 = std::chrono::steady_clock::now();
        plaquette = normalise(gen->measure(), u.geom, nc).plaquette;
        measure_ms.push_back(1e3 * seconds_since(t0));
      }
      std::sort(measure_ms.begin(), measure_ms.end());
      const double plaq_ms = measure_ms[measure_ms.size() / 2];
      gen->download(u);
      bool same = true;
      if (first.data.empty()) {
        first = u;
        first_plaquette = plaquette;
      } else {
        same = plaquette == first_plaquette &&
               std::memcmp(first.data.data(), u.data.data(),
                           u.data.size() * sizeof(Complex<double>)) == 0;
      }
      std::printf("%-8s %5d %12.4f %8.3f %12.4f %8.3f %12.4f %8.3f %s\n", variant, block, ms[0],
                  bytes[0] / (ms[0] * 1e-3) / (stream * 1e9), ms[1],
                  bytes[1] / (ms[1] * 1e-3) / (stream * 1e9), plaq_ms,
                  plaquette_bytes / (plaq_ms * 1e-3) / (stream * 1e9), same ? "yes" : "NO");
    }
  std::printf("# plaquette after the sweeps: %.15f\n", first_plaquette);
  return 0;
}
