// ghost_cg.h: the ghost propagator's conjugate gradient (ghost_propagator.h's contract) run
// through parallel_for on a backend Exec (HostExec, or CudaExec in the CUDA build), with the
// site functors of ghost_functors.h: the CPU and a GPU run the same source.
//
// GhostCg<Exec> copies the operator's links into backend memory once (natural order, and the
// temporal links of the slice before the slab) and keeps the CG's vectors there: b, x, r,
// M p, p with one time slice more on each side (its halo) and the per-site sums. Each
// iteration exchanges p's boundary slices (one rank: two slice copies on the backend; several
// ranks: through host memory and exchange_boundary_slices), applies M, reduces <p|M p> and the
// colour sums of p and M p per time slice, updates x and r with <r|r> per time slice, and sets
// the next p. The per-slice sums of every rank are added in global slice order
// (World::gather_concat), so that every rank gets bitwise the one rank's numbers; the CPU and
// the GPU sum a slice in different orders and agree to rounding. On the CPU, a rank with fewer
// than min_parallel_sites sites (slab_sums.h) runs the passes on one thread, in the same order.
// Bytes one iteration moves per site (8-byte reals, d = N^2 - 1, K = 1 + 2 d): M reads 4
// links (64 N^2) and p (8 d) and writes M p (8 d) and its K sums (8 K), which the reduction
// reads again (8 K); the update reads x, p, r, M p and writes x, r and |r|^2 (48 d + 8), its
// reduction reads 8; the new p reads r and p and writes p (24 d). SU(3): 576 + 128 + 272 +
// 392 + 8 + 192 = 1568 bytes; SU(2): 256 + 48 + 112 + 152 + 8 + 72 = 648 bytes
// (ghost_cg_bytes_per_site). The neighbours' links and vectors are taken to come from cache.
//
// ghost_points<Exec> is ghost_propagator's loop over momenta and sources (the sources are built
// and projected on the host, as FaddeevPopov's vectors) on this solver; time_ghost_cg times
// its iterations. All collective.
#pragma once
#include "backend/host_exec.h"
#include "core/error.h"
#include "measure/faddeev_popov.h"
#include "measure/ghost_functors.h"
#include "measure/ghost_propagator.h"
#include "measure/slab_exchange.h"
#include "measure/slab_sums.h"
#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <vector>

namespace gf {

constexpr double ghost_cg_bytes_per_site(int nc) {
  const int d = nc * nc - 1, terms = 1 + 2 * d;
  return 64.0 * nc * nc + 16.0 * d + 16.0 * terms + (48.0 * d + 8) + 8 + 24.0 * d;
}
static_assert(ghost_cg_bytes_per_site(3) == 1568 && ghost_cg_bytes_per_site(2) == 648);

// The CUDA build's instances (ghost_cg_cuda.cu), on the GPU of this rank's node rank:
// ghost_points<CudaExec> and time_ghost_cg<CudaExec>.
std::vector<GhostPoint> ghost_points_cuda(const FaddeevPopov& m,
                                          const std::vector<Momentum>& momenta, double tolerance,
                                          int max_iterations);
std::vector<double> time_ghost_cg_cuda(const FaddeevPopov& m, const std::vector<double>& b,
                                       int iterations, int repetitions);

template <class Exec>
class GhostCg {
public:
  explicit GhostCg(const FaddeevPopov& m)
      : m_(m), d_(m.components()), v3_(m.geometry().v3), nt_(m.geometry().nt), sites_(v3_ * nt_),
        links_(static_cast<std::int64_t>(m.links().data.size())),
        time_before_(v3_ * m.nc() * m.nc()), b_(sites_ * d_), x_(sites_ * d_), r_(sites_ * d_),
        mp_(sites_ * d_), p_((sites_ + 2 * v3_) * d_), sums_(sites_ * (1 + 2 * d_)) {
    const HostField& u = m.links();
    links_.upload(u.data.data());
    time_before_.upload(m.time_links_before().data());
  }

