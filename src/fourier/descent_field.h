// descent_field.h: what Fourier-accelerated gauge fixing (descent.h) needs from an engine
// holding a gauge field: the gradient of the functional, its preconditioning in momentum
// space, a search direction and moves of the links along it. An Engine offers one
// (Engine::descent_field, for Landau and Coulomb gauge); fourier_field.h implements it once
// for every backend. Every call is collective over the ranks, and every returned number is
// the same on every rank (sums are formed per time slice and added in slice order).
//
// Fields, per site x (traceless Hermitian N x N, math/hermitian.h):
//   Delta(x)  the gradient, sum_mu [A_mu(x) - A_mu(x - mu)] of the current links
//             (gauge/landau_coulomb.h; Coulomb: spatial mu only);
//   Z(x)      the preconditioned gradient, F^-1[p^2_max / p^2 F[Delta]] (fourier/momentum.h);
//   D(x)      the search direction.
// A move by a step a replaces every link of the gauge's directions by
//   U_mu(x) <- g(x) U_mu(x) g(x + mu)^dagger,   g(x) = exp(-i a D(x)),
// and a tracked gauge transformation G(x) by g(x) G(x). Since exp(-i a D) exp(-i b D) =
// exp(-i (a + b) D), moves along one direction add up: move(a) then move(b - a) lands where
// move(b) would, up to rounding. The raw functional F_raw = sum_{x, mu} Re tr U_mu(x) changes
// along the line with slope dF_raw/da = sum_x tr[D(x) Delta(x)] (the slope below), exactly.
#pragma once
#include <cstddef>
#include <vector>

namespace gf {

// Per time slice of the lattice (every slice, in order), unnormalised.
struct DescentSums {
  std::vector<double> functional; // sum Re tr U_mu(x) over the gauge's directions
  std::vector<double> theta;      // sum tr[Delta(x) Delta(x)^dagger]
  std::vector<double> slope;      // sum tr[D(x) Delta(x)] (0 before the first direction)
};

enum class DescentOperand { preconditioned, direction }; // Z or D

// Seconds spent since the field was made, as the device ran each part (timed without waiting
// for it: IntervalTimer): preconditioning (transforms, transposes and the momentum multiply)
// and, of it, the transposes between slices and units (Landau gauge; on several ranks with
// the all-to-all).
struct DescentTimes {
  double precondition = 0;
  double transposes = 0;
};

class DescentField {
public:
  virtual ~DescentField() = default;
  // Delta of the current links, with the per-slice sums of F, theta and the slope along D.
  virtual DescentSums evaluate() = 0;
  // Z = p^2_max / p^2 applied to Delta in momentum space.
  virtual void precondition() = 0;
  // sum_x tr[Delta(x) X(x)], X = Z or D.
  virtual double dot_gradient(DescentOperand x) = 0;
  // D = Z + beta D (beta = 0: D = Z).
  virtual void set_direction(double beta) = 0;
  // Moves the links (and a tracked g(x)) by the step a along D.
  virtual void move(double a) = 0;
  // The relative rounding of F in the links' arithmetic (1000 epsilon of its type).
  virtual double rounding() const = 0;
  virtual DescentTimes times() const = 0;
  // How the transposes between slices and units travel: "none" (Coulomb gauge transposes
  // nothing), "local" (one rank), else the all-to-all's path: "peer" (GPU to GPU on one
  // node), "pointers" (MPI reads the arrays: CPU, or CUDA-aware MPI) or "staged" (through
  // pinned host memory).
  virtual const char* transpose_path() const = 0;
  // The real type of the preconditioner's transforms: "single" or "double".
  virtual const char* preconditioner_precision() const = 0;
  // Z, D and whether D was set, appended to `out` as stored (Engine::save_state); restore_state
  // reads them back from position `at` of `in`, returns the position after them, and takes
  // the links as changed (the next evaluate() computes the gradient from them).
  virtual void save_state(std::vector<unsigned char>& out) const = 0;
  virtual std::size_t restore_state(const std::vector<unsigned char>& in, std::size_t at) = 0;
};

} // namespace gf
