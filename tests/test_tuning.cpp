// test_tuning.cpp: the autotuner's core (tuning/) on the CPU, with fake kernels whose times
// are made up: launch-parameter text, device identity and the tune key, the tune cache
// (round trip; corrupt, truncated, foreign and outdated files; concurrent writers; a
// directory that cannot be written), the tuner's selection (fastest wins, ties to the
// earlier candidate, screening keeps the best few, re-timing over >= 1 ms, the field backed
// up and restored), the modes off/cached/on/force, GAUGEFIX_TUNING, the default-parameter
// table, and (TuningRanks, also under mpirun) one choice per kind of device.
#include "comm/mpi_channel.h"
#include "core/error.h"
#include "gauge_file_test_util.h"
#include "tuning/default_params.h"
#include "tuning/rank_tuning.h"
#include "tuning/tuner.h"
#include <algorithm>
#include <gtest/gtest.h>
#include <map>
#include <omp.h>
#include <optional>
#include <set>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>

namespace gf {
namespace {

namespace fs = std::filesystem;
using testing::read_bytes;
using testing::TempDir;
using testing::write_bytes;

DeviceIdentity fake_device() {
  return {"cuda", "NVIDIA H100 80GB HBM3", 9, 0, 132, 85520809984ull, 13000, 13000};
}

TuneContext fake_context() {
  return {fake_device(), "0.1.0", "cuda=on gpu_arch=90 buildtype=release"};
}

TuneKey fake_key(const std::string& kernel = "sweep.landau.overrelaxation") {
  return {kernel, "prec=single storage=12 group=su3", "32x32x32x32", "whole"};
}

TuneEntry fake_entry(int block) {
  return {{"site4", block, 0, -1, true}, 1.5e-4, 123.25, 0.5, "2026-11-22T04:56:19Z"};
}

// Candidate i has block 32 (i + 1) and takes costs[i] seconds per call (screen_costs[i] in
// the warm-up and screening calls, the first two of each candidate, if given). Every call adds
// `repeats` to `field`, as an in-place kernel changes its data; events records b(ackup), t(ime) and
// r(estore) in order.
class FakeKernel : public Tunable {
public:
  explicit FakeKernel(std::vector<double> costs, TuneKey key = fake_key())
      : costs_(std::move(costs)), screen_costs_(costs_), key_(std::move(key)) {}

  TuneKey key() const override { return key_; }
  double bytes() const override { return 768.0 * 1024 * 1024; }
  double flops() const override { return 2274.0 * 1024 * 1024; }
  std::vector<LaunchParams> candidates() const override {
    std::vector<LaunchParams> c;
    for (std::size_t i = 0; i < costs_.size(); ++i)
      c.push_back(params(i));
    return c;
  }
  LaunchParams default_params() const override { return {"site1", 96, 0, -1, false}; }
  void backup() override {
    events += 'b';
    saved_ = field;
  }
  void restore() override {
    events += 'r';
    field = saved_;
  }
  double time(const LaunchParams& p, int repeats) override {
    if (throw_on_time) throw std::runtime_error("launch failed");
    events += 't';
    field += repeats;
    const std::size_t i = static_cast<std::size_t>(p.block / 32 - 1);
    calls.push_back({i, repeats});
    const bool screening = calls.size() <= 2 * costs_.size();
    return (screening ? screen_costs_[i] : costs_[i]) * repeats;
  }

  static LaunchParams params(std::size_t i) { return {"site4", 32 * int(i + 1), 0, -1, false}; }
  void set_screen_costs(std::vector<double> c) { screen_costs_ = std::move(c); }