  // Solves P M P x = b from x = 0 (b: this rank's part, orthogonal to the constants).
  SolveResult solve(const std::vector<double>& b, double tolerance, int max_iterations) {
    if (static_cast<std::int64_t>(b.size()) != sites_ * d_)
      throw Error("conjugate gradient: a source of " + std::to_string(b.size()) + " reals, not " +
                  std::to_string(sites_ * d_));
    b_.upload(b.data());
    for_sites(CgStart{b_.data(), x_.data(), r_.data(), own_p(), d_});
    const double bb = dot(b_.data(), b_.data());
    SolveResult res;
    if (bb == 0) {
      res.converged = true;
      return res;
    }
    double rr = bb;
    while (res.iterations < max_iterations) {
      CgStep step{own_p(), mp_.data(), x_.data(), r_.data(), sums_.data(), 0.0, {}, d_};
      const double pap = apply_p(step.mean); // <p|P M p>
      if (!(pap > 0))
        throw Error("conjugate gradient: <p|M p> = " + std::to_string(pap) + " at iteration " +
                    std::to_string(res.iterations + 1) +
                    ": the Faddeev-Popov operator is not positive (is the field in Landau "
                    "gauge, in the first Gribov region?)");
      step.alpha = rr / pap;
      for_sites(step);
      const double rr_next = totals(1)[0];
      ++res.iterations;
      res.residual = std::sqrt(rr_next / bb);
      if (res.residual <= tolerance) {
        res.converged = true;
        break;
      }
      for_sites(CgDirection{r_.data(), own_p(), rr_next / rr, d_});
      rr = rr_next;
    }
    return res;
  }

  // <b|x> of the last solve.
  double source_dot_solution() { return dot(b_.data(), x_.data()); }
  void solution(std::vector<double>& x) const {
    x.resize(static_cast<std::size_t>(sites_ * d_));
    x_.download(x.data());
  }

private:
  double* own_p() { return p_.data() + v3_ * d_; }

  // Whether passes run on one CPU thread: on the CPU below min_parallel_sites (slab_sums.h),
  // where starting a parallel region costs more than the pass.
  bool serial() const { return !Exec::device_memory && sites_ < min_parallel_sites; }
  template <class F>
  void for_sites(const F& f) {
    if (serial()) {
      for (std::int64_t s = 0; s < sites_; ++s)
        f(s);
    } else {
      parallel_for(Exec{}, sites_, f);
    }
  }

  // M p into mp_; returns <p|P M p> and each colour's lattice mean of M p in mean.
  double apply_p(double* mean) {
    exchange_p_halo();
    const Geometry& g = m_.geometry();
    std::vector<double> t;
    if (m_.nc() == 2) {
      launch_apply<2>(g);
      t = totals(FaddeevPopovApply<2>::terms);
    } else {
      launch_apply<3>(g);
      t = totals(FaddeevPopovApply<3>::terms);
    }
    const double volume = static_cast<double>(g.global_volume());
    double form = t[0];
    for (int a = 0; a < d_; ++a) {
      mean[a] = t[1 + d_ + a] / volume;
      form -= mean[a] * t[1 + a];
    }
    return form;
  }

  template <int N>
  void launch_apply(const Geometry& g) {
    for_sites(FaddeevPopovApply<N>{links_.data(), time_before_.data(), own_p(), mp_.data(),
                                   sums_.data(), sites_, v3_, g.L[0], g.L[1], g.L[2], false});
  }

  double dot(const double* a, const double* b) {
    for_sites(SiteDot{a, b, sums_.data(), d_});
    return totals(1)[0];
  }

  // The lattice totals of the first `terms` per-site sums: each slice summed by
  // reduce_segments, the slices of every rank added in global slice order.
  std::vector<double> totals(int terms) {
    // term k of slice t is the segment k nt + t of v3 values
    std::vector<double> by_term(static_cast<std::size_t>(terms * nt_)), by_slice(by_term.size());
    const int segments = static_cast<int>(terms * nt_);
    if (serial()) {
      for (int k = 0; k < segments; ++k) { // in index order, as reduce_segments on the CPU
        double acc = 0;
        for (std::int64_t i = 0; i < v3_; ++i)
          acc += sums_.data()[k * v3_ + i];
        by_term[k] = acc;
      }
    } else {
      reduce_segments(Exec{}, sums_.data(), segments, v3_, by_term.data());
    }
    for (std::int64_t t = 0; t < nt_; ++t)
      for (int k = 0; k < terms; ++k)
        by_slice[t * terms + k] = by_term[k * nt_ + t];
    const std::vector<double> all = m_.world().gather_concat(by_slice);
    std::vector<double> total(static_cast<std::size_t>(terms), 0.0);
    for (std::size_t i = 0; i < all.size(); ++i)
      total[i % terms] += all[i];
    return total;
  }

