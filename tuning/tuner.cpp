#include "tuning/tuner.h"
#include <algorithm>
#include <cmath>
#include <numeric>
#include <ostream>

namespace gf {

namespace {

constexpr int max_repeats = 1 << 20;

// Calls that take about 1.1 * target seconds when `calls` calls took `seconds`; at least
// `least` and at most max_repeats.
int repeats_for(double target, double seconds, int calls, int least) {
  const double want = seconds > 0 ? std::ceil(1.1 * calls * target / seconds) : 2.0 * calls;
  return static_cast<int>(std::clamp(want, double(least), double(max_repeats)));
}

bool contains(const std::vector<LaunchParams>& v, const LaunchParams& p) {
  return std::find(v.begin(), v.end(), p) != v.end();
}

} // namespace

LaunchParams Tuner::choose(Tunable& t) {
  const TuneKey key = t.key();
  if (const auto it = used_.find(key); it != used_.end()) return it->second;
  const TuneEntry* hit = nullptr;
  if (cache_ && (mode_ == TuneMode::cached || mode_ == TuneMode::on)) {
    hit = cache_->find(key);
    if (hit && !contains(t.candidates(), hit->params)) hit = nullptr;
  }
  LaunchParams p;
  if (mode_ == TuneMode::off || (mode_ == TuneMode::cached && !hit))
    p = t.default_params();
  else if (hit)
    p = hit->params;
  else {
    reports_.push_back(tune(t, key));
    const TuneReport& r = reports_.back();
    const CandidateTiming& w = r.candidates[r.winner];
    p = w.params;
    if (cache_) {
      cache_->put(key, {w.params, w.seconds, w.gb_per_s, w.stream_fraction, utc_timestamp()});
      cache_->save();
    }
    if (log_)
      *log_ << "tuned " << key.kernel << " [" << key.aux << "] " << key.extents << " "
            << key.region << ": " << format_launch_params(p) << " (" << w.seconds * 1e6 << " us, "
            << w.gb_per_s << " GB/s)\n";
  }
  used_[key] = p;
  return p;
}

TuneReport Tuner::tune(Tunable& t, const TuneKey& key) {
  TuneReport r;
  r.key = key;
  r.bytes = t.bytes();
  r.flops = t.flops();
  std::vector<LaunchParams> params = t.candidates();
  if (params.empty()) params.push_back(t.default_params());
  const std::size_t n = params.size();

  t.backup();
  try {
    for (const LaunchParams& p : params)
      t.time(p, 1); // warm-up
    std::vector<double> screen(n);
    for (std::size_t i = 0; i < n; ++i)
      screen[i] = t.time(params[i], 1);
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return screen[a] < screen[b]; });
    order.resize(std::min<std::size_t>(n, finalists));
    std::sort(order.begin(), order.end());

    for (std::size_t i = 0; i < n; ++i) {
      CandidateTiming c;
      c.params = params[i];
      c.screen_seconds = c.seconds = screen[i];
      if (std::binary_search(order.begin(), order.end(), i)) c = measure(t, params[i], screen[i]);
      c.gb_per_s = c.seconds > 0 ? r.bytes / c.seconds * 1e-9 : 0;
      if (stream_gb_per_s_ > 0) c.stream_fraction = c.gb_per_s / stream_gb_per_s_;
      r.candidates.push_back(c);
    }
    r.winner = order.front();
    for (const std::size_t i : order)
      if (r.candidates[i].seconds < r.candidates[r.winner].seconds) r.winner = i;
  } catch (...) {
    t.restore();
    throw;
  }
  t.restore();
  return r;
}

CandidateTiming Tuner::measure(Tunable& t, const LaunchParams& p, double screen_seconds) const {
  CandidateTiming c;
  c.params = p;
  c.screen_seconds = screen_seconds;
  c.finalist = true;
  c.repeats = repeats_for(min_timing_seconds, screen_seconds, 1, 1);
  double total = t.time(p, c.repeats);
  while (total < min_timing_seconds && c.repeats < max_repeats) {
    c.repeats = repeats_for(min_timing_seconds, total, c.repeats, c.repeats + 1);
    total = t.time(p, c.repeats);
  }
  c.seconds = total / c.repeats;
  return c;
}

} // namespace gf