  struct Call {
    std::size_t candidate;
    int repeats;
  };
  std::vector<Call> calls;
  std::string events;
  long field = 7;
  bool throw_on_time = false;

private:
  std::vector<double> costs_, screen_costs_;
  TuneKey key_;
  long saved_ = 0;
};

int warnings_in(const std::string& log) {
  int n = 0;
  for (std::size_t p = 0; (p = log.find("tune cache ", p)) != std::string::npos; ++p)
    ++n;
  return n;
}

// ---------------------------------------------------------------- launch parameters

TEST(LaunchParams, TextRoundTrip) {
  const LaunchParams a{"site8", 256, 2, 50, true};
  EXPECT_EQ(format_launch_params(a), "variant=site8 block=256 minb=2 carveout=50 loads=stream");
  for (const LaunchParams& p : {a, LaunchParams{}, LaunchParams{"site1", 1024, 0, -1, false}})
    EXPECT_EQ(parse_launch_params(format_launch_params(p)), p);
  EXPECT_NE(LaunchParams{}, a);
}

TEST(LaunchParams, BadTextThrowsNamingIt) {
  for (const char* bad :
       {"", "variant=site4", "block=128 variant=site4 minb=0 carveout=-1 loads=cache",
        "variant=site4 block=x minb=0 carveout=-1 loads=cache",
        "variant=site4 block=-1 minb=0 carveout=-1 loads=cache",
        "variant=site4 block=64 minb=-1 carveout=-1 loads=cache",
        "variant=site4 block=64 minb=0 carveout=101 loads=cache",
        "variant=site4 block=64 minb=0 carveout=-1 loads=texture",
        "variant=site4 block=64 minb=0 carveout=-1 loads=cache extra=1",
        "variant= block=64 minb=0 carveout=-1 loads=cache"}) {
    try {
      parse_launch_params(bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("launch parameters '" + std::string(bad) + "'"),
                std::string::npos);
    }
  }
}

// ---------------------------------------------------------------- identity and key

TEST(DeviceIdentity, HostIdentity) {
  const DeviceIdentity h = host_identity();
  EXPECT_EQ(h.backend, "cpu");
  EXPECT_FALSE(h.name.empty());
  EXPECT_EQ(h.sm_count, omp_get_max_threads());
  EXPECT_GT(h.memory_bytes, 0u);
}

TEST(DeviceIdentity, EveryFieldChangesStringAndTag) {
  std::vector<DeviceIdentity> ids(9, fake_device());
  ids[1].backend = "cpu";
  ids[2].name = "NVIDIA H200";
  ids[3].cc_major = 8;
  ids[4].cc_minor = 9;
  ids[5].sm_count = 114;
  ids[6].memory_bytes += 1;
  ids[7].runtime_version = 12040;
  ids[8].driver_version = 12080;
  std::set<std::string> strings, tags;
  for (const DeviceIdentity& id : ids) {
    strings.insert(id.to_string());
    tags.insert(id.file_tag());
    EXPECT_EQ(id.to_string().find('\n'), std::string::npos);
    for (const char c : id.file_tag())
      EXPECT_TRUE((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-') << id.file_tag();
  }
  EXPECT_EQ(strings.size(), ids.size());
  EXPECT_EQ(tags.size(), ids.size());
  EXPECT_EQ(fake_device().file_tag().rfind("nvidia-h100-80gb-hbm3-cc90-sm132-80g-", 0), 0u)
      << fake_device().file_tag();
}

TEST(TuneKey, FullKeyChangesWithEachPart) {
  std::vector<std::pair<TuneContext, TuneKey>> v(9, {fake_context(), fake_key()});
  v[1].first.device.sm_count = 114;
  v[2].first.device.driver_version = 12080;
  v[3].first.version = "0.2.0";
  v[4].first.build_options = build_options(true, "80,90", "debug");
  v[5].second.kernel = "sweep.coulomb.overrelaxation";
  v[6].second.aux = "prec=double storage=12 group=su3";
  v[7].second.extents = "32x32x32x16";
  v[8].second.region = "interior";
  std::set<std::string> keys;
  for (const auto& [context, key] : v)
    keys.insert(full_key(context, key));
  EXPECT_EQ(keys.size(), v.size());
  const std::string k = full_key(fake_context(), fake_key());
  EXPECT_EQ(std::count(k.begin(), k.end(), '\n'), 7);
}

TEST(TuneKey, BuildOptionsAndChecks) {
  EXPECT_EQ(build_options(true, "80,90", "release"), "cuda=on gpu_arch=80,90 buildtype=release");
  EXPECT_EQ(build_options(false, "90", "debug"), "cuda=off gpu_arch=- buildtype=debug");
  EXPECT_EQ(build_options(false, "90", "release", "native"),
            "cuda=off gpu_arch=- buildtype=release cpu_arch=native");
  EXPECT_NE(compiled_build_options().find("buildtype="), std::string::npos);
  EXPECT_NO_THROW(check_tune_key(fake_key()));
  TuneKey bad = fake_key();
  bad.region = "halo";
  EXPECT_THROW(check_tune_key(bad), Error);
  bad = fake_key();
  bad.aux = "prec=single\tstorage=12";
  EXPECT_THROW(check_tune_key(bad), Error);
  bad = fake_key();
  bad.kernel = "";
  EXPECT_THROW(check_tune_key(bad), Error);
}

// ---------------------------------------------------------------- the cache

TEST(TuneCache, DirectoryFromEnvironment) {
  const auto keep = [](const char* n) {
    const char* v = std::getenv(n);
    return v ? std::optional<std::string>(v) : std::nullopt;
  };
  const auto restore = [](const char* n, const std::optional<std::string>& v) {
    v ? ::setenv(n, v->c_str(), 1) : ::unsetenv(n);
  };
  const auto cache = keep("GAUGEFIX_TUNE_CACHE"), xdg = keep("XDG_CACHE_HOME"), home = keep("HOME");
  ::setenv("GAUGEFIX_TUNE_CACHE", "/t/cache", 1);
  ::setenv("XDG_CACHE_HOME", "/t/xdg", 1);
  ::setenv("HOME", "/t/home", 1);
  EXPECT_EQ(tune_cache_directory(), "/t/cache");
  ::unsetenv("GAUGEFIX_TUNE_CACHE");
  EXPECT_EQ(tune_cache_directory(), "/t/xdg/gaugefix");
  ::unsetenv("XDG_CACHE_HOME");
  EXPECT_EQ(tune_cache_directory(), "/t/home/.cache/gaugefix");
  ::unsetenv("HOME");
  EXPECT_EQ(tune_cache_directory(), "");
  restore("GAUGEFIX_TUNE_CACHE", cache);
  restore("XDG_CACHE_HOME", xdg);
  restore("HOME", home);
}

TEST(TuneCache, RoundTrip) {
  const TempDir dir;
  std::ostringstream log;
  TuneEntry unknown_fraction = fake_entry(64);
  unknown_fraction.stream_fraction = -1;
  {
    TuneCache cache(dir.file("sub"), fake_context(), &log);
    EXPECT_EQ(cache.path(), dir.file("sub/tunecache-" + fake_device().file_tag() + ".tsv"));
    EXPECT_EQ(cache.find(fake_key()), nullptr);
    cache.put(fake_key(), fake_entry(128));
    cache.put(fake_key("measure.landau"), unknown_fraction);
    cache.save();
  }
  TuneCache again(dir.file("sub"), fake_context(), &log);
  ASSERT_NE(again.find(fake_key()), nullptr);
  EXPECT_EQ(*again.find(fake_key()), fake_entry(128));
  ASSERT_NE(again.find(fake_key("measure.landau")), nullptr);
  EXPECT_EQ(*again.find(fake_key("measure.landau")), unknown_fraction);
  EXPECT_EQ(log.str(), "");
  const std::string text = read_bytes(again.path());
  const std::string header = "gaugefix-tunecache\t1\nprogram\t0.1.0\tcuda=on gpu_arch=90 "
                             "buildtype=release\ndevice\t" +
                             fake_device().to_string() + "\nkernel\taux\t";
  EXPECT_EQ(text.rfind(header, 0), 0u) << text;
  const std::string line = "sweep.landau.overrelaxation\tprec=single storage=12 group=su3\t"
                           "32x32x32x32\twhole\tvariant=site4 block=128 minb=0 carveout=-1 "
                           "loads=stream\t1.500000e-04\t123.25\t0.5000\t2026-11-22T04:56:19Z\n";
  EXPECT_NE(text.find(line), std::string::npos) << text;
  EXPECT_EQ(text.substr(text.size() - 6), "end\t2\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.file("sub")), {}), 2); // file and lock
}

// A bad file: one warning, no entries, the tuner retunes, and the next save replaces it.
void expect_bad_file_replaced(const std::string& text, const TuneContext& reader,
                              const std::string& reason) {
  const TempDir dir;
  const std::string path = dir.file("tunecache-" + reader.device.file_tag() + ".tsv");
  write_bytes(path, text);
  std::ostringstream log;
  TuneCache cache(dir.file(""), reader, &log);
  EXPECT_EQ(warnings_in(log.str()), 1) << log.str();
  EXPECT_NE(log.str().find(reason), std::string::npos) << log.str();
  EXPECT_NE(log.str().find(path), std::string::npos) << log.str();
  EXPECT_EQ(cache.find(fake_key()), nullptr);

  FakeKernel k({3e-6, 1e-6, 2e-6});
  Tuner tuner(TuneMode::on, &cache, nullptr);
  EXPECT_EQ(tuner.choose(k), FakeKernel::params(1));
  EXPECT_FALSE(k.calls.empty());
  EXPECT_EQ(warnings_in(log.str()), 1) << log.str();
  std::ostringstream again_log;
  TuneCache again(dir.file(""), reader, &again_log);
  EXPECT_EQ(again_log.str(), "");
  ASSERT_NE(again.find(fake_key()), nullptr);
  EXPECT_EQ(again.find(fake_key())->params, FakeKernel::params(1));
}

std::string good_text(const TuneContext& context) {
  TuneEntries e;
  e[fake_key()] = fake_entry(128);
  e[fake_key("measure.landau")] = fake_entry(64);
  return format_cache_text(context, e);
}

TEST(TuneCache, CorruptFile) {
  expect_bad_file_replaced("hello\n", fake_context(), "not a gaugefix tune cache");
  expect_bad_file_replaced("", fake_context(), "truncated");
  std::string bad_number = good_text(fake_context());
  bad_number.replace(bad_number.find("1.500000e-04"), 12, "1.5e-4x");
  expect_bad_file_replaced(bad_number, fake_context(), "seconds");
  std::string not_finite = good_text(fake_context());
  not_finite.replace(not_finite.find("123.25"), 6, "nan");
  expect_bad_file_replaced(not_finite, fake_context(), "gb_per_s");
  std::string bad_params = good_text(fake_context());
  bad_params.replace(bad_params.find("block=128"), 9, "block=-1");
  expect_bad_file_replaced(bad_params, fake_context(), "block");
  std::string binary(300, '\0');
  expect_bad_file_replaced(binary, fake_context(), "tune cache");
}

TEST(TuneCache, TruncatedFile) {
  const std::string text = good_text(fake_context());
  const std::size_t last_entry = text.rfind("\nsweep") + 1, end_line = text.rfind("end\t");
  for (const std::size_t cut :
       {std::size_t(30), text.find("device"), last_entry + 20, end_line, text.size() - 1})
    expect_bad_file_replaced(text.substr(0, cut), fake_context(), "truncated");
  // A whole entry line lost: the end line's count no longer matches.
  const std::string lost = text.substr(0, last_entry) + text.substr(end_line);
  expect_bad_file_replaced(lost, fake_context(), "truncated");
}

TEST(TuneCache, OtherDeviceVersionBuildOrFormat) {
  TuneContext h200 = fake_context();
  h200.device.name = "NVIDIA H200";
  h200.device.memory_bytes = 150754820096ull;
  expect_bad_file_replaced(good_text(h200), fake_context(), "another device");
  TuneContext newer = fake_context();
  newer.device.driver_version = 13010;
  expect_bad_file_replaced(good_text(newer), fake_context(), "another device");
  TuneContext old_version = fake_context();
  old_version.version = "0.0.9";
  expect_bad_file_replaced(good_text(old_version), fake_context(), "another gaugefix version");
  TuneContext debug = fake_context();
  debug.build_options = build_options(true, "90", "debug");
  expect_bad_file_replaced(good_text(debug), fake_context(), "another gaugefix version or build");
  std::string old_format = good_text(fake_context());
  old_format.replace(0, 20, "gaugefix-tunecache\t0");
  expect_bad_file_replaced(old_format, fake_context(), "format version 0");
}

TEST(TuneCache, ConcurrentWritersKeepEveryEntry) {
  const TempDir dir;
  const int per_writer = 25;
  std::vector<pid_t> children;
  for (int w = 0; w < 2; ++w) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      // A fresh cache per entry: a lost update would lose that entry for good, and every
      // read must see a whole file (no warning) while the other process replaces it.
      int status = 0;
      try {
        for (int i = 0; i < per_writer; ++i) {
          std::ostringstream log;
          TuneCache cache(dir.file(""), fake_context(), &log);
          cache.put(fake_key("writer" + std::to_string(w) + ".k" + std::to_string(i)),
                    fake_entry(32 * (w + 1)));
          cache.save();
          if (!log.str().empty()) status = 2;
        }
      } catch (...) {
        status = 1;
      }
      ::_exit(status);
    }
    children.push_back(pid);
  }
  for (const pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  std::ostringstream log;
  TuneCache cache(dir.file(""), fake_context(), &log);
  EXPECT_EQ(log.str(), "");
  for (int w = 0; w < 2; ++w)
    for (int i = 0; i < per_writer; ++i) {
      const TuneEntry* e =
          cache.find(fake_key("writer" + std::to_string(w) + ".k" + std::to_string(i)));
      ASSERT_NE(e, nullptr) << "writer " << w << " entry " << i;
      EXPECT_EQ(*e, fake_entry(32 * (w + 1)));
    }
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.file("")), {}), 2); // no temporary left
}

TEST(TuneCache, SaveMergesWithEntriesWrittenMeanwhile) {
  const TempDir dir;
  TuneCache first(dir.file(""), fake_context(), nullptr);
  TuneCache second(dir.file(""), fake_context(), nullptr);
  first.put(fake_key("a"), fake_entry(32));
  first.put(fake_key("shared"), fake_entry(32));
  first.save();
  second.put(fake_key("b"), fake_entry(64));
  second.put(fake_key("shared"), fake_entry(64));
  second.save();
  EXPECT_NE(second.find(fake_key("a")), nullptr); // read back while merging
  const TuneCache after(dir.file(""), fake_context(), nullptr);
  ASSERT_NE(after.find(fake_key("a")), nullptr);
  ASSERT_NE(after.find(fake_key("b")), nullptr);
  EXPECT_EQ(after.find(fake_key("shared"))->params.block, 64); // the later save's own entry
}

TEST(TuneCache, UncreatableDirectoryKeepsResultsInMemory) {
  const TempDir dir;
  write_bytes(dir.file("plain"), "a file, not a folder\n");
  std::ostringstream log;
  TuneCache cache(dir.file("plain/cache"), fake_context(), &log);
  EXPECT_EQ(log.str(), "");
  FakeKernel k({2e-6, 1e-6});
  Tuner tuner(TuneMode::on, &cache, nullptr);
  EXPECT_EQ(tuner.choose(k), FakeKernel::params(1));
  cache.put(fake_key("other"), fake_entry(32));
  cache.save();
  EXPECT_EQ(warnings_in(log.str()), 1) << log.str();
  EXPECT_NE(log.str().find("kept in memory only"), std::string::npos);
  ASSERT_NE(cache.find(fake_key()), nullptr);
  EXPECT_EQ(cache.find(fake_key())->params, FakeKernel::params(1));
}

TEST(TuneCache, ReadOnlyDirectory) {
  const TempDir dir;
  const std::string ro = dir.file("ro");
  {
    TuneCache writer(ro, fake_context(), nullptr);
    writer.put(fake_key("stored"), fake_entry(32));
    writer.save();
  }
  ASSERT_EQ(::chmod(ro.c_str(), 0555), 0);
  const std::string probe = ro + "/probe";
  if (std::FILE* f = std::fopen(probe.c_str(), "w")) { // root ignores permissions
    std::fclose(f);
    std::remove(probe.c_str());
    ::chmod(ro.c_str(), 0755);
    GTEST_SKIP() << "this user can write a mode-0555 folder";
  }
  std::ostringstream log;
  TuneCache cache(ro, fake_context(), &log);
  EXPECT_EQ(log.str(), "");
  EXPECT_NE(cache.find(fake_key("stored")), nullptr); // read-only caches are still read
  cache.put(fake_key(), fake_entry(128));
  cache.save();
  cache.put(fake_key("more"), fake_entry(64));
  cache.save();
  EXPECT_EQ(warnings_in(log.str()), 1) << log.str();
  EXPECT_NE(cache.find(fake_key("more")), nullptr);
  ::chmod(ro.c_str(), 0755);
}

// ---------------------------------------------------------------- selection

TEST(Tuner, PicksTheFastestAndReportsIt) {
  FakeKernel k({5e-6, 2e-6, 9e-6, 1e-6, 4e-6, 3e-6});
  Tuner tuner(TuneMode::on, nullptr, nullptr);
  tuner.set_stream_bandwidth(3000);
  EXPECT_EQ(tuner.choose(k), FakeKernel::params(3));
  ASSERT_EQ(tuner.reports().size(), 1u);
  const TuneReport& r = tuner.reports()[0];
  EXPECT_EQ(r.winner, 3u);
  EXPECT_EQ(r.key, fake_key());
  ASSERT_EQ(r.candidates.size(), 6u);
  EXPECT_NEAR(r.candidates[3].seconds, 1e-6, 1e-15);
  EXPECT_NEAR(r.candidates[3].gb_per_s, k.bytes() / 1e-6 * 1e-9, 1e-6);
  EXPECT_NEAR(r.candidates[3].stream_fraction, r.candidates[3].gb_per_s / 3000, 1e-12);
  std::ostringstream out;
  print_tune_report(out, r);
  EXPECT_NE(out.str().find(format_launch_params(FakeKernel::params(3)) + " "), std::string::npos);
  EXPECT_NE(out.str().find("<- winner"), std::string::npos);
  EXPECT_NE(out.str().find("of stream"), std::string::npos);
  EXPECT_EQ(tuner.used().at(fake_key()), FakeKernel::params(3));
}

TEST(Tuner, WarmUpScreeningThenReTimingOfTheBestFew) {
  // Screening order, fastest first: 6, 1, 4, then 3, 7 and 8 tied; the stable sort keeps
  // the five 6, 1, 4, 3, 7 and drops the later 8.
  const std::vector<double> screen = {9e-6, 2e-6, 8e-6, 4e-6, 3e-6, 7e-6, 1e-6, 4e-6, 4e-6};
  std::vector<double> retimed = screen;
  retimed[4] = 0.5e-6; // screening misjudged candidate 4; the re-timing decides
  FakeKernel k(retimed);
  k.set_screen_costs(screen);
  Tuner tuner(TuneMode::on, nullptr, nullptr);
  EXPECT_EQ(tuner.choose(k), FakeKernel::params(4));

  const std::size_t n = screen.size();
  ASSERT_GT(k.calls.size(), 2 * n);
  for (std::size_t i = 0; i < 2 * n; ++i) { // warm-up, then screening, in candidate order
    EXPECT_EQ(k.calls[i].candidate, i % n);
    EXPECT_EQ(k.calls[i].repeats, 1);
  }
  std::set<std::size_t> retimed_set;
  std::map<std::size_t, int> last_repeats;
  for (std::size_t i = 2 * n; i < k.calls.size(); ++i) {
    retimed_set.insert(k.calls[i].candidate);
    last_repeats[k.calls[i].candidate] = k.calls[i].repeats;
  }
  EXPECT_EQ(retimed_set, (std::set<std::size_t>{1, 3, 4, 6, 7}));
  EXPECT_EQ(retimed_set.size(), std::size_t(Tuner::finalists));
  for (const auto& [c, repeats] : last_repeats)
    EXPECT_GE(repeats * retimed[c], Tuner::min_timing_seconds) << "candidate " << c;
  const TuneReport& r = tuner.reports()[0];
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_EQ(r.candidates[i].finalist, retimed_set.count(i) == 1);
    EXPECT_EQ(r.candidates[i].repeats, r.candidates[i].finalist ? last_repeats[i] : 0);
  }
}

