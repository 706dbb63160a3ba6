// ghost_functors.h: the site functors of the Faddeev-Popov operator and of the ghost
// propagator's conjugate gradient (ghost_cg.h), the same source on the CPU (HostExec) and a CUDA
// GPU (CudaExec).
//
// faddeev_popov_at is M w (faddeev_popov.h) at site (t, s3) of a slab (t the slice, s3 the site
// inside it), or with `symmetric` H w = M w - (1/4) [w, K - K^dagger] (M's symmetric part),
// whatever the arrays' layout: links(t, s3, mu) gives U_mu (t = -1: the temporal link of the
// slice before the slab), w(t, s3, v) writes the input's N^2 - 1 components at (t, s3) to v,
// t from -1 to nt (the slices before and after the slab: the neighbouring ranks', or on one rank
// the periodic images).
// The CPU and a GPU sum its terms in two orders (faddeev_popov_sums, faddeev_popov_terms: the
// fewest operations, the fewest registers) and agree to rounding.
//
// FaddeevPopovApply (the host operator, FaddeevPopov::apply) runs it on natural-order arrays:
// vectors index site * d + a (d = N^2 - 1), its input `w` with one slice before and after the
// slab and pointing at the slab's first site; the links (site * 4 + mu) N^2 complex numbers,
// and the temporal links of the slice before the slab (v3 N^2). Per-site sums: `terms` arrays
// of `sites` doubles, term k of site s at k * sites + s.
//
// The CG's functors run on the tiled layout of ghost_tiles.h and are called per site with a
// `terms` array that chunk_sums (chunk_sums.h) sums per chunk of a slice. CgApply applies M to r
// (r with halo slices) and forms the search direction p = r + beta p_old and its image
// M p = M r + beta M p_old at the site, writes p and M p, adds the previous iteration's
// alpha p_old to x, and gives <p|M p>, p^a, (M p)^a; CgResidual updates r and gives |r|^2. So an
// iteration is two passes (ghost_cg.h). Both read the step, beta and the means from CgScalars
// (ghost_cg_scalars.h) in backend memory, and do nothing once the solve has ended.
#pragma once
#include "core/qualifiers.h"
#include "math/complex.h"
#include "math/matrix.h"
#include "measure/adjoint.h"
#include "measure/ghost_cg_scalars.h"
#include "measure/ghost_tiles.h"
#include <cstdint>

