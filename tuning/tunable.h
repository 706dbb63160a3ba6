// tunable.h: what a kernel offers the autotuner (tuner.h). A backend implements one Tunable
// per kernel launch it wants tuned, over the real field it will run on.
// Contract:
// - key(): the TuneKey of this launch (kernel, aux, local extents, region);
// - bytes(), flops(): what one call moves and computes (for GB/s in the report);
// - candidates(): the launch parameters worth timing, already pruned by the backend (every
//   one must launch; e.g. checked with the occupancy API), in a fixed order: ties in time go
//   to the earlier one, so the order must not depend on the run;
// - default_params(): what to launch with when tuning is off or the cache has no entry in
//   mode cached (default_params.h);
// - backup() / restore(): time() may change the data the kernel works on (an in-place
//   sweep, a random-number state); the tuner calls backup() before its first time() and
//   restore() after its last one (also when time() throws), so tuning leaves no trace;
// - time(p, repeats): runs the launch with p `repeats` times back to back and returns the
//   total wall time in seconds (on the GPU measured with CUDA events on the kernel's stream).
//   It must not communicate with other ranks (rank_tuning.h tunes on one rank at a time).
#pragma once
#include "tuning/launch_params.h"
#include "tuning/tune_key.h"
#include <vector>

namespace gf {

class Tunable {
public:
  virtual ~Tunable() = default;
  virtual TuneKey key() const = 0;
  virtual double bytes() const = 0;
  virtual double flops() const = 0;
  virtual std::vector<LaunchParams> candidates() const = 0;
  virtual LaunchParams default_params() const = 0;
  virtual void backup() = 0;
  virtual void restore() = 0;
  virtual double time(const LaunchParams& p, int repeats) = 0;
};

} // namespace gf