TEST(Tuner, TiesGoToTheEarlierCandidate) {
  FakeKernel k({3e-6, 2e-6, 2e-6, 2e-6});
  Tuner tuner(TuneMode::on, nullptr, nullptr);
  EXPECT_EQ(tuner.choose(k), FakeKernel::params(1));
  FakeKernel same({2e-6, 2e-6, 2e-6, 2e-6, 2e-6, 2e-6, 2e-6});
  Tuner again(TuneMode::on, nullptr, nullptr);
  EXPECT_EQ(again.choose(same), FakeKernel::params(0));
  std::set<std::size_t> retimed;
  for (std::size_t i = 14; i < same.calls.size(); ++i)
    retimed.insert(same.calls[i].candidate);
  EXPECT_EQ(retimed, (std::set<std::size_t>{0, 1, 2, 3, 4}));
}

TEST(Tuner, ReTimingReachesOneMillisecondFromAnyStart) {
  for (const double cost : {1e-9, 3e-7, 2e-4, 5e-3}) {
    FakeKernel k({cost});
    k.set_screen_costs({cost * 50}); // a slow first call must not cut the re-timing short
    Tuner tuner(TuneMode::on, nullptr, nullptr);
    tuner.choose(k);
    ASSERT_GT(k.calls.size(), 2u);
    EXPECT_GE(k.calls.back().repeats * cost, Tuner::min_timing_seconds);
    EXPECT_NEAR(tuner.reports()[0].candidates[0].seconds, cost, cost * 1e-9);
  }
}

