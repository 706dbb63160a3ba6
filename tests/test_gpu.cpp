// Tier 3 on the GPU: the CUDA backend against the CPU backend, the same functors and the
// same random numbers, for every gauge, group, update kind (the heatbath included) and
// precision; and full convergence on the GPU. Fourier-accelerated fixing (FASD, FACG; cuFFT
// against FFTW): the first steps to rounding, and convergence with the same iterations (to
// one) and F, for Landau and Coulomb gauge, SU(2) and SU(3), every precision; FACG with the
// single-precision preconditioner of a double or mixed fix against the double one. Skips
// when no CUDA device is present.
#include "fix/random_transform.h"
#include "fix/schedule.h"
#include "observables/observables.h"
#include "test_fields.h"
#include <gtest/gtest.h>

namespace gf {
namespace {

struct GpuCase {
  GaugeKind gauge;
  int nc;
  UpdateKind kind;
};

std::string gpu_case_name(const ::testing::TestParamInfo<GpuCase>& info) {
  return std::string(name_of(info.param.gauge)) + "_su" + std::to_string(info.param.nc) + "_" +
         update_name(info.param.kind);
}

double max_difference(const HostField& a, const HostField& b) {
  double worst = 0;
  for (std::size_t i = 0; i < a.data.size(); ++i)
    worst = std::max(worst, std::sqrt(norm2(a.data[i] - b.data[i])));
  return worst;
}

class GpuMatchesCpu : public ::testing::TestWithParam<GpuCase> {};

TEST_P(GpuMatchesCpu, AfterSweeps) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  const GpuCase c = GetParam();
  const int L[4] = {8, 4, 4, 6};
  for (Precision prec : {Precision::double_, Precision::mixed, Precision::single}) {
    HostField start = testing::random_field(L, c.nc, 31, 0.8);
    HostField cpu = start, gpu = start;
    EngineOptions eo;
    eo.gauge = c.gauge;
    eo.precision = prec;
    eo.seed = 77;
    eo.track_transform = true;
    auto e_cpu = make_engine(cpu, eo);
    eo.backend = Backend::cuda;
    auto e_gpu = make_engine(gpu, eo);
    UpdateParams up;
    up.kind = c.kind;
    up.temperature = 0.7;
    up.probability = 0.4;
    // Microcanonical sweeps on a rough field are chaotic: rounding differences (fused
    // multiply-adds on the GPU) grow about 30-fold per sweep, so they get two sweeps.
    const int sweeps = c.kind == UpdateKind::microcanonical ? 2 : 6;
    for (int k = 0; k < sweeps; ++k) {
      e_cpu->sweep(up, k);
      e_gpu->sweep(up, k);
    }
    const Measurement mc = normalise(e_cpu->measure(), c.gauge, c.nc, cpu.geom);
    const Measurement mg = normalise(e_gpu->measure(), c.gauge, c.nc, gpu.geom);
    HostField g_cpu(cpu.geom, c.nc, 1), g_gpu(gpu.geom, c.nc, 1);
    e_cpu->download(cpu, &g_cpu);
    e_gpu->download(gpu, &g_gpu);
    // Single-precision links: the GPU's reciprocal square root (2 ulp) and fused
    // multiply-adds make the heatbath's and the reflections' draws differ in the last bits.
    // Double: the GPU's reciprocal square root (1 ulp) enters the reflections, which the
    // microcanonical dynamics amplify about 30-fold per sweep. The maximally Abelian
    // reflection is built on the top eigenvector of H, which turns by about
    // delta H / (lambda_1 - lambda_2): at the nearly degenerate sites of this rough field the
    // difference grows further (single precision, 1.2e-3 on an H200 after two sweeps).
    const bool reflections = c.kind == UpdateKind::microcanonical;
    const double tol = prec == Precision::double_                 ? (reflections ? 1e-11 : 1e-12)
                       : reflections && c.gauge == GaugeKind::mag ? 3e-3
                       : reflections || c.kind == UpdateKind::heatbath ? 1e-3
                                                                       : 1e-4;
    EXPECT_LT(max_difference(cpu, gpu), tol) << name_of(prec);
    EXPECT_LT(max_difference(g_cpu, g_gpu), tol) << name_of(prec);
    EXPECT_NEAR(mc.functional, mg.functional, tol) << name_of(prec);
    EXPECT_NEAR(mc.theta, mg.theta, tol * std::max(1.0, mc.theta)) << name_of(prec);
  }
}

// Engine::upload on the GPU: an engine given a second field continues bitwise as a fresh
// engine built for it (links and g(x)), with the same launches.
TEST(GpuUpload, ContinuesAsAFreshEngine) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  const int L[4] = {8, 4, 4, 6};
  for (GaugeKind gauge : {GaugeKind::landau, GaugeKind::coulomb, GaugeKind::mag}) {
    const HostField first = testing::random_field(L, 3, 5, 0.8),
                    second = testing::random_field(L, 3, 6, 0.6);
    EngineOptions eo;
    eo.gauge = gauge;
    eo.backend = Backend::cuda;
    eo.precision = Precision::mixed;
    eo.track_transform = true;
    UpdateParams up;
    up.kind = UpdateKind::overrelaxation;
    auto reused = make_engine(first, eo);
    for (int k = 0; k < 5; ++k)
      reused->sweep(up, k);
    reused->upload(second);
    auto fresh = make_engine(second, eo);
    for (int k = 0; k < 5; ++k) {
      reused->sweep(up, k);
      fresh->sweep(up, k);
    }
    HostField a = second, b = second, ga(second.geom, 3, 1), gb(second.geom, 3, 1);
    reused->download(a, &ga);
    fresh->download(b, &gb);
    EXPECT_EQ(max_difference(a, b), 0.0) << name_of(gauge);
    EXPECT_EQ(max_difference(ga, gb), 0.0) << name_of(gauge);
  }
}

