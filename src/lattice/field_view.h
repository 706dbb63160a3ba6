// field_view.h: the device layout and its accessor, shared by the CPU and GPU backends.
//
// Layout ("time-slice major, parity split, structure of arrays"), slowest index first:
//     slot(t), parity p, direction mu, real group, half-slice site h, real within the group
// A matrix's block (slot, p, mu) holds R * pitch reals; in it real r of site h lies at
//     (r - r % G) * pitch + h * G + r % G,   0 <= h < V3/2 <= pitch,
// so that offset = ((slot * 2 + p) * ndir + mu) * R * pitch + that. G, the group, is
// - 1 in a CPU's memory: each real is its own plane (one SIMD vector holds W sites' real r);
// - on a GPU, 16 bytes where R allows (group_width: 4 floats, 2 doubles; 2 floats for the
//   18 reals of full SU(3) storage), so that a thread loads and stores a matrix as float4 or
//   double2 vectors: a quarter (single) or half (double) of the load and store instructions
//   and their addresses of one plane per real, the same bytes, still coalesced.
// Neighbouring threads (consecutive h) touch consecutive addresses, and the temporal links of
// one parity of one slice, which cross a rank boundary, are one contiguous block whatever G.
// The pitch (field_pitch) is V3/2 on a GPU; on a CPU it is V3/2 rounded up to an odd number of
// 64-byte cache lines, so that the R reals of a matrix, one stream each, fall into different
// cache sets: with a power-of-two V3/2 (every 2^n lattice) all of a site's ndir x R streams
// would map to one set of the 8-way L1 and L2 caches and evict each other.
//
// Device code only ever sees device memory, so it takes the grouped layout as a constant (the
// group widths are then constants of the kernel); host code reads the view's `grouped` flag,
// which layout_view sets for a backend's device memory (the staging of upload and download).
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
// save branch on it. load_in, load_at_in, save_in, offset_in, matrix_in, load_from and save_to
// take the storage as an argument instead: a kernel that passes a constant is compiled for that
// storage alone (fix/site_sweep.h). matrix_in gives the address of a matrix, load_from and
// save_to move the matrix at an address, so that a kernel can pick its addresses first.
// A gauge field has ndir = 4 matrices per site, a gauge transformation
// ndir = 1.
// FieldView is trivially copyable and is passed by value into kernels; it owns nothing.
#pragma once
#include "lattice/geometry.h"
#include "lattice/storage.h"
#include "math/reconstruct8.h"
#include "math/su_n.h"

#include <type_traits>

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

// The reals in a group of the GPU layout for a storage type S and R reals a matrix (R is
// even for every storage): 16 bytes where R allows it.
template <class S>
GF_HD constexpr int group_width(int reals) {
  static_assert(sizeof(S) == 4 || sizeof(S) == 8, "the layout stores float or double");
  return sizeof(S) == 8 || reals % 4 != 0 ? 2 : 4;
}

// G reals loaded or stored as one vector (float4, float2, double2 in device code).
template <class S, int G>
struct alignas(sizeof(S) * G) RealGroup {
  S v[G];
};

template <class S, int N>
struct FieldView {
  S* data;
  Geometry geom;
  int ndir;
  Storage storage;
  std::int64_t pitch;   // the sites of a real's plane (field_pitch)
  bool grouped = false; // the reals in groups of group_width (device memory); host code only

  GF_HD int reals() const { return reals_per_matrix<N>(storage); }
  GF_HD std::int64_t slot_stride() const { return 2 * std::int64_t(ndir) * reals() * pitch; }
  GF_HD std::int64_t size() const { return slot_stride() * geom.stored_slices(); }

  // Whether the reals lie in groups: always in device code (it sees device memory only).
  GF_HD bool grouped_layout() const {
#if defined(__CUDA_ARCH__)
    return true;
#else
    return grouped;
#endif
  }
  // The reals in a group for the storage st: 1 where each real is its own plane.
  GF_HD int width_in(Storage st) const {
    return grouped_layout() ? group_width<S>(reals_per_matrix<N>(st)) : 1;
  }
  // How far real r of a matrix lies from its real 0 (r - r % G planes, r % G reals; G is a
  // power of two).
  GF_HD std::int64_t real_shift_in(Storage st, int r) const {
    const int g = width_in(st);
    return std::int64_t(r & ~(g - 1)) * pitch + (r & (g - 1));
  }

  GF_HD std::int64_t offset(int slot, int p, int mu, int r, std::int64_t h) const {
    return offset_in(storage, slot, p, mu, r, h);
  }
  GF_HD std::int64_t offset_in(Storage st, int slot, int p, int mu, int r, std::int64_t h) const {
    const std::int64_t matrix =
        (std::int64_t(slot * 2 + p) * ndir + mu) * reals_per_matrix<N>(st) * pitch;
    return matrix + h * width_in(st) + real_shift_in(st, r);
  }

