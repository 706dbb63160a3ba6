// 8-real storage of SU(3) links (math/reconstruct8.h): exact to rounding for random links
// and at the points where a fixed choice of stored elements is singular or ill-conditioned
// (an element of modulus 0 or 1, degenerate first rows and columns, near-unit links),
// in double, in float, and encoded in double, stored as float, decoded in float.
#include "math/random_group.h"
#include "math/reconstruct8.h"
#include "math/su_n.h"
#include "test_fields.h"
#include <cmath>
#include <cstdio>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace gf {
namespace {

using M3 = Matrix<double, 3>;

double max_abs_diff(const M3& a, const M3& b) {
  double w = 0.0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) w = std::fmax(w, std::sqrt(norm2(a.m[i][j] - b.m[i][j])));
  return w;
}

M3 round_trip_double(const M3& u) {
  double p[8];
  su3_to_8(u, p);
  return su3_from_8(p);
}

// single precision throughout: a float link encoded and decoded in float
M3 round_trip_float(const M3& u) {
  float p[8];
  su3_to_8(matrix_cast<float>(u), p);
  return matrix_cast<double>(su3_from_8(p));
}

// what single-precision storage does: encoded in double, stored as float, decoded in float
M3 round_trip_stored_float(const M3& u) {
  double p[8];
  su3_to_8(u, p);
  float q[8];
  for (int k = 0; k < 8; ++k) q[k] = static_cast<float>(p[k]);
  return matrix_cast<double>(su3_from_8(q));
}

// Worst error and worst unitarity deviation (in double, of the returned matrix) of a round
// trip over a set of links.
struct Worst {
  double error = 0.0, unitarity = 0.0;
  void add(const M3& u, const M3& w) {
    error = std::fmax(error, max_abs_diff(u, w));
    unitarity = std::fmax(unitarity, unitarity_deviation(w));
  }
};

struct Bounds {
  double error, unitarity;
};
// double: 1e-13; float: 1e-5 from u, unitary to 1e-6
constexpr Bounds double_bounds = {1e-13, 1e-14};
constexpr Bounds float_bounds = {1e-5, 1e-6};

std::string sci(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2e", x);
  return b;
}

// Checks the three round trips of every link against the bounds and records the worst
// errors as test properties named tag_double_error etc. (in the XML output).
void check_all(const std::vector<M3>& links, const std::string& tag) {
  const char* what = tag.c_str();
  Worst d, f, s;
  for (const M3& u : links) {
    d.add(u, round_trip_double(u));
    f.add(u, round_trip_float(u));
    s.add(u, round_trip_stored_float(u));
  }
  EXPECT_LT(d.error, double_bounds.error) << what;
  EXPECT_LT(d.unitarity, double_bounds.unitarity) << what;
  EXPECT_LT(f.error, float_bounds.error) << what;
  EXPECT_LT(f.unitarity, float_bounds.unitarity) << what;
  EXPECT_LT(s.error, float_bounds.error) << what;
  EXPECT_LT(s.unitarity, float_bounds.unitarity) << what;
  ::testing::Test::RecordProperty(tag + "_double_error", sci(d.error));
  ::testing::Test::RecordProperty(tag + "_double_unitarity", sci(d.unitarity));
  ::testing::Test::RecordProperty(tag + "_float_error", sci(f.error));
  ::testing::Test::RecordProperty(tag + "_float_unitarity", sci(f.unitarity));
  ::testing::Test::RecordProperty(tag + "_stored_float_error", sci(s.error));
  ::testing::Test::RecordProperty(tag + "_stored_float_unitarity", sci(s.unitarity));
}

Complex<double> phase(double a) { return {std::cos(a), std::sin(a)}; }

// SU(3) matrix with the given (unit) first row, the other rows from a random link.
M3 with_first_row(const Complex<double> (&row)[3], std::uint64_t i) {
  M3 u = testing::random_link<3>(31, static_cast<std::int64_t>(i), 0);
  for (int k = 0; k < 3; ++k) u.m[0][k] = row[k];
  reunitarize(u);
  return u;
}

