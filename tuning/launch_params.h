// launch_params.h: how one kernel is launched, as the autotuner chooses it and the tune cache
// stores it (tune_cache.h). The fields:
//   variant     the compiled kernel variant, e.g. "site1", "site4", "site8" (threads per site),
//               "simd8" (the CPU's sweep of 8 sites at once, fix/simd_sweep.h);
//   block       threads per block (> 0) on a GPU; on the CPU the OpenMP schedule of the
//               loop over sites: 0 static (one contiguous range per thread), k > 0 dynamic
//               chunks of k sites;
//   min_blocks  the __launch_bounds__ minimum of blocks per SM of the compiled instance, 0: none;
//   carveout    the shared-memory carve-out in percent (0 to 100), -1: the driver's default;
//   streaming   non-caching (streaming) loads.
// Text form, five space-separated key=value pairs in this order (format_launch_params writes
// it, parse_launch_params reads it back exactly):
//   variant=site4 block=128 minb=0 carveout=-1 loads=stream      (loads=cache: ordinary loads)
// parse_launch_params throws gf::Error naming the text and the bad or missing field.
#pragma once
#include <string>

namespace gf {

struct LaunchParams {
  std::string variant = "site1";
  int block = 128;
  int min_blocks = 0;
  int carveout = -1;
  bool streaming = false;

  bool operator==(const LaunchParams&) const = default;
};

std::string format_launch_params(const LaunchParams& p);
LaunchParams parse_launch_params(const std::string& text);

} // namespace gf
