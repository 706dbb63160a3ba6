// bench_gluon_propagator: the time of the Landau and the Coulomb gluon propagator
// (src/measure/gluon_propagator.h, the psq cut with max_n2) on an L^4 SU(2) or SU(3) field
// against one preconditioning step of FACG (DescentField::precondition, Landau and Coulomb
// gauge) on the same field in the same run, on the CPU with the OpenMP threads of the
// environment. The field is a smooth random field, fixed to Landau gauge by FACG to
// `fix_tolerance` first (0: not fixed; the times do not depend on it). Prints every
// repetition's milliseconds, the minima and medians, and the ratio of the propagators' medians
// to the Landau preconditioning step's. On a machine that others use, quote the medians and the
// ratios of the same run.
// Usage: bench_gluon_propagator L nc max_n2 reps fix_tolerance
#include "../tests/test_fields.h"
#include "bench_timing.h"
#include "measure/gluon_propagator.h"
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <omp.h>
#include <string>
#include <vector>

using namespace gf;

namespace {

template <class F>
std::vector<double> time_each(int reps, F f) {
  std::vector<double> ms;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    ms.push_back(1e3 * seconds_since(t0));
  }
  return ms;
}

// One preconditioning step of FACG in `gauge` on the links u, repeated.
std::vector<double> precondition_times(const HostField& u, GaugeKind gauge, int reps) {
  EngineOptions eo;
  eo.gauge = gauge;
  eo.storage = Storage::full;
  auto e = make_engine(u, eo);
  DescentField& d = e->descent_field();
  d.evaluate();
  d.precondition(); // warm-up: plans and first touch
  return time_each(reps, [&] { d.precondition(); });
}

} // namespace

int main(int argc, char** argv) {
  if (argc != 6) {
    std::fprintf(stderr, "usage: bench_gluon_propagator L nc max_n2 reps fix_tolerance\n");
    return 1;
  }
  MpiSession mpi(argc, argv);
  const int l = std::stoi(argv[1]), nc = std::stoi(argv[2]), max_n2 = std::stoi(argv[3]);
  const int reps = std::stoi(argv[4]);
  const double fix_tolerance = std::stod(argv[5]);
  const int L[4] = {l, l, l, l};
  HostField u = testing::random_field(L, nc, 1, 0.3);
  if (fix_tolerance > 0) {
    EngineOptions eo;
    eo.storage = Storage::full;
    auto e = make_engine(u, eo);
    const FixResult r =
        run_schedule(*e, GaugeKind::landau, nc, u.geom,
                     testing::descent_schedule(DescentMethod::facg, fix_tolerance), {});
    e->download(u, nullptr);
    std::printf("# fixed: theta %.3g after %ld FACG steps\n", r.final.theta, r.iterations);
  }
  char date[64];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S UTC", std::gmtime(&now));
  const MomentumCut cut{CutKind::psq, max_n2, 1.0};
  std::printf("# bench_gluon_propagator %d^4 SU(%d), psq max_n2 %d, %d threads, %s; %d "
              "repetitions\n",
              l, nc, max_n2, omp_get_max_threads(), date, reps);
  std::size_t landau_rows = 0, coulomb_rows = 0;
  landau_rows = landau_gluon_propagator(u, cut).size(); // warm-up
  const std::vector<double> landau =
      time_each(reps, [&] { landau_rows = landau_gluon_propagator(u, cut).size(); });
  const std::vector<double> coulomb =
      time_each(reps, [&] { coulomb_rows = coulomb_gluon_propagator(u, cut).size(); });
  const std::vector<double> landau_step = precondition_times(u, GaugeKind::landau, reps);
  const std::vector<double> coulomb_step = precondition_times(u, GaugeKind::coulomb, reps);
  const double l_ms = print_times("landau gluon propagator", landau, 1);
  const double c_ms = print_times("coulomb gluon propagator", coulomb, 1);
  const double step_ms = print_times("facg preconditioning step, landau", landau_step, 1);
  const double c_step_ms = print_times("facg preconditioning step, coulomb", coulomb_step, 1);
  std::printf("rows: landau %zu, coulomb %zu\n", landau_rows, coulomb_rows);
  std::printf("medians in landau preconditioning steps: landau propagator %.2f, coulomb "
              "propagator %.2f (coulomb step %.2f)\n",
              l_ms / step_ms, c_ms / step_ms, c_step_ms / step_ms);
  return 0;
}
