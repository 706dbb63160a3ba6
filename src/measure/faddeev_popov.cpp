#include "measure/faddeev_popov.h"
#include "core/error.h"
#include "measure/adjoint.h"
#include "measure/slab_exchange.h"
#include "measure/slab_sums.h"
#include <string>

namespace gf {

FaddeevPopov::FaddeevPopov(const HostField& links, const World& world)
    : links_(links), world_(world) {
  const Geometry& g = links.geom;
  if (links.nc != 2 && links.nc != 3)
    throw Error("Faddeev-Popov operator: N_c = " + std::to_string(links.nc) +
                " (SU(2) and SU(3) only)");
  if (links.ndir != 4)
    throw Error("Faddeev-Popov operator: the field has " + std::to_string(links.ndir) +
                " matrices per site, not the 4 links of a gauge field");
  if (g.halo || g.nt < 1 || (world.size() == 1 && g.nt != g.L[time_dir]))
    throw Error("Faddeev-Popov operator: the field must hold whole time slices, the whole "
                "lattice on one rank");
  const std::size_t slice = static_cast<std::size_t>(g.v3) * components();
  before_.resize(slice);
  after_.resize(slice);
  if (world.size() == 1) return;
  // U_t of the previous rank's last slice: exchange whole slices of links (all directions)
  const std::size_t link_slice = static_cast<std::size_t>(g.v3) * 4 * links.nc * links.nc;
  std::vector<Complex<double>> before(link_slice), after(link_slice);
  exchange_boundary_slices(world, links.data.data(), links.data.data() + (g.nt - 1) * link_slice,
                           link_slice * sizeof(Complex<double>), before.data(), after.data());
  const int nn = links.nc * links.nc;
  time_links_before_.resize(static_cast<std::size_t>(g.v3) * nn);
  for (std::int64_t s = 0; s < g.v3; ++s)
    std::copy_n(before.begin() + (s * 4 + time_dir) * nn, nn, time_links_before_.begin() + s * nn);
}

template <int N>
FaddeevPopov::Sums FaddeevPopov::apply_n(const std::vector<double>& in, std::vector<double>& out,
                                         Part part) const {
  constexpr int D = N * N - 1, K = 1 + 2 * D;
  const Geometry& g = links_.geom;
  const std::int64_t v3 = g.v3, lx = g.L[0], lxy = std::int64_t(g.L[0]) * g.L[1];
  const int nt = g.nt;
  const std::size_t slice = static_cast<std::size_t>(v3) * D;
  exchange_boundary_slices(world_, in.data(), in.data() + (nt - 1) * slice, slice * sizeof(double),
                           before_.data(), after_.data());
  const double* w_before = before_.data();
  const double* w_after = after_.data();
  const bool one_rank = world_.size() == 1;
  out.resize(in.size());
  double* o = out.data();
  const double* w = in.data();
  // one pass: M in at every site, and the sums <in|M in>, sum in^a, sum (M in)^a
  const std::vector<double> per_slice = slice_sums<K>(g, [&](std::int64_t s, double* sum) {
    const int t = static_cast<int>(s / v3);
    const std::int64_t s3 = s - t * v3;
    const std::int64_t x = s3 % lx, y = (s3 / lx) % g.L[1], z = s3 / lxy;
    // spatial neighbours inside the slice, periodic
    const std::int64_t fwd[3] = {x + 1 == lx ? s3 - x : s3 + 1,
                                 y + 1 == g.L[1] ? s3 - y * lx : s3 + lx,
                                 z + 1 == g.L[2] ? s3 - z * lxy : s3 + lxy};
    const std::int64_t bwd[3] = {x == 0 ? s3 + lx - 1 : s3 - 1,
                                 y == 0 ? s3 + (g.L[1] - 1) * lx : s3 - lx,
                                 z == 0 ? s3 + (g.L[2] - 1) * lxy : s3 - lxy};
    const std::int64_t base = s - s3; // first site of this slice
    Matrix<double, N> k = Matrix<double, N>::zero(), hop = Matrix<double, N>::zero();
    Matrix<double, N> wn;
    for (int mu = 0; mu < 4; ++mu) {
      const Matrix<double, N> up = links_.get<N>(s, mu);
      Matrix<double, N> down;
      const double *w_fwd, *w_bwd;
      if (mu < time_dir) {
        down = links_.get<N>(base + bwd[mu], mu);
        w_fwd = w + (base + fwd[mu]) * D;
        w_bwd = w + (base + bwd[mu]) * D;
      } else {
        if (t > 0) {
          down = links_.get<N>(s - v3, mu);
        } else if (one_rank) {
          down = links_.get<N>(s + (nt - 1) * v3, mu);
        } else {
          const Complex<double>* p = time_links_before_.data() + s3 * N * N;
          for (int i = 0; i < N; ++i)
            for (int j = 0; j < N; ++j)
              down.m[i][j] = p[i * N + j];
        }
        w_fwd = t + 1 < nt ? w + (s + v3) * D : w_after + s3 * D;
        w_bwd = t > 0 ? w + (s - v3) * D : w_before + s3 * D;
      }
      k = k + up + adjoint(down);
      to_matrix(w_fwd, wn);
      hop = hop + up * wn;
      to_matrix(w_bwd, wn);
      hop = hop + wn * down;
    }
    to_matrix(w + s * D, wn);
    algebra_components(wn * k - hop, o + s * D);
    if (part == Part::symmetric) {
      // H w = M w - (1/4) [w, K - K^dagger]: the commutator is Hermitian and traceless, so its
      // components are those algebra_components gives
      const Matrix<double, N> anti = k - adjoint(k);
      double c[D];
      algebra_components(wn * anti - anti * wn, c);
      for (int a = 0; a < D; ++a)
        o[s * D + a] -= 0.25 * c[a];
    }
    for (int a = 0; a < D; ++a) {
      sum[0] += w[s * D + a] * o[s * D + a];
      sum[1 + a] += w[s * D + a];
      sum[1 + D + a] += o[s * D + a];
    }
  });
  const std::vector<double> total = ordered_totals<K>(per_slice, world_);
  Sums sums;
  sums.in_dot_out = total[0];
  sums.in_sums.assign(total.begin() + 1, total.begin() + 1 + D);
  sums.out_sums.assign(total.begin() + 1 + D, total.end());
  return sums;
}

FaddeevPopov::Sums FaddeevPopov::apply(const std::vector<double>& in, std::vector<double>& out,
                                       Part part) const {
  if (in.size() != size())
    throw Error("Faddeev-Popov operator: a vector of " + std::to_string(in.size()) +
                " reals, not " + std::to_string(size()));
  return links_.nc == 2 ? apply_n<2>(in, out, part) : apply_n<3>(in, out, part);
}

double FaddeevPopov::dot(const std::vector<double>& a, const std::vector<double>& b) const {
  const int d = components();
  const std::vector<double> per_slice =
      slice_sums<1>(links_.geom, [&](std::int64_t s, double* sum) {
        for (int c = 0; c < d; ++c)
          sum[0] += a[s * d + c] * b[s * d + c];
      });
  return ordered_totals<1>(per_slice, world_)[0];
}

template <int N>
void FaddeevPopov::project_n(std::vector<double>& v) const {
  constexpr int D = N * N - 1;
  const std::vector<double> per_slice =
      slice_sums<D>(links_.geom, [&](std::int64_t s, double* sum) {
        for (int c = 0; c < D; ++c)
          sum[c] += v[s * D + c];
      });
  const std::vector<double> total = ordered_totals<D>(per_slice, world_);
  double mean[D];
  for (int c = 0; c < D; ++c)
    mean[c] = total[c] / static_cast<double>(links_.geom.global_volume());
  const std::int64_t sites = links_.local_sites();
#pragma omp parallel for schedule(static) if (sites >= min_parallel_sites)
  for (std::int64_t s = 0; s < sites; ++s)
    for (int c = 0; c < D; ++c)
      v[s * D + c] -= mean[c];
}

void FaddeevPopov::project_out_constants(std::vector<double>& v) const {
  links_.nc == 2 ? project_n<2>(v) : project_n<3>(v);
}

} // namespace gf
