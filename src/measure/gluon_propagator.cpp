#include "measure/gluon_propagator.h"
#include "core/error.h"
#include "measure/partial_fourier.h"
#include <cmath>
#include <numbers>

namespace gf {

namespace {

// The real components of A_mu(x), N^2 - 1 per direction (gluon_propagator.h): the first N - 1
// diagonal entries (real; the last is minus their sum), then for each i < j the real and the
// imaginary part of A_ij (A_ji is its conjugate).
int algebra_dimension(int n) {
  return n * n - 1;
}

template <int N>
void potential_line(const HostField& u, std::int64_t site, int count, double* out) {
  constexpr int d = N * N - 1;
  constexpr double inverse_n = 1.0 / N;
  for (int k = 0; k < count; ++k)
    for (int mu = 0; mu < 4; ++mu) {
      const Complex<double>* m = u.matrix_data(site + k, mu);
      double* a = out + (std::size_t(k) * 4 + mu) * d;
      double trace = 0; // of the imaginary part: (U - U^dagger)/2i has diagonal Im U_ii
      for (int i = 0; i < N; ++i)
        trace += m[i * N + i].im;
      const double mean = trace * inverse_n;
      for (int i = 0; i + 1 < N; ++i)
        a[i] = m[i * N + i].im - mean;
      // ((U - U^dagger)/(2i))_ij = (U_ij - conj(U_ji)) / (2i)
      int c = N - 1;
      for (int i = 0; i < N; ++i)
        for (int j = i + 1; j < N; ++j, c += 2) {
          a[c] = 0.5 * (m[i * N + j].im + m[j * N + i].im);
          a[c + 1] = -0.5 * (m[i * N + j].re - m[j * N + i].re);
        }
    }
}

LineComponents potential_components(const HostField& u) {
  if (u.nc == 2)
    return
        [&u](std::int64_t site, int count, double* out) { potential_line<2>(u, site, count, out); };
  return
      [&u](std::int64_t site, int count, double* out) { potential_line<3>(u, site, count, out); };
}

// The N x N complex matrix A_mu(p) (row-major, re and im) from the transforms of its components
// (a complex C-vector, partial_fourier.h): A_ii = D_i (A_NN = -sum D_i), A_ij = R + i I and
// A_ji = R - i I of the transforms R, I of Re A_ij and Im A_ij.
void potential_matrix(const double* f, int components, int mu, int n, double (*a)[2]) {
  const double* re = f + mu * algebra_dimension(n);
  const double* im = re + components;
  double last_re = 0, last_im = 0;
  for (int i = 0; i + 1 < n; ++i) {
    a[i * n + i][0] = re[i];
    a[i * n + i][1] = im[i];
    last_re -= re[i];
    last_im -= im[i];
  }
  a[n * n - 1][0] = last_re;
  a[n * n - 1][1] = last_im;
  int k = n - 1;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j, k += 2) {
      a[i * n + j][0] = re[k] - im[k + 1];
      a[i * n + j][1] = im[k] + re[k + 1];
      a[j * n + i][0] = re[k] + im[k + 1];
      a[j * n + i][1] = im[k] - re[k + 1];
    }
}

// Re tr[a b^dagger] of two N x N matrices.
double re_trace_adjoint(const double (*a)[2], const double (*b)[2], int n) {
  double sum = 0;
  for (int k = 0; k < n * n; ++k)
    sum += a[k][0] * b[k][0] + a[k][1] * b[k][1];
  return sum;
}

void check_field(const HostField& u, const char* what) {
  if (u.ndir != 4 || (u.nc != 2 && u.nc != 3))
    throw Error(std::string(what) + ": needs an SU(2) or SU(3) gauge field");
}

} // namespace

