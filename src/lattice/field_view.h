// field_view.h: the device layout and its accessor, shared by the CPU and GPU backends.
//
// Layout ("time-slice major, parity split, structure of arrays"), slowest index first:
//     slot(t), parity p, direction mu, real r, half-slice site h
// offset = (((slot * 2 + p) * ndir + mu) * R + r) * pitch + h,   0 <= h < V3/2 <= pitch.
// Neighbouring threads (consecutive h) touch consecutive addresses for every real, and
// the temporal links of one parity of one slice, which cross a rank boundary, are one
// contiguous block. The pitch (field_pitch) is V3/2 on a GPU; on a CPU it is V3/2 rounded up
// to an odd number of 64-byte cache lines, so that the R reals of a matrix, one stream each,
// fall into different cache sets: with a power-of-two V3/2 (every 2^n lattice) all of a site's
// ndir x R streams would map to one set of the 8-way L1 and L2 caches and evict each other.
//
// R is the number of reals stored per matrix (lattice/storage.h), and r runs over them:
// - full: 2 N N reals, r = 2 (i N + j) + {0: re, 1: im};
// - rows: the first N-1 rows (12 reals for SU(3), 4 for SU(2)), indexed as in full; the
//   last row is rebuilt on load. The stored rows are orthonormalised before the last row is
//   rebuilt: without that, a rounding error e in the stored rows becomes about 2e in the
//   rebuilt row, which large rotations (heatbath, microcanonical steps) mix back into the
//   stored rows, so the error would double sweep after sweep;
// - params8 (SU(3)): r = 0..7 are p[r] of su3_to_8 (math/reconstruct8.h), encoded and decoded
//   in the compute type C; the decode is SU(3) by construction, so nothing is reunitarised.
// The storage is a run-time field: one compiled kernel serves every storage, and load and
// save branch on it. load_in, load_at_in, save_in and offset_in take the storage as an argument
// instead: a kernel that passes a constant is compiled for that storage alone (fix/site_sweep.h).
// A gauge field has ndir = 4 matrices per site, a gauge transformation
// ndir = 1.
// FieldView is trivially copyable and is passed by value into kernels; it owns nothing.
#pragma once
#include "lattice/geometry.h"
#include "lattice/storage.h"
#include "math/reconstruct8.h"
#include "math/su_n.h"

namespace gf {

// The pitch of a field of storage type S with half-slices of v3h sites: v3h unpadded (GPU
// memory), padded (CPU memory) the smallest odd number of 64-byte lines that holds v3h reals.
template <class S>
constexpr std::int64_t field_pitch(std::int64_t v3h, bool padded) {
  if (!padded) return v3h;
  constexpr std::int64_t line = 64 / std::int64_t(sizeof(S));
  const std::int64_t lines = (v3h + line - 1) / line;
  return (lines % 2 == 0 ? lines + 1 : lines) * line;
}

template <class S, int N>
struct FieldView {
  S* data;
  Geometry geom;
  int ndir;
  Storage storage;
  std::int64_t pitch; // distance between a matrix's consecutive reals (field_pitch)

  GF_HD int reals() const { return reals_per_matrix<N>(storage); }
  GF_HD std::int64_t slot_stride() const { return 2 * std::int64_t(ndir) * reals() * pitch; }
  GF_HD std::int64_t size() const { return slot_stride() * geom.stored_slices(); }

  GF_HD std::int64_t offset(int slot, int p, int mu, int r, std::int64_t h) const {
    return offset_in(storage, slot, p, mu, r, h);
  }
  GF_HD std::int64_t offset_in(Storage st, int slot, int p, int mu, int r, std::int64_t h) const {
    return ((std::int64_t(slot * 2 + p) * ndir + mu) * reals_per_matrix<N>(st) + r) * pitch + h;
  }

