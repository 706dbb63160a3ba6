// launch_tunable.h: the Tunable (tuning/tunable.h) of one kernel launch of an engine, made
// of what the engine knows: the key, the bytes and flops of one call, the candidates (in
// a fixed order, already checked with the occupancy API), the defaults, how to launch with
// given parameters, and how to back up and restore what the launch changes. time() runs
// the launch on the backend's default stream and times it there (CUDA events on the GPU).
// Also: the variant names of the sweeps ("site1", "site4", "site8": threads per site;
// "site4-rows": compiled for 12-real storage and overrelaxation alone).
#pragma once
#include "backend/launch_config.h"
#include "tuning/tunable.h"
#include <functional>
#include <string>
#include <utility>

namespace gf {

struct LaunchSpec {
  TuneKey key;
  double bytes = 0;
  double flops = 0;
  std::vector<LaunchParams> candidates;
  LaunchParams defaults;
  std::function<void(const LaunchParams&)> launch;
  std::function<void()> backup = [] {};
  std::function<void()> restore = [] {};
};

template <class Exec>
class LaunchTunable final : public Tunable {
public:
  explicit LaunchTunable(LaunchSpec spec) : spec_(std::move(spec)) {}
  TuneKey key() const override { return spec_.key; }
  double bytes() const override { return spec_.bytes; }
  double flops() const override { return spec_.flops; }
  std::vector<LaunchParams> candidates() const override { return spec_.candidates; }
  LaunchParams default_params() const override { return spec_.defaults; }
  void backup() override { spec_.backup(); }
  void restore() override { spec_.restore(); }
  double time(const LaunchParams& p, int repeats) override {
    return time_launches(Exec{}, repeats, [&] { spec_.launch(p); });
  }

private:
  LaunchSpec spec_;
};

// rows_overrelaxation: the kernel compiled for 12-real SU(3) storage and overrelaxation alone,
// "site4-rows".
inline std::string lanes_variant(int lanes, bool rows_overrelaxation = false) {
  return "site" + std::to_string(lanes) + (rows_overrelaxation ? "-rows" : "");
}

// Threads per site of a sweep variant name; throws Error for another name.
int variant_lanes(const std::string& variant);

inline LaunchConfig launch_config(const LaunchParams& p) {
  return {p.block, p.min_blocks, p.carveout};
}

} // namespace gf
