// Tier 1: the algebra. Unitarity and det = 1 kept by products and updates; compressed
// storage exact to rounding; subgroup operations equal dense N x N products.
#include "lattice/field_view.h"
#include "math/random_group.h"
#include "math/subgroup.h"
#include "test_fields.h"
#include <gtest/gtest.h>

namespace gf {
namespace {

template <int N>
Matrix<double, N> rnd(std::uint64_t i) {
  return testing::random_link<N>(7, i, 0);
}

template <int N>
void check_products_stay_in_group() {
  Matrix<double, N> p = Matrix<double, N>::identity();
  for (int i = 0; i < 1000; ++i)
    p = p * rnd<N>(i);
  EXPECT_LT(unitarity_deviation(p), 1e-12);
  EXPECT_NEAR(determinant(p).re, 1.0, 1e-12);
  EXPECT_NEAR(determinant(p).im, 0.0, 1e-12);
}

TEST(Algebra, ProductsStayInSU2) {
  check_products_stay_in_group<2>();
}
TEST(Algebra, ProductsStayInSU3) {
  check_products_stay_in_group<3>();
}

// The leading rows of a product are those of the whole product, bit for bit; the rest zero.
template <int N>
void check_product_rows() {
  for (int i = 0; i < 20; ++i) {
    const Matrix<double, N> a = rnd<N>(i), b = rnd<N>(i + 100), whole = a * b;
    const Matrix<double, N> rows = product_rows<N - 1>(a, b);
    for (int r = 0; r < N; ++r)
      for (int c = 0; c < N; ++c) {
        const Complex<double> expected = r < N - 1 ? whole.m[r][c] : Complex<double>{0.0, 0.0};
        EXPECT_EQ(rows.m[r][c].re, expected.re) << r << "," << c;
        EXPECT_EQ(rows.m[r][c].im, expected.im) << r << "," << c;
      }
  }
}

TEST(Algebra, ProductRowsAreThoseOfTheProduct) {
  check_product_rows<2>();
  check_product_rows<3>();
}

TEST(Algebra, RandomElementsAreInGroup) {
  for (int i = 0; i < 100; ++i) {
    EXPECT_LT(unitarity_deviation(rnd<3>(i)), 1e-14);
    EXPECT_LT(unitarity_deviation(rnd<2>(i)), 1e-14);
  }
}

TEST(Algebra, QuaternionProductIsMatrixProduct) {
  for (int i = 0; i < 50; ++i) {
    const Quaternion<double> a =
        random_su2<double>({3, std::uint64_t(i), 0, 0}, RandomPurpose::test, 0);
    const Quaternion<double> b =
        random_su2<double>({4, std::uint64_t(i), 0, 0}, RandomPurpose::test, 0);
    EXPECT_LT(distance2(to_matrix(a * b), to_matrix(a) * to_matrix(b)), 1e-28);
    EXPECT_LT(distance2(to_matrix(conj(a)), adjoint(to_matrix(a))), 1e-28);
  }
}

template <int N>
void check_subgroup_operations() {
  for (int i = 0; i < 20; ++i)
    for (int s = 0; s < subgroup_count<N>; ++s) {
      const Quaternion<double> g =
          random_su2<double>({5, std::uint64_t(i), 0, 0}, RandomPurpose::test, s);
      const Matrix<double, N> G = embed<double, N>(g, s);
      EXPECT_LT(unitarity_deviation(G), 1e-14);
      const Matrix<double, N> u = rnd<N>(100 + i);
      Matrix<double, N> left = u, right = u;
      left_multiply(g, s, left);
      right_multiply_adjoint(right, g, s);
      EXPECT_LT(distance2(left, G * u), 1e-28);
      EXPECT_LT(distance2(right, u * adjoint(G)), 1e-28);
      // Re tr(G M) = (g p)_0 with p the subgroup projection of M, for any matrix M
      const Matrix<double, N> m = u + rnd<N>(200 + i);
      const double dense =
          re_trace_product(G, m) - re_trace_product(Matrix<double, N>::identity(), m);
      const double proj = (g * subgroup_projection(m, s))[0] - subgroup_projection(m, s)[0];
      EXPECT_NEAR(dense, proj, 1e-13);
    }
}

TEST(Algebra, SubgroupOperationsEqualDenseProductsSU2) {
  check_subgroup_operations<2>();
}
TEST(Algebra, SubgroupOperationsEqualDenseProductsSU3) {
  check_subgroup_operations<3>();
}

TEST(Algebra, ReunitarizeProjectsBack) {
  Matrix<double, 3> u = rnd<3>(1);
  u.m[0][1].re += 1e-3;
  u.m[1][2].im -= 2e-3;
  reunitarize(u);
  EXPECT_LT(unitarity_deviation(u), 1e-14);
}

template <class S, int N>
void check_layout_storage(Storage storage, double tol) {
  const int L[4] = {4, 2, 2, 2};
  const Geometry g = Geometry::whole(L);
  for (int layout = 0; layout < 3; ++layout) { // a CPU's (padded or not), a GPU's (grouped)
    FieldView<S, N> v{nullptr, g, 4, storage, field_pitch<S>(g.v3h, layout == 1), layout == 2};
    std::vector<S> data(static_cast<std::size_t>(v.size()));
    v.data = data.data();
    for (int t = 0; t < g.nt; ++t)
      for (int p = 0; p < 2; ++p)
        for (std::int64_t h = 0; h < g.v3h; ++h)
          for (int mu = 0; mu < 4; ++mu) {
            const Matrix<double, N> u = testing::random_link<N>(9, (t * 2 + p) * g.v3h + h, mu);
            v.template save<double>(t, p, mu, h, u);
          }
    // every matrix read back after all were written: no two overlap
    for (int t = 0; t < g.nt; ++t)
      for (int p = 0; p < 2; ++p)
        for (std::int64_t h = 0; h < g.v3h; ++h)
          for (int mu = 0; mu < 4; ++mu) {
            const Matrix<double, N> u = testing::random_link<N>(9, (t * 2 + p) * g.v3h + h, mu);
            EXPECT_LE(distance2(v.template load<double>(t, p, mu, h), u), tol * tol);
          }
  }
}

// The GPU's layout: every (slot, parity, direction, real, site) has its own place in the
// field, each matrix's block is its (slot, parity, direction) block, and a group's reals are
// consecutive and start on a multiple of the group (16 bytes, 8 for full SU(3) in float).
template <class S, int N>
void check_grouped_offsets(Storage storage, int expected_width) {
  const int L[4] = {4, 2, 2, 6};
  const Geometry g = Geometry::slab(L, 2, 2, true); // two slices and the two halo slices
  const FieldView<S, N> v{nullptr, g, 4, storage, field_pitch<S>(g.v3h, false), true};
  const int R = v.reals(), G = v.width_in(storage);
  ASSERT_EQ(G, expected_width);
  std::vector<int> hits(static_cast<std::size_t>(v.size()), 0);
  for (int slot = 0; slot < g.stored_slices(); ++slot)
    for (int p = 0; p < 2; ++p)
      for (int mu = 0; mu < 4; ++mu)
        for (std::int64_t h = 0; h < g.v3h; ++h)
          for (int r = 0; r < R; ++r) {
            const std::int64_t o = v.offset(slot, p, mu, r, h);
            const std::int64_t block = ((slot * 2 + p) * 4 + mu) * R * v.pitch;
            ASSERT_GE(o, block);
            ASSERT_LT(o, block + R * v.pitch);
            if (r % G == 0)
              EXPECT_EQ(o % G, 0);
            else
              EXPECT_EQ(o, v.offset(slot, p, mu, r - 1, h) + 1);
            ++hits[static_cast<std::size_t>(o)];
          }
  for (int n : hits)
    ASSERT_EQ(n, 1);
}

TEST(Storage, GroupedLayoutPlacesEveryRealOnceInAlignedGroups) {
  check_grouped_offsets<float, 3>(Storage::rows, 4);
  check_grouped_offsets<float, 3>(Storage::full, 2);
  check_grouped_offsets<float, 3>(Storage::params8, 4);
  check_grouped_offsets<double, 3>(Storage::rows, 2);
  check_grouped_offsets<double, 3>(Storage::full, 2);
  check_grouped_offsets<float, 2>(Storage::rows, 4);
  check_grouped_offsets<double, 2>(Storage::full, 2);
}

// The CPU's pitch: an odd number of 64-byte lines holding the half-slice; the GPU's: the
// half-slice itself.
TEST(Storage, FieldPitch) {
  EXPECT_EQ(field_pitch<double>(2048, false), 2048);
  EXPECT_EQ(field_pitch<double>(2048, true), 2056);   // 257 lines
  EXPECT_EQ(field_pitch<float>(2048, true), 2064);    // 129 lines
  EXPECT_EQ(field_pitch<double>(13832, true), 13832); // 1729 lines: odd already
  EXPECT_EQ(field_pitch<double>(13824, true), 13832); // 1728 lines: even, so 1729
  EXPECT_EQ(field_pitch<double>(3, true), 8);         // one line
  EXPECT_EQ(field_pitch<double>(9, true), 24);        // two lines: three
}

TEST(Storage, CompressedSU3ExactToRounding) {
  check_layout_storage<double, 3>(Storage::rows, 4e-15);
}
TEST(Storage, FullSU3Exact) {
  check_layout_storage<double, 3>(Storage::full, 0.0);
}
TEST(Storage, CompressedSU2ExactToRounding) {
  check_layout_storage<double, 2>(Storage::rows, 4e-15);
}
TEST(Storage, SinglePrecisionCompressedSU3) {
  check_layout_storage<float, 3>(Storage::rows, 1e-6);
}
TEST(Storage, Params8SU3ExactToRounding) {
  check_layout_storage<double, 3>(Storage::params8, 4e-15);
}
TEST(Storage, SinglePrecisionParams8SU3) {
  check_layout_storage<float, 3>(Storage::params8, 2e-6);
}
TEST(Storage, SinglePrecisionFullSU3) {
  check_layout_storage<float, 3>(Storage::full, 1e-6);
}

TEST(Storage, NaturalIndexRoundTripsThroughLayout) {
  const int L[4] = {4, 6, 2, 4};
  const Geometry g = Geometry::whole(L);
  std::vector<int> seen(static_cast<std::size_t>(g.global_volume()), 0);
  for (int t = 0; t < g.nt; ++t)
    for (int p = 0; p < 2; ++p)
      for (std::int64_t h = 0; h < g.v3h; ++h) {
        const SiteCoords c = g.coords(t, p, h);
        EXPECT_EQ((c.x[0] + c.x[1] + c.x[2] + c.x[3]) & 1, p);
        EXPECT_EQ(g.half_index(c), h);
        seen[static_cast<std::size_t>(g.natural_index(c))]++;
      }
  for (int n : seen)
    EXPECT_EQ(n, 1);
}

} // namespace
} // namespace gf
