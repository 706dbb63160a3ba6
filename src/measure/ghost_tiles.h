// ghost_tiles.h: the conjugate gradient's layout of vectors and links in backend memory
// (ghost_cg.h). Each time slice's v3 sites (natural order inside the slice) are cut into tiles
// of W consecutive sites (TileLayout<W>), the last one padded; inside a tile the numbers are
// component-major: component c of site (t, s3) lies at
//   ((t tiles + s3 / W) c_count + c) W + s3 % W,   tiles = ceil(v3 / W).
// Vectors have c_count = N^2 - 1 reals, the links 4 N^2 complex numbers (c = mu N^2 + i N + j),
// the temporal links of the slice before the slab N^2 (t = 0). On a GPU W = 32: a warp's 32
// threads (32 consecutive sites) read 32 consecutive numbers per load (coalesced). On the CPU
// W = 1, the natural order (site * c_count + c): a thread reads each site's numbers in one piece
// (TileLayoutOf<Exec>). A slice is one contiguous piece, so a vector with halo slices keeps them
// before and after the slab's (t = -1 and t = nt).
// tile/untile convert a natural-order host array (site * c_count + c) to and from the layout;
// the padding is left as it is (no site reads it).
#pragma once
#include "core/qualifiers.h"
#include <cstdint>

namespace gf {

template <int W>
struct TileLayout {
  static constexpr int width = W;
  std::int64_t tiles; // per slice
  int count;          // components per site

  static TileLayout of(std::int64_t v3, int count) { return {(v3 + width - 1) / width, count}; }
  // numbers per slice
  GF_INLINE std::int64_t slice() const { return tiles * width * count; }
  // component 0 of site (t, s3); component c lies c width numbers further
  GF_INLINE std::int64_t site(std::int64_t t, std::int64_t s3) const {
    return (t * tiles + s3 / width) * count * width + s3 % width;
  }
  GF_INLINE std::int64_t at(std::int64_t t, std::int64_t s3, int c) const {
    return site(t, s3) + std::int64_t(c) * width;
  }
};

template <class T, int W>
void tile(const T* natural, const TileLayout<W>& l, std::int64_t nt, std::int64_t v3, T* tiled) {
#pragma omp parallel for schedule(static)
  for (std::int64_t s = 0; s < nt * v3; ++s)
    for (int c = 0; c < l.count; ++c)
      tiled[l.at(s / v3, s % v3, c)] = natural[s * l.count + c];
}

template <class T, int W>
void untile(const T* tiled, const TileLayout<W>& l, std::int64_t nt, std::int64_t v3, T* natural) {
#pragma omp parallel for schedule(static)
  for (std::int64_t s = 0; s < nt * v3; ++s)
    for (int c = 0; c < l.count; ++c)
      natural[s * l.count + c] = tiled[l.at(s / v3, s % v3, c)];
}

// The tiles of backend Exec: 32 sites (a warp) on a backend with warps (a GPU), one
// site (natural order, site-major: the CPU's memory streams) on the CPU.
template <class Exec>
using TileLayoutOf = TileLayout<Exec::lane_groups ? 32 : 1>;

} // namespace gf