std::vector<LandauGluonRow> landau_gluon_propagator(const HostField& u, const MomentumCut& cut,
                                                    const World& world) {
  check_field(u, "gluon propagator");
  const int n = u.nc;
  const int components = 4 * algebra_dimension(n);
  const int* L = u.geom.L;
  const std::vector<std::array<int, 4>> modes = cut_momenta(L, 4, cut);
  const ModePrefixes prefixes(modes);
  const std::vector<double> transforms = time_transforms(
      modes, prefixes, L[3], components,
      gather_slices(slice_transforms(u.geom, prefixes, components, potential_components(u)),
                    world));

  const double volume = double(u.geom.global_volume());
  const double groups = double(n * n - 1);
  const double transverse_norm = 2.0 / (groups * 3.0 * volume);
  const double zero_norm = 2.0 / (groups * 4.0 * volume);
  const double longitudinal_norm = 2.0 / (groups * volume);
  std::vector<LandauGluonRow> rows(modes.size());
#pragma omp parallel for schedule(static)
  for (std::size_t r = 0; r < modes.size(); ++r) {
    const std::array<int, 4>& k = modes[r];
    double p[4], p2 = 0;
    // A_mu(p) with the half-link phase e^{i p_mu/2}, p_mu here 2 pi n_mu / L_mu
    double am[4][9][2];
    for (int mu = 0; mu < 4; ++mu) {
      double a[9][2];
      potential_matrix(transforms.data() + r * 2 * components, components, mu, n, a);
      p[mu] = lattice_momentum(k[mu], L[mu]);
      p2 += p[mu] * p[mu];
      const double half = 0.5 * k[mu] * (2.0 * std::numbers::pi / L[mu]);
      const double c = std::cos(half), s = 0.5 * p[mu];
      for (int e = 0; e < n * n; ++e) {
        am[mu][e][0] = c * a[e][0] - s * a[e][1];
        am[mu][e][1] = c * a[e][1] + s * a[e][0];
      }
    }
    const bool zero = k[0] == 0 && k[1] == 0 && k[2] == 0 && k[3] == 0;
    double transverse = 0, longitudinal = 0;
    for (int mu = 0; mu < 4; ++mu)
      for (int nu = 0; nu < 4; ++nu) {
        const double tr = re_trace_adjoint(am[mu], am[nu], n);
        const double along = zero ? 0.0 : p[mu] * p[nu] / p2 * tr;
        transverse += (mu == nu ? tr : 0.0) - along;
        longitudinal += along;
      }
    rows[r] = {k, p2, transverse * (zero ? zero_norm : transverse_norm),
               longitudinal * longitudinal_norm};
  }
  return rows;
}

std::vector<CoulombGluonRow> coulomb_gluon_propagator(const HostField& u, const MomentumCut& cut,
                                                      const World& world) {
  check_field(u, "gluon propagator");
  const int n = u.nc;
  const int components = 4 * algebra_dimension(n);
  const int* L = u.geom.L;
  const std::vector<std::array<int, 4>> modes = cut_momenta(L, 3, cut);
  const ModePrefixes prefixes(modes);
  const std::vector<double> slices =
      slice_transforms(u.geom, prefixes, components, potential_components(u));

  // tr[A_mu(p, t) A_mu(p, t)^dagger] summed over the spatial mu, and that of A_t, per local
  // slice and mode; then added over the slices of every rank in global slice order
  const std::size_t count = modes.size(), spatial_count = prefixes.xyz.size();
  std::vector<double> per_slice(std::size_t(u.geom.nt) * count * 2);
#pragma omp parallel for schedule(static)
  for (std::int64_t tr = 0; tr < std::int64_t(u.geom.nt * count); ++tr) {
    const std::int64_t t = tr / std::int64_t(count);
    const std::size_t r = std::size_t(tr) % count;
    const double* f =
        slices.data() + (t * spatial_count + prefixes.spatial_of_mode[r]) * 2 * components;
    double spatial = 0, temporal = 0;
    for (int mu = 0; mu < 4; ++mu) {
      double a[9][2];
      potential_matrix(f, components, mu, n, a);
      (mu < 3 ? spatial : temporal) += re_trace_adjoint(a, a, n);
    }
    per_slice[tr * 2] = spatial;
    per_slice[tr * 2 + 1] = temporal;
  }
  const std::vector<double> all = world.gather_concat(per_slice);
  if (all.size() != std::size_t(L[3]) * count * 2)
    throw Error("gluon propagator: the ranks' slabs do not tile the lattice in time");

  const double volume = double(u.geom.global_volume());
  const double groups = double(n * n - 1);
  const double norm = 2.0 / (groups * 2.0 * volume);
  const double zero_norm = 2.0 / (groups * 3.0 * volume);
  std::vector<CoulombGluonRow> rows(count);
  for (std::size_t r = 0; r < count; ++r) {
    const std::array<int, 4>& k = modes[r];
    double p2 = 0;
    for (int i = 0; i < 3; ++i) {
      const double p = lattice_momentum(k[i], L[i]);
      p2 += p * p;
    }
    double spatial = 0, temporal = 0;
    for (int t = 0; t < L[3]; ++t) {
      spatial += all[(t * count + r) * 2];
      temporal += all[(t * count + r) * 2 + 1];
    }
    const double c = k[0] == 0 && k[1] == 0 && k[2] == 0 ? zero_norm : norm;
    rows[r] = {{k[0], k[1], k[2]}, p2, spatial * c, temporal * c};
  }
  return rows;
}

} // namespace gf
