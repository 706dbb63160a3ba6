#include "measure/faddeev_popov.h"
#include "backend/host_exec.h"
#include "core/error.h"
#include "measure/adjoint.h"
#include "measure/ghost_functors.h"
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
  const int nn = links.nc * links.nc;
  time_links_before_.resize(static_cast<std::size_t>(g.v3) * nn);
  if (world.size() == 1) { // periodically, the slab's own last slice
    for (std::int64_t s = 0; s < g.v3; ++s)
      std::copy_n(links.matrix_data((g.nt - 1) * g.v3 + s, time_dir), nn,
                  time_links_before_.begin() + s * nn);
    return;
  }
  // U_t of the previous rank's last slice: exchange whole slices of links (all directions)
  const std::size_t link_slice = static_cast<std::size_t>(g.v3) * 4 * nn;
  std::vector<Complex<double>> before(link_slice), after(link_slice);
  exchange_boundary_slices(world, links.data.data(), links.data.data() + (g.nt - 1) * link_slice,
                           link_slice * sizeof(Complex<double>), before.data(), after.data());
  for (std::int64_t s = 0; s < g.v3; ++s)
    std::copy_n(before.begin() + (s * 4 + time_dir) * nn, nn, time_links_before_.begin() + s * nn);
}

template <int N>
FaddeevPopov::Sums FaddeevPopov::apply_n(const std::vector<double>& in, std::vector<double>& out,
                                         Part part) const {
  using Apply = FaddeevPopovApply<N>;
  constexpr int D = Apply::D, K = Apply::terms;
  const Geometry& g = links_.geom;
  const std::int64_t v3 = g.v3, nt = g.nt, sites = g.local_volume();
  const std::size_t slice = static_cast<std::size_t>(v3) * D;
  with_halo_.resize(in.size() + 2 * slice);
  exchange_boundary_slices(world_, in.data(), in.data() + (nt - 1) * slice, slice * sizeof(double),
                           with_halo_.data(), with_halo_.data() + slice + in.size());
  std::copy(in.begin(), in.end(), with_halo_.begin() + static_cast<std::ptrdiff_t>(slice));
  site_sums_.resize(static_cast<std::size_t>(sites) * K);
  out.resize(in.size());
  const Apply apply{links_.data.data(),
                    time_links_before_.data(),
                    with_halo_.data() + slice,
                    out.data(),
                    site_sums_.data(),
                    sites,
                    v3,
                    g.L[0],
                    g.L[1],
                    g.L[2],
                    part == Part::symmetric};
  // sums: term k of slice t is the segment k nt + t of v3 values, each summed in site order
  std::vector<double> by_term(static_cast<std::size_t>(K * nt)), by_slice(by_term.size());
  if (sites >= min_parallel_sites) {
    parallel_for(HostExec{}, sites, apply);
    reduce_segments(HostExec{}, site_sums_.data(), static_cast<int>(K * nt), v3, by_term.data());
  } else {
    for (std::int64_t s = 0; s < sites; ++s)
      apply(s);
    for (std::int64_t k = 0; k < K * nt; ++k) {
      double acc = 0;
      for (std::int64_t i = 0; i < v3; ++i)
        acc += site_sums_[k * v3 + i];
      by_term[k] = acc;
    }
  }
  for (std::int64_t t = 0; t < nt; ++t)
    for (int k = 0; k < K; ++k)
      by_slice[t * K + k] = by_term[k * nt + t];
  const std::vector<double> total = ordered_totals<K>(by_slice, world_);
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

double FaddeevPopov::mean(const std::vector<double>& wave) const {
  const std::vector<double> per_slice =
      slice_sums<1>(links_.geom, [&](std::int64_t s, double* sum) { sum[0] += wave[s]; });
  return ordered_totals<1>(per_slice, world_)[0] / static_cast<double>(links_.geom.global_volume());
}

void FaddeevPopov::project_out_constants(std::vector<double>& v) const {
  links_.nc == 2 ? project_n<2>(v) : project_n<3>(v);
}

} // namespace gf
