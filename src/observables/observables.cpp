#include "observables/observables.h"
#include "math/su_n.h"
#include <algorithm>

namespace gf {

namespace {

template <int N>
double plaquette_n(const HostField& u) {
  const std::int64_t sites = u.local_sites();
  double sum = 0;
#pragma omp parallel for reduction(+ : sum) schedule(static)
  for (std::int64_t s = 0; s < sites; ++s) {
    const SiteCoords c = u.coords(s);
    for (int mu = 0; mu < 4; ++mu)
      for (int nu = mu + 1; nu < 4; ++nu) {
        const std::int64_t s_mu = u.local_index(u.geom.forward(c, mu));
        const std::int64_t s_nu = u.local_index(u.geom.forward(c, nu));
        const Matrix<double, N> a = u.get<N>(s, mu) * u.get<N>(s_mu, nu);
        const Matrix<double, N> b = u.get<N>(s, nu) * u.get<N>(s_nu, mu);
        sum += re_trace_product(a, adjoint(b));
      }
  }
  return sum / (6.0 * N * static_cast<double>(sites));
}

template <int N>
Complex<double> polyakov_n(const HostField& u) {
  const std::int64_t v3 = u.geom.v3;
  double re = 0, im = 0;
#pragma omp parallel for reduction(+ : re, im) schedule(static)
  for (std::int64_t s = 0; s < v3; ++s) {
    Matrix<double, N> p = Matrix<double, N>::identity();
    for (int t = 0; t < u.geom.L[3]; ++t) p = p * u.get<N>(s + t * v3, time_dir);
    const Complex<double> tr = trace(p);
    re += tr.re;
    im += tr.im;
  }
  return {re / (N * double(v3)), im / (N * double(v3))};
}

template <int N>
double max_violation_n(const HostField& u) {
  const std::int64_t sites = u.local_sites();
  double worst = 0;
#pragma omp parallel for reduction(max : worst) schedule(static)
  for (std::int64_t s = 0; s < sites; ++s)
    for (int mu = 0; mu < u.ndir; ++mu) worst = std::max(worst, unitarity_deviation(u.get<N>(s, mu)));
  return worst;
}

template <int N>
void reunitarize_n(HostField& u) {
  const std::int64_t sites = u.local_sites();
#pragma omp parallel for schedule(static)
  for (std::int64_t s = 0; s < sites; ++s)
    for (int mu = 0; mu < u.ndir; ++mu) {
      Matrix<double, N> m = u.get<N>(s, mu);
      reunitarize(m);
      u.set<N>(s, mu, m);
    }
}

} // namespace

double plaquette(const HostField& u) { return u.nc == 2 ? plaquette_n<2>(u) : plaquette_n<3>(u); }

double link_trace(const HostField& u) {
  double sum = 0;
  const std::int64_t sites = u.local_sites();
  const int n = u.nc;
#pragma omp parallel for reduction(+ : sum) schedule(static)
  for (std::int64_t s = 0; s < sites; ++s)
    for (int mu = 0; mu < 4; ++mu) {
      const Complex<double>* m = u.matrix_data(s, mu);
      for (int i = 0; i < n; ++i) sum += m[i * n + i].re;
    }
  return sum / (4.0 * n * static_cast<double>(sites));
}

Complex<double> polyakov_loop(const HostField& u) {
  return u.nc == 2 ? polyakov_n<2>(u) : polyakov_n<3>(u);
}

double max_unitarity_violation(const HostField& u) {
  return u.nc == 2 ? max_violation_n<2>(u) : max_violation_n<3>(u);
}

void reunitarize_all(HostField& u) { u.nc == 2 ? reunitarize_n<2>(u) : reunitarize_n<3>(u); }

} // namespace gf