  // Matrix mu of the site h of parity p in local time slice t, converted to type C.
  template <class C>
  GF_HD Matrix<C, N> load(int t, int p, int mu, std::int64_t h) const {
    return load_in<C>(storage, t, p, mu, h);
  }
  // Same, for the storage st (which must be the view's).
  template <class C>
  GF_HD Matrix<C, N> load_in(Storage st, int t, int p, int mu, std::int64_t h) const {
    return load_from<C>(st, matrix_in(st, t, p, mu, h));
  }

  // Where real 0 of that matrix lies, for the storage st.
  GF_HD S* matrix_in(Storage st, int t, int p, int mu, std::int64_t h) const {
    return data + offset_in(st, geom.slice_slot(t), p, mu, 0, h);
  }
  // The matrix whose real 0 is at `at`, in a field of this view's pitch and storage st (it
  // may lie in another view of the same pitch: fix/site_sweep.h loads g(x) this way).
  template <class C>
  GF_HD Matrix<C, N> load_from(Storage st, const S* at) const {
    if constexpr (N == 3) {
      if (st == Storage::params8) {
        C q[8];
        visit_reals<true, 8>(st, at, 8, [&q](int r, const S& x) { q[r] = static_cast<C>(x); });
        return su3_from_8(q);
      }
    }
    Matrix<C, N> u = load_rows_from<C>(st, at);
    if (st == Storage::rows) reunitarize(u); // see the note on rows storage above
    return u;
  }

  // The matrix as stored, for measuring how far storage has drifted from SU(N): as load, but
  // rows storage rebuilds the last row from the stored rows as they are, without
  // orthonormalising them first (params8 decodes to SU(3) by construction).
  template <class C>
  GF_HD Matrix<C, N> load_stored(int t, int p, int mu, std::int64_t h) const {
    if (storage != Storage::rows) return load<C>(t, p, mu, h);
    Matrix<C, N> u = load_rows_from<C>(storage, matrix_in(storage, t, p, mu, h));
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
    save_to<C>(st, matrix_in(st, t, p, mu, h), u);
  }
  // The matrix u stored with its real 0 at `at` (as load_from).
  template <class C>
  GF_HD void save_to(Storage st, S* at, const Matrix<C, N>& u) const {
    if constexpr (N == 3) {
      if (st == Storage::params8) {
        C q[8];
        su3_to_8(u, q);
        visit_reals<false, 8>(st, at, 8, [&q](int r, S& x) { x = static_cast<S>(q[r]); });
        return;
      }
    }
    const int rows = st == Storage::rows ? N - 1 : N;
    visit_reals<false, 2 * N * N>(st, at, rows * 2 * N,
                                  [&u](int r, S& x) { x = static_cast<S>(real_of(u, r)); });
  }

  // The stored rows (full storage: all) of the matrix at `at`; the others are left unset.
  template <class C>
  GF_HD Matrix<C, N> load_rows_from(Storage st, const S* at) const {
    Matrix<C, N> u;
    const int rows = st == Storage::rows ? N - 1 : N;
    visit_reals<true, 2 * N * N>(st, at, rows * 2 * N,
                                 [&u](int r, const S& x) { real_of(u, r) = static_cast<C>(x); });
    return u;
  }

  // Real r of a matrix in full storage's order: 2 (i N + j) + {0: re, 1: im}.
  template <class M>
  GF_HD static auto& real_of(M& u, int r) {
    auto& z = u.m[r / 2 / N][r / 2 % N];
    return r % 2 ? z.im : z.re;
  }

  // Calls f(r, x) for the reals r = 0 .. count-1 (count <= M, a multiple of the group) of the
  // matrix whose real 0 is at `at`, x the real in memory (load: f reads it; save: f sets it;
  // T is S or const S). Device code moves a group at a time through registers, one vector
  // load or store.
  template <bool load, int M, class T, class F>
  GF_HD void visit_reals(Storage st, T* at, int count, F f) const {
#if defined(__CUDA_ARCH__)
    if (width_in(st) == 4) return visit_groups<4, load, M>(at, count, f);
    return visit_groups<2, load, M>(at, count, f);
#else
    for (int r = 0; r < M; ++r)
      if (r < count) f(r, at[real_shift_in(st, r)]);
#endif
  }
  // visit_reals for groups of G: group k lies k G pitch after real 0.
  template <int G, bool load, int M, class T, class F>
  GF_HD void visit_groups(T* at, int count, F f) const {
    using Group = std::conditional_t<std::is_const_v<T>, const RealGroup<S, G>, RealGroup<S, G>>;
    GF_UNROLL
    for (int k = 0; k < (M + G - 1) / G; ++k) {
      if (k * G >= count) continue;
      auto* group = reinterpret_cast<Group*>(at + std::int64_t(k) * G * pitch);
      RealGroup<S, G> v;
      if constexpr (load) v = *group;
      GF_UNROLL
      for (int e = 0; e < G; ++e)
        if (k * G + e < M) f(k * G + e, v.v[e]);
      if constexpr (!load) *group = v;
    }
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