TEST(Tuner, BackupBeforeAndRestoreAfterTuning) {
  FakeKernel k({2e-6, 1e-6, 3e-6});
  Tuner tuner(TuneMode::force, nullptr, nullptr);
  tuner.choose(k);
  EXPECT_EQ(k.field, 7);
  EXPECT_EQ(k.events.front(), 'b');
  EXPECT_EQ(k.events.back(), 'r');
  EXPECT_EQ(std::count(k.events.begin(), k.events.end(), 'b'), 1);
  EXPECT_EQ(std::count(k.events.begin(), k.events.end(), 'r'), 1);

  FakeKernel failing({1e-6});
  failing.throw_on_time = true;
  Tuner other(TuneMode::on, nullptr, nullptr);
  EXPECT_THROW(other.choose(failing), std::runtime_error);
  EXPECT_EQ(failing.events, "br");
}

// ---------------------------------------------------------------- modes

TEST(Tuner, ModeOffUsesDefaultsAndNeverTimes) {
  const TempDir dir;
  TuneCache cache(dir.file(""), fake_context(), nullptr);
  cache.put(fake_key(), {FakeKernel::params(0), 1e-6, 1, -1, "x"});
  FakeKernel k({2e-6, 1e-6});
  Tuner tuner(TuneMode::off, &cache, nullptr);
  EXPECT_EQ(tuner.choose(k), k.default_params());
  EXPECT_TRUE(k.events.empty());
  EXPECT_EQ(tuner.used().at(fake_key()), k.default_params());
}

