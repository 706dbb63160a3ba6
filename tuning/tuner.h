// tuner.h: chooses the launch parameters of each Tunable (tunable.h) according to the
// TuneMode (tune_mode.h), with an optional persistent TuneCache (tune_cache.h).
// choose(t), once per key and Tuner (later calls return the first choice without timing):
//   off     t.default_params();
//   cached  the cache's entry, else t.default_params(); never calls time();
//   on      the cache's entry, else tune, put the result in the cache and save it;
//   force   tune (ignoring the cache's entry), put the result in the cache and save it.
// A cache entry whose params are not among t.candidates() counts as missing (the kernel's
// variants changed since it was stored).
// Tuning: backup(); one warm-up call of every candidate; screening: one timed call of every
// candidate; the `finalists` fastest (a stable sort: equal times keep candidate order) are
// re-timed with as many calls as make their total time >= min_timing_seconds; the winner is
// the smallest mean time, ties going to the earlier candidate; restore() (also when time()
// throws). No candidates: the default params are the only one. Each tuning appends a
// TuneReport (reports()) and writes one line to `log` (nullptr: silent).
// used(): the params chosen for every key so far (the run summary); adopt() records params
// chosen elsewhere (another rank, rank_tuning.h) as this Tuner's choice for the key.
#pragma once
#include "tuning/tunable.h"
#include "tuning/tune_cache.h"
#include "tuning/tune_mode.h"
#include "tuning/tune_report.h"
#include <iosfwd>
#include <map>
#include <vector>

namespace gf {

class Tuner {
public:
  static constexpr int finalists = 5;
  static constexpr double min_timing_seconds = 1e-3;

  // cache and log may be null; they must outlive the Tuner.
  Tuner(TuneMode mode, TuneCache* cache, std::ostream* log)
      : mode_(mode), cache_(cache), log_(log) {}

  // The streaming bandwidth in GB/s that reports quote fractions of (0: unknown).
  void set_stream_bandwidth(double gb_per_s) { stream_gb_per_s_ = gb_per_s; }

  LaunchParams choose(Tunable& t);
  void adopt(const TuneKey& key, const LaunchParams& params) { used_[key] = params; }

  TuneMode mode() const { return mode_; }
  const std::map<TuneKey, LaunchParams>& used() const { return used_; }
  const std::vector<TuneReport>& reports() const { return reports_; }

private:
  TuneReport tune(Tunable& t, const TuneKey& key);
  CandidateTiming measure(Tunable& t, const LaunchParams& p, double screen_seconds) const;

  TuneMode mode_;
  TuneCache* cache_;
  std::ostream* log_;
  double stream_gb_per_s_ = 0;
  std::map<TuneKey, LaunchParams> used_;
  std::vector<TuneReport> reports_;
};

} // namespace gf
