// slab_chunks.h: how the streaming readers and writers of gauge files (nersc.cpp, ildg.cpp,
// scidac.cpp) cut a rank's slab: chunks of whole sites of about stream_chunk_bytes bytes of
// file data. Each chunk goes through one buffer, reused for the whole slab: it is encoded
// (or decoded) by every OpenMP thread of the rank, its checksum taken in the same pass, and
// written (or read) with one call. 4 MiB keeps the system calls few and long, and lets a chunk
// stay in the caches between the threads' encoding and the kernel's copy (on one thread 4 and
// 64 MiB measured the same CPU time); one buffer bounds the memory and the page faults.
#pragma once
#include <algorithm>
#include <cstdint>

namespace gf {

constexpr std::int64_t stream_chunk_bytes = std::int64_t(4) << 20;

// Sites per chunk for site_bytes bytes per site (at least 1).
inline std::int64_t chunk_sites(std::int64_t site_bytes) {
  return std::max<std::int64_t>(1, stream_chunk_bytes / std::max<std::int64_t>(site_bytes, 1));
}

} // namespace gf