TEST(Tuner, ModeCachedReadsButNeverTimes) {
  const TempDir dir;
  TuneCache cache(dir.file(""), fake_context(), nullptr);
  FakeKernel miss({2e-6, 1e-6});
  Tuner tuner(TuneMode::cached, &cache, nullptr);
  EXPECT_EQ(tuner.choose(miss), miss.default_params());
  cache.put(fake_key("hit"), {FakeKernel::params(0), 1e-6, 1, -1, "x"});
  FakeKernel hit({2e-6, 1e-6}, fake_key("hit"));
  EXPECT_EQ(tuner.choose(hit), FakeKernel::params(0));
  // An entry whose params are no longer a candidate counts as missing.
  TuneEntry gone = fake_entry(32);
  gone.params.variant = "site16";
  cache.put(fake_key("stale"), gone);
  FakeKernel stale({2e-6, 1e-6}, fake_key("stale"));
  EXPECT_EQ(tuner.choose(stale), stale.default_params());
  EXPECT_TRUE(miss.events.empty() && hit.events.empty() && stale.events.empty());
  EXPECT_TRUE(tuner.reports().empty());
  FakeKernel no_cache({2e-6, 1e-6});
  Tuner without(TuneMode::cached, nullptr, nullptr);
  EXPECT_EQ(without.choose(no_cache), no_cache.default_params());
  EXPECT_TRUE(no_cache.events.empty());
}