std::vector<GpuCase> all_cases() {
  std::vector<GpuCase> v;
  for (GaugeKind g : {GaugeKind::landau, GaugeKind::coulomb, GaugeKind::mag})
    for (int nc : {2, 3})
      for (UpdateKind k :
           {UpdateKind::relaxation, UpdateKind::overrelaxation, UpdateKind::stochastic_relaxation,
            UpdateKind::microcanonical, UpdateKind::heatbath})
        v.push_back({g, nc, k});
  return v;
}

INSTANTIATE_TEST_SUITE_P(All, GpuMatchesCpu, ::testing::ValuesIn(all_cases()), gpu_case_name);

// Every sweep variant (threads per site, block size, carve-out) gives the bitwise same
// links and g(x): the tuner's choice never changes a result.
TEST_P(GpuMatchesCpu, EveryVariantBitwiseEqual) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  const GpuCase c = GetParam();
  const int L[4] = {8, 4, 6, 4};
  for (Precision prec : {Precision::double_, Precision::mixed, Precision::single})
    for (Storage storage : {Storage::rows, Storage::full, Storage::params8}) {
      if (storage == Storage::params8 && c.nc != 3) continue;
      const HostField start = testing::random_field(L, c.nc, 5, 0.8);
      std::vector<HostField> links, transforms;
      std::vector<SweepVariant> variants = {
          SweepVariant{1, {64, 0, -1}}, SweepVariant{4, {128, 0, 0}}, SweepVariant{8, {256, 0, -1}},
          SweepVariant{4, {32, 0, -1}}, SweepVariant{2, {128, 2, -1}}};
      // the kernels compiled for 12-real storage and overrelaxation alone (SU(3), local update
      // family; the family's other rules run the kernel that branches)
      if (storage == Storage::rows && c.nc == 3 && c.kind != UpdateKind::heatbath) {
        variants.push_back(SweepVariant{4, {64, 0, -1}, 0, true});
        variants.push_back(SweepVariant{2, {128, 2, 0}, 0, true});
      }
      for (const SweepVariant& v : variants) {
        HostField u = start;
        EngineOptions eo;
        eo.gauge = c.gauge;
        eo.precision = prec;
        eo.storage = storage;
        eo.seed = 9;
        eo.track_transform = true;
        eo.backend = Backend::cuda;
        eo.sweep_variant = v;
        auto e = make_engine(u, eo);
        UpdateParams up;
        up.kind = c.kind;
        up.temperature = 0.7;
        for (int k = 0; k < 3; ++k)
          e->sweep(up, k);
        HostField g(u.geom, c.nc, 1);
        e->download(u, &g);
        links.push_back(u);
        transforms.push_back(g);
      }
      for (std::size_t i = 1; i < links.size(); ++i) {
        EXPECT_EQ(max_difference(links[0], links[i]), 0.0) << name_of(prec) << " variant " << i;
        EXPECT_EQ(max_difference(transforms[0], transforms[i]), 0.0)
            << name_of(prec) << " variant " << i;
      }
    }
}