namespace gf {

template <int N>
GF_INLINE Matrix<double, N> load_matrix(const Complex<double>* p, std::int64_t stride) {
  Matrix<double, N> m;
  GF_UNROLL
  for (int i = 0; i < N; ++i)
    GF_UNROLL
  for (int j = 0; j < N; ++j)
    m.m[i][j] = p[(i * N + j) * stride];
  return m;
}

// The two forms of M w's terms at (t, s3): out = the components of w(x) K - hop, where K =
// sum_mu U_mu(x) + U_mu(x - mu)^dagger (returned in k) and hop = sum_mu U_mu(x) w(x + mu) +
// w(x - mu) U_mu(x - mu); `wx` is w(x)'s matrix.
//
// The CPU's: K and hop summed over the links, one product with w(x) at the end (the fewest
// operations: the CPU is bound by arithmetic here).
template <int N, class Links, class Input>
GF_INLINE void faddeev_popov_sums(const Links& links, const Input& w, std::int64_t t,
                                  std::int64_t s3, int lx, int ly, int lz,
                                  const Matrix<double, N>& wx, Matrix<double, N>& k,
                                  double (&out)[N * N - 1]) {
  const std::int64_t lxy = std::int64_t(lx) * ly;
  const std::int64_t x = s3 % lx, y = (s3 / lx) % ly, z = s3 / lxy;
  const std::int64_t fwd[3] = {x + 1 == lx ? s3 - x : s3 + 1, y + 1 == ly ? s3 - y * lx : s3 + lx,
                               z + 1 == lz ? s3 - z * lxy : s3 + lxy};
  const std::int64_t bwd[3] = {x == 0 ? s3 + lx - 1 : s3 - 1, y == 0 ? s3 + (ly - 1) * lx : s3 - lx,
                               z == 0 ? s3 + (lz - 1) * lxy : s3 - lxy};
  Matrix<double, N> hop = Matrix<double, N>::zero(), wn;
  double v[N * N - 1];
  k = Matrix<double, N>::zero();
  for (int mu = 0; mu < 4; ++mu) {
    const Matrix<double, N> up = links(t, s3, mu);
    const Matrix<double, N> down = mu < 3 ? links(t, bwd[mu], mu) : links(t - 1, s3, mu);
    k = k + up + adjoint(down);
    w(mu < 3 ? t : t + 1, mu < 3 ? fwd[mu] : s3, v);
    to_matrix(v, wn);
    hop = hop + up * wn;
    w(mu < 3 ? t : t - 1, mu < 3 ? bwd[mu] : s3, v);
    to_matrix(v, wn);
    hop = hop + wn * down;
  }
  algebra_components(wx * k - hop, out);
}

// A GPU's: each term's components added to out as it comes, entry by entry (no product matrix
// is formed), one link and one neighbour live at a time, the loop over the directions kept
// rolled, and the matrices twice those of the components (twice_matrix: fewer distinct
// numbers), out halved at the end: the fewest registers (the CG's SU(3) operator pass fits 128
// a thread without spilling, so 16 warps fit per SM: CgApply::min_blocks; 254 with the sums and
// every link loaded up front, 8 warps). k only where `symmetric`.
template <int N, class Links, class Input>
GF_INLINE void faddeev_popov_terms(const Links& links, const Input& w, std::int64_t t,
                                   std::int64_t s3, int lx, int ly, int lz,
                                   const double (&here)[N * N - 1], bool symmetric,
                                   Matrix<double, N>& k, double (&out)[N * N - 1]) {
  constexpr int D = N * N - 1;
  const int i3 = static_cast<int>(s3), lxy = lx * ly;
  const int coord[3] = {i3 % lx, (i3 / lx) % ly, i3 / lxy};
  Matrix<double, N> wx2, wn2;
  twice_matrix(here, wx2);
  double v[D];
  GF_UNROLL
  for (int a = 0; a < D; ++a)
    out[a] = 0;
  k = Matrix<double, N>::zero();
  GF_NO_UNROLL
  for (int mu = 0; mu < 4; ++mu) {
    // the forward and backward neighbours in direction mu (slice and site)
    std::int64_t tf = t + 1, tb = t - 1, sf = s3, sb = s3;
    if (mu < 3) {
      const int x = mu == 0 ? coord[0] : mu == 1 ? coord[1] : coord[2];
      const int extent = mu == 0 ? lx : mu == 1 ? ly : lz;
      const int stride = mu == 0 ? 1 : mu == 1 ? lx : lxy;
      tf = tb = t;
      sf = x + 1 == extent ? i3 - x * stride : i3 + stride;
      sb = x == 0 ? i3 + (extent - 1) * stride : i3 - stride;
    }
    {
      const Matrix<double, N> up = links(t, s3, mu);
      w(tf, sf, v);
      twice_matrix(v, wn2);
      add_algebra_components<N>(
          [&](int i, int j) {
            Complex<double> e = {0, 0};
            GF_UNROLL
            for (int l = 0; l < N; ++l)
              e = e + wx2.m[i][l] * up.m[l][j] - up.m[i][l] * wn2.m[l][j];
            return e;
          },
          out);
      if (symmetric) k = k + up;
    }
    {
      const Matrix<double, N> down = links(tb, sb, mu);
      w(tb, sb, v);
      twice_matrix(v, wn2);
      add_algebra_components<N>(
          [&](int i, int j) {
            Complex<double> e = {0, 0};
            GF_UNROLL
            for (int l = 0; l < N; ++l)
              e = e + wx2.m[i][l] * conj(down.m[j][l]) - wn2.m[i][l] * down.m[l][j];
            return e;
          },
          out);
      if (symmetric) k = k + adjoint(down);
    }
  }
  GF_UNROLL
  for (int a = 0; a < D; ++a)
    out[a] *= 0.5;
}

template <int N, class Links, class Input>
GF_INLINE void faddeev_popov_at(const Links& links, const Input& w, std::int64_t t, std::int64_t s3,
                                int lx, int ly, int lz, bool symmetric, double (&here)[N * N - 1],
                                double (&out)[N * N - 1]) {
  constexpr int D = N * N - 1;
  Matrix<double, N> k, wx;
  w(t, s3, here);
  to_matrix(here, wx);
#if defined(__CUDA_ARCH__)
  faddeev_popov_terms<N>(links, w, t, s3, lx, ly, lz, here, symmetric, k, out);
#else
  faddeev_popov_sums<N>(links, w, t, s3, lx, ly, lz, wx, k, out);
#endif
  if (symmetric) {
    // the commutator is Hermitian and traceless: its components are those
    // algebra_components gives
    const Matrix<double, N> anti = k - adjoint(k);
    double c[D];
    algebra_components(wx * anti - anti * wx, c);
    GF_UNROLL
    for (int a = 0; a < D; ++a)
      out[a] -= 0.25 * c[a];
  }
}

// The host operator's natural-order links and input.
template <int N>
struct NaturalLinks {
  const Complex<double>* links;
  const Complex<double>* time_links_before;
  std::int64_t v3;
  GF_INLINE Matrix<double, N> operator()(std::int64_t t, std::int64_t s3, int mu) const {
    return load_matrix<N>(
        t < 0 ? time_links_before + s3 * (N * N) : links + ((t * v3 + s3) * 4 + mu) * (N * N), 1);
  }
};

template <int N>
struct NaturalInput {
  const double* w;
  std::int64_t v3;
  GF_INLINE void operator()(std::int64_t t, std::int64_t s3, double* v) const {
    GF_UNROLL
    for (int a = 0; a < N * N - 1; ++a)
      v[a] = w[(t * v3 + s3) * (N * N - 1) + a];
  }
};

// out = M w at site s (natural order); terms: <w|out>, then w^a, then out^a (1 + 2 d).
template <int N>
struct FaddeevPopovApply {
  static constexpr int D = N * N - 1;
  static constexpr int terms = 1 + 2 * D;
  const Complex<double>* links;
  const Complex<double>* time_links_before;
  const double* w;
  double* out;
  double* sums;
  std::int64_t sites, v3;
  int lx, ly, lz;
  bool symmetric;