TEST(Tuner, ModeOnTunesOnceAndStores) {
  const TempDir dir;
  std::ostringstream log;
  {
    TuneCache cache(dir.file(""), fake_context(), nullptr);
    FakeKernel k({2e-6, 1e-6});
    Tuner tuner(TuneMode::on, &cache, &log);
    EXPECT_EQ(tuner.choose(k), FakeKernel::params(1));
    const std::size_t calls = k.calls.size();
    EXPECT_GT(calls, 0u);
    EXPECT_EQ(tuner.choose(k), FakeKernel::params(1)); // once per key and Tuner
    EXPECT_EQ(k.calls.size(), calls);
    EXPECT_NE(log.str().find("tuned sweep.landau.overrelaxation"), std::string::npos);
  }
  TuneCache cache(dir.file(""), fake_context(), nullptr); // stored on disk
  ASSERT_NE(cache.find(fake_key()), nullptr);
  EXPECT_EQ(cache.find(fake_key())->params, FakeKernel::params(1));
  EXPECT_NEAR(cache.find(fake_key())->seconds, 1e-6, 1e-12);
  FakeKernel k({2e-6, 1e-6});
  Tuner tuner(TuneMode::on, &cache, nullptr);
  EXPECT_EQ(tuner.choose(k), FakeKernel::params(1));
  EXPECT_TRUE(k.events.empty());
}

