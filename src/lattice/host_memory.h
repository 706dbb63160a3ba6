// host_memory.h: whether this machine has the memory a host array of a lattice needs, so
// that a lattice too large for it is refused with a message (gf::Error) before the
// allocation, instead of std::bad_alloc or the kernel's out-of-memory killer.
// - available_host_bytes: MemAvailable of /proc/meminfo, lowered to what is left under
//   this process's cgroup (v2) memory.max where one is set; -1 where neither is known.
// - host_field_elements: the number of complex numbers of a HostField (sites x ndir x
//   nc x nc), checked: a lattice whose site count or byte count overflows 64 bits, or
//   that needs more bytes than available_host_bytes (checked from 64 MiB on), throws
//   "memory: a field of LxxLyxLzxLt sites (nt time slices here), SU(N), ndir matrices per
//   site needs X GiB, more than the Y GiB available (MemAvailable, cgroup memory.max)".
//   Each rank checks its own slab.
#pragma once
#include "lattice/geometry.h"
#include <cstddef>
#include <cstdint>

namespace gf {

std::int64_t available_host_bytes();
std::size_t host_field_elements(const Geometry& g, int nc, int ndir);

} // namespace gf