  // Matrix mu of the site h of parity p in local time slice t, converted to type C.
  template <class C>
  GF_HD Matrix<C, N> load(int t, int p, int mu, std::int64_t h) const {
    return load_in<C>(storage, t, p, mu, h);
  }
  // Same, for the storage st (which must be the view's).
  template <class C>
  GF_HD Matrix<C, N> load_in(Storage st, int t, int p, int mu, std::int64_t h) const {
    const std::int64_t base = offset_in(st, geom.slice_slot(t), p, mu, 0, h);
    if constexpr (N == 3) {
      if (st == Storage::params8) {
        C q[8];
        GF_UNROLL
        for (int r = 0; r < 8; ++r)
          q[r] = static_cast<C>(data[base + r * pitch]);
        return su3_from_8(q);
      }
    }
    Matrix<C, N> u = load_rows_in<C>(st, base);
    if (st == Storage::rows) reunitarize(u); // see the note on rows storage above
    return u;
  }

  // The matrix as stored, for measuring how far storage has drifted from SU(N): as load, but
  // rows storage rebuilds the last row from the stored rows as they are, without
  // orthonormalising them first (params8 decodes to SU(3) by construction).
  template <class C>
  GF_HD Matrix<C, N> load_stored(int t, int p, int mu, std::int64_t h) const {
    if (storage != Storage::rows) return load<C>(t, p, mu, h);
    Matrix<C, N> u = load_rows_in<C>(storage, offset(geom.slice_slot(t), p, mu, 0, h));
    reconstruct_last_row(u);
    return u;
  }

  template <class C>
  GF_HD void save(int t, int p, int mu, std::int64_t h, const Matrix<C, N>& u) const {
    save_in<C>(storage, t, p, mu, h, u);
  }
  template <class C>
  GF_HD void save_in(Storage st, int t, int p, int mu, std::int64_t h,
                     const Matrix<C, N>& u) const {
    const std::int64_t base = offset_in(st, geom.slice_slot(t), p, mu, 0, h);
    if constexpr (N == 3) {
      if (st == Storage::params8) {
        C q[8];
        su3_to_8(u, q);
        GF_UNROLL
        for (int r = 0; r < 8; ++r)
          data[base + r * pitch] = static_cast<S>(q[r]);
        return;
      }
    }
    const int rows = st == Storage::rows ? N - 1 : N;
    GF_UNROLL
    for (int i = 0; i < N; ++i)
      GF_UNROLL
    for (int j = 0; j < N; ++j) {
      if (i < rows) {
        const std::int64_t o = base + std::int64_t(2 * (i * N + j)) * pitch;
        data[o] = static_cast<S>(u.m[i][j].re);
        data[o + pitch] = static_cast<S>(u.m[i][j].im);
      }
    }
  }

  // The stored rows (full storage: all) of the matrix at `base`; the others are left unset.
  template <class C>
  GF_HD Matrix<C, N> load_rows_in(Storage st, std::int64_t base) const {
    Matrix<C, N> u;
    const int rows = st == Storage::rows ? N - 1 : N;
    GF_UNROLL
    for (int i = 0; i < N; ++i)
      GF_UNROLL
    for (int j = 0; j < N; ++j) {
      if (i < rows) {
        const std::int64_t o = base + std::int64_t(2 * (i * N + j)) * pitch;
        u.m[i][j] = {static_cast<C>(data[o]), static_cast<C>(data[o + pitch])};
      }
    }
    return u;
  }

  // Same, addressed by global-periodic site coordinates (t in c.x[3] is global).
  template <class C>
  GF_HD Matrix<C, N> load_at(const SiteCoords& c, int mu) const {
    return load_at_in<C>(storage, c, mu);
  }
  template <class C>
  GF_HD Matrix<C, N> load_at_in(Storage st, const SiteCoords& c, int mu) const {
    const int gt = c.x[3];
    const int p = (c.x[0] + c.x[1] + c.x[2] + ((gt % geom.L[3]) + geom.L[3]) % geom.L[3]) & 1;
    return load_in<C>(st, gt - geom.t0, p, mu, geom.half_index(c));
  }
  template <class C>
  GF_HD void save_at(const SiteCoords& c, int mu, const Matrix<C, N>& u) const {
    const int gt = c.x[3];
    const int p = (c.x[0] + c.x[1] + c.x[2] + ((gt % geom.L[3]) + geom.L[3]) % geom.L[3]) & 1;
    save<C>(gt - geom.t0, p, mu, geom.half_index(c), u);
  }
};

} // namespace gf