  // p's slices before and after the slab: the neighbouring ranks' boundary slices, or on one
  // rank the slab's own last and first slice.
  void exchange_p_halo() {
    const std::int64_t slice = v3_ * d_;
    double* p = p_.data();
    if (m_.world().size() == 1) {
      copy_buffer(Exec{}, p, p + nt_ * slice, slice);
      copy_buffer(Exec{}, p + (nt_ + 1) * slice, p + slice, slice);
      return;
    }
    const std::size_t bytes = static_cast<std::size_t>(slice) * sizeof(double);
    first_.resize(slice);
    last_.resize(slice);
    before_.resize(slice);
    after_.resize(slice);
    synchronize(Exec{});
    copy_async(queue_, first_.data(), p + slice, bytes);
    copy_async(queue_, last_.data(), p + nt_ * slice, bytes);
    queue_.synchronize();
    exchange_boundary_slices(m_.world(), first_.data(), last_.data(), bytes, before_.data(),
                             after_.data());
    copy_async(queue_, p, before_.data(), bytes);
    copy_async(queue_, p + (nt_ + 1) * slice, after_.data(), bytes);
    queue_.synchronize();
  }

  const FaddeevPopov& m_;
  int d_;
  std::int64_t v3_, nt_, sites_;
  Buffer<Exec, Complex<double>> links_, time_before_;
  Buffer<Exec, double> b_, x_, r_, mp_, p_, sums_;
  Queue<Exec> queue_;
  std::vector<double> first_, last_, before_, after_; // host staging of p's halo (ranks > 1)
};

// Seconds per CG iteration of `repetitions` solves of b with `iterations` iterations each (the
// tolerance unreachable), after one warm-up solve: the benchmark's measurement (bench_ghost_cg).
template <class Exec>
std::vector<double> time_ghost_cg(const FaddeevPopov& m, const std::vector<double>& b,
                                  int iterations, int repetitions) {
  GhostCg<Exec> cg(m);
  cg.solve(b, 1e-300, 2);
  synchronize(Exec{});
  std::vector<double> seconds;
  for (int k = 0; k < repetitions; ++k) {
    const auto t0 = std::chrono::steady_clock::now();
    const SolveResult r = cg.solve(b, 1e-300, iterations);
    synchronize(Exec{});
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() /
                      std::max(1, r.iterations));
  }
  return seconds;
}

// ghost_propagator (ghost_propagator.h) on backend Exec; the momenta are checked by the caller.
template <class Exec>
std::vector<GhostPoint> ghost_points(const FaddeevPopov& m, const std::vector<Momentum>& momenta,
                                     double tolerance, int max_iterations) {
  constexpr double two_pi = 6.283185307179586477;
  const Geometry& g = m.geometry();
  const int d = m.components();
  const std::int64_t sites = g.local_volume();
  const double volume = static_cast<double>(g.global_volume());
  GhostCg<Exec> cg(m);
  std::vector<GhostPoint> out;
  std::vector<double> phase(static_cast<std::size_t>(sites)), source(m.size());
  for (const Momentum& n : momenta) {
    GhostPoint pt;
    pt.n = n;
    pt.p2 = lattice_momentum_squared(g.L, n);
    pt.converged = true;
    // p.x / 2 pi as a sum of exact fractions (n_mu x_mu mod L_mu) / L_mu of global coordinates
#pragma omp parallel for schedule(static)
    for (std::int64_t s = 0; s < sites; ++s) {
      std::int64_t r = s;
      double f = 0;
      for (int mu = 0; mu < 4; ++mu) {
        const std::int64_t x = mu < 3 ? r % g.L[mu] : r + g.t0;
        r /= g.L[mu];
        const std::int64_t k = ((std::int64_t(n[mu]) * x) % g.L[mu] + g.L[mu]) % g.L[mu];
        f += static_cast<double>(k) / g.L[mu];
      }
      phase[s] = two_pi * f;
    }
    bool sine_vanishes = true;
    for (int mu = 0; mu < 4; ++mu)
      sine_vanishes = sine_vanishes && (2 * n[mu]) % g.L[mu] == 0;
    double sum = 0;
    for (int part = 0; part < (sine_vanishes ? 1 : 2); ++part)
      for (int a = 0; a < d; ++a) {
        std::fill(source.begin(), source.end(), 0.0);
#pragma omp parallel for schedule(static)
        for (std::int64_t s = 0; s < sites; ++s)
          source[s * d + a] = part == 0 ? std::cos(phase[s]) : std::sin(phase[s]);
        m.project_out_constants(source);
        const SolveResult r = cg.solve(source, tolerance, max_iterations);
        sum += cg.source_dot_solution();
        ++pt.solves;
        pt.max_iterations = std::max(pt.max_iterations, r.iterations);
        pt.total_iterations += r.iterations;
        pt.max_residual = std::max(pt.max_residual, r.residual);
        pt.converged = pt.converged && r.converged;
      }
    pt.propagator = sum / (d * volume);
    out.push_back(pt);
  }
  return out;
}

} // namespace gf
