// The generator's launches through the tuner: tuning (every mode, and from the cache) leaves
// the links and the acceptance counts untouched, so a tuned run gives the same bits as an
// untuned one, and a tuned ensemble the same files; the split sub-sweeps give the one
// kernel's bits; a warm cache means no timing at all; the launches used are recorded. On
// the CPU, and on the GPU where one is present.
#include "core/error.h"
#include "fix/random_field.h"
#include "gen/ensemble.h"
#include "io/nersc.h"
#include "test_fields.h"
#include "tuning/tune_cache.h"
#include "tuning/tuner.h"
#include <cstring>
#include <filesystem>
#include <gtest/gtest.h>
#include <optional>
#include <unistd.h>

namespace gf {
namespace {

struct Generated {
  HostField links;
  GeneratorSums sums;
};

// A hot start, prepared, then a measurement, a heatbath and an overrelaxation sweep (the
// sub-sweeps' launch forced where `forced` is given).
Generated generate_with(Tuner* tuner, Backend backend, int nc, Precision prec,
                        std::optional<LaunchParams> forced = {}) {
  const int L[4] = {4, 6, 4, 6};
  Generated r{random_field(L, nc, 17, 1.0, RandomPurpose::test), {}};
  GeneratorOptions opt;
  opt.beta = 5.7;
  opt.backend = backend;
  opt.precision = prec;
  opt.seed = 9;
  opt.tuner = tuner;
  opt.sub_sweep_launch = forced;
  auto gen = make_generator(r.links, opt);
  gen->prepare({LinkUpdateKind::heatbath, LinkUpdateKind::overrelaxation});
  const GeneratorSums before = gen->measure();
  gen->sweep(LinkUpdateKind::heatbath, 1);
  gen->sweep(LinkUpdateKind::overrelaxation, 1);
  r.sums = gen->measure();
  r.sums.plaquette.insert(r.sums.plaquette.end(), before.plaquette.begin(), before.plaquette.end());
  r.sums.accepted.insert(r.sums.accepted.end(), before.accepted.begin(), before.accepted.end());
  gen->download(r.links);
  return r;
}

void expect_same_bits(const HostField& a, const HostField& b, const std::string& what) {
  ASSERT_EQ(a.data.size(), b.data.size()) << what;
  EXPECT_EQ(0, std::memcmp(a.data.data(), b.data.data(), a.data.size() * sizeof(Complex<double>)))
      << what;
}

class GeneratorTuning : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("gaugefix-generator-tuning-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  TuneContext context(Backend b) const {
    return {b == Backend::cpu ? host_identity() : DeviceIdentity{"cuda", "test device"}, "test",
            "test"};
  }
  std::filesystem::path dir_;
};

TEST_F(GeneratorTuning, EveryModeGivesTheUntunedBits) {
  for (Backend b : testing::available_backends())
    for (int nc : {2, 3})
      for (Precision p : {Precision::double_, Precision::single}) {
        const Generated plain = generate_with(nullptr, b, nc, p);
        for (TuneMode mode : {TuneMode::off, TuneMode::on, TuneMode::force, TuneMode::cached}) {
          TuneCache cache(dir_.string(), context(b), nullptr);
          Tuner tuner(mode, &cache, nullptr);
          const std::string what = std::string(name_of(b)) + " SU(" + std::to_string(nc) + ") " +
                                   name_of(p) + " mode " + name_of(mode);
          const Generated tuned = generate_with(&tuner, b, nc, p);
          expect_same_bits(plain.links, tuned.links, what);
          EXPECT_EQ(plain.sums.plaquette, tuned.sums.plaquette) << what;
          EXPECT_EQ(plain.sums.accepted, tuned.sums.accepted) << what;
          if (mode == TuneMode::force) {
            EXPECT_EQ(tuner.reports().size(), 3u) << what;
          }
        }
      }
}

// The sub-sweeps as two kernels (staples, then the updates) give the one kernel's bits, in
// every precision, with any block size.
TEST_F(GeneratorTuning, SplitSubSweepsGiveTheOneKernelBits) {
  for (Backend b : testing::available_backends())
    for (int nc : {2, 3})
      for (Precision p : {Precision::double_, Precision::mixed, Precision::single}) {
        const std::string what =
            std::string(name_of(b)) + " SU(" + std::to_string(nc) + ") " + name_of(p);
        const Generated one = generate_with(nullptr, b, nc, p, LaunchParams{"site1", 128});
        for (const LaunchParams& l : {LaunchParams{"split", 64}, LaunchParams{"split", 256}}) {
          const Generated split = generate_with(nullptr, b, nc, p, l);
          expect_same_bits(one.links, split.links, what);
          EXPECT_EQ(one.sums.plaquette, split.sums.plaquette) << what;
          EXPECT_EQ(one.sums.accepted, split.sums.accepted) << what;
        }
      }
}

TEST_F(GeneratorTuning, ForcedLaunchOfAnotherVariantIsRefused) {
  try {
    generate_with(nullptr, Backend::cpu, 3, Precision::double_, LaunchParams{"site4", 128});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("site4"), std::string::npos) << e.what();
  }
}

