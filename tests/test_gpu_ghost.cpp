// The ghost propagator's conjugate gradient on the GPU (measure/ghost_cg.h, Backend::cuda)
// against the CPU, which runs the same site functors: G(p) = 1/p^2 on the unit field (also where
// a slice is not a whole number of the GPU layout's tiles and sum chunks); on Landau
// copies (a random gauge transform fixed to Landau gauge by FACG) of the unit field (on this
// lattice FACG finds the unit field again, up to a global rotation: one iteration per solve) and
// of a smooth random field (130 to 240 iterations per solve), G(p) to 1e-12 relative and each
// solve's iteration count equal or within one. SU(2) and SU(3). GhostCgRanksOnGpu runs under mpirun
// too (tests/meson.build, one GPU per rank, or ranks sharing one): each rank's slab on the GPU
// against the whole lattice on the CPU, and bitwise against the whole lattice on one GPU (whose
// CG keeps its scalars on the device). Far from Landau gauge the GPU stops with the CPU's error.
// Two solvers side by side on the GPU (the ghost propagator's default there) give the bits of one.
// Skips when no CUDA device is present.
#include "comm/decomposition.h"
#include "core/error.h"
#include "fix/engine.h"
#include "fix/random_transform.h"
#include "fixed_fields.h"
#include "measure/faddeev_popov.h"
#include "measure/ghost_cg.h"
#include "measure/ghost_propagator.h"
#include "test_fields.h"
#include <cmath>
#include <cstdlib>
#include <gtest/gtest.h>
#include <string>

namespace gf {
namespace {

const int lattice[4] = {6, 4, 4, 8};

TEST(GhostCgOnGpu, UnitFieldIsOneOverMomentumSquared) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  // 9 x 6 x 5: slices of partial tiles (32 sites) and sum chunks (128 sites)
  const int partial[4] = {9, 6, 5, 8};
  for (const int* l : {lattice, partial})
    for (int nc : {2, 3}) {
      const HostField u = testing::unit_field(l, nc);
      const FaddeevPopov m(u, World::alone());
      const std::vector<Momentum> momenta = {
          {1, 0, 0, 0}, {0, 0, 0, 1}, {1, 2, -1, 3}, {0, 0, 0, 4}};
      const std::vector<GhostPoint> g = ghost_propagator(m, momenta, 1e-13, 200, Backend::cuda);
      ASSERT_EQ(g.size(), momenta.size());
      for (const GhostPoint& p : g) {
        EXPECT_NEAR(p.propagator, 1 / p.p2, 1e-12 / p.p2)
            << "SU(" << nc << ") L = " << l[0] << l[1] << l[2] << l[3] << " n = " << p.n[0]
            << p.n[1] << p.n[2] << p.n[3];
        EXPECT_TRUE(p.converged);
      }
    }
}

TEST(GhostCgOnGpu, LandauCopiesMatchTheCpu) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  for (int nc : {2, 3})
    for (bool unit : {true, false}) {
      HostField u =
          unit ? testing::unit_field(lattice, nc) : testing::random_field(lattice, nc, 31, 0.6);
      random_gauge_transform(u, 31 + nc);
      const testing::FixedField fixed = testing::fixed_field(u, GaugeKind::landau, 1e-24);
      ASSERT_TRUE(fixed.result.converged);
      const FaddeevPopov m(fixed.links, World::alone());
      const std::vector<Momentum> momenta = {{1, 0, 0, 0}, {0, 1, 1, 1}, {2, 0, 1, 3}};
      const std::vector<GhostPoint> cpu = ghost_propagator(m, momenta, 1e-11, 2000, Backend::cpu);
      const std::vector<GhostPoint> gpu = ghost_propagator(m, momenta, 1e-11, 2000, Backend::cuda);
      ASSERT_EQ(cpu.size(), gpu.size());
      for (std::size_t k = 0; k < cpu.size(); ++k) {
        EXPECT_TRUE(cpu[k].converged && gpu[k].converged);
        EXPECT_GT(cpu[k].propagator, 0);
        EXPECT_NEAR(gpu[k].propagator, cpu[k].propagator, 1e-12 * cpu[k].propagator)
            << "SU(" << nc << ") momentum " << k << (unit ? " (unit field)" : " (random field)");
        EXPECT_LE(std::abs(gpu[k].max_iterations - cpu[k].max_iterations), 1);
        EXPECT_LE(std::abs(gpu[k].total_iterations - cpu[k].total_iterations), cpu[k].solves);
      }
    }
}