  GF_HD void operator()(std::int64_t s) const {
    const std::int64_t t = s / v3, s3 = s - t * v3;
    double here[D], o[D];
    faddeev_popov_at<N>(NaturalLinks<N>{links, time_links_before, v3}, NaturalInput<N>{w, v3}, t,
                        s3, lx, ly, lz, symmetric, here, o);
    double form = 0;
    GF_UNROLL
    for (int a = 0; a < D; ++a) {
      out[s * D + a] = o[a];
      form += here[a] * o[a];
      sums[(1 + a) * sites + s] = here[a];
      sums[(1 + D + a) * sites + s] = o[a];
    }
    sums[s] = form;
  }
};

// The CG's tiled links (ghost_tiles.h): `links` with 4 N^2 components, `before` (the temporal
// links of the slice before the slab) with N^2.
template <int N, class Layout>
struct TiledLinks {
  const Complex<double>* links;
  const Complex<double>* before;
  Layout layout, before_layout;
  GF_INLINE Matrix<double, N> operator()(std::int64_t t, std::int64_t s3, int mu) const {
    return t < 0 ? load_matrix<N>(before + before_layout.at(0, s3, 0), Layout::width)
                 : load_matrix<N>(links + layout.at(t, s3, mu * N * N), Layout::width);
  }
};

// A vector of the tiled layout at (t, s3), t from -1 to nt (r with its halo slices).
template <int N, class Layout>
struct TiledVector {
  const double* v;
  Layout layout;
  GF_INLINE void operator()(std::int64_t t, std::int64_t s3, double* out) const {
    const std::int64_t i = layout.site(t, s3);
    GF_UNROLL
    for (int a = 0; a < N * N - 1; ++a)
      out[a] = v[i + a * Layout::width];
  }
};

// At site s = t v3 + s3: the search direction p = r + beta p_old, its image M p = M r + beta
// M p_old (M is linear: only r is read at the neighbours, and M p_old is the previous
// iteration's M p, read and written in place in mp; 0 at the start), x += alpha p_old; terms:
// <p|M p>, then p^a, then (M p)^a. r has halo slices (a pointer at the slab's first slice).
template <int N, class Layout>
struct CgApply {
  static constexpr int D = N * N - 1;
  static constexpr int terms = 1 + 2 * D;
  // thread blocks an SM holds at least (chunk_sums_cuda.cuh): SU(3) in 128 registers (28 bytes
  // spilled), 16 warps an SM; 3 blocks, 163 registers without spilling, are 3-4 % slower on an
  // H200 (docs/measurements.md); SU(2) in 64, 32 warps
  static constexpr int min_blocks = N == 3 ? 4 : 8;
  TiledLinks<N, Layout> links;
  TiledVector<N, Layout> r;
  const double* p_old;
  double *p, *x, *mp;
  const CgScalars* scalars; // alpha: the previous iteration's step, beta; nothing once not running
  int lx, ly, lz;