// The images of u under the relabellings that keep SU(3): cyclic shifts of rows and columns
// (even permutations), the transpose and the adjoint; an element of u visits every position.
std::vector<M3> relabelled(const M3& u) {
  std::vector<M3> out;
  for (int form = 0; form < 3; ++form) {
    M3 b = u;
    if (form == 1)
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) b.m[i][j] = u.m[j][i];
    if (form == 2) b = adjoint(u);
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) {
        M3 w;
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) w.m[i][j] = b.m[(i + r) % 3][(j + c) % 3];
        out.push_back(w);
      }
  }
  return out;
}

void append(std::vector<M3>& to, const std::vector<M3>& from) {
  to.insert(to.end(), from.begin(), from.end());
}

M3 diagonal(double a, double b) {
  M3 u = M3::zero();
  u.m[0][0] = phase(a);
  u.m[1][1] = phase(b);
  u.m[2][2] = phase(-a - b);
  return u;
}

// Exactly SU(3) with every modulus 0 or 1: the six permutations, the odd ones negated.
std::vector<M3> signed_permutations() {
  const int perm[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {1, 0, 2}, {0, 2, 1}, {2, 1, 0}};
  std::vector<M3> out;
  for (int k = 0; k < 6; ++k) {
    M3 u = M3::zero();
    for (int i = 0; i < 3; ++i) u.m[i][perm[k][i]] = {k < 3 ? 1.0 : -1.0, 0.0};
    out.push_back(u);
  }
  return out;
}

TEST(Reconstruct8, RandomLinks) {
  std::vector<M3> links;
  for (int i = 0; i < 20000; ++i) links.push_back(testing::random_link<3>(17, i, 0));
  check_all(links, "random");
}

// Links close to 1 (smooth fields, gauge-fixed fields): |u_00| -> 1 and the off-diagonal
// elements of the first row and column -> 0.
TEST(Reconstruct8, NearUnitLinks) {
  std::vector<M3> links;
  const double eps[] = {1e-1, 1e-2, 1e-4, 1e-6, 1e-8, 1e-10, 1e-12, 1e-14, 1e-16, 1e-20};
  for (double e : eps)
    for (int i = 0; i < 200; ++i) {
      const M3 r = testing::random_link<3>(19, i, 0);
      M3 u = M3::identity();
      for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b) u.m[a][b] += e * (r.m[a][b] - M3::identity().m[a][b]);
      reunitarize(u);
      links.push_back(u);
      links.push_back(diagonal(0.3 + i, -1.1 * i) * u); // and close to a diagonal phase
    }
  check_all(links, "near_unit");
}

// One element of modulus eps (1e-4, 1e-8, 0, ...) anywhere in the matrix, with and without a
// second small element in the same row.
TEST(Reconstruct8, TinyElement) {
  const double eps[] = {1e-2, 1e-4, 1e-6, 1e-8, 1e-12, 1e-16, 1e-30, 0.0};
  for (double e : eps) {
    std::vector<M3> links;
    for (int i = 0; i < 40; ++i) {
      const double chi = i % 4 == 0 ? 0.0 : 0.37 * i; // chi = 0: a second zero in the row
      const double rest = std::sqrt(1.0 - e * e);
      const Complex<double> p0 = phase(0.1 + 0.7 * i), p1 = phase(2.9 - 0.3 * i),
                            p2 = phase(-1.3 + 1.1 * i);
      const Complex<double> row[3] = {e * p0, rest * std::cos(chi) * p1, rest * std::sin(chi) * p2};
      append(links, relabelled(with_first_row(row, i)));
    }
    check_all(links, "tiny_" + sci(e));
  }
}

// An element of modulus 1 - delta: first row and column nearly degenerate, with a random
// 2 x 2 block in the other rows and columns.
TEST(Reconstruct8, ElementCloseToOne) {
  const double delta[] = {1e-2, 1e-4, 1e-8, 1e-12, 1e-16, 0.0};
  for (double d : delta) {
    std::vector<M3> links;
    for (int i = 0; i < 40; ++i) {
      const double m0 = 1.0 - d, rest = std::sqrt(1.0 - m0 * m0);
      const Complex<double> row[3] = {m0 * phase(0.5 * i),
                                      rest * std::cos(0.3 * i) * phase(1.0 + i),
                                      rest * std::sin(0.3 * i) * phase(2.0 - i)};
      append(links, relabelled(with_first_row(row, 1000 + i)));
    }
    check_all(links, "one_minus_" + sci(d));
  }
}

