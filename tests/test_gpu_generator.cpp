// The generator on the GPU: the CUDA backend against the CPU backend, the same functors and
// random numbers, for SU(2) and SU(3), heatbath and overrelaxation sweeps, in every
// precision (double to 1e-12, mixed 1e-4, single 1e-3). Skips when no CUDA device is present.
#include "fix/random_field.h"
#include "gen/generator.h"
#include <cmath>
#include <gtest/gtest.h>

namespace gf {
namespace {

struct GpuGenCase {
  int nc;
  LinkUpdateKind kind;
};

class GpuGeneratorMatchesCpu : public ::testing::TestWithParam<GpuGenCase> {};

double max_difference(const HostField& a, const HostField& b) {
  double worst = 0;
  for (std::size_t i = 0; i < a.data.size(); ++i)
    worst = std::max(worst, std::sqrt(norm2(a.data[i] - b.data[i])));
  return worst;
}

// Heatbath: 4 sweeps from a hot field; overrelaxation (microcanonical, chaotic on a rough
// field: rounding differences grow from sweep to sweep) 2 sweeps from a smooth field.
TEST_P(GpuGeneratorMatchesCpu, AfterSweeps) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  const GpuGenCase c = GetParam();
  const bool heatbath = c.kind == LinkUpdateKind::heatbath;
  const int L[4] = {8, 4, 4, 6};
  for (Precision prec : {Precision::double_, Precision::mixed, Precision::single}) {
    HostField cpu = random_field(L, c.nc, 41, heatbath ? 1.0 : 0.3, RandomPurpose::test);
    HostField gpu = cpu;
    GeneratorOptions opt;
    opt.beta = c.nc == 3 ? 5.7 : 2.3;
    opt.precision = prec;
    opt.seed = 2026;
    auto g_cpu = make_generator(cpu, opt);
    opt.backend = Backend::cuda;
    auto g_gpu = make_generator(gpu, opt);
    for (std::uint32_t k = 1; k <= (heatbath ? 4u : 2u); ++k) {
      g_cpu->sweep(c.kind, k);
      g_gpu->sweep(c.kind, k);
    }
    const GeneratorMeasurement mc = normalise(g_cpu->measure(), cpu.geom, c.nc);
    const GeneratorMeasurement mg = normalise(g_gpu->measure(), gpu.geom, c.nc);
    g_cpu->download(cpu);
    g_gpu->download(gpu);
    // single: float arithmetic, and the device's float math functions differ from the host's
    // by a few ulps, which the heatbath's rejection steps and staples carry along.
    const double tol = prec == Precision::double_ ? 1e-12 : prec == Precision::mixed ? 1e-4 : 1e-3;
    EXPECT_LT(max_difference(cpu, gpu), tol) << name_of(prec);
    EXPECT_NEAR(mc.plaquette, mg.plaquette, tol) << name_of(prec);
    EXPECT_EQ(mc.acceptance, mg.acceptance) << name_of(prec);
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, GpuGeneratorMatchesCpu,
                         ::testing::Values(GpuGenCase{2, LinkUpdateKind::heatbath},
                                           GpuGenCase{3, LinkUpdateKind::heatbath},
                                           GpuGenCase{2, LinkUpdateKind::overrelaxation},
                                           GpuGenCase{3, LinkUpdateKind::overrelaxation}),
                         [](const ::testing::TestParamInfo<GpuGenCase>& info) {
                           return std::string("su") + std::to_string(info.param.nc) +
                                  (info.param.kind == LinkUpdateKind::heatbath ? "_heatbath"
                                                                               : "_overrelaxation");
                         });

} // namespace
} // namespace gf
