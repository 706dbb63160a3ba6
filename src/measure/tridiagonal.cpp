#include "measure/tridiagonal.h"
#include "core/error.h"
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>

namespace gf {

namespace {

// Number of eigenvalues of T below x (Sturm sequence of the LDL^T pivots of T - x).
int count_below(const std::vector<double>& a, const std::vector<double>& b, double x,
                double pivmin) {
  int count = 0;
  double q = a[0] - x;
  for (std::size_t i = 0;; ++i) {
    if (std::abs(q) < pivmin) q = -pivmin;
    if (q < 0) ++count;
    if (i + 1 == a.size()) break;
    q = a[i + 1] - x - b[i] * b[i] / q;
  }
  return count;
}

} // namespace

LowestEigenpair lowest_eigenpair(const std::vector<double>& a, const std::vector<double>& b) {
  const std::size_t n = a.size();
  if (n == 0 || b.size() + 1 != n)
    throw Error("tridiagonal eigenpair: " + std::to_string(n) + " diagonal and " +
                std::to_string(b.size()) + " off-diagonal elements");
  // Gershgorin bounds
  double lo = a[0], hi = a[0], bmax = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double r = (i > 0 ? std::abs(b[i - 1]) : 0.0) + (i + 1 < n ? std::abs(b[i]) : 0.0);
    lo = std::min(lo, a[i] - r);
    hi = std::max(hi, a[i] + r);
    if (i + 1 < n) bmax = std::max(bmax, std::abs(b[i]));
  }
  const double pivmin = DBL_MIN * std::max(1.0, bmax * bmax);
  const double scale = std::max(std::abs(lo), std::abs(hi));
  // count_below(lo) == 0 and count_below(hi) >= 1 hold throughout
  lo -= 2 * DBL_EPSILON * scale + pivmin;
  hi += 2 * DBL_EPSILON * scale + pivmin;
  for (int it = 0;
       it < 200 && hi - lo > 2 * DBL_EPSILON * std::max(std::abs(lo), std::abs(hi)) + pivmin;
       ++it) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    (count_below(a, b, mid, pivmin) >= 1 ? hi : lo) = mid;
  }
  const double lambda = 0.5 * (lo + hi);
  LowestEigenpair out;
  out.value = lambda;
  if (n == 1) {
    out.last_component = 1;
    return out;
  }
  // Twisted factorisation: forward pivots dp (top down), backward pivots dm (bottom up).
  std::vector<double> dp(n), dm(n);
  auto guard = [&](double d) { return std::abs(d) < pivmin ? -pivmin : d; };
  dp[0] = guard(a[0] - lambda);
  for (std::size_t i = 1; i < n; ++i)
    dp[i] = guard(a[i] - lambda - b[i - 1] * b[i - 1] / dp[i - 1]);
  dm[n - 1] = guard(a[n - 1] - lambda);
  for (std::size_t i = n - 1; i-- > 0;)
    dm[i] = guard(a[i] - lambda - b[i] * b[i] / dm[i + 1]);
  std::size_t r = 0;
  double best = HUGE_VAL;
  for (std::size_t i = 0; i < n; ++i) {
    const double gamma = std::abs(dp[i] + dm[i] - (a[i] - lambda));
    if (gamma < best) best = gamma, r = i;
  }
  std::vector<double> z(n);
  z[r] = 1;
  for (std::size_t i = r; i-- > 0;)
    z[i] = -b[i] / dp[i] * z[i + 1];
  for (std::size_t i = r + 1; i < n; ++i)
    z[i] = -b[i - 1] / dm[i] * z[i - 1];
  double norm2 = 0;
  for (double v : z)
    norm2 += v * v;
  out.last_component = std::abs(z[n - 1]) / std::sqrt(norm2);
  return out;
}

} // namespace gf