// Exactly degenerate links: the unit matrix, diagonal phases (including -1 with signed
// zeros, phases at the ends of [-pi, pi]), signed permutations, SU(2) x U(1) blocks in the
// three subgroups, and a matrix with all moduli equal (ties in every choice of the encoder).
TEST(Reconstruct8, DegenerateLinks) {
  std::vector<M3> links;
  append(links, relabelled(M3::identity()));
  for (const M3& p : signed_permutations()) {
    append(links, relabelled(p));
    append(links, relabelled(p * diagonal(0.7, -2.2)));
    append(links, relabelled(diagonal(3.1, 1.9) * p));
  }
  const double pi = 3.141592653589793;
  M3 minus = M3::identity();
  minus.m[0][0] = {-1.0, -0.0};
  minus.m[1][1] = {-1.0, 0.0};
  append(links, relabelled(minus));
  append(links, relabelled(diagonal(pi, pi)));
  append(links, relabelled(diagonal(-pi, pi)));
  append(links, relabelled(diagonal(pi / 2, -pi / 2)));
  for (int i = 0; i < 30; ++i) {
    append(links, relabelled(diagonal(0.4 * i, 1.0 - 0.9 * i)));
    for (int s = 0; s < 3; ++s) {
      const Quaternion<double> g =
          random_su2<double>({37, std::uint64_t(i), 0, 0}, RandomPurpose::test, s);
      append(links, relabelled(diagonal(0.2 * i, -0.5 * i) * embed<double, 3>(g, s)));
    }
  }
  // F_jk = w^{jk} / sqrt 3, w = e^{2 pi i / 3}, rephased to det 1
  M3 f;
  for (int j = 0; j < 3; ++j)
    for (int k = 0; k < 3; ++k) f.m[j][k] = (1.0 / std::sqrt(3.0)) * phase(2.0 * pi * j * k / 3.0);
  const Complex<double> det = determinant(f);
  const Complex<double> root = phase(-std::atan2(det.im, det.re) / 3.0);
  for (int j = 0; j < 3; ++j)
    for (int k = 0; k < 3; ++k) f.m[j][k] = root * f.m[j][k];
  ASSERT_LT(unitarity_deviation(f), 1e-15);
  append(links, relabelled(f));
  append(links, relabelled(f * diagonal(1.0, 2.0)));
  check_all(links, "degenerate");
}

// Any rounding of the 8 reals (here perturbations up to 1e-3, far more than rounding) still
// decodes to SU(3): the errors of storage move the link along the group.
TEST(Reconstruct8, PerturbedParametersDecodeToSU3) {
  double worst = 0.0, moved = 0.0;
  for (int i = 0; i < 2000; ++i) {
    const M3 u = testing::random_link<3>(23, i, 0);
    double p[8];
    su3_to_8(u, p);
    for (int k = 0; k < 8; ++k) p[k] += 1e-3 * std::sin(1.7 * i + 2.3 * k);
    const M3 w = su3_from_8(p);
    worst = std::fmax(worst, unitarity_deviation(w));
    moved = std::fmax(moved, max_abs_diff(u, w));
  }
  EXPECT_LT(worst, 1e-14);
  EXPECT_LT(moved, 1e-2); // the flags survived: the link moved by O(1e-3) only
  RecordProperty("unitarity", sci(worst));
}

// Each of the six relabellings the encoder picks from is used, and the unit matrix (every
// parameter 0 or a flag) and a zero parameter set decode to SU(3).
TEST(Reconstruct8, EveryVariantAndZeroParameters) {
  int seen[3][2] = {};
  for (int i = 0; i < 2000; ++i) {
    double p[8];
    su3_to_8(testing::random_link<3>(29, i, 0), p);
    const int s = static_cast<int>(std::floor(p[6] / 8.0 + 0.5)) + 1;
    const int r = static_cast<int>(std::floor(p[7] / 8.0 + 0.5));
    ASSERT_TRUE(s >= 0 && s < 3 && (r == 0 || r == 1));
    seen[s][r]++;
  }
  for (int s = 0; s < 3; ++s)
    for (int r = 0; r < 2; ++r) EXPECT_GT(seen[s][r], 0) << s << " " << r;
  const double zero[8] = {};
  EXPECT_LT(unitarity_deviation(su3_from_8(zero)), 1e-15);
  const float zero_f[8] = {};
  EXPECT_LT(unitarity_deviation(matrix_cast<double>(su3_from_8(zero_f))), 1e-7);
}

} // namespace
} // namespace gf
