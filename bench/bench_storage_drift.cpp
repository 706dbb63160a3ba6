// bench_storage_drift: how well SU(3) and the functional F hold over many overrelaxation
// sweeps without reprojection, for each link storage (8, 12, 18 reals) and precision.
// Landau gauge, omega 1.7, from a random gauge copy of a smooth field; every `every` sweeps
// the links are downloaded (decoded as every kernel loads them: 12 reals rebuild the third
// row and 8 reals decode to SU(3) on each load, 18 reals are used as stored) and it prints
//   max and mean |1 - det U|, max over elements of |U U^dagger - 1|, F, theta, and the
//   change of the (gauge-invariant) plaquette since the start: the drift of the field itself.
// The downloaded links are decoded in double: with 8 or 12 reals they are SU(3) to double
// rounding whatever the stored precision; the plaquette and F show the stored field's drift.
// Usage: bench_storage_drift L sweeps every backend(cpu|cuda) [precisions] [storages]
//   e.g. bench_storage_drift 8 2000 200 cpu single,double 8,12,18
#include "../tests/test_fields.h"
#include "comm/world.h"
#include "fix/random_transform.h"
#include "fix/schedule.h"
#include "observables/observables.h"
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <sstream>
#include <string>
#include <vector>

using namespace gf;

namespace {

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');)
    out.push_back(item);
  return out;
}

struct Drift {
  double det_max = 0, det_mean = 0, unitarity_max = 0;
};

Drift drift(const HostField& u) {
  Drift d;
  const std::int64_t sites = u.local_sites();
  for (std::int64_t s = 0; s < sites; ++s)
    for (int mu = 0; mu < u.ndir; ++mu) {
      const Matrix<double, 3> m = u.get<3>(s, mu);
      const double det = std::sqrt(norm2(determinant(m) - Complex<double>{1, 0}));
      d.det_max = std::max(d.det_max, det);
      d.det_mean += det;
      const Matrix<double, 3> p = m * adjoint(m);
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
          d.unitarity_max =
              std::max(d.unitarity_max,
                       std::sqrt(norm2(p.m[i][j] - Complex<double>{i == j ? 1.0 : 0.0, 0})));
    }
  d.det_mean /= double(sites * u.ndir);
  return d;
}

} // namespace

int main(int argc, char** argv) {
  MpiSession mpi(argc, argv); // the plaquette asks the world (one rank)
  if (argc < 5) {
    std::fprintf(stderr,
                 "usage: bench_storage_drift L sweeps every cpu|cuda [precisions] [storages]\n");
    return 1;
  }
  const int l = std::stoi(argv[1]);
  const int sweeps = std::stoi(argv[2]);
  const int every = std::stoi(argv[3]);
  const Backend backend = parse_name<Backend>("backend", argv[4]);
  const std::vector<std::string> precisions = split(argc > 5 ? argv[5] : "single,mixed,double");
  const std::vector<std::string> storages = split(argc > 6 ? argv[6] : "8,12,18");
  const int L[4] = {l, l, l, l};
  char date[64];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S UTC", std::gmtime(&now));
  std::printf("# bench_storage_drift  backend: %s  date: %s\n", name_of(backend), date);
  std::printf("# lattice %d^4 SU(3), Landau overrelaxation omega 1.7, %d sweeps, no reprojection\n",
              l, sweeps);
  std::printf("%-7s %7s %7s %12s %12s %12s %20s %12s %12s\n", "prec", "storage", "sweep", "det_max",
              "det_mean", "uudag_max", "F", "theta", "d_plaquette");
  HostField start = testing::random_field(L, 3, 1, 0.4);
  random_gauge_transform(start, 2);
  const double plaquette0 = plaquette(start);
  for (const std::string& p : precisions)
    for (const std::string& s : storages) {
      EngineOptions eo;
      eo.precision = parse_name<Precision>("precision", p);
      eo.backend = backend;
      eo.storage = parse_storage(std::stoi(s));
      HostField u = start;
      auto e = make_engine(u, eo);
      UpdateParams up;
      up.omega = 1.7;
      for (int k = 0; k <= sweeps; ++k) {
        if (k % every == 0 || k == sweeps) {
          const Measurement m = normalise(e->measure(), GaugeKind::landau, 3, u.geom);
          e->download(u, nullptr);
          const Drift d = drift(u);
          std::printf("%-7s %7s %7d %12.4e %12.4e %12.4e %20.15f %12.4e %12.4e\n", p.c_str(),
                      s.c_str(), k, d.det_max, d.det_mean, d.unitarity_max, m.functional, m.theta,
                      plaquette(u) - plaquette0);
          std::fflush(stdout);
        }
        if (k < sweeps) e->sweep(up, k);
      }
    }
  return 0;
}
