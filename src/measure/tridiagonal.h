// tridiagonal.h: the lowest eigenvalue of a real symmetric tridiagonal matrix T (diagonal
// a[0..n), off-diagonal b[0..n-1)) and the last component of its unit eigenvector, the two
// numbers a Lanczos iteration needs for its lowest Ritz value and that value's residual
// (measure/ghost_propagator.h). The eigenvalue comes from bisection on Sturm counts, to the
// last bits; the eigenvector from the twisted factorisation T - lambda = N_r Delta_r N_r^T at
// the index r where the twist is smallest (Dhillon and Parlett), which is accurate for every
// unreduced T (all b non-zero). O(n) memory, O(n log(1/eps)) time.
#pragma once
#include <vector>

namespace gf {

struct LowestEigenpair {
  double value = 0;
  double last_component = 0; // of the unit eigenvector, up to its sign
};

// Throws Error if a is empty or b does not have a.size() - 1 elements.
LowestEigenpair lowest_eigenpair(const std::vector<double>& a, const std::vector<double>& b);

} // namespace gf
