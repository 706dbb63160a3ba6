#include "measure/ghost_propagator.h"
#include "core/error.h"
#include "fix/engine.h"
#include "math/random.h"
#include "measure/ghost_cg.h"
#include "measure/slab_sums.h"
#include "measure/tridiagonal.h"
#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

namespace gf {

namespace {

constexpr double two_pi = 6.283185307179586477;

std::string momentum_name(const Momentum& n) {
  std::ostringstream s;
  s << "(" << n[0] << "," << n[1] << "," << n[2] << "," << n[3] << ")";
  return s.str();
}

void check_iteration_limits(const char* what, double tolerance, int max_iterations) {
  if (!(tolerance > 0))
    throw Error(std::string(what) + ": tolerance " + std::to_string(tolerance) +
                " (must be positive)");
  if (max_iterations < 1)
    throw Error(std::string(what) + ": maximum number of iterations " +
                std::to_string(max_iterations) + " (must be at least 1)");
}

double norm(const FaddeevPopov& m, const std::vector<double>& v) {
  return std::sqrt(m.dot(v, v));
}

// Each colour's lattice mean of M x from apply()'s sums, and <x|P M x> = <x|M x> minus the
// constants' part.
double projected_form(const FaddeevPopov& m, const FaddeevPopov::Sums& sums, double* mean) {
  const double volume = static_cast<double>(m.geometry().global_volume());
  double form = sums.in_dot_out;
  for (int a = 0; a < m.components(); ++a) {
    mean[a] = sums.out_sums[a] / volume;
    form -= mean[a] * sums.in_sums[a];
  }
  return form;
}

// One pass over this rank's sites: f(i, c, sum) updates real i (colour c) and adds to sum[0];
// returns the lattice total of the sums (slab_sums.h).
template <class F>
double vector_pass(const FaddeevPopov& m, F f) {
  const int d = m.components();
  const std::vector<double> per_slice =
      slice_sums<1>(m.geometry(), [&](std::int64_t s, double* sum) {
        for (int c = 0; c < d; ++c)
          f(static_cast<std::size_t>(s * d + c), c, sum);
      });
  return ordered_totals<1>(per_slice, m.world())[0];
}

} // namespace

SolveResult conjugate_gradient(const FaddeevPopov& m, const std::vector<double>& b,
                               std::vector<double>& x, double tolerance, int max_iterations) {
  check_iteration_limits("conjugate gradient", tolerance, max_iterations);
  GhostCg<HostExec> cg(m);
  const SolveResult res = cg.solve(b, tolerance, max_iterations);
  cg.solution(x);
  return res;
}

double lattice_momentum_squared(const int L[4], const Momentum& n) {
  double p2 = 0;
  for (int mu = 0; mu < 4; ++mu) {
    const double s = std::sin(0.5 * two_pi * n[mu] / L[mu]);
    p2 += 4 * s * s;
  }
  return p2;
}

std::vector<Momentum> ghost_momenta(const int L[4], const MomentumCut& cut) {
  std::vector<Momentum> out;
  for (const Momentum& n : cut_momenta(L, 4, cut))
    if (n != Momentum{0, 0, 0, 0}) out.push_back(n);
  return out;
}

std::vector<GhostPoint> ghost_propagator(const FaddeevPopov& m,
                                         const std::vector<Momentum>& momenta, double tolerance,
                                         int max_iterations, gaugefix::Backend backend,
                                         const GhostProgress& progress) {
  check_iteration_limits("ghost propagator", tolerance, max_iterations);
  const Geometry& g = m.geometry();
  for (const Momentum& n : momenta) {
    bool constant = true;
    for (int mu = 0; mu < 4; ++mu)
      constant = constant && n[mu] % g.L[mu] == 0;
    if (constant)
      throw Error("ghost propagator: momentum " + momentum_name(n) +
                  " is the constant mode (n_mu = 0 mod L_mu for every mu), a zero mode of the "
                  "Faddeev-Popov operator");
  }
  if (backend == gaugefix::Backend::cpu)
    return ghost_points<HostExec>(m, momenta, tolerance, max_iterations, progress);
#ifdef GAUGEFIX_HAVE_CUDA
  if (!cuda_available()) throw Error("backend cuda requested, but no CUDA device was found");
  return ghost_points_cuda(m, momenta, tolerance, max_iterations, progress);
#else
  throw Error("ghost propagator: backend cuda requested, but this gaugefix was built without "
              "CUDA (-Dcuda=enabled)");
#endif
}

EigenResult lowest_eigenvalue(const FaddeevPopov& m, double tolerance, int max_iterations) {
  check_iteration_limits("lowest eigenvalue", tolerance, max_iterations);
  const Geometry& g = m.geometry();
  const int d = m.components();
  const std::int64_t sites = g.local_volume();
  std::vector<double> v(m.size()), v_prev(m.size(), 0.0), w(m.size());
#pragma omp parallel for schedule(static)
  for (std::int64_t s = 0; s < sites; ++s) {
    const std::uint64_t global = static_cast<std::uint64_t>(s + g.t0 * g.v3);
    for (int a = 0; a < d; ++a) {
      r123::Philox4x32 gen;
      const r123::Philox4x32::key_type key = {{static_cast<std::uint32_t>(lanczos_seed),
                                               static_cast<std::uint32_t>(lanczos_seed >> 32)}};
      const r123::Philox4x32::ctr_type ctr = {{static_cast<std::uint32_t>(global),
                                               static_cast<std::uint32_t>(global >> 32),
                                               static_cast<std::uint32_t>(a), 0}};
      const double u = (static_cast<double>(gen(ctr, key)[0]) + 0.5) * 2.3283064365386963e-10;
      v[s * d + a] = u - 0.5;
    }
  }
  m.project_out_constants(v);
  const double v_norm = norm(m, v);
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] /= v_norm;
  std::vector<double> alpha, beta;
  EigenResult res;
  double beta_prev = 0, mean[8], v_mean[8]; // N^2 - 1 <= 8 colour means
  const double volume = static_cast<double>(g.global_volume());
  while (res.iterations < max_iterations) {
    // H, not M: Lanczos assumes a symmetric operator, and M is symmetric only to |d.A|
    const FaddeevPopov::Sums sums = m.apply(v, w, FaddeevPopov::Part::symmetric);
    const double a = projected_form(m, sums, mean); // <v|P H v>
    for (int c = 0; c < d; ++c)
      v_mean[c] = sums.in_sums[c] / volume;
    // v <- P v (the constants that rounding leaves in v, which the iteration would amplify: they
    // lie below the spectrum it looks for), w <- P H v - a v - beta v_prev, and |w|^2
    const double b = std::sqrt(vector_pass(m, [&](std::size_t i, int c, double* sum) {
      v[i] -= v_mean[c];
      w[i] -= mean[c] + a * v[i] + beta_prev * v_prev[i];
      sum[0] += w[i] * w[i];
    }));
    alpha.push_back(a);
    ++res.iterations;
    const LowestEigenpair ritz = lowest_eigenpair(alpha, beta);
    res.eigenvalue = ritz.value;
    res.residual = b * ritz.last_component;
    if (res.residual <= tolerance) {
      res.converged = true;
      break;
    }
    beta.push_back(b);
    beta_prev = b;
    v_prev.swap(v);
#pragma omp parallel for schedule(static) if (sites >= min_parallel_sites)
    for (std::size_t i = 0; i < w.size(); ++i)
      v[i] = w[i] / b;
  }
  return res;
}

} // namespace gf