// Two solvers on their own streams side by side, each solve ending at its own iteration (and
// an odd number of sources: SU(2) with the sine vanishing), give one solver's bits.
TEST(GhostCgOnGpu, SolversSideBySideGiveTheOneSolversBits) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  for (int nc : {2, 3}) {
    HostField u = testing::random_field(lattice, nc, 51, 0.6);
    random_gauge_transform(u, 51 + nc);
    const HostField fixed = testing::fixed_field(u, GaugeKind::landau, 1e-24).links;
    const FaddeevPopov m(fixed, World::alone());
    const std::vector<Momentum> momenta = {{1, 0, 0, 0}, {0, 0, 0, 4}};
    const std::vector<GhostPoint> one = ghost_points_cuda(m, momenta, 1e-11, 2000, {}, 1);
    const std::vector<GhostPoint> two = ghost_points_cuda(m, momenta, 1e-11, 2000, {}, 2);
    ASSERT_EQ(one.size(), two.size());
    for (std::size_t k = 0; k < one.size(); ++k) {
      EXPECT_TRUE(one[k].converged && two[k].converged);
      EXPECT_EQ(one[k].propagator, two[k].propagator) << "SU(" << nc << ") momentum " << k;
      EXPECT_EQ(one[k].total_iterations, two[k].total_iterations);
      EXPECT_EQ(one[k].max_residual, two[k].max_residual);
    }
    EXPECT_NE(one[0].total_iterations, one[0].solves * one[0].max_iterations);
  }
}

// Far from Landau gauge: the GPU stops with the CPU's error, at the CPU's iteration, although
// it looks at the device's scalars only every few iterations.
TEST(GhostCgOnGpu, StopsWhereTheOperatorIsNotPositiveAsTheCpu) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  const HostField u = testing::random_field(lattice, 3, 7, 1.0); // rough, not gauge fixed
  const FaddeevPopov m(u, World::alone());
  std::string messages[2];
  for (int b = 0; b < 2; ++b) {
    try {
      ghost_propagator(m, {{1, 0, 0, 0}}, 1e-10, 1000, b == 0 ? Backend::cpu : Backend::cuda);
      ADD_FAILURE() << "a CG far from Landau gauge ended without an error";
    } catch (const Error& e) {
      messages[b] = e.what();
    }
  }
  const auto iteration = [](const std::string& m) {
    const std::size_t at = m.find(" at iteration ");
    return at == std::string::npos ? std::string("none") : m.substr(at, m.find(':', at) - at);
  };
  EXPECT_NE(messages[1].find("the Faddeev-Popov operator is not positive"), std::string::npos)
      << messages[1];
  EXPECT_EQ(iteration(messages[1]), iteration(messages[0])) << messages[0] << "\n" << messages[1];
}

TEST(GhostCgRanksOnGpu, SlabsOnGpusMatchTheWholeLatticeOnTheCpu) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  const World world;
  const Geometry slab = decompose_time(lattice, world);
  for (int nc : {2, 3}) {
    HostField u = testing::random_field(lattice, nc, 41, 0.6);
    random_gauge_transform(u, 41 + nc);
    const HostField fixed = testing::fixed_field(u, GaugeKind::landau, 1e-24).links;
    const HostField part = fixed.slab(slab.t0, slab.nt);
    const FaddeevPopov whole(fixed, World::alone()), mine(part, world);
    const std::vector<Momentum> momenta = {{1, 0, 0, 0}, {0, 0, 1, 3}};
    const std::vector<GhostPoint> cpu = ghost_propagator(whole, momenta, 1e-11, 2000);
    const std::vector<GhostPoint> gpu = ghost_propagator(mine, momenta, 1e-11, 2000, Backend::cuda);
    // the whole lattice on this rank's GPU alone: the CG's scalars on the device, where several
    // ranks keep them on the host; the same per-slice sums in the same order give the same bits
    const std::vector<GhostPoint> one_gpu =
        ghost_propagator(whole, momenta, 1e-11, 2000, Backend::cuda);
    for (std::size_t k = 0; k < momenta.size(); ++k) {
      EXPECT_TRUE(gpu[k].converged);
      EXPECT_NEAR(gpu[k].propagator, cpu[k].propagator, 1e-12 * cpu[k].propagator)
          << "SU(" << nc << ") momentum " << k;
      EXPECT_LE(std::abs(gpu[k].max_iterations - cpu[k].max_iterations), 1);
      EXPECT_EQ(gpu[k].propagator, one_gpu[k].propagator) << "SU(" << nc << ") momentum " << k;
      EXPECT_EQ(gpu[k].total_iterations, one_gpu[k].total_iterations);
      EXPECT_EQ(gpu[k].max_residual, one_gpu[k].max_residual);
    }
  }
}

} // namespace
} // namespace gf
