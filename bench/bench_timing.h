// bench_timing.h: the wall-clock helpers the benchmark programs share: seconds since a
// steady-clock time, and a line of repeated times in milliseconds with their minimum and median.
#pragma once
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

namespace gf {

inline double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Prints "name: t1 t2 ...  (min m, median d ms)" with `decimals` digits; returns the median.
inline double print_times(const char* name, const std::vector<double>& ms, int decimals) {
  std::printf("%s:", name);
  for (double m : ms)
    std::printf(" %.*f", decimals, m);
  std::vector<double> s = ms;
  std::sort(s.begin(), s.end());
  std::printf("  (min %.*f, median %.*f ms)\n", decimals, s.front(), decimals, s[s.size() / 2]);
  return s[s.size() / 2];
}

} // namespace gf
