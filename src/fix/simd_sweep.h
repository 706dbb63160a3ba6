// simd_sweep.h: what an engine needs of the CPU's SIMD sweep (simd_site_sweep.h), without its
// SIMD types, so that engine_impl.h can name it for every backend:
//   simd_sweep_widths   the widths W compiled (sites per call);
//   simd_candidate_widths<Prec>()  the order the tuner tries them in (engine_impl.h lists them
//                       before the scalar sweep): first the width of 64 bytes of link reals
//                       (16 floats, 8 doubles: one AVX-512 register, two AVX or four SSE
//                       ones), the fastest at 16^4 with SSE2 and AVX-512 alike
//                       (docs/kernels.md), which therefore runs without tuning;
//   simd_sweep<Gauge, Prec, N>(W, scalar, sites, config)  the half-sweep that `scalar` (the
//                       one-site functor of the local update family) does over items
//                       0 .. sites - 1, W sites at once; bitwise the same field. Defined in
//                       simd_site_sweep.h, instantiated in engine_cpu_simd_<precision>.cpp;
//   simd_variant(W), simd_variant_width(name)  the tuner's names, "simd8"; 0 for another name.
#pragma once
#include "backend/launch_config.h"
#include "fix/site_sweep.h"
#include <cstdint>
#include <string>
#include <vector>

namespace gf {

template <class Gauge, class Prec, int N>
using ScalarLocalSweep = SiteSweep<Gauge, Prec, N, 1, UpdateFamily::local>;

inline constexpr int simd_sweep_widths[] = {4, 8, 16};

template <class Prec>
std::vector<int> simd_candidate_widths() {
  constexpr int first = 64 / int(sizeof(typename Prec::link));
  std::vector<int> order = {first};
  for (int w : simd_sweep_widths)
    if (w != first) order.push_back(w);
  return order;
}

template <class Gauge, class Prec, int N>
void simd_sweep(int width, const ScalarLocalSweep<Gauge, Prec, N>& scalar, std::int64_t sites,
                const LaunchConfig& config);

inline std::string simd_variant(int width) {
  return "simd" + std::to_string(width);
}

inline int simd_variant_width(const std::string& variant) {
  for (int w : simd_sweep_widths)
    if (variant == simd_variant(w)) return w;
  return 0;
}

} // namespace gf