TEST(GpuConvergence, EveryGaugeReachesTheta) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  const int L[4] = {8, 8, 8, 8};
  for (GaugeKind g : {GaugeKind::landau, GaugeKind::coulomb, GaugeKind::mag})
    for (int nc : {2, 3}) {
      HostField u = testing::random_field(L, nc, 12, 0.5);
      random_gauge_transform(u, 3);
      const double plaq = plaquette(u);
      EngineOptions eo;
      eo.gauge = g;
      eo.backend = Backend::cuda;
      auto e = make_engine(u, eo);
      FixOptions fo;
      Phase p;
      p.sweeps = 20000;
      fo.phases = {p};
      fo.tolerance = 1e-12;
      fo.check_interval = 50;
      const FixResult r = run_schedule(*e, g, nc, u.geom, fo, nullptr);
      e->download(u, nullptr);
      EXPECT_TRUE(r.converged) << name_of(g) << " SU(" << nc << ") theta " << r.final.theta;
      EXPECT_NEAR(plaquette(u), plaq, 1e-12);
    }
}

// 8-real storage (decoded and encoded in every kernel): the GPU follows the CPU.
TEST(GpuStorage8, MatchesCpuAfterSweeps) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  const int L[4] = {8, 4, 4, 6};
  for (Precision prec : {Precision::double_, Precision::mixed, Precision::single}) {
    HostField cpu = testing::random_field(L, 3, 31, 0.8), gpu = cpu;
    EngineOptions eo;
    eo.precision = prec;
    eo.storage = Storage::params8;
    auto e_cpu = make_engine(cpu, eo);
    eo.backend = Backend::cuda;
    auto e_gpu = make_engine(gpu, eo);
    UpdateParams up;
    for (int k = 0; k < 6; ++k) {
      e_cpu->sweep(up, k);
      e_gpu->sweep(up, k);
    }
    e_cpu->download(cpu, nullptr);
    e_gpu->download(gpu, nullptr);
    EXPECT_LT(max_difference(cpu, gpu), prec == Precision::double_ ? 1e-12 : 1e-4) << name_of(prec);
  }
}

// ---- Fourier-accelerated fixing: the GPU (cuFFT) against the CPU (FFTW) ----------------

struct FourierGpuCase {
  GaugeKind gauge;
  int nc;
  Precision precision;
  DescentMethod method;
};

std::string fourier_case_name(const ::testing::TestParamInfo<FourierGpuCase>& info) {
  return std::string(name_of(info.param.gauge)) + "_su" + std::to_string(info.param.nc) + "_" +
         name_of(info.param.precision) + "_" + descent_name(info.param.method);
}

