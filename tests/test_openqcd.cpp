// test_openqcd.cpp: openQCD gauge files (io/openqcd.h): a file built here from the layout
// openQCD documents (main/README.io, archive.c) must read back as the field it was built
// from and equal, byte for byte, what write_openqcd writes; the plaquette convention; bad
// input.
#include "gauge_file_test_util.h"
#include "io/gauge_file.h"
#include "io/openqcd.h"
#include "test_fields.h"
#include <bit>
#include <limits>

namespace {

using namespace gf;
using namespace gf::testing;

void put(std::string& b, const void* p, std::size_t n) {
  b.append(static_cast<const char*>(p), n);
}

// The openQCD file of u (whole lattice, SU(3)), built from the documented layout on a
// little-endian host: N0..N3 = Lt, Lx, Ly, Lz; plaq; then, for the points (x0, x1, x2, x3) =
// (t, x, y, z) in lexicographic order with x3 fastest, where x0 + x1 + x2 + x3 is odd, the
// links in the directions +0, -0, +1, -1, +2, -2, +3, -3 (openQCD 0 is time, 1..3 are x..z).
std::string openqcd_image(const HostField& u, double plaq) {
  static_assert(std::endian::native == std::endian::little);
  const int* L = u.geom.L;
  std::string b;
  const std::int32_t n[4] = {L[3], L[0], L[1], L[2]};
  put(b, n, 16);
  put(b, &plaq, 8);
  const auto link = [&](int t, int x, int y, int z, int mu) {
    const SiteCoords c{
        {(x + L[0]) % L[0], (y + L[1]) % L[1], (z + L[2]) % L[2], (t + L[3]) % L[3]}};
    return u.matrix_data(u.local_index(c), mu);
  };
  for (int t = 0; t < L[3]; ++t)
    for (int x = 0; x < L[0]; ++x)
      for (int y = 0; y < L[1]; ++y)
        for (int z = 0; z < L[2]; ++z) {
          if ((t + x + y + z) % 2 == 0) continue;
          const int d[4][4] = {
              {1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}; // (t, x, y, z) steps
          const int ours[4] = {3, 0, 1, 2};
          for (int q = 0; q < 4; ++q) {
            put(b, link(t, x, y, z, ours[q]), 9 * 16);
            put(b, link(t - d[q][0], x - d[q][1], y - d[q][2], z - d[q][3], ours[q]), 9 * 16);
          }
        }
  return b;
}

TEST(OpenQcd, WriterMatchesDocumentedLayoutAndReadsBack) {
  const int L[4] = {4, 6, 2, 8};
  const HostField u = random_field(L, 3, 2024, 1.0);
  TempDir dir;
  const std::string path = dir.file("config.oqcd");
  WriteOptions w;
  w.format = FileFormat::openqcd;
  write_openqcd(path, u, w, self_world(), {});
  const double plaq = 3 * plaquette(u); // openQCD: (1/6V) sum Re tr U(p), without 1/N_c
  const std::string expected = openqcd_image(u, plaq);
  const std::string b = read_bytes(path);
  ASSERT_EQ(b.size(), expected.size());
  EXPECT_EQ(b.substr(0, 16), expected.substr(0, 16)); // N0..N3
  double stored;
  std::memcpy(&stored, b.data() + 16, 8);
  EXPECT_NEAR(stored, plaq, 1e-14);
  EXPECT_TRUE(b.substr(24) == expected.substr(24))
      << "link data differs from the documented layout";
  EXPECT_EQ(detect_format(path), FileFormat::openqcd);

  FileInfo info;
  const HostField r = read_openqcd(path, self_world(), {}, &info);
  EXPECT_TRUE(bit_equal(r, u));
  EXPECT_EQ(info.format, FileFormat::openqcd);
  for (int k = 0; k < 4; ++k)
    EXPECT_EQ(info.dims[k], L[k]);
  EXPECT_FALSE(info.big_endian);
  EXPECT_EQ(info.bytes_per_real, 8);
  EXPECT_FALSE(info.reunitarised);
  ASSERT_EQ(info.stored.size(), 1u);
  EXPECT_EQ(info.stored[0].first, "PLAQUETTE");
  EXPECT_NEAR(std::stod(info.stored[0].second), plaq, 1e-13);
  EXPECT_NEAR(std::stod(info.computed[0].second), plaq, 1e-13);
  EXPECT_NEAR(info.plaquette, plaq / 3, 1e-15);
}

TEST(OpenQcd, ReadsAFileBuiltFromTheDocumentation) {
  const int L[4] = {2, 4, 6, 4};
  const HostField u = random_field(L, 3, 11, 0.3);
  TempDir dir;
  write_bytes(dir.file("built.oqcd"), openqcd_image(u, 3 * plaquette(u)));
  EXPECT_TRUE(bit_equal(read_openqcd(dir.file("built.oqcd"), self_world(), {}, nullptr), u));
}

TEST(OpenQcd, WriterRefusesWhatOpenQcdCannotHold) {
  TempDir dir;
  const int L[4] = {4, 4, 4, 4};
  WriteOptions w;
  w.format = FileFormat::openqcd;
  w.double_precision = false;
  EXPECT_THROW(write_openqcd(dir.file("a"), random_field(L, 3, 1, 1.0), w, self_world(), {}),
               Error);
  w.double_precision = true;
  EXPECT_THROW(write_openqcd(dir.file("a"), random_field(L, 2, 1, 1.0), w, self_world(), {}),
               Error);
  EXPECT_FALSE(fs::exists(dir.file("a")));
}

class OpenQcdBadInput : public ::testing::Test {
protected:
  void SetUp() override {
    const int L[4] = {4, 4, 4, 4};
    u_ = random_field(L, 3, 99, 1.0);
    bytes_ = openqcd_image(u_, 3 * plaquette(u_));
    write_bytes(good_, bytes_);
  }
  std::string variant(const std::string& name, const std::string& bytes) const {
    write_bytes(dir_.file(name), bytes);
    return dir_.file(name);
  }
  void expect_error(const std::string& path, std::initializer_list<const char*> words) const {
    expect_read_error(
        path, [&] { read_openqcd(path, self_world(), {}, nullptr); }, words);
  }

  TempDir dir_;
  std::string good_ = dir_.file("good.oqcd");
  HostField u_;
  std::string bytes_;
};

TEST_F(OpenQcdBadInput, GoodFileReads) {
  EXPECT_TRUE(bit_equal(read_openqcd(good_, self_world(), {}, nullptr), u_));
}

TEST_F(OpenQcdBadInput, TruncatedAndTooLong) {
  expect_error(variant("truncated.oqcd", bytes_.substr(0, bytes_.size() - 16)),
               {"size", "truncated"});
  expect_error(variant("long.oqcd", bytes_ + "12345678"), {"size", "too long"});
  expect_error(variant("header.oqcd", bytes_.substr(0, 20)), {"truncated", "header"});
}

TEST_F(OpenQcdBadInput, DimsNotMatchingSizeOrOdd) {
  std::string b = bytes_;
  b[0] = 6; // N0 = 6
  expect_error(variant("dims.oqcd", b), {"size", "N0..N3 = 6 4 4 4"});
  b[0] = 5;
  expect_error(variant("odd.oqcd", b), {"N0 = 5", "even"});
}

TEST_F(OpenQcdBadInput, WrongPlaquette) {
  std::string b = bytes_;
  const double wrong = 1.234;
  std::memcpy(b.data() + 16, &wrong, 8);
  expect_error(variant("plaq.oqcd", b), {"plaquette", "1.234"});
}

TEST_F(OpenQcdBadInput, LinksNotInSU3) {
  HostField u = u_;
  for (Complex<double>& z : u.data)
    z = 1.01 * z;
  expect_error(variant("scaled.oqcd", openqcd_image(u, 3 * plaquette(u))), {"unitarity", "SU(3)"});
  u = u_;
  u.data[100].re = std::numeric_limits<double>::infinity();
  expect_error(variant("inf.oqcd", openqcd_image(u, 3 * plaquette(u_))),
               {"unitarity", "NaN or Inf"});
}

} // namespace