TEST_F(GeneratorTuning, RecordsTheLaunchesUsed) {
  Tuner tuner(TuneMode::off, nullptr, nullptr);
  generate_with(&tuner, Backend::cpu, 3, Precision::mixed);
  std::vector<std::string> kernels;
  for (const auto& [key, params] : tuner.used()) {
    kernels.push_back(key.kernel);
    EXPECT_EQ(key.aux, "prec=mixed storage=12 group=su3");
    EXPECT_EQ(key.extents, "4x6x4x6");
    EXPECT_EQ(key.region, "whole");
  }
  EXPECT_EQ(kernels, (std::vector<std::string>{"generate.heatbath", "generate.overrelaxation",
                                               "generate.plaquette"}));
}

TEST_F(GeneratorTuning, WarmCacheTimesNothingAndChoosesTheSame) {
  for (Backend b : testing::available_backends()) {
    std::map<TuneKey, LaunchParams> first;
    {
      TuneCache cache(dir_.string(), context(b), nullptr);
      Tuner tuner(TuneMode::on, &cache, nullptr);
      generate_with(&tuner, b, 3, Precision::single);
      EXPECT_EQ(tuner.reports().size(), tuner.used().size()) << "every kernel tuned once";
      first = tuner.used();
    }
    for (TuneMode mode : {TuneMode::on, TuneMode::cached}) {
      TuneCache cache(dir_.string(), context(b), nullptr);
      Tuner tuner(mode, &cache, nullptr);
      generate_with(&tuner, b, 3, Precision::single);
      EXPECT_TRUE(tuner.reports().empty()) << name_of(mode);
      EXPECT_EQ(tuner.used(), first) << name_of(mode);
    }
  }
}

// A whole ensemble run (thermalisation, several saved configurations) with every launch tuned
// in this run writes the same files as one without tuning.
TEST_F(GeneratorTuning, ForcedTuningWritesTheSameEnsemble) {
  for (Backend b : testing::available_backends()) {
    EnsembleOptions o;
    o.lattice = {4, 4, 4, 4};
    o.start = "hot";
    o.thermalisation = 2;
    o.separation = 2;
    o.configs = 3;
    o.or_sweeps = 1;
    o.generator.beta = 5.8;
    o.generator.seed = 271;
    o.generator.backend = b;
    const std::string name = name_of(b);
    EnsembleOptions off = o, force = o;
    off.output_prefix = (dir_ / (name + "-off")).string();
    force.output_prefix = (dir_ / (name + "-force")).string();
    Tuner untuned(TuneMode::off, nullptr, nullptr);
    off.generator.tuner = &untuned;
    TuneCache cache(dir_.string(), context(b), nullptr);
    Tuner tuned(TuneMode::force, &cache, nullptr);
    force.generator.tuner = &tuned;
    EXPECT_EQ(run_ensemble(off).written, 3);
    EXPECT_EQ(run_ensemble(force).written, 3);
    EXPECT_EQ(tuned.reports().size(), 3u) << name;
    for (int j = 0; j < 3; ++j)
      expect_same_bits(read_nersc(config_path(off.output_prefix, j), World()),
                       read_nersc(config_path(force.output_prefix, j), World()),
                       name + " configuration " + std::to_string(j));
  }
}

} // namespace
} // namespace gf
