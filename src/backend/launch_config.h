// launch_config.h: how a backend launches one kernel, as the tuner chooses it.
//   block       threads per block (GPU); on the CPU the schedule of the OpenMP loop: 0 static
//               (one contiguous range per thread), k > 0 dynamic chunks of k sites;
//   min_blocks  the compiled __launch_bounds__ instance: 0 none, else blocks of at most
//               bounded_block_max threads with at least min_blocks resident per SM (the
//               compiler caps registers to allow it); only the instances a call site lists
//               in its Bounds<...> exist;
//   carveout    preferred shared-memory carve-out in percent of the unified L1/shared
//               memory, -1 for the driver's default.
// The CPU backend ignores the other two.
#pragma once

namespace gf {

constexpr int bounded_block_max = 256;

struct LaunchConfig {
  int block = 128;
  int min_blocks = 0;
  int carveout = -1;
};

// The __launch_bounds__ minimum-blocks instances a call site compiles (besides 0).
template <int... MinBlocks>
struct Bounds {};

} // namespace gf
