// tune_report.h: what one tuning of one kernel measured, for `gaugefix tune` and the log.
// candidates are in the Tunable's candidate order. screen_seconds: one call in the
// screening pass. The best few (Tuner::finalists) were re-timed over at least
// Tuner::min_timing_seconds: finalist is true, repeats counts the calls of that timing and
// seconds is their mean; for the others seconds = screen_seconds and repeats = 0.
// gb_per_s = bytes() / seconds; stream_fraction = gb_per_s / the streaming bandwidth given
// to the Tuner, or -1 when none was given. winner indexes candidates.
#pragma once
#include "tuning/launch_params.h"
#include "tuning/tune_key.h"
#include <cstddef>
#include <iosfwd>
#include <vector>

namespace gf {

struct CandidateTiming {
  LaunchParams params;
  double screen_seconds = 0;
  bool finalist = false;
  int repeats = 0;
  double seconds = 0;
  double gb_per_s = 0;
  double stream_fraction = -1;
};

struct TuneReport {
  TuneKey key;
  double bytes = 0;
  double flops = 0;
  std::vector<CandidateTiming> candidates;
  std::size_t winner = 0;
};

// One header line naming the key, one line per candidate (params, seconds per call, GB/s,
// fraction of the streaming bandwidth, "*" on the finalists, "<- winner").
void print_tune_report(std::ostream& out, const TuneReport& report);

} // namespace gf
