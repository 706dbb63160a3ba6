// Convergence and invariance of the full driver on the CPU backend: every gauge, SU(2)
// and SU(3), from random gauge transformations of a smooth and of a rough field.
#include "fix/random_transform.h"
#include "fix/schedule.h"
#include "observables/observables.h"
#include "test_fields.h"
#include <gtest/gtest.h>

namespace gf {
namespace {

struct Case {
  GaugeKind gauge;
  int nc;
  double eps; // 0.3 smooth, 1 rough
};

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  return std::string(name_of(info.param.gauge)) + "_su" + std::to_string(info.param.nc) +
         (info.param.eps < 1 ? "_smooth" : "_rough");
}

FixResult fix(HostField& u, GaugeKind gauge, Backend backend, Precision prec, double tol,
              UpdateKind kind = UpdateKind::overrelaxation, int max_sweeps = 20000) {
  EngineOptions eo;
  eo.gauge = gauge;
  eo.backend = backend;
  eo.precision = prec;
  auto engine = make_engine(u, eo);
  FixOptions fo;
  Phase p;
  p.update.kind = kind;
  p.update.omega = 1.7;
  p.sweeps = max_sweeps;
  fo.phases = {p};
  fo.tolerance = tol;
  fo.check_interval = 20;
  const FixResult r = run_schedule(*engine, gauge, u.nc, u.geom, fo, nullptr);
  engine->download(u, nullptr);
  return r;
}

class Convergence : public ::testing::TestWithParam<Case> {};

TEST_P(Convergence, ReachesThetaAndKeepsGaugeInvariants) {
  const Case c = GetParam();
  const int L[4] = {4, 4, 4, 8};
  HostField u = testing::random_field(L, c.nc, 11, c.eps);
  random_gauge_transform(u, 99);
  const double plaq = plaquette(u);
  const Complex<double> poly = polyakov_loop(u);
  const FixResult r = fix(u, c.gauge, Backend::cpu, Precision::double_, 1e-12);
  EXPECT_TRUE(r.converged) << "theta = " << r.final.theta << " after " << r.iterations;
  EXPECT_TRUE(gauge_condition_holds(r.final, c.gauge, 1e-12));
  EXPECT_LT(r.final.theta, 1e-12);
  EXPECT_NEAR(plaquette(u), plaq, 1e-12);
  EXPECT_NEAR(polyakov_loop(u).re, poly.re, 1e-12);
  EXPECT_NEAR(polyakov_loop(u).im, poly.im, 1e-12);
  EXPECT_LT(max_unitarity_violation(u), 1e-12);
}

INSTANTIATE_TEST_SUITE_P(AllGauges, Convergence,
                         ::testing::Values(Case{GaugeKind::landau, 3, 0.3}, Case{GaugeKind::landau, 3, 1.0},
                                           Case{GaugeKind::landau, 2, 0.3}, Case{GaugeKind::landau, 2, 1.0},
                                           Case{GaugeKind::coulomb, 3, 0.3}, Case{GaugeKind::coulomb, 3, 1.0},
                                           Case{GaugeKind::coulomb, 2, 0.3}, Case{GaugeKind::coulomb, 2, 1.0},
                                           Case{GaugeKind::mag, 3, 0.3}, Case{GaugeKind::mag, 3, 1.0},
                                           Case{GaugeKind::mag, 2, 0.3}, Case{GaugeKind::mag, 2, 1.0}),
                         case_name);

} // namespace
} // namespace gf
