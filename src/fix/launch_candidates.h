// launch_candidates.h: the launch parameters the tuner tries for a kernel on a backend, in a
// fixed order: block sizes 64, 128, 256, 512 and carve-outs -1 (the driver's default), 0 on a
// GPU; one launch on the CPU (block 0: a static OpenMP schedule, host_exec.h).
// cpu_sweep_schedules: the CPU sweeps' schedules, static (0) and, with more than one thread,
// dynamic chunks of 256 sites (which even out threads slowed by other work on their cores).
// plain_candidates(f): those of a one-thread-per-item kernel running f that the device can
// launch (resident_blocks, the occupancy API), as variant site1 without __launch_bounds__.
// Shared by every LaunchChoice user (the fixing engine, the generator).
#pragma once
#include "fix/launch_tunable.h"
#include <omp.h>
#include <vector>

namespace gf {

template <class Exec>
std::vector<int> candidate_blocks() {
  return Exec::lane_groups ? std::vector<int>{64, 128, 256, 512} : std::vector<int>{0};
}

inline std::vector<int> cpu_sweep_schedules() {
  return omp_get_max_threads() > 1 ? std::vector<int>{0, 256} : std::vector<int>{0};
}

template <class Exec>
std::vector<int> candidate_carveouts() {
  return Exec::lane_groups ? std::vector<int>{-1, 0} : std::vector<int>{-1};
}

template <class Exec, class F>
std::vector<LaunchParams> plain_candidates(const F& f) {
  std::vector<LaunchParams> out;
  for (int block : candidate_blocks<Exec>())
    for (int carveout : candidate_carveouts<Exec>()) {
      const LaunchParams p{lanes_variant(1), block, 0, carveout, false};
      if (resident_blocks(Exec{}, f, launch_config(p)) > 0) out.push_back(p);
    }
  return out;
}

} // namespace gf