// A smooth field far from the gauge (every extent different: the transposes' indices).
HostField fourier_field(int nc) {
  const int L[4] = {8, 6, 4, 10};
  HostField u = testing::random_field(L, nc, 29, 0.3);
  random_gauge_transform(u, 7);
  return u;
}

class FourierGpuMatchesCpu : public ::testing::TestWithParam<FourierGpuCase> {};

// Eight steps from the same field: the same line-search decisions, links and g(x) to rounding.
TEST_P(FourierGpuMatchesCpu, FirstSteps) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  const FourierGpuCase c = GetParam();
  const HostField start = fourier_field(c.nc);
  EngineOptions eo;
  eo.gauge = c.gauge;
  eo.precision = c.precision;
  eo.track_transform = true;
  auto e_cpu = make_engine(start, eo);
  eo.backend = Backend::cuda;
  auto e_gpu = make_engine(start, eo);
  const FixOptions fo = testing::descent_schedule(c.method, 1e-30, 8);
  const FixResult r_cpu = run_schedule(*e_cpu, c.gauge, c.nc, start.geom, fo, nullptr);
  const FixResult r_gpu = run_schedule(*e_gpu, c.gauge, c.nc, start.geom, fo, nullptr);
  EXPECT_EQ(r_cpu.iterations, 8);
  EXPECT_EQ(r_gpu.iterations, 8);
  HostField cpu = start, gpu = start, g_cpu(start.geom, c.nc, 1), g_gpu(start.geom, c.nc, 1);
  e_cpu->download(cpu, &g_cpu);
  e_gpu->download(gpu, &g_gpu);
  // float links: the GPU's fused multiply-adds and reciprocal square roots (as above)
  const double tol = c.precision == Precision::double_ ? 1e-11 : 1e-4;
  EXPECT_LT(max_difference(cpu, gpu), tol);
  EXPECT_LT(max_difference(g_cpu, g_gpu), tol);
  EXPECT_NEAR(r_cpu.final.functional, r_gpu.final.functional, tol);
  EXPECT_NEAR(r_cpu.final.theta, r_gpu.final.theta, 1e3 * tol * r_cpu.final.theta);
}

// To the gauge: both converge, with the same iterations to one in double (a few more in
// float, where the last steps go by rounding), the same F, and the GPU's field satisfies the
// gauge condition measured again by the CPU, with its plaquette unchanged.
TEST_P(FourierGpuMatchesCpu, ConvergesLikeCpu) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  const FourierGpuCase c = GetParam();
  const bool dbl = c.precision == Precision::double_;
  const HostField start = fourier_field(c.nc);
  EngineOptions eo;
  eo.gauge = c.gauge;
  eo.precision = c.precision;
  auto e_cpu = make_engine(start, eo);
  eo.backend = Backend::cuda;
  auto e_gpu = make_engine(start, eo);
  const double tolerance = dbl ? 1e-12 : 1e-9;
  const FixOptions fo = testing::descent_schedule(c.method, tolerance, 5000);
  const FixResult r_cpu = run_schedule(*e_cpu, c.gauge, c.nc, start.geom, fo, nullptr);
  const FixResult r_gpu = run_schedule(*e_gpu, c.gauge, c.nc, start.geom, fo, nullptr);
  ASSERT_TRUE(r_cpu.converged) << "cpu theta " << r_cpu.final.theta;
  ASSERT_TRUE(r_gpu.converged) << "gpu theta " << r_gpu.final.theta;
  const long spread = dbl ? 1 : std::max(2L, r_cpu.iterations / 10);
  EXPECT_LE(std::abs(r_cpu.iterations - r_gpu.iterations), spread)
      << r_cpu.iterations << " (cpu) against " << r_gpu.iterations << " (gpu)";
  EXPECT_NEAR(r_cpu.final.functional, r_gpu.final.functional, dbl ? 1e-12 : 1e-6);
  HostField gpu = start;
  e_gpu->download(gpu, nullptr);
  EngineOptions check;
  check.gauge = c.gauge;
  const Measurement m = normalise(make_engine(gpu, check)->measure(), c.gauge, c.nc, gpu.geom);
  EXPECT_LT(c.gauge == GaugeKind::coulomb ? m.theta_max_slice : m.theta,
            dbl ? 1.01 * tolerance : 1e-8);
  EXPECT_NEAR(plaquette(gpu), plaquette(start), dbl ? 1e-12 : 1e-6);
  std::printf("  %s: %ld (cpu) and %ld (gpu) iterations, %.3f s and %.3f s\n",
              fourier_case_name({c, 0}).c_str(), r_cpu.iterations, r_gpu.iterations, r_cpu.seconds,
              r_gpu.seconds);
}

