// geometry.h: the lattice and the slab of time slices one rank holds.
// Directions mu = 0, 1, 2, 3 are x, y, z, t (as in the file formats); t is the slowest
// index. A site's parity is (x + y + z + t) mod 2 with global t, so that even/odd do not
// depend on the decomposition. All extents must be even (checkerboard with periodic
// boundaries). Inside a time slice the sites of one parity are numbered by
//   h = (x + Lx (y + Ly z)) / 2,   0 <= h < V3/2.
// Geometry is trivially copyable and is passed by value into kernels.
#pragma once
#include "core/qualifiers.h"
#include <cstdint>

namespace gf {

constexpr int n_dims = 4;
constexpr int time_dir = 3;

struct SiteCoords {
  int x[4];
};

struct Geometry {
  int L[4];      // global extents x, y, z, t
  int t0;        // first global time slice of this rank's slab
  int nt;        // number of time slices on this rank
  bool halo;     // true when neighbouring slices live on other ranks (halo slices -1 and nt)
  std::int64_t v3;  // spatial volume
  std::int64_t v3h; // half of it

  static Geometry whole(const int L_[4]) { return slab(L_, 0, L_[3], false); }
  static Geometry slab(const int L_[4], int t0_, int nt_, bool halo_) {
    Geometry g{};
    for (int i = 0; i < 4; ++i) g.L[i] = L_[i];
    g.t0 = t0_;
    g.nt = nt_;
    g.halo = halo_;
    g.v3 = std::int64_t(L_[0]) * L_[1] * L_[2];
    g.v3h = g.v3 / 2;
    return g;
  }

  GF_HD std::int64_t global_volume() const { return v3 * L[3]; }
  GF_HD std::int64_t local_volume() const { return v3 * nt; }
  // Time slices stored: nt, plus one halo slice on each side when halo is true.
  GF_HD int stored_slices() const { return halo ? nt + 2 : nt; }
  // Storage slot of local time slice t (t may be -1 or nt).
  GF_HD int slice_slot(int t) const { return halo ? t + 1 : wrap(t, nt); }

  // x in [-n, 2 n) taken into [0, n): a comparison, no division (slow on GPUs).
  GF_HD static int wrap(int x, int n) { return x < 0 ? x + n : x >= n ? x - n : x; }

  // Site index s = t V3/2 + h of one parity split into (t, h); 32-bit division where the
  // numbers fit, which is every lattice of a realistic size (64-bit division is slow on GPUs).
  GF_HD void split_site(std::int64_t s, int& t, std::int64_t& h) const {
    if (s < (std::int64_t(1) << 32) && v3h < (std::int64_t(1) << 32)) {
      const auto s32 = static_cast<std::uint32_t>(s), v32 = static_cast<std::uint32_t>(v3h);
      t = static_cast<int>(s32 / v32);
      h = s32 - std::uint32_t(t) * v32;
    } else {
      t = static_cast<int>(s / v3h);
      h = s - std::int64_t(t) * v3h;
    }
  }

  // Site index s = (2 t + p) V3/2 + h over both parities (the order of measurements)
  // split into (t, p, h).
  GF_HD void split_local_site(std::int64_t s, int& t, int& p, std::int64_t& h) const {
    int slot_parity;
    split_site(s, slot_parity, h);
    t = slot_parity / 2;
    p = slot_parity % 2;
  }

  // Coordinates (global t) of the site h of parity p in local slice t. Requires
  // v3h < 2^31 (check_updatable enforces it), so that the arithmetic is 32-bit.
  GF_HD SiteCoords coords(int t, int p, std::int64_t h) const {
    SiteCoords c;
    const int lxh = L[0] / 2;
    const int h32 = static_cast<int>(h);
    const int yz = h32 / lxh;
    c.x[1] = yz % L[1];
    c.x[2] = yz / L[1];
    c.x[3] = t0 + t;
    const int gt = wrap(c.x[3], L[3]);
    c.x[0] = 2 * (h32 - yz * lxh) + ((p + c.x[1] + c.x[2] + gt) & 1);
    return c;
  }

  // Half-slice index of spatial coordinates (x, y, z).
  GF_HD std::int64_t half_index(const SiteCoords& c) const {
    return (c.x[0] + std::int64_t(L[0]) * (c.x[1] + std::int64_t(L[1]) * c.x[2])) >> 1;
  }

  // Natural (file) order index of a site with global coordinates, t periodic.
  GF_HD std::int64_t natural_index(const SiteCoords& c) const {
    const int gt = wrap(c.x[3], L[3]);
    return c.x[0] + std::int64_t(L[0]) * (c.x[1] + std::int64_t(L[1]) * (c.x[2] + std::int64_t(L[2]) * gt));
  }

  // Backward neighbour x - mu: spatial directions wrap periodically; in time the local
  // slice index t - 1 is returned (the slot handles wrap-around or the halo). Coordinates
  // are in [0, L) (no division: the wrap is one comparison).
  GF_HD SiteCoords backward(SiteCoords c, int mu) const {
    if (mu == time_dir) {
      c.x[3] -= 1;
    } else {
      c.x[mu] = c.x[mu] == 0 ? L[mu] - 1 : c.x[mu] - 1;
    }
    return c;
  }
  GF_HD SiteCoords forward(SiteCoords c, int mu) const {
    if (mu == time_dir) {
      c.x[3] += 1;
    } else {
      c.x[mu] = c.x[mu] + 1 == L[mu] ? 0 : c.x[mu] + 1;
    }
    return c;
  }
  // backward with the directions unrolled into selects, so that a mu known only at run time
  // indexes no array: where that is the coordinates' only indexed use (the sweeps' down links,
  // fix/site_sweep.h), a GPU keeps them in registers instead of local memory. In a rolled loop
  // over directions (the generator's staples) the indexed form is faster (with this form there
  // the generator took 17.6 ms a sweep against 14.8, double precision, H100).
  GF_HD SiteCoords backward_unrolled(SiteCoords c, int mu) const {
    GF_UNROLL
    for (int d = 0; d < time_dir; ++d)
      if (d == mu) c.x[d] = c.x[d] == 0 ? L[d] - 1 : c.x[d] - 1;
    if (mu == time_dir) c.x[3] -= 1;
    return c;
  }
};

} // namespace gf