TEST(Tuner, ModeForceRetunesAndReplacesTheEntry) {
  const TempDir dir;
  {
    TuneCache cache(dir.file(""), fake_context(), nullptr);
    cache.put(fake_key(), {FakeKernel::params(0), 5e-6, 1, -1, "2000-01-01T00:00:00Z"});
    cache.save();
  }
  TuneCache cache(dir.file(""), fake_context(), nullptr);
  FakeKernel k({2e-6, 1e-6});
  Tuner tuner(TuneMode::force, &cache, nullptr);
  EXPECT_EQ(tuner.choose(k), FakeKernel::params(1));
  EXPECT_FALSE(k.calls.empty());
  const TuneCache after(dir.file(""), fake_context(), nullptr);
  EXPECT_EQ(after.find(fake_key())->params, FakeKernel::params(1));
  EXPECT_NE(after.find(fake_key())->date, "2000-01-01T00:00:00Z");
}

TEST(TuneMode, ParseAndEnvironment) {
  EXPECT_EQ(parse_name<TuneMode>("--tuning", "off"), TuneMode::off);
  EXPECT_EQ(parse_name<TuneMode>("--tuning", "cached"), TuneMode::cached);
  EXPECT_EQ(parse_name<TuneMode>("--tuning", "on"), TuneMode::on);
  EXPECT_EQ(parse_name<TuneMode>("--tuning", "force"), TuneMode::force);
  for (const TuneMode m : {TuneMode::off, TuneMode::cached, TuneMode::on, TuneMode::force})
    EXPECT_EQ(parse_name<TuneMode>("x", name_of(m)), m);
  try {
    parse_name<TuneMode>("--tuning", "yes");
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("--tuning"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("'yes'"), std::string::npos);
  }
  const char* old = std::getenv("GAUGEFIX_TUNING");
  const std::string kept = old ? old : "";
  ::unsetenv("GAUGEFIX_TUNING");
  EXPECT_EQ(tune_mode_from_env(), TuneMode::on);
  ::setenv("GAUGEFIX_TUNING", "force", 1);
  EXPECT_EQ(tune_mode_from_env(), TuneMode::force);
  EXPECT_EQ(resolved_tune_mode(TuneMode::from_environment), TuneMode::force);
  EXPECT_EQ(resolved_tune_mode(TuneMode::off), TuneMode::off);
  ::setenv("GAUGEFIX_TUNING", "cached", 1);
  EXPECT_EQ(tune_mode_from_env(), TuneMode::cached);
  ::setenv("GAUGEFIX_TUNING", "Off", 1);
  try {
    tune_mode_from_env();
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("GAUGEFIX_TUNING"), std::string::npos);
  }
  old ? ::setenv("GAUGEFIX_TUNING", kept.c_str(), 1) : ::unsetenv("GAUGEFIX_TUNING");
}

// ---------------------------------------------------------------- defaults

TEST(DefaultParams, TableLookupAndRows) {
  const DeviceIdentity h100 = fake_device();
  EXPECT_EQ(default_launch_params(h100, fake_key()), generic_launch_params());
  const std::vector<DefaultParamsRow> table = {
      {90, "sweep", "single", "", "variant=site8 block=64 minb=0 carveout=-1 loads=cache"},
      {90, "sweep.landau.overrelaxation", "single", "18",
       "variant=site2 block=64 minb=0 carveout=-1 loads=cache"},
      {90, "sweep.landau.overrelaxation", "single", "12",
       "variant=site4 block=128 minb=2 carveout=-1 loads=stream"},
      {90, "sweep", "double", "", "variant=site4 block=256 minb=0 carveout=-1 loads=cache"},
      {80, "sweep", "single", "", "variant=site1 block=32 minb=0 carveout=-1 loads=cache"},
  };
  // each storage its own row
  TuneKey full = fake_key();
  full.aux = "prec=single storage=18 group=su3";
  EXPECT_EQ(default_launch_params(table, h100, full), parse_launch_params(table[1].params));
  full.aux = "prec=single storage=8 group=su3"; // no row of its storage: the family's
  EXPECT_EQ(default_launch_params(table, h100, full), parse_launch_params(table[0].params));
  EXPECT_EQ(default_launch_params(table, h100, fake_key()),
            parse_launch_params(table[2].params)); // the exact kernel before its family
  EXPECT_EQ(default_launch_params(table, h100, fake_key("sweep.mag.relaxation")),
            parse_launch_params(table[0].params));
  TuneKey dbl = fake_key("sweep.mag.relaxation");
  dbl.aux = "prec=double storage=18 group=su3";
  EXPECT_EQ(default_launch_params(table, h100, dbl), parse_launch_params(table[3].params));
  EXPECT_EQ(default_launch_params(table, h100, fake_key("measure.landau")),
            generic_launch_params());
  DeviceIdentity blackwell = h100;
  blackwell.cc_major = 10;
  EXPECT_EQ(default_launch_params(table, blackwell, fake_key()), generic_launch_params());
  EXPECT_EQ(default_table_row(h100, fake_key(), parse_launch_params(table[2].params)),
            "    {90, \"sweep.landau.overrelaxation\", \"single\", \"12\", "
            "\"variant=site4 block=128 minb=2 carveout=-1 loads=stream\", \"H100\"},");
}

