// ghost_functors.h: the site functors of the ghost propagator's conjugate gradient (ghost_cg.h),
// one site per item, the same source on the CPU (HostExec) and a CUDA GPU (CudaExec).
//
// Arrays (backend memory): vectors of d = N^2 - 1 reals per site, index site * d + a, the
// rank's sites in natural order (as FaddeevPopov's vectors); the input of FpApply is such a
// vector with one more time slice before and after the slab (the neighbouring ranks' slices,
// or on one rank the periodic images), `w` pointing at the slab's first site so that
// w + (s -+ v3) d reaches them; links: the HostField's natural-order matrices, (site * 4 + mu)
// N^2 complex numbers, and the temporal links of the slice before the slab (v3 N^2). Per-site
// sums: `terms` arrays of `sites` doubles, term k of site s at k * sites + s, summed per time
// slice by reduce_segments (a fixed order on each backend).
#pragma once
#include "core/qualifiers.h"
#include "math/complex.h"
#include "math/matrix.h"
#include "measure/adjoint.h"
#include <cstdint>

namespace gf {

// out = M w (faddeev_popov.h) at site s, or with `symmetric` H w = M w - (1/4) [w, K - K^dagger]
// (M's symmetric part); terms: <w|out>, then w^a, then out^a (1 + 2 d).
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

  GF_INLINE static Matrix<double, N> load(const Complex<double>* p) {
    Matrix<double, N> m;
    GF_UNROLL
    for (int i = 0; i < N; ++i)
      GF_UNROLL
    for (int j = 0; j < N; ++j)
      m.m[i][j] = p[i * N + j];
    return m;
  }
  GF_INLINE const Complex<double>* link(std::int64_t s, int mu) const {
    return links + (s * 4 + mu) * (N * N);
  }

  GF_HD void operator()(std::int64_t s) const {
    const std::int64_t t = s / v3, s3 = s - t * v3, base = s - s3;
    const std::int64_t lxy = std::int64_t(lx) * ly;
    const std::int64_t x = s3 % lx, y = (s3 / lx) % ly, z = s3 / lxy;
    const std::int64_t fwd[3] = {x + 1 == lx ? s3 - x : s3 + 1, y + 1 == ly ? s3 - y * lx : s3 + lx,
                                 z + 1 == lz ? s3 - z * lxy : s3 + lxy};
    const std::int64_t bwd[3] = {x == 0 ? s3 + lx - 1 : s3 - 1,
                                 y == 0 ? s3 + (ly - 1) * lx : s3 - lx,
                                 z == 0 ? s3 + (lz - 1) * lxy : s3 - lxy};
    Matrix<double, N> k = Matrix<double, N>::zero(), hop = Matrix<double, N>::zero(), wn;
    GF_UNROLL
    for (int mu = 0; mu < 4; ++mu) {
      const Matrix<double, N> up = load(link(s, mu));
      Matrix<double, N> down;
      const double *w_fwd, *w_bwd;
      if (mu < 3) {
        down = load(link(base + bwd[mu], mu));
        w_fwd = w + (base + fwd[mu]) * D;
        w_bwd = w + (base + bwd[mu]) * D;
      } else {
        down = load(t > 0 ? link(s - v3, mu) : time_links_before + s3 * (N * N));
        w_fwd = w + (s + v3) * D; // the slice after the slab at t = nt - 1
        w_bwd = w + (s - v3) * D; // the slice before it at t = 0
      }
      k = k + up + adjoint(down);
      to_matrix(w_fwd, wn);
      hop = hop + up * wn;
      to_matrix(w_bwd, wn);
      hop = hop + wn * down;
    }
    to_matrix(w + s * D, wn);
    double o[D];
    algebra_components(wn * k - hop, o);
    if (symmetric) {
      // the commutator is Hermitian and traceless: its components are those
      // algebra_components gives
      const Matrix<double, N> anti = k - adjoint(k);
      double c[D];
      algebra_components(wn * anti - anti * wn, c);
      GF_UNROLL
      for (int a = 0; a < D; ++a)
        o[a] -= 0.25 * c[a];
    }
    double form = 0;
    GF_UNROLL
    for (int a = 0; a < D; ++a) {
      out[s * D + a] = o[a];
      form += w[s * D + a] * o[a];
      sums[(1 + a) * sites + s] = w[s * D + a];
      sums[(1 + D + a) * sites + s] = o[a];
    }
    sums[s] = form;
  }
};

// sums[s] = sum_a a^a b^a at site s.
struct SiteDot {
  const double* a;
  const double* b;
  double* sums;
  int d;
  GF_HD void operator()(std::int64_t s) const {
    double acc = 0;
    for (int c = 0; c < d; ++c)
      acc += a[s * d + c] * b[s * d + c];
    sums[s] = acc;
  }
};

// The start from x = 0: r = p = b.
struct CgStart {
  const double* b;
  double *x, *r, *p;
  int d;
  GF_HD void operator()(std::int64_t s) const {
    for (int c = 0; c < d; ++c) {
      x[s * d + c] = 0;
      r[s * d + c] = b[s * d + c];
      p[s * d + c] = b[s * d + c];
    }
  }
};

// x += alpha p, r -= alpha (M p - mean) (mean: each colour's lattice mean of M p, so that
// P M p is subtracted), sums[s] = |r(s)|^2.
struct CgStep {
  const double *p, *mp;
  double *x, *r, *sums;
  double alpha;
  double mean[8]; // N^2 - 1 <= 8
  int d;
  GF_HD void operator()(std::int64_t s) const {
    double rr = 0;
    for (int c = 0; c < d; ++c) {
      const std::int64_t i = s * d + c;
      x[i] += alpha * p[i];
      r[i] -= alpha * (mp[i] - mean[c]);
      rr += r[i] * r[i];
    }
    sums[s] = rr;
  }
};

// p = r + beta p.
struct CgDirection {
  const double* r;
  double* p;
  double beta;
  int d;
  GF_HD void operator()(std::int64_t s) const {
    for (int c = 0; c < d; ++c)
      p[s * d + c] = r[s * d + c] + beta * p[s * d + c];
  }
};

} // namespace gf
