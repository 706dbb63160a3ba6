// The heatbath draws from the right distribution: Kolmogorov-Smirnov tests against the
// exact densities, with a fixed seed and the 0.1% critical value 1.95 / sqrt(n).
//   Landau/Coulomb (LinearProblem): x0 = f(g) / |q| has density sqrt(1 - x0^2) exp(b x0),
//   b = |q| / T (Creutz's method below b = 2, Kennedy-Pendleton above).
//   MAG (QuadraticProblem): u = (f(g) - lambda_min) / gap has density exp(k u) on [0, 1].
#include "gauge/local_problem.h"
#include <algorithm>
#include <functional>
#include <cmath>
#include <gtest/gtest.h>
#include <vector>

namespace gf {
namespace {

constexpr int n_samples = 20000;
const double ks_critical = 1.95 / std::sqrt(double(n_samples));

double ks_statistic(std::vector<double> x, const std::function<double(double)>& cdf) {
  std::sort(x.begin(), x.end());
  double d = 0;
  const double n = double(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double f = cdf(x[i]);
    d = std::max({d, std::abs(f - i / n), std::abs((i + 1) / n - f)});
  }
  return d;
}

// CDF of sqrt(1 - x^2) exp(b x) on [-1, 1] by the substitution x = cos(th), Simpson's rule.
std::function<double(double)> linear_cdf(double b) {
  const int m = 20000;
  std::vector<double> cum(m + 1, 0.0); // integral from th = pi down to th_k
  const double h = M_PI / m;
  auto w = [b](double th) { return std::sin(th) * std::sin(th) * std::exp(b * std::cos(th)); };
  for (int k = m - 1; k >= 0; --k) {
    const double a = k * h, c = (k + 1) * h;
    cum[k] = cum[k + 1] + h / 6 * (w(a) + 4 * w((a + c) / 2) + w(c));
  }
  const double z = cum[0];
  return [cum, z, h, m](double x) {
    const double th = std::acos(std::clamp(x, -1.0, 1.0));
    const int k = std::min(m - 1, int(th / h));
    const double f = (th - k * h) / h;
    return ((1 - f) * cum[k] + f * cum[k + 1]) / z;
  };
}

class LinearHeatbath : public ::testing::TestWithParam<double> {};

TEST_P(LinearHeatbath, MatchesExactDistribution) {
  const double b = GetParam();
  const LinearProblem<double> p{{{0.3, -1.2, 0.5, 2.0}}};
  const double qn = std::sqrt(norm2(p.q));
  const double temperature = qn / b;
  std::vector<double> x0;
  double mean_dir[3] = {0, 0, 0};
  const Quaternion<double> g_star_inv = conj(p.maximizer());
  for (int k = 0; k < n_samples; ++k) {
    const RandomKey key = {2024, 17, static_cast<std::uint32_t>(k), 0};
    const Quaternion<double> g = p.heatbath(temperature, key, 1);
    ASSERT_NEAR(norm2(g), 1.0, 1e-12);
    x0.push_back(p.value(g) / qn);
    const Quaternion<double> x = g * g_star_inv;
    for (int i = 0; i < 3; ++i) mean_dir[i] += x[i + 1] / n_samples;
  }
  EXPECT_LT(ks_statistic(x0, linear_cdf(b)), ks_critical) << "b = " << b;
  // the vector part is isotropic: each mean component within 5 sigma (sigma <= 1/sqrt(3n))
  for (int i = 0; i < 3; ++i) EXPECT_LT(std::abs(mean_dir[i]), 5 / std::sqrt(3.0 * n_samples));
}

INSTANTIATE_TEST_SUITE_P(Strengths, LinearHeatbath, ::testing::Values(0.0, 0.5, 1.9, 3.0, 30.0));

class QuadraticHeatbath : public ::testing::TestWithParam<double> {};

TEST_P(QuadraticHeatbath, MatchesExactDistribution) {
  const double k = GetParam();
  const QuadraticProblem<double> p{2.5, 1.0, {0.4, -0.7}};
  Complex<double> e0, e1;
  const double gap = p.top_eigenvector(e0, e1);
  const double lambda_min = (p.a + p.b) / 2 - gap / 2;
  std::vector<double> u;
  for (int n = 0; n < n_samples; ++n) {
    const RandomKey key = {77, 3, static_cast<std::uint32_t>(n), 0};
    const Quaternion<double> g = p.heatbath(gap / k, key, 0);
    ASSERT_NEAR(norm2(g), 1.0, 1e-12);
    u.push_back((p.value(g) - lambda_min) / gap);
  }
  auto cdf = [k](double x) { return std::expm1(k * std::clamp(x, 0.0, 1.0)) / std::expm1(k); };
  EXPECT_LT(ks_statistic(u, cdf), ks_critical) << "k = " << k;
}

INSTANTIATE_TEST_SUITE_P(Strengths, QuadraticHeatbath, ::testing::Values(0.1, 2.0, 20.0));

} // namespace
} // namespace gf
