#include "measure/abelian_projection.h"
#include "comm/host_halo.h"
#include "core/error.h"
#include "measure/slab_exchange.h"
#include "measure/slab_sums.h"
#include <cmath>
#include <string>

namespace gf {

namespace {

constexpr double pi = 3.14159265358979323846;
constexpr double two_pi = 2 * pi;
// the six planes m < n, and the index of a plane
constexpr int planes[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
int plane_index(int m, int n) {
  for (int p = 0; p < 6; ++p)
    if (planes[p][0] == m && planes[p][1] == n) return p;
  return -1;
}

void check_field(const HostField& u) {
  if (u.nc != 2 && u.nc != 3)
    throw Error("Abelian projection: N_c = " + std::to_string(u.nc) + " (SU(2) and SU(3) only)");
  if (u.ndir != 4)
    throw Error("Abelian projection: the field has " + std::to_string(u.ndir) +
                " matrices per site, not the 4 links of a gauge field");
}

// Measurements that look at neighbouring slices: whole time slices, the whole lattice on one rank.
void check_slab(const HostField& u, const World& world) {
  check_field(u);
  if (u.geom.halo || u.geom.nt < 1 || (world.size() == 1 && u.geom.nt != u.geom.L[time_dir]))
    throw Error("Abelian projection: the field must hold whole time slices, the whole lattice "
                "on one rank");
}

void angles_into(const HostField& u, double* out) {
  const int n = u.nc;
  const std::int64_t links = u.local_sites() * 4;
#pragma omp parallel for schedule(static)
  for (std::int64_t l = 0; l < links; ++l) {
    const Complex<double>* m = u.data.data() + l * n * n;
    double phi[3], sum = 0;
    for (int i = 0; i < n; ++i) {
      phi[i] = std::atan2(m[i * n + i].im, m[i * n + i].re);
      sum += phi[i];
    }
    const double shift = (sum - two_pi * std::round(sum / two_pi)) / n;
    for (int i = 0; i < n; ++i) {
      double t = phi[i] - shift;
      if (t > pi) t -= two_pi;
      if (t <= -pi) t += two_pi;
      out[l * n + i] = t;
    }
  }
}

// The angles of the slab followed by those of the slice after it (from the next rank):
// slices 0 .. nt of the slab, where a site's forward neighbour in time is site + V3.
struct ExtendedAngles {
  Geometry g;
  int nc;
  std::vector<double> theta; // ((site * 4 + mu) * nc + i), sites of nt + 1 slices

  ExtendedAngles(const HostField& u, const World& world) : g(u.geom), nc(u.nc) {
    const HostField next = next_slice(u, world);
    theta.resize(static_cast<std::size_t>((g.nt + 1) * g.v3 * 4 * nc));
    angles_into(u, theta.data());
    angles_into(next, theta.data() + g.nt * g.v3 * 4 * nc);
  }
  // site + mu, periodic in space; in time the next slice (at most slice nt)
  std::int64_t forward(std::int64_t s, int mu) const {
    if (mu == time_dir) return s + g.v3;
    std::int64_t stride = 1;
    for (int k = 0; k < mu; ++k)
      stride *= g.L[k];
    const std::int64_t x = (s / stride) % g.L[mu];
    return x + 1 == g.L[mu] ? s - x * stride : s + stride;
  }
  double link(std::int64_t s, int mu, int i) const { return theta[(s * 4 + mu) * nc + i]; }
  double plaquette(std::int64_t s, int mu, int nu, int i) const {
    return link(s, mu, i) + link(forward(s, mu), nu, i) - link(forward(s, nu), mu, i) -
           link(s, nu, i);
  }
};

int permutation_sign(const int p[4]) {
  int inversions = 0;
  for (int a = 0; a < 4; ++a)
    for (int b = a + 1; b < 4; ++b)
      inversions += p[a] > p[b];
  return inversions % 2 ? -1 : 1;
}

// The Dirac-string integers n^i of one plaquette's angles theta^i (see the header).
void dirac_strings(const double* theta, int nc, int* n) {
  double sum = 0;
  int total = 0;
  for (int i = 0; i < nc; ++i) {
    n[i] = static_cast<int>(std::round(theta[i] / two_pi));
    sum += theta[i];
    total += n[i];
  }
  int excess = total - static_cast<int>(std::round(sum / two_pi));
  while (excess != 0) {
    const int dir = excess > 0 ? 1 : -1; // excess > 0: lower the n^i with the lowest thetabar
    int pick = 0;
    double best = 0;
    for (int i = 0; i < nc; ++i) {
      const double bar = (theta[i] - two_pi * n[i]) * dir;
      if (i == 0 || bar < best) best = bar, pick = i;
    }
    n[pick] -= dir;
    excess -= dir;
  }
}

} // namespace

std::vector<double> abelian_angles(const HostField& u) {
  check_field(u);
  std::vector<double> theta(static_cast<std::size_t>(u.local_sites() * 4 * u.nc));
  angles_into(u, theta.data());
  return theta;
}

double abelian_plaquette(const HostField& u, const World& world) {
  check_slab(u, world);
  const ExtendedAngles a(u, world);
  const int nc = u.nc;
  const std::vector<double> per_slice = slice_sums<1>(u.geom, [&](std::int64_t s, double* sum) {
    for (const auto& p : planes)
      for (int i = 0; i < nc; ++i)
        sum[0] += std::cos(a.plaquette(s, p[0], p[1], i));
  });
  return ordered_totals<1>(per_slice, world)[0] /
         (6.0 * nc * static_cast<double>(u.geom.global_volume()));
}

std::vector<Complex<double>> abelian_polyakov_loops(const HostField& u, const World& world) {
  check_slab(u, world);
  const Geometry& g = u.geom;
  const int nc = u.nc;
  const std::vector<double> theta = abelian_angles(u);
  // Running sums over t in global order: from the previous rank, through this slab, onwards.
  std::vector<double> line(static_cast<std::size_t>(g.v3 * nc), 0.0);
  const int bytes = static_cast<int>(line.size() * sizeof(double));
  if (world.rank() > 0)
    MPI_Recv(line.data(), bytes, MPI_BYTE, world.prev(), 83, world.comm(), MPI_STATUS_IGNORE);
#pragma omp parallel for schedule(static)
  for (std::int64_t s = 0; s < g.v3; ++s)
    for (int t = 0; t < g.nt; ++t)
      for (int i = 0; i < nc; ++i)
        line[s * nc + i] += theta[((s + t * g.v3) * 4 + time_dir) * nc + i];
  const bool last = world.rank() == world.size() - 1;
  if (!last) MPI_Send(line.data(), bytes, MPI_BYTE, world.next(), 83, world.comm());
  std::vector<double> part;
  if (last) {
    part.assign(static_cast<std::size_t>(2 * nc), 0.0);
    for (std::int64_t s = 0; s < g.v3; ++s)
      for (int i = 0; i < nc; ++i) {
        part[2 * i] += std::cos(line[s * nc + i]);
        part[2 * i + 1] += std::sin(line[s * nc + i]);
      }
  }
  const std::vector<double> all = world.gather_concat(part); // the last rank's part only
  std::vector<Complex<double>> loops(static_cast<std::size_t>(nc));
  for (int i = 0; i < nc; ++i)
    loops[i] = {all[2 * i] / static_cast<double>(g.v3), all[2 * i + 1] / static_cast<double>(g.v3)};
  return loops;
}

MonopoleCurrents monopole_currents(const HostField& u, const World& world) {
  check_slab(u, world);
  const Geometry& g = u.geom;
  const int nc = u.nc;
  const ExtendedAngles a(u, world);
  // Dirac strings of every plaquette of slices 0 .. nt-1 and of the spatial ones of slice nt
  std::vector<int> strings(static_cast<std::size_t>((g.nt + 1) * g.v3 * 6 * nc), 0);
  const std::int64_t ext_sites = (g.nt + 1) * g.v3;
#pragma omp parallel for schedule(static)
  for (std::int64_t s = 0; s < ext_sites; ++s)
    for (int p = 0; p < 6; ++p) {
      if (s >= g.nt * g.v3 && planes[p][1] == time_dir) continue;
      double theta[3];
      for (int i = 0; i < nc; ++i)
        theta[i] = a.plaquette(s, planes[p][0], planes[p][1], i);
      dirac_strings(theta, nc, strings.data() + (s * 6 + p) * nc);
    }
  MonopoleCurrents out;
  out.nc = nc;
  const std::int64_t sites = g.local_volume();
  out.m.assign(static_cast<std::size_t>(sites * 4 * nc), 0);
#pragma omp parallel for schedule(static)
  for (std::int64_t s = 0; s < sites; ++s)
    for (int mu = 0; mu < 4; ++mu) {
      const std::int64_t xm = a.forward(s, mu);
      for (int nu = 0; nu < 4; ++nu) {
        if (nu == mu) continue;
        int rs[2], k = 0;
        for (int d = 0; d < 4; ++d)
          if (d != mu && d != nu) rs[k++] = d;
        const int perm[4] = {mu, nu, rs[0], rs[1]};
        const int eps = permutation_sign(perm);
        const int p = plane_index(rs[0], rs[1]);
        const std::int64_t xmn = a.forward(xm, nu);
        for (int i = 0; i < nc; ++i)
          out.m[(s * 4 + mu) * nc + i] -=
              eps * (strings[(xmn * 6 + p) * nc + i] - strings[(xm * 6 + p) * nc + i]);
      }
    }
  // density per colour and the divergence sum_mu m_mu(x) - m_mu(x - mu)
  std::vector<std::int64_t> nonzero(static_cast<std::size_t>(nc), 0);
  for (std::int64_t l = 0; l < sites * 4; ++l)
    for (int i = 0; i < nc; ++i)
      nonzero[i] += out.m[l * nc + i] != 0;
  const std::size_t slice = static_cast<std::size_t>(g.v3 * 4 * nc);
  std::vector<int> before(slice), after(slice);
  exchange_boundary_slices(world, out.m.data(), out.m.data() + (g.nt - 1) * slice,
                           slice * sizeof(int), before.data(), after.data());
  std::int64_t unconserved = 0;
#pragma omp parallel for schedule(static) reduction(+ : unconserved)
  for (std::int64_t s = 0; s < sites; ++s) {
    const std::int64_t t = s / g.v3, s3 = s - t * g.v3;
    for (int i = 0; i < nc; ++i) {
      int div = 0;
      for (int mu = 0; mu < 4; ++mu) {
        div += out.m[(s * 4 + mu) * nc + i];
        if (mu == time_dir) {
          div -= t > 0 ? out.m[((s - g.v3) * 4 + mu) * nc + i] : before[(s3 * 4 + mu) * nc + i];
          continue;
        }
        std::int64_t stride = 1;
        for (int k = 0; k < mu; ++k)
          stride *= g.L[k];
        const std::int64_t x = (s / stride) % g.L[mu];
        const std::int64_t back = x == 0 ? s + (g.L[mu] - 1) * stride : s - stride;
        div -= out.m[(back * 4 + mu) * nc + i];
      }
      unconserved += div != 0;
    }
  }
  out.unconserved = world.sum(unconserved);
  const double dual_links = 4.0 * static_cast<double>(g.global_volume());
  for (int i = 0; i < nc; ++i)
    out.density.push_back(static_cast<double>(world.sum(nonzero[i])) / dual_links);
  return out;
}

AbelianMeasurement measure_abelian(const HostField& u, const World& world) {
  AbelianMeasurement out;
  out.plaquette = abelian_plaquette(u, world);
  out.polyakov = abelian_polyakov_loops(u, world);
  for (const Complex<double>& p : out.polyakov) {
    out.polyakov_mean.re += p.re / u.nc;
    out.polyakov_mean.im += p.im / u.nc;
  }
  const MonopoleCurrents m = monopole_currents(u, world);
  out.monopole_density = m.density;
  out.unconserved = m.unconserved;
  out.currents_conserved = m.unconserved == 0;
  return out;
}

} // namespace gf
