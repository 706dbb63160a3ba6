// The engines' launches through the tuner: tuning (every mode, and from the cache) leaves
// the field, g(x) and the random-number stream untouched, so a tuned run gives the same
// bits as an untuned one; a warm cache means no timing at all. On the CPU, and on the GPU
// where one is present (where the tuner picks among real variants).
#include "fix/engine.h"
#include "fix/launch_candidates.h"
#include "fix/precision_types.h"
#include "fix/schedule.h"
#include "fix/simd_sweep.h"
#include "test_fields.h"
#include "tuning/tune_cache.h"
#include "tuning/tuner.h"
#include <filesystem>
#include <gtest/gtest.h>

namespace gf {
namespace {

struct SweptField {
  HostField links, transform;
  SliceSums sums;
};

// Two overrelaxation sweeps, a heatbath sweep, a microcanonical sweep, a reprojection.
SweptField sweep_with(Tuner* tuner, Backend backend, GaugeKind gauge, Precision prec) {
  const int L[4] = {8, 6, 4, 6};
  SweptField r{testing::random_field(L, 3, 21, 0.7), {}, {}};
  EngineOptions eo;
  eo.gauge = gauge;
  eo.backend = backend;
  eo.precision = prec;
  eo.track_transform = true;
  eo.seed = 5;
  eo.tuner = tuner;
  auto e = make_engine(r.links, eo);
  UpdateParams orx, heat, micro;
  heat.kind = UpdateKind::heatbath;
  heat.temperature = 0.8;
  micro.kind = UpdateKind::microcanonical;
  e->prepare({orx, heat, micro});
  e->sweep(orx, 0);
  e->sweep(orx, 1);
  e->sweep(heat, 2);
  e->sweep(micro, 3);
  e->reproject();
  r.sums = e->measure();
  r.transform = HostField(r.links.geom, 3, 1);
  e->download(r.links, &r.transform);
  return r;
}

void expect_same_bits(const SweptField& a, const SweptField& b, const std::string& what) {
  ASSERT_EQ(a.links.data.size(), b.links.data.size());
  for (std::size_t i = 0; i < a.links.data.size(); ++i) {
    ASSERT_EQ(a.links.data[i].re, b.links.data[i].re) << what << " link real " << i;
    ASSERT_EQ(a.links.data[i].im, b.links.data[i].im) << what << " link real " << i;
  }
  for (std::size_t i = 0; i < a.transform.data.size(); ++i)
    ASSERT_EQ(a.transform.data[i].re, b.transform.data[i].re) << what << " g(x) real " << i;
  EXPECT_EQ(a.sums.functional, b.sums.functional) << what;
  EXPECT_EQ(a.sums.theta, b.sums.theta) << what;
}

class EngineTuning : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("gaugefix-engine-tuning-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  TuneContext context(Backend b) const {
    return {b == Backend::cpu ? host_identity() : DeviceIdentity{"cuda", "test device"}, "test", "test"};
  }
  std::filesystem::path dir_;
};

TEST_F(EngineTuning, EveryModeGivesTheUntunedBits) {
  for (Backend b : testing::available_backends())
    for (GaugeKind g : {GaugeKind::landau, GaugeKind::mag})
      for (Precision p : {Precision::double_, Precision::mixed}) {
        const SweptField plain = sweep_with(nullptr, b, g, p);
        for (TuneMode mode : {TuneMode::off, TuneMode::on, TuneMode::force, TuneMode::cached}) {
          TuneCache cache(dir_.string(), context(b), nullptr);
          Tuner tuner(mode, &cache, nullptr);
          expect_same_bits(plain, sweep_with(&tuner, b, g, p),
                           std::string(name_of(b)) + " " + name_of(g) + " " + name_of(p) +
                               " mode " + name_of(mode));
          if (mode == TuneMode::force) {
            EXPECT_FALSE(tuner.reports().empty());
          }
          EXPECT_FALSE(tuner.used().empty());
        }
      }
}

TEST_F(EngineTuning, WarmCacheTimesNothingAndChoosesTheSame) {
  for (Backend b : testing::available_backends()) {
    std::map<TuneKey, LaunchParams> first;
    {
      TuneCache cache(dir_.string(), context(b), nullptr);
      Tuner tuner(TuneMode::on, &cache, nullptr);
      sweep_with(&tuner, b, GaugeKind::coulomb, Precision::single);
      EXPECT_EQ(tuner.reports().size(), tuner.used().size()) << "every kernel tuned once";
      first = tuner.used();
    }
    for (TuneMode mode : {TuneMode::on, TuneMode::cached}) {
      TuneCache cache(dir_.string(), context(b), nullptr);
      Tuner tuner(mode, &cache, nullptr);
      sweep_with(&tuner, b, GaugeKind::coulomb, Precision::single);
      EXPECT_TRUE(tuner.reports().empty()) << name_of(mode);
      EXPECT_EQ(tuner.used(), first) << name_of(mode);
    }
  }
}

// On the CPU the local family's sweep is tuned over real candidates, in a fixed order: the
// SIMD widths (fix/simd_sweep.h), then the scalar sweep, each with the static schedule and,
// with more than one thread, dynamic chunks; the heatbath's sweep over the scalar ones only.
// The tuner picks one of them (its ties go to the earlier candidate); without tuning the
// first runs; and a tuned run gives the untuned bits (EveryModeGivesTheUntunedBits).
TEST_F(EngineTuning, CpuSweepCandidatesAndDefault) {
  std::vector<LaunchParams> local, thermal;
  const std::vector<int> widths = simd_candidate_widths<SinglePrecision>();
  EXPECT_EQ(widths.front(), 16) << "64 bytes of floats first";
  EXPECT_EQ(widths.size(), std::size(simd_sweep_widths));
  EXPECT_EQ(simd_candidate_widths<MixedPrecision>().front(), 16);
  EXPECT_EQ(simd_candidate_widths<DoublePrecision>().front(), 8);
  for (int width : widths)
    for (int schedule : cpu_sweep_schedules()) local.push_back({simd_variant(width), schedule, 0, -1, false});
  for (int schedule : cpu_sweep_schedules()) thermal.push_back({"site1", schedule, 0, -1, false});
  local.insert(local.end(), thermal.begin(), thermal.end());

  TuneCache cache(dir_.string(), context(Backend::cpu), nullptr);
  Tuner tuner(TuneMode::force, &cache, nullptr);
  sweep_with(&tuner, Backend::cpu, GaugeKind::landau, Precision::single);
  int sweeps_tuned = 0;
  for (const TuneReport& r : tuner.reports()) {
    if (r.key.kernel.rfind("sweep.", 0) != 0) continue;
    ++sweeps_tuned;
    const std::vector<LaunchParams>& expected = r.key.kernel == "sweep.landau.local" ? local : thermal;
    std::vector<LaunchParams> offered;
    for (const CandidateTiming& c : r.candidates) offered.push_back(c.params);
    EXPECT_EQ(offered, expected) << r.key.kernel;
    EXPECT_LT(r.winner, expected.size());
    EXPECT_EQ(tuner.used().at(r.key), expected.at(r.winner)) << r.key.kernel;
  }
  EXPECT_EQ(sweeps_tuned, 2);

  Tuner off(TuneMode::off, &cache, nullptr);
  sweep_with(&off, Backend::cpu, GaugeKind::landau, Precision::single);
  int defaults = 0;
  for (const auto& [key, params] : off.used())
    if (key.kernel == "sweep.landau.local") {
      EXPECT_EQ(params, local.front());
      ++defaults;
    }
  EXPECT_EQ(defaults, 1);
}

} // namespace
} // namespace gf
