// message_tags.h: every tag of gaugefix's point-to-point messages (Channel::send/receive), in
// one place. A receive matches by source and tag, so two messages that can be in flight
// between the same ranks at once need distinct tags; the checks below keep them distinct.
// The peer paths' 1-byte "ready" tokens use the block's tag plus peer_ready.
#pragma once

namespace gf::tags {

inline constexpr int halo_return = 11;      // a halo block back to its owner (gauge sweeps)
inline constexpr int halo_forward = 12;     // an updated boundary block forward (gauge sweeps)
inline constexpr int halo_fill_first = 13;  // a halo refill's first block
inline constexpr int halo_fill_second = 14; // a halo refill's second block
inline constexpr int generator_back = 15;   // a generator sub-sweep's last slice, to the next
inline constexpr int generator_ahead = 16;  // a generator sub-sweep's slice 0, to the previous
inline constexpr int next_slice = 17;       // fill_next_slice (next_slice.h)
inline constexpr int fourier_direction = 41; // the Fourier field's D slice 0 (fourier_field.h)
inline constexpr int peer_ready = 100;      // added to a block's tag: the receiver is ready

inline constexpr int all[] = {halo_return,    halo_forward,    halo_fill_first,
                              halo_fill_second, generator_back, generator_ahead,
                              next_slice,     fourier_direction};
constexpr bool distinct() {
  for (int a : all) {
    int same = 0;
    for (int b : all)
      same += a == b || a + peer_ready == b;
    if (same != 1 || a >= peer_ready) return false;
  }
  return true;
}
static_assert(distinct(), "two message tags are equal");

} // namespace gf::tags
