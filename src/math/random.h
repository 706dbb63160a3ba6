// random.h: counter-based random numbers (Random123 Philox4x32-10) on host and device.
// A draw is a pure function of (seed, counter): the counter holds the global site, the
// sweep number, a purpose tag with the subgroup and the attempt ("hit") number, and a
// spare word (the direction mu for the generator). Results therefore do not depend on
// threads, blocks, devices or the MPI decomposition.
#pragma once
#include "core/qualifiers.h"
#include <Random123/philox.h>
#include <cstdint>

namespace gf {

// Purposes keep the streams of different uses apart.
enum class RandomPurpose : std::uint32_t {
  gauge_transform = 1,
  stochastic_choice = 2,
  heatbath = 3,
  heatbath_direction = 4,
  generator = 5,
  generator_direction = 6,
  test = 7,
};

struct RandomKey {
  std::uint64_t seed;
  std::uint64_t site;   // global site index (natural order)
  std::uint32_t sweep;  // sweep (iteration) number
  std::uint32_t extra;  // direction mu or other spare index
};

// Four uniform numbers in (0, 1) with 32 random bits each; in float the largest values
// round to exactly 1 (never to 0), which every use tolerates.
template <class T>
struct Uniform4 {
  T u[4];
};

template <class T>
GF_INLINE Uniform4<T> uniform4(const RandomKey& k, RandomPurpose purpose, int subgroup, int hit) {
  r123::Philox4x32 gen;
  r123::Philox4x32::key_type key = {
      {static_cast<std::uint32_t>(k.seed), static_cast<std::uint32_t>(k.seed >> 32)}};
  const std::uint32_t tag = (static_cast<std::uint32_t>(purpose) << 24) |
                            (static_cast<std::uint32_t>(subgroup & 0xff) << 16) |
                            static_cast<std::uint32_t>(hit & 0xffff);
  r123::Philox4x32::ctr_type ctr = {{static_cast<std::uint32_t>(k.site),
                                     static_cast<std::uint32_t>(k.site >> 32) ^ (k.extra << 16),
                                     k.sweep, tag}};
  const r123::Philox4x32::ctr_type r = gen(ctr, key);
  Uniform4<T> out;
  const T scale = T(2.3283064365386963e-10); // 2^-32
GF_UNROLL
  for (int i = 0; i < 4; ++i) out.u[i] = (static_cast<T>(r[i]) + T(0.5)) * scale;
  return out;
}

} // namespace gf