std::vector<FourierGpuCase> fourier_cases() {
  std::vector<FourierGpuCase> v;
  for (GaugeKind g : {GaugeKind::landau, GaugeKind::coulomb})
    for (int nc : {2, 3})
      for (Precision p : {Precision::double_, Precision::mixed, Precision::single})
        for (DescentMethod m : {DescentMethod::facg, DescentMethod::fasd})
          v.push_back({g, nc, p, m});
  return v;
}

INSTANTIATE_TEST_SUITE_P(All, FourierGpuMatchesCpu, ::testing::ValuesIn(fourier_cases()),
                         fourier_case_name);

// The single-precision preconditioner of a double or mixed fix on the GPU (cuFFT C2C, float
// transposes): FACG reaches the tolerance at the same maximum (F to 1e-12 in double) in about
// as many iterations as with the double preconditioner, and the gauge condition holds when
// the CPU measures the field again.
TEST(FourierGpuSinglePreconditioner, ConvergesLikeTheDoublePreconditioner) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  for (GaugeKind gauge : {GaugeKind::landau, GaugeKind::coulomb})
    for (int nc : {2, 3})
      for (Precision p : {Precision::double_, Precision::mixed}) {
        const bool dbl = p == Precision::double_;
        const HostField start = fourier_field(nc);
        EngineOptions eo;
        eo.gauge = gauge;
        eo.precision = p;
        eo.backend = Backend::cuda;
        const double tolerance = dbl ? 2.5e-13 : 1e-9;
        const FixOptions fo = testing::descent_schedule(DescentMethod::facg, tolerance, 5000);
        auto e_double = make_engine(start, eo);
        const FixResult r_double = run_schedule(*e_double, gauge, nc, start.geom, fo, nullptr);
        eo.preconditioner = PreconditionerPrecision::single;
        auto e_single = make_engine(start, eo);
        const FixResult r_single = run_schedule(*e_single, gauge, nc, start.geom, fo, nullptr);
        const std::string what = std::string(name_of(gauge)) + " SU(" + std::to_string(nc) + ") " +
                                 name_of(p) + ": " + std::to_string(r_double.iterations) +
                                 " (double preconditioner) against " +
                                 std::to_string(r_single.iterations) + " (single)";
        ASSERT_TRUE(r_double.converged) << what;
        ASSERT_TRUE(r_single.converged) << what;
        EXPECT_EQ(r_single.fourier.preconditioner_precision, "single");
        EXPECT_LE(std::abs(r_single.iterations - r_double.iterations), 2 + r_double.iterations / 10)
            << what;
        EXPECT_NEAR(r_single.final.functional, r_double.final.functional, dbl ? 1e-12 : 1e-6)
            << what;
        HostField gpu = start;
        e_single->download(gpu, nullptr);
        EngineOptions check;
        check.gauge = gauge;
        const Measurement m = normalise(make_engine(gpu, check)->measure(), gauge, nc, gpu.geom);
        EXPECT_LT(gauge == GaugeKind::coulomb ? m.theta_max_slice : m.theta,
                  dbl ? 1.01 * tolerance : 1e-8)
            << what;
        std::printf("  %s\n", what.c_str());
      }
}

} // namespace
} // namespace gf
