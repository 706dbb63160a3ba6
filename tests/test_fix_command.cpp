// test_fix_command.cpp: `gaugefix fix` end to end (run_fix): the g(x) it writes takes the
// input file's links to the links it writes, g(x) U_mu(x) g(x + mu)^dagger = U'_mu(x), for
// every gauge, with and without a random start (--random-transform) and annealing; and
// `gaugefix transform` with that g(x), in every g(x) format, gives the fixed field again. Runs
// on one rank and, under mpirun, on several (every rank checks the whole lattice).
#include "app/fix_command.h"
#include "app/output_pattern.h"
#include "app/transform_command.h"
#include "core/log.h"
#include "fix/random_field.h"
#include "gauge_file_test_util.h"
#include "io/gauge_file.h"
#include "io/transform_file.h"
#include "test_fields.h"
#include <cstring>
#include <gtest/gtest.h>
#include <tuple>
#include <yaml-cpp/yaml.h>

namespace gf {
namespace {

using testing::self_world;
using testing::TempDir;

// gauge, group, random-transform seed (0: none), annealing steps
using Case = std::tuple<GaugeKind, int, std::uint64_t, int>;

class FixTransform : public ::testing::TestWithParam<Case> {};

TEST_P(FixTransform, TakesInputLinksToWrittenLinks) {
  const auto [gauge, nc, seed, anneal] = GetParam();
  const World world;
  TempDir dir(world);
  const int L[4] = {4, 4, 4, 4};
  if (world.rank() == 0) {
    WriteOptions w;
    w.double_precision = true;
    write_gauge_file(dir.file("in.nersc"), random_field(L, nc, 5, 0.4, RandomPurpose::test), w,
                     self_world());
  }
  world.barrier();

  FixCommandOptions opt;
  opt.input = {dir.file("in.nersc")};
  opt.output = dir.file("fixed.nersc");
  opt.transform_output = dir.file("g.bin");
  opt.random_transform_seed = seed;
  opt.plan.anneal_steps = anneal;
  opt.plan.gauge = gauge;
  opt.plan.tolerance = 1e-11;
  opt.plan.check_interval = 20;
  opt.plan.max_iterations = 4000;
  gf::log::set_verbosity(gf::log::Verbosity::quiet); // no progress lines
  const int status = run_fix(opt, "test");
  ASSERT_TRUE(status == 0 || status == 3) << status;
  const std::string suffix = status == 0 ? "" : unconverged_suffix;

  const HostField u = read_gauge_file(opt.input.front(), self_world());
  const HostField fixed = read_gauge_file(opt.output + suffix, self_world());
  const HostField g = read_transform(opt.transform_output + suffix, self_world());
  ASSERT_EQ(g.nc, nc);
  const double violation = testing::max_transform_violation(u, g, fixed);
  EXPECT_LT(violation, 1e-12) << name_of(gauge) << " SU(" << nc << ") seed " << seed << " anneal "
                              << anneal;
}

INSTANTIATE_TEST_SUITE_P(
    Schedules, FixTransform,
    ::testing::Combine(::testing::Values(GaugeKind::landau, GaugeKind::coulomb, GaugeKind::mag),
                       ::testing::Values(3, 2), ::testing::Values(std::uint64_t{0}, 7),
                       ::testing::Values(0, 10)),
    [](const ::testing::TestParamInfo<Case>& info) {
      return std::string(name_of(std::get<0>(info.param))) + "_SU" +
             std::to_string(std::get<1>(info.param)) +
             (std::get<2>(info.param) ? "_random_start" : "") +
             (std::get<3>(info.param) ? "_annealed" : "");
    });

// Gribov copies (--copies 3 --keep-copies): the written field is the copy of largest F among
// the converged ones, and the g(x) of the written field and of every kept copy takes the
// input's links to that copy's links. gauge, random-transform seed of copy 0.
using CopiesCase = std::tuple<GaugeKind, std::uint64_t>;

class FixTransformCopies : public ::testing::TestWithParam<CopiesCase> {};

TEST_P(FixTransformCopies, BestCopyWrittenAndEveryGTakesTheInputToItsCopy) {
  const auto [gauge, seed] = GetParam();
  const World world;
  TempDir dir(world);
  const int L[4] = {4, 4, 4, 4};
  if (world.rank() == 0)
    write_gauge_file(dir.file("in.nersc"), random_field(L, 3, 11, 0.5, RandomPurpose::test), {},
                     self_world());
  world.barrier();

  FixCommandOptions opt;
  opt.input = {dir.file("in.nersc")};
  opt.output = dir.file("fixed.nersc");
  opt.transform_output = dir.file("g.bin");
  opt.summary = dir.file("summary.yaml");
  opt.random_transform_seed = seed;
  opt.copies = 3;
  opt.keep_copies = true;
  opt.plan.gauge = gauge;
  opt.plan.tolerance = 1e-12;
  opt.plan.check_interval = 20;
  opt.plan.max_iterations = 6000;
  gf::log::set_verbosity(gf::log::Verbosity::quiet); // no progress lines
  ASSERT_EQ(run_fix(opt, "test"), 0);

  const YAML::Node copies = YAML::LoadFile(opt.summary)["configurations"][0]["copies"];
  ASSERT_EQ(copies["count"].as<int>(), 3);
  const int best = copies["best"].as<int>();
  const HostField u = read_gauge_file(opt.input.front(), self_world());
  const HostField fixed = read_gauge_file(opt.output, self_world());
  const HostField g = read_transform(opt.transform_output, self_world());
  EXPECT_LT(testing::max_transform_violation(u, g, fixed), 1e-12) << "the written copy";
  for (int k = 0; k < 3; ++k) {
    EXPECT_GE(copies["functional"][best].as<double>(), copies["functional"][k].as<double>())
        << "copy " << k;
    EXPECT_TRUE(copies["converged"][k].as<bool>()) << "copy " << k;
    EXPECT_EQ(copies["seeds"][k].as<std::uint64_t>() == 0, k == 0 && seed == 0) << "copy " << k;
    const HostField copy = read_gauge_file(copy_path(opt.output, k), self_world());
    const HostField gk = read_transform(copy_path(opt.transform_output, k), self_world());
    EXPECT_LT(testing::max_transform_violation(u, gk, copy), 1e-12) << "copy " << k;
    if (k == best) {
      EXPECT_EQ(0, std::memcmp(copy.data.data(), fixed.data.data(),
                               fixed.data.size() * sizeof(fixed.data[0])))
          << "the written field is not the best copy";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Copies, FixTransformCopies,
                         ::testing::Combine(::testing::Values(GaugeKind::landau, GaugeKind::coulomb,
                                                              GaugeKind::mag),
                                            ::testing::Values(std::uint64_t{0}, 7)),
                         [](const ::testing::TestParamInfo<CopiesCase>& info) {
                           return std::string(name_of(std::get<0>(info.param))) +
                                  (std::get<1>(info.param) ? "_random_start" : "");
                         });

// gaugefix transform --transform G IN OUT, G written by the fix of IN: OUT is the fixed field.
TEST(FixTransformCommand, AppliedToInputGivesFixedField) {
  const World world;
  TempDir dir(world);
  const int L[4] = {4, 4, 4, 8};
  if (world.rank() == 0) {
    WriteOptions w;
    write_gauge_file(dir.file("in.nersc"), random_field(L, 3, 9, 0.4, RandomPurpose::test), w,
                     self_world());
  }
  world.barrier();
  for (const char* format : {"lime", "hdf5", "binary"}) {
    FixCommandOptions opt;
    opt.input = {dir.file("in.nersc")};
    opt.output = dir.file(std::string("fixed.") + format + ".nersc");
    opt.transform_output = dir.file(std::string("g.") + format);
    opt.transform_format = format;
    opt.random_transform_seed = 3;
    opt.plan.gauge = GaugeKind::landau;
    opt.plan.tolerance = 1e-12;
    opt.plan.check_interval = 20;
    gf::log::set_verbosity(gf::log::Verbosity::quiet); // no progress lines
    ASSERT_EQ(run_fix(opt, "test"), 0);

    TransformCommandOptions t;
    t.transform = opt.transform_output;
    t.input = opt.input.front();
    t.output = dir.file(std::string("transformed.") + format + ".h5");
    ASSERT_EQ(run_transform(t, world), 0);
    const HostField fixed = read_gauge_file(opt.output, self_world());
    const HostField transformed = read_gauge_file(t.output, self_world());
    EXPECT_LT(testing::max_difference(fixed, transformed), 1e-12) << format;
    EXPECT_EQ(detect_format(t.output), FileFormat::hdf5);
  }
}

} // namespace
} // namespace gf
