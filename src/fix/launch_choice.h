// launch_choice.h: the launch parameters an engine uses for each of its kernels, chosen
// once per TuneKey and kept: a forced choice (tests, benchmarks), else the Tuner's
// (tuning/tuner.h; collective over the ranks, rank_tuning.h), else the per-architecture
// defaults (tuning/default_params.h; on the CPU, which has no table, the first candidate:
// the engine lists its preferred launch first). A choice that is not among the launch's
// candidates (a cache or default table written for other kernels) falls back to the first
// candidate.
#pragma once
#include "comm/channel.h"
#include "fix/launch_tunable.h"
#include "tuning/default_params.h"
#include "tuning/rank_tuning.h"
#include <algorithm>
#include <map>

namespace gf {

template <class Exec>
class LaunchChoice {
public:
  LaunchChoice(Tuner* tuner, const Channel* channel)
      : tuner_(tuner), channel_(channel), device_(device_identity(Exec{})) {}

  const DeviceIdentity& device() const { return device_; }

  // The parameters for spec.key; make_spec() builds the LaunchSpec on first use only.
  template <class MakeSpec>
  const LaunchParams& choose(const TuneKey& key, const MakeSpec& make_spec) {
    const auto it = chosen_.find(key);
    if (it != chosen_.end()) return it->second;
    LaunchSpec spec = make_spec();
    spec.key = key;
    spec.defaults = Exec::lane_groups || spec.candidates.empty() ? default_launch_params(device_, key)
                                                                  : spec.candidates.front();
    LaunchParams p = spec.defaults;
    if (tuner_) {
      LaunchTunable<Exec> t(spec);
      p = choose_on_ranks(*tuner_, t, device_, channel_);
    }
    if (std::find(spec.candidates.begin(), spec.candidates.end(), p) == spec.candidates.end())
      p = spec.candidates.front();
    return chosen_.emplace(key, p).first->second;
  }

private:
  Tuner* tuner_;
  const Channel* channel_;
  DeviceIdentity device_;
  std::map<TuneKey, LaunchParams> chosen_;
};

} // namespace gf
