#include "measure/gluon_propagator.h"
#include "core/error.h"
#include "fourier/fftw_planner.h"
#include "measure/gathered_field.h"
#include <cmath>
#include <fftw3.h>
#include <memory>
#include <numbers>

namespace gf {

namespace {

struct FftwFree {
  void operator()(fftw_complex* p) const { fftw_free(p); }
};
using FftwArray = std::unique_ptr<fftw_complex[], FftwFree>;

// The linear A_mu(x) of every link of the whole lattice, C = 4 N^2 complex numbers a site
// (mu, row, column), in FFTW's memory.
FftwArray lie_field(const HostField& whole) {
  const int n = whole.nc;
  const std::int64_t per_site = 4 * n * n;
  const std::int64_t sites = whole.local_sites();
  FftwArray a(static_cast<fftw_complex*>(fftw_malloc(sizeof(fftw_complex) * sites * per_site)));
  if (!a) throw Error("memory: no room for the Fourier transform of the gauge potential");
#pragma omp parallel for schedule(static)
  for (std::int64_t s = 0; s < sites; ++s)
    for (int mu = 0; mu < 4; ++mu) {
      const Complex<double>* u = whole.matrix_data(s, mu);
      fftw_complex* out = a.get() + s * per_site + mu * n * n;
      double trace = 0; // of the imaginary part: (U - U^dagger)/2i has diagonal Im U_ii
      for (int i = 0; i < n; ++i)
        trace += u[i * n + i].im;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
          // ((U - U^dagger)/(2i))_ij = (U_ij - conj(U_ji)) / (2i)
          const double re = u[i * n + j].re - u[j * n + i].re;
          const double im = u[i * n + j].im + u[j * n + i].im;
          out[i * n + j][0] = im / 2;
          out[i * n + j][1] = -re / 2;
        }
      for (int i = 0; i < n; ++i)
        out[i * n + i][0] -= trace / n;
    }
  return a;
}

// Transforms each of the `components` interleaved components of `a` (a + c, c < components)
// with one FFTW plan for one component, made (and destroyed) under the planner lock and
// without alignment assumptions (FFTW_UNALIGNED: a + c is only 16-byte aligned). The
// components are shared among the OpenMP threads; each is transformed alone by the same plan,
// so a value does not depend on the number of threads.
template <class MakePlan>
void transform(fftw_complex* a, int components, MakePlan make) {
  fftw_plan plan;
  {
    std::lock_guard<std::mutex> hold(fftw_planner_lock());
    plan = make();
  }
  if (!plan) throw Error("FFTW could not plan the Fourier transform of the gauge potential");
#pragma omp parallel for schedule(dynamic)
  for (int c = 0; c < components; ++c)
    fftw_execute_dft(plan, a + c, a + c);
  std::lock_guard<std::mutex> hold(fftw_planner_lock());
  fftw_destroy_plan(plan);
}

std::int64_t mode_site(const int L[4], const int k[4], int dims) {
  std::int64_t s = 0;
  for (int mu = dims - 1; mu >= 0; --mu)
    s = s * L[mu] + (k[mu] + L[mu]) % L[mu];
  return s;
}

// Re tr[a b^dagger] of two N x N matrices.
double re_trace_adjoint(const fftw_complex* a, const fftw_complex* b, int n) {
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
  const HostField whole = gather_whole(u, world);
  const int n = whole.nc;
  const int per_site = 4 * n * n;
  const int* L = whole.geom.L;
  FftwArray a = lie_field(whole);
  transform(a.get(), per_site, [&] {
    const int dims[4] = {L[3], L[2], L[1], L[0]}; // slowest first
    return fftw_plan_many_dft(4, dims, 1, a.get(), nullptr, per_site, 1, a.get(), nullptr, per_site,
                              1, FFTW_BACKWARD, FFTW_ESTIMATE | FFTW_UNALIGNED);
  });

  const double volume = double(whole.geom.global_volume());
  const double groups = double(n * n - 1);
  const double transverse_norm = 2.0 / (groups * 3.0 * volume);
  const double zero_norm = 2.0 / (groups * 4.0 * volume);
  const double longitudinal_norm = 2.0 / (groups * volume);
  const std::vector<std::array<int, 4>> modes = cut_momenta(L, 4, cut);
  std::vector<LandauGluonRow> rows(modes.size());
#pragma omp parallel for schedule(static)
  for (std::size_t r = 0; r < modes.size(); ++r) {
    const std::array<int, 4>& k = modes[r];
    double p[4], p2 = 0;
    // A_mu(p) with the half-link phase e^{i p_mu/2}, p_mu here 2 pi n_mu / L_mu
    fftw_complex am[4][9];
    const fftw_complex* at = a.get() + mode_site(L, k.data(), 4) * per_site;
    for (int mu = 0; mu < 4; ++mu) {
      p[mu] = lattice_momentum(k[mu], L[mu]);
      p2 += p[mu] * p[mu];
      const double half = 0.5 * k[mu] * (2.0 * std::numbers::pi / L[mu]);
      const double c = std::cos(half), s = 0.5 * p[mu];
      for (int e = 0; e < n * n; ++e) {
        const double re = at[mu * n * n + e][0], im = at[mu * n * n + e][1];
        am[mu][e][0] = c * re - s * im;
        am[mu][e][1] = c * im + s * re;
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
  const HostField whole = gather_whole(u, world);
  const int n = whole.nc;
  const int per_site = 4 * n * n;
  const int* L = whole.geom.L;
  const std::int64_t v3 = whole.geom.v3;
  FftwArray a = lie_field(whole);
  transform(a.get(), per_site, [&] {
    const fftw_iodim space[3] = {{L[2], L[1] * L[0] * per_site, L[1] * L[0] * per_site},
                                 {L[1], L[0] * per_site, L[0] * per_site},
                                 {L[0], per_site, per_site}};
    const fftw_iodim slices = {L[3], int(v3) * per_site, int(v3) * per_site};
    return fftw_plan_guru_dft(3, space, 1, &slices, a.get(), a.get(), FFTW_BACKWARD,
                              FFTW_ESTIMATE | FFTW_UNALIGNED);
  });

  const double volume = double(whole.geom.global_volume());
  const double groups = double(n * n - 1);
  const double norm = 2.0 / (groups * 2.0 * volume);
  const double zero_norm = 2.0 / (groups * 3.0 * volume);
  const std::vector<std::array<int, 4>> modes = cut_momenta(L, 3, cut);
  std::vector<CoulombGluonRow> rows(modes.size());
#pragma omp parallel for schedule(static)
  for (std::size_t r = 0; r < modes.size(); ++r) {
    const std::array<int, 4>& k = modes[r];
    double p2 = 0;
    for (int i = 0; i < 3; ++i) {
      const double p = lattice_momentum(k[i], L[i]);
      p2 += p * p;
    }
    const std::int64_t site = mode_site(L, k.data(), 3);
    double spatial = 0, temporal = 0;
    for (int t = 0; t < L[3]; ++t) {
      const fftw_complex* at = a.get() + (t * v3 + site) * per_site;
      for (int mu = 0; mu < 3; ++mu)
        spatial += re_trace_adjoint(at + mu * n * n, at + mu * n * n, n);
      temporal += re_trace_adjoint(at + 3 * n * n, at + 3 * n * n, n);
    }
    const double c = k[0] == 0 && k[1] == 0 && k[2] == 0 ? zero_norm : norm;
    rows[r] = {{k[0], k[1], k[2]}, p2, spatial * c, temporal * c};
  }
  return rows;
}

} // namespace gf