TEST(DefaultParams, RowsOfTheDeviceModelBeforeThoseOfItsArchitecture) {
  EXPECT_EQ(device_model("NVIDIA H100 80GB HBM3"), "H100");
  EXPECT_EQ(device_model("NVIDIA H200"), "H200");
  EXPECT_EQ(device_model("Tesla"), "Tesla");
  const std::vector<DefaultParamsRow> table = {
      {90, "sweep.landau.overrelaxation", "single", "12",
       "variant=site4 block=128 minb=2 carveout=-1 loads=cache"},
      {90, "sweep", "single", "", "variant=site8 block=64 minb=0 carveout=-1 loads=cache"},
      {90, "sweep.landau.overrelaxation", "single", "12",
       "variant=site2 block=256 minb=0 carveout=-1 loads=cache", "H200"},
      {90, "sweep", "single", "", "variant=site1 block=32 minb=0 carveout=-1 loads=cache", "H200"},
  };
  const DeviceIdentity h100 = fake_device();
  DeviceIdentity h200 = h100;
  h200.name = "NVIDIA H200";
  // the H100 has no rows of its own: those of cc 9.0 that name no model
  EXPECT_EQ(default_launch_params(table, h100, fake_key()), parse_launch_params(table[0].params));
  EXPECT_EQ(default_launch_params(table, h100, fake_key("sweep.mag.relaxation")),
            parse_launch_params(table[1].params));
  // the H200 takes its own, the exact kernel and the family alike
  EXPECT_EQ(default_launch_params(table, h200, fake_key()), parse_launch_params(table[2].params));
  EXPECT_EQ(default_launch_params(table, h200, fake_key("sweep.mag.relaxation")),
            parse_launch_params(table[3].params));
  // of another precision it has no row of its own, nor does cc 9.0: the generic launch
  TuneKey dbl = fake_key();
  dbl.aux = "prec=double storage=12 group=su3";
  EXPECT_EQ(default_launch_params(table, h200, dbl), generic_launch_params());
  EXPECT_EQ(default_table_row(h200, fake_key(), parse_launch_params(table[2].params)),
            "    {90, \"sweep.landau.overrelaxation\", \"single\", \"12\", "
            "\"variant=site2 block=256 minb=0 carveout=-1 loads=cache\", \"H200\"},");
}

TEST(DefaultParams, ShippedRowsParseAndTheH200HasItsOwn) {
  int h200 = 0;
  for (const DefaultParamsRow& r : default_params_table()) {
    EXPECT_NO_THROW(parse_launch_params(r.params)) << r.kernel << " " << r.params;
    h200 += r.model == std::string("H200");
  }
  EXPECT_GT(h200, 0);
  // the H200's own row wins over the row of cc 9.0 that names no model
  DeviceIdentity device = fake_device();
  device.name = "NVIDIA H200";
  TuneKey key = fake_key("sweep.landau.local");
  key.aux = "prec=single storage=12 group=su3";
  const DefaultParamsRow* own = nullptr;
  for (const DefaultParamsRow& r : default_params_table())
    if (r.model == std::string("H200") && r.kernel == key.kernel &&
        r.precision == std::string("single") && r.storage == std::string("12"))
      own = &r;
  ASSERT_NE(own, nullptr);
  EXPECT_EQ(default_launch_params(device, key), parse_launch_params(own->params));
}

// ---------------------------------------------------------------- ranks

// Under mpirun: ranks of even and odd number have different (fake) devices; each rank's
// kernel alone would pick another candidate, but every rank launches with what the lowest
// rank of its device kind chose, and only those ranks time anything.
TEST(TuningRanks, OneRankPerDeviceKindChoosesForAll) {
  const World world;
  const auto channel = make_channel(world, ExchangePath::staged);
  const int rank = world.rank();
  DeviceIdentity device = fake_device();
  device.name += " #" + std::to_string(rank % 2);
  std::vector<double> costs(4, 2e-6);
  costs[static_cast<std::size_t>(rank % 4)] = 1e-6;
  FakeKernel k(costs);
  Tuner tuner(TuneMode::on, nullptr, nullptr);
  const LaunchParams p = choose_on_ranks(tuner, k, device, channel.get());
  const int chooser = rank % 2;
  EXPECT_EQ(p, FakeKernel::params(static_cast<std::size_t>(chooser)));
  EXPECT_EQ(k.calls.empty(), rank != chooser);
  EXPECT_EQ(tuner.used().at(fake_key()), p);
  EXPECT_EQ(choose_on_ranks(tuner, k, device, nullptr), p);
}

} // namespace
} // namespace gf