  GF_HD void operator()(std::int64_t t, std::int64_t s3, double* sums) const {
    if (scalars->state != cg_running) {
      GF_UNROLL
      for (int k = 0; k < terms; ++k)
        sums[k] = 0;
      return;
    }
    const double alpha = scalars->alpha, beta = scalars->beta;
    double here[D], o[D];
    faddeev_popov_at<N>(links, r, t, s3, lx, ly, lz, false, here, o); // here: r, o: M r
    const std::int64_t at = r.layout.site(t, s3);
    double form = 0;
    GF_UNROLL
    for (int a = 0; a < D; ++a) {
      const std::int64_t i = at + a * Layout::width;
      const double pa = here[a] + beta * p_old[i], mpa = o[a] + beta * mp[i];
      x[i] += alpha * p_old[i];
      p[i] = pa;
      mp[i] = mpa;
      form += pa * mpa;
      sums[1 + a] = pa;
      sums[1 + D + a] = mpa;
    }
    sums[0] = form;
  }
};

// r's halo slices on one rank are the slab's periodic images: component c of r at (t, s3),
// written at t = 0 or t = nt - 1, is written again in the halo slice after or before the slab
// (r points at the slab's first slice). wrap_nt: nt on one rank, 0 (nothing to do) otherwise.
template <class Layout>
GF_INLINE void write_periodic_image(double* r, const Layout& l, std::int64_t wrap_nt,
                                    std::int64_t t, std::int64_t s3, int c, double v) {
  if (wrap_nt == 0) return;
  if (t == 0) r[l.at(wrap_nt, s3, c)] = v;
  if (t == wrap_nt - 1) r[l.at(-1, s3, c)] = v;
}

// r -= alpha (M p - mean) (alpha and mean, each colour's lattice mean of M p so that P M p is
// subtracted, from scalars); sums[0] = |r|^2; nothing once the solve is not running. On one
// rank (wrap_nt = nt) also r's halo slices (write_periodic_image).
template <class Layout>
struct CgResidual {
  const double* mp;
  double* r; // at the slab's first slice
  const CgScalars* scalars;
  Layout layout;
  std::int64_t wrap_nt;
  GF_HD void operator()(std::int64_t t, std::int64_t s3, double* sums) const {
    sums[0] = 0;
    if (scalars->state != cg_running) return;
    const double alpha = scalars->alpha;
    double mean[8]; // read before r is written, which the compiler cannot tell apart from them
    GF_UNROLL
    for (int c = 0; c < 8; ++c)
      mean[c] = scalars->mean[c];
    const std::int64_t at = layout.site(t, s3);
    double rr = 0;
    // over all 8, unrolled, so that the means stay in registers on a GPU
    GF_UNROLL
    for (int c = 0; c < 8; ++c) {
      if (c >= layout.count) break;
      const std::int64_t i = at + c * Layout::width;
      r[i] -= alpha * (mp[i] - mean[c]);
      rr += r[i] * r[i];
      write_periodic_image(r, layout, wrap_nt, t, s3, c, r[i]);
    }
    sums[0] = rr;
  }
};

// sums[0] = sum_c a^c b^c at site s.
template <class Layout>
struct SiteDot {
  const double* a;
  const double* b;
  Layout layout;
  GF_HD void operator()(std::int64_t t, std::int64_t s3, double* sums) const {
    const std::int64_t at = layout.site(t, s3);
    double acc = 0;
    for (int c = 0; c < layout.count; ++c)
      acc += a[at + c * Layout::width] * b[at + c * Layout::width];
    sums[0] = acc;
  }
};

// The start from x = 0 at site s: for each component, b's value from `source` (source(i, c):
// component c, at index i of the layout), x = 0 and r = b (r at the slab's first slice; on one
// rank also its halo slices, as CgResidual).
template <class Layout, class Source>
struct CgStart {
  Source source;
  double *x, *r;
  Layout layout;
  std::int64_t v3, wrap_nt; // wrap_nt: CgResidual's
  GF_HD void operator()(std::int64_t s) const {
    const std::int64_t t = s / v3, s3 = s - t * v3;
    const std::int64_t at = layout.site(t, s3);
    for (int c = 0; c < layout.count; ++c) {
      const std::int64_t i = at + c * Layout::width;
      const double v = source(t, s3, i, c);
      x[i] = 0;
      r[i] = v;
      write_periodic_image(r, layout, wrap_nt, t, s3, c, v);
    }
  }
};

// A source already in backend memory, b.
struct LoadedSource {
  const double* b;
  GF_INLINE double operator()(std::int64_t, std::int64_t, std::int64_t i, int) const {
    return b[i];
  }
};

// The source of colour `colour` of a plane wave (wave: one number a site, in its own layout),
// projected: b^colour = wave - mean, the other colours 0; written to b as it is read.
template <class Layout>
struct WaveSource {
  const double* wave;
  double mean;
  int colour;
  double* b;
  Layout wave_layout;
  GF_INLINE double operator()(std::int64_t t, std::int64_t s3, std::int64_t i, int c) const {
    const double v = c == colour ? wave[wave_layout.site(t, s3)] - mean : 0.0;
    b[i] = v;
    return v;
  }
};

// v[i] = 0 for every number i of an array (its halo and padding included).
struct Zero {
  double* v;
  GF_HD void operator()(std::int64_t i) const { v[i] = 0; }
};

// x += alpha p at site s (p without its halo).
template <class Layout>
struct AddScaled {
  const double* p;
  double* x;
  double alpha;
  Layout layout;
  std::int64_t v3;
  GF_HD void operator()(std::int64_t s) const {
    const std::int64_t t = s / v3, s3 = s - t * v3;
    const std::int64_t at = layout.site(t, s3);
    for (int c = 0; c < layout.count; ++c)
      x[at + c * Layout::width] += alpha * p[at + c * Layout::width];
  }
};

} // namespace gf
