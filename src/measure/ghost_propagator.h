// ghost_propagator.h: the Landau-gauge ghost propagator and the lowest eigenvalue of the
// Faddeev-Popov operator M (measure/faddeev_popov.h) of a fixed field (docs/measurements.md,
// "Ghost propagator").
//
// conjugate_gradient solves P M P x = b for b orthogonal to the constant fields, P the
// projection out of them (on a Landau-gauge field the constants are M's zero modes), from
// x = 0, until |r| <= tolerance |b| (r the recursively updated residual) or max_iterations.
// A step with <p|M p> <= 0 (M not positive: the field is not a Landau-gauge field of the
// first Gribov region) is an Error.
//
// ghost_propagator: for each momentum n (integers; p_mu = 2 pi n_mu / L_mu) the colour-diagonal
// plane-wave sources psi_a(x) = e^{i p.x} e_a, a = 1 .. N^2 - 1 (constants projected out),
//   G(p) = 1/((N^2 - 1) V) sum_a <psi_a| M^-1 |psi_a>
//        = 1/((N^2 - 1) V) sum_a [ <c_a|M^-1 c_a> + <s_a|M^-1 s_a> ],
// c_a, s_a = cos(p.x) e_a, sin(p.x) e_a, two real solves per colour (the sine source is skipped
// where it vanishes, 2 n_mu = 0 mod L_mu for every mu). On the unit field G(p) = 1/p^2,
// p^2 = sum_mu 4 sin^2(pi n_mu / L_mu). A momentum with n_mu = 0 mod L_mu for every mu (the
// constant mode) is an Error.
//
// lowest_eigenvalue: the lowest eigenvalue of P H P on the fields orthogonal to the constants,
// H = (M + M^T)/2 the symmetric part of M (faddeev_popov.h; in Landau gauge M = H up to
// |d.A|, and their eigenvalues agree to second order in it: the first non-trivial eigenvalue
// of M, >= 0 inside the first Gribov region), by Lanczos without reorthogonalisation, from a
// fixed start vector: component a at global natural site s is u - 1/2 with u the first
// uniform number of Philox4x32-10 (math/random.h) at key lanczos_seed and counter (s low,
// s high, a, 0), constants projected out, normalised. Every step projects the constants out
// of the Lanczos vector again (rounding would bring them back, and the iteration would find
// their eigenvalue 0). After k steps the lowest Ritz value theta of the k x k tridiagonal
// matrix T_k has the residual |H y - theta y| = beta_k |e_k^T z| (y its Ritz vector, z the
// unit eigenvector of T_k, beta_k the next off-diagonal element), and H has an eigenvalue
// within that residual of theta. The iteration stops when the residual is <= tolerance
// (absolute) or after max_iterations steps (converged false).
// All three are collective over the operator's World and bitwise the same on any number of
// ranks. conjugate_gradient and ghost_propagator run the site functors of ghost_cg.h: on the
// CPU, or with Backend::cuda on this rank's GPU (one rank per GPU), which gives the CPU's
// numbers to rounding.
#pragma once
#include "gaugefix/options.h"
#include "measure/faddeev_popov.h"
#include "measure/momentum_cut.h"
#include <array>
#include <cstdint>
#include <functional>
#include <vector>

namespace gf {

struct SolveResult {
  int iterations = 0;
  bool converged = false;
  double residual = 0; // |r| / |b| at the end
};

// x is resized and overwritten. b must be orthogonal to the constants.
SolveResult conjugate_gradient(const FaddeevPopov& m, const std::vector<double>& b,
                               std::vector<double>& x, double tolerance, int max_iterations);

using Momentum = std::array<int, 4>;

// sum_mu 4 sin^2(pi n_mu / L_mu)
double lattice_momentum_squared(const int L[4], const Momentum& n);

// The momenta of the gluon propagator's cut (momentum_cut.h, over the 4 directions, in its
// order) without n = 0, the constant mode.
std::vector<Momentum> ghost_momenta(const int L[4], const MomentumCut& cut);

struct GhostPoint {
  Momentum n{};
  double p2 = 0;             // lattice_momentum_squared
  double propagator = 0;     // G(p)
  int solves = 0;            // 2 (N^2 - 1), or N^2 - 1 where the sine source vanishes
  int max_iterations = 0;    // of one solve
  long total_iterations = 0; // of all solves
  double max_residual = 0;   // of all solves
  bool converged = false;    // every solve
};

// Called on every rank after each momentum's solves, with its point, the momenta done so far
// and their number (a progress line: gaugefix measure logs one per momentum).
using GhostProgress = std::function<void(const GhostPoint&, std::size_t done, std::size_t count)>;

// Throws Error naming the momentum if it is the constant mode, or for tolerance <= 0 or
// max_iterations < 1; for Backend::cuda without a CUDA device or build.
std::vector<GhostPoint> ghost_propagator(const FaddeevPopov& m,
                                         const std::vector<Momentum>& momenta, double tolerance,
                                         int max_iterations,
                                         gaugefix::Backend backend = gaugefix::Backend::cpu,
                                         const GhostProgress& progress = {});

struct EigenResult {
  double eigenvalue = 0;
  double residual = 0; // beta_k |e_k^T z|: an eigenvalue of M lies within it
  int iterations = 0;
  bool converged = false;
};

constexpr std::uint64_t lanczos_seed =
    0x676e6f6c61; // fixed: the start vector is part of the method

EigenResult lowest_eigenvalue(const FaddeevPopov& m, double tolerance, int max_iterations);

} // namespace gf
