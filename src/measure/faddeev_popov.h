// faddeev_popov.h: the Faddeev-Popov operator of the lattice Landau gauge, M(U) = -d.D(U),
// applied matrix-free to an adjoint field w (N^2 - 1 real colour components per site,
// measure/adjoint.h) on a rank's slab of a natural-order HostField (docs/measurements.md,
// "Ghost propagator"). With P[X] = traceless part of (X + X^dagger)/2:
//   (D_mu w)(x) = P[ U_mu(x) w(x + mu) - w(x) U_mu(x) ]
//   (M w)(x)    = -sum_mu [ (D_mu w)(x) - (D_mu w)(x - mu) ]
//               = P[ w(x) K(x) - sum_mu ( U_mu(x) w(x + mu) + w(x - mu) U_mu(x - mu) ) ],
//   K(x) = sum_mu [ U_mu(x) + U_mu(x - mu)^dagger ].
// In components (T^a, f^abc of adjoint.h; A_mu = traceless part of (U - U^dagger)/2i,
// A^c = 2 tr(T^c A), S^ab_mu(x) = Re tr({T^a, T^b} U_mu(x))) this is Zwanziger's operator
//   (M w)^a(x) = sum_mu { S^ab_mu(x) [w^b(x) - w^b(x + mu)] + S^ab_mu(x - mu) [w^b(x) - w^b(x -
//   mu)]
//                - 1/2 f^abc [A^c_mu(x) w^b(x + mu) - A^c_mu(x - mu) w^b(x - mu)] }
//                - 1/2 f^abc (d.A)^c(x) w^b(x),    (d.A)(x) = sum_mu [A_mu(x) - A_mu(x - mu)].
// Without the last term it is the Hessian of the Landau functional sum Re tr(g U g^dagger) at
// g = 1 (F(e^{i eps w}) = F(1) + O(eps) - eps^2 <w|M w>/4 + O(eps^3)); the last term, which
// vanishes in Landau gauge, makes M non-symmetric and M(constant) = i[w, d.A] non-zero away
// from it. On the unit field M = -Laplacian in every colour: eigenvalue p^2 = sum_mu
// 4 sin^2(pi n_mu / L_mu) on the plane wave of momentum n.
// Vectors: std::vector<double> of size() reals, index (local site) * (N^2 - 1) + a, local
// sites in natural order (host_field.h). Inner product <v|w> = sum_x sum_a v^a w^a.
// apply() runs the site functor FaddeevPopovApply (ghost_functors.h), whose site operator
// (faddeev_popov_at) the conjugate gradient runs on the CPU and the GPU (ghost_cg.h, on its own
// layout); its sums are stored per site and summed per time slice in site order.
// Several ranks: the operator fetches the temporal links of the slice before the slab once,
// apply() the neighbouring slices of its input (slab_exchange.h); dot products and apply()'s
// sums are formed per time slice and added in slice order (slab_sums.h), so every result is
// bitwise the one rank's and independent of the number of threads.
// apply, dot and project_out_constants are collective; apply is not reentrant (it keeps the
// exchanged slices). The links are kept by reference: they must outlive the operator.
#pragma once
#include "comm/world.h"
#include "lattice/host_field.h"
#include <cstdint>
#include <vector>

namespace gf {

class FaddeevPopov {
public:
  // Throws Error (naming the check) unless links holds whole time slices of 4 directions of
  // SU(2) or SU(3) and, on one rank, the whole lattice.
  FaddeevPopov(const HostField& links, const World& world = World());

  int nc() const { return links_.nc; }
  int components() const { return links_.nc * links_.nc - 1; }
  const Geometry& geometry() const { return links_.geom; }
  const World& world() const { return world_; }
  const HostField& links() const { return links_; }
  // U_t of the slice before the slab (N x N per site of the slice): the previous rank's, on one
  // rank the slab's own last slice.
  const std::vector<Complex<double>>& time_links_before() const { return time_links_before_; }
  // Reals of this rank's part of a vector.
  std::size_t size() const { return static_cast<std::size_t>(links_.local_sites()) * components(); }

  // What apply() sums over the lattice in the same pass: <in|M in> and each colour's sum of
  // in and of M in (as dot() would form them), which the projection out of the constants needs.
  struct Sums {
    double in_dot_out = 0;
    std::vector<double> in_sums, out_sums; // N^2 - 1 each
  };
  // Which operator apply() applies: M, or its symmetric part
  //   H = (M + M^T)/2 = M - (1/2) i[w, d.A] = M - (1/4) [w, K - K^dagger],
  // the Hessian of the Landau functional (M without its last term), symmetric on any field
  // (Lanczos needs it; M is symmetric in Landau gauge only, to the order of |d.A|).
  enum class Part { whole, symmetric };
  // out = M in, or H in (out is resized; in and out must be different vectors).
  Sums apply(const std::vector<double>& in, std::vector<double>& out,
             Part part = Part::whole) const;
  // <a|b> over the whole lattice.
  double dot(const std::vector<double>& a, const std::vector<double>& b) const;
  // v <- v minus its projection on the constant fields (each colour's lattice mean).
  void project_out_constants(std::vector<double>& v) const;
  // The lattice mean of a field of one component per site (this rank's sites): bitwise the
  // mean that project_out_constants subtracts from a colour of a vector that holds `wave` in
  // that colour (its sums run over the sites in the same order).
  double mean(const std::vector<double>& wave) const;

private:
  template <int N>
  Sums apply_n(const std::vector<double>& in, std::vector<double>& out, Part part) const;
  template <int N>
  void project_n(std::vector<double>& v) const;

  const HostField& links_;
  World world_;
  std::vector<Complex<double>> time_links_before_; // U_t of slice t0 - 1, N x N per site
  // apply()'s input with its slices t0 - 1 and t0 + nt around it (ghost_functors.h's layout)
  // and its per-site sums
  mutable std::vector<double> with_halo_, site_sums_;
};

} // namespace gf
