// test_transform_file.cpp: gauge transformation files (io/transform_file.h) on one rank:
// binary and HDF5 round trips (bit-exact), the binary layout byte by byte, a file of the other
// byte order, and every bad input rejected with a message naming the file and the check,
// the file left unchanged. Writing and reading by slab on several ranks:
// test_parallel_file.cpp.
#include "core/error.h"
#include "gauge_file_test_util.h"
#include "io/hdf5_file.h"
#include "io/ildg.h"
#include "io/transform_file.h"
#include "math/random_group.h"
#include "test_fields.h"
#include <algorithm>
#include <bit>
#include <cstring>
#include <filesystem>
#include <gtest/gtest.h>
#include <limits>

namespace gf {
namespace {

namespace fs = std::filesystem;
using testing::bit_equal;
using testing::expect_read_error;
using testing::read_bytes;
using testing::self_world;
using testing::TempDir;
using testing::write_bytes;

const int L[4] = {4, 6, 2, 8};
const std::map<std::string, std::string> metadata = {
    {"gauge", "coulomb"}, {"input_file", "cfg.nersc"}, {"theta", "1e-13"}};

template <int N>
HostField random_transform_n(std::uint64_t seed) {
  HostField g(Geometry::whole(L), N, 1);
  for (std::int64_t s = 0; s < g.local_sites(); ++s)
    g.set<N>(s, 0, random_sun<double, N>({seed, std::uint64_t(s), 3, 0}, RandomPurpose::test));
  return g;
}

HostField random_transform(int nc, std::uint64_t seed) {
  return nc == 2 ? random_transform_n<2>(seed) : random_transform_n<3>(seed);
}

std::uint32_t word(const std::string& b, std::size_t offset) {
  std::uint32_t w;
  std::memcpy(&w, b.data() + offset, 4);
  return w;
}

double real_at(const std::string& b, std::size_t offset) {
  double v;
  std::memcpy(&v, b.data() + offset, 8);
  return v;
}

// ---------------------------------------------------------------------------------------------
// Round trips.

class TransformRoundTrip : public ::testing::TestWithParam<int> {};

TEST_P(TransformRoundTrip, BinaryLayoutAndReadBack) {
  const int nc = GetParam();
  const HostField g = random_transform(nc, 42);
  TempDir dir;
  const std::string path = dir.file("g.bin");
  write_transform(path, g, TransformFormat::binary, metadata, self_world());

  const std::string b = read_bytes(path);
  const std::string text = "gauge = coulomb\ninput_file = cfg.nersc\ntheta = 1e-13\n";
  const std::size_t data = 64 + text.size(), site_bytes = std::size_t(nc) * nc * 16;
  ASSERT_EQ(b.size(), data + g.local_sites() * site_bytes);
  EXPECT_EQ(b.substr(0, 8), "GFGTRANS");
  EXPECT_EQ(word(b, 8), 0x01020304u);
  EXPECT_EQ(word(b, 12), 1u);
  EXPECT_EQ(word(b, 16), std::uint32_t(nc));
  EXPECT_EQ(word(b, 20), 8u);
  for (int k = 0; k < 4; ++k)
    EXPECT_EQ(word(b, 24 + 4 * k), std::uint32_t(L[k]));
  std::uint32_t sum = 0;
  for (std::size_t k = data; k < b.size(); k += 4)
    sum += word(b, k);
  EXPECT_EQ(word(b, 40), sum);
  EXPECT_EQ(word(b, 44), text.size());
  EXPECT_EQ(b.substr(48, 16), std::string(16, '\0'));
  EXPECT_EQ(b.substr(64, text.size()), text);
  // Im g(x = 3, y = 1, z = 1, t = 6)_10: x fastest, then y, z, t; row-major; (re, im).
  const SiteCoords c = {{3, 1, 1, 6}};
  const std::size_t site = ((6 * 2 + 1) * 6 + 1) * 4 + 3;
  EXPECT_EQ(real_at(b, data + site * site_bytes + (1 * nc + 0) * 16 + 8),
            g.matrix_data(g.local_index(c), 0)[nc].im);

  TransformInfo info;
  const HostField r = read_transform(path, self_world(), &info);
  EXPECT_TRUE(bit_equal(r, g));
  EXPECT_EQ(info.format, TransformFormat::binary);
  EXPECT_EQ(info.metadata, metadata);
  EXPECT_EQ(info.checksum, sum);
  EXPECT_EQ(info.unitarity_deviation, max_unitarity_violation(g));
}

TEST_P(TransformRoundTrip, Hdf5ReadBack) {
  const int nc = GetParam();
  const HostField g = random_transform(nc, 43);
  TempDir dir;
  const std::string path = dir.file("g.h5");
  write_transform(path, g, TransformFormat::hdf5, metadata, self_world());
  TransformInfo info;
  const HostField r = read_transform(path, self_world(), &info);
  EXPECT_TRUE(bit_equal(r, g));
  EXPECT_EQ(info.format, TransformFormat::hdf5);
  for (const auto& [k, v] : metadata)
    EXPECT_EQ(info.metadata.at(k), v) << k;
  EXPECT_EQ(info.metadata.at("layout"), "t,z,y,x,row,col,re|im");
  EXPECT_EQ(info.metadata.at("lattice"), "4,6,2,8");
}

TEST_P(TransformRoundTrip, LimeRecordsAndBitwiseReadBack) {
  const int nc = GetParam();
  const HostField g = random_transform(nc, 44);
  TempDir dir;
  const std::string path = dir.file("g.lime");
  write_transform(path, g, TransformFormat::lime, metadata, self_world());
  EXPECT_EQ(detect_transform_format(path), TransformFormat::lime);

  // the records QIO reads a LatticeColorMatrix from, in its order and message structure
  const std::vector<testing::LimeBytes> r = testing::lime_records(path);
  ASSERT_EQ(r.size(), 6u);
  const char* types[6] = {"scidac-private-file-xml",   "scidac-file-xml",
                          "scidac-private-record-xml", "scidac-record-xml",
                          "scidac-binary-data",        "scidac-checksum"};
  const bool mb[6] = {true, false, true, false, false, false};
  const bool me[6] = {false, true, false, false, false, true};
  for (int k = 0; k < 6; ++k) {
    EXPECT_EQ(r[k].type, types[k]);
    EXPECT_EQ(r[k].mb, mb[k]) << types[k];
    EXPECT_EQ(r[k].me, me[k]) << types[k];
  }
  const std::string n = std::to_string(nc);
  EXPECT_NE(r[0].payload.find("<dims>4 6 2 8 </dims>"), std::string::npos) << r[0].payload;
  for (const std::string& tag :
       {"<datatype>QDP_D" + n + "_ColorMatrix</datatype>", std::string("<precision>D</precision>"),
        "<colors>" + n + "</colors>", "<typesize>" + std::to_string(16 * nc * nc) + "</typesize>",
        std::string("<datacount>1</datacount>")})
    EXPECT_NE(r[2].payload.find(tag), std::string::npos) << tag << " not in " << r[2].payload;
  // Im g(x = 3, y = 1, z = 1, t = 6)_10, big-endian, natural order
  const SiteCoords c = {{3, 1, 1, 6}};
  const std::size_t site = ((6 * 2 + 1) * 6 + 1) * 4 + 3, site_bytes = std::size_t(nc) * nc * 16;
  std::uint64_t be = 0;
  for (int i = 0; i < 8; ++i)
    be = be << 8 | static_cast<unsigned char>(r[4].payload[site * site_bytes + nc * 16 + 8 + i]);
  EXPECT_EQ(std::bit_cast<double>(be), g.matrix_data(g.local_index(c), 0)[nc].im);

  TransformInfo info;
  const HostField back = read_transform(path, self_world(), &info);
  EXPECT_TRUE(bit_equal(back, g));
  EXPECT_EQ(info.format, TransformFormat::lime);
  EXPECT_EQ(info.metadata, metadata);
  EXPECT_EQ(info.stored, info.computed);
  EXPECT_EQ(info.nc, nc);
  EXPECT_EQ(info.dims[1], 6);

  // single precision (QDP_F<N>_ColorMatrix) reads, reunitarised
  std::string single;
  for (std::size_t k = 0; k < r[4].payload.size(); k += 8) {
    std::uint64_t w = 0;
    for (int i = 0; i < 8; ++i)
      w = w << 8 | static_cast<unsigned char>(r[4].payload[k + i]);
    const auto f = std::bit_cast<std::uint32_t>(float(std::bit_cast<double>(w)));
    for (int i = 3; i >= 0; --i)
      single += static_cast<char>(f >> (8 * i) & 0xff);
  }
  std::vector<testing::LimeBytes> rf = r;
  rf[4].payload = single;
  const std::string d = "_ColorMatrix</datatype><precision>D</precision>";
  rf[2].payload.replace(rf[2].payload.find(d) - 2, d.size() + 2,
                        "F" + n + "_ColorMatrix</datatype><precision>F</precision>");
  const std::string ts = "<typesize>" + std::to_string(16 * nc * nc) + "</typesize>";
  rf[2].payload.replace(rf[2].payload.find(ts), ts.size(),
                        "<typesize>" + std::to_string(8 * nc * nc) + "</typesize>");
  rf.pop_back();
  rf.back().me = true; // no checksum: read with checksum_warning_only
  testing::write_bytes(dir.file("f.lime"), testing::lime_file(rf));
  ::testing::internal::CaptureStderr();
  const HostField fr = read_transform(dir.file("f.lime"), self_world(), &info, true);
  ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(info.bytes_per_real, 4);
  EXPECT_TRUE(info.reunitarised);
  EXPECT_LT(testing::max_difference(fr, g), 1e-6);
  EXPECT_THROW(read_transform(dir.file("f.lime"), self_world()), Error);
}

INSTANTIATE_TEST_SUITE_P(Transform, TransformRoundTrip, ::testing::Values(2, 3),
                         [](const auto& p) { return "SU" + std::to_string(p.param); });

// The same file in the other byte order (header words and reals swapped) reads the same.
TEST(TransformFile, OtherByteOrderReads) {
  const HostField g = random_transform(3, 44);
  TempDir dir;
  write_transform(dir.file("g.bin"), g, TransformFormat::binary, metadata, self_world());
  std::string b = read_bytes(dir.file("g.bin"));
  const std::size_t data = 64 + word(b, 44);
  for (std::size_t k = 8; k < 48; k += 4)
    std::reverse(&b[k], &b[k] + 4);
  for (std::size_t k = data; k < b.size(); k += 8)
    std::reverse(&b[k], &b[k] + 8);
  write_bytes(dir.file("swapped.bin"), b);
  EXPECT_TRUE(bit_equal(read_transform(dir.file("swapped.bin"), self_world()), g));
}

// ---------------------------------------------------------------------------------------------
// Bad input and bad output requests.

class TransformBadInput : public ::testing::Test {
protected:
  void SetUp() override {
    write_transform(good_, g_, TransformFormat::binary, metadata, self_world());
    bytes_ = read_bytes(good_);
  }
  std::string variant(const std::string& name, const std::string& bytes) const {
    const std::string p = dir_.file(name);
    write_bytes(p, bytes);
    return p;
  }
  // The good file with the header word at offset replaced.
  std::string with_word(const std::string& name, std::size_t offset, std::uint32_t w) const {
    std::string b = bytes_;
    std::memcpy(b.data() + offset, &w, 4);
    return variant(name, b);
  }
  void expect_error(const std::string& path, std::initializer_list<const char*> words) const {
    expect_read_error(
        path, [&] { read_transform(path, self_world()); }, words);
  }

  TempDir dir_;
  std::string good_ = dir_.file("good.g");
  HostField g_ = random_transform(3, 7);
  std::string bytes_;
};

TEST_F(TransformBadInput, GoodFileReads) {
  EXPECT_NO_THROW(read_transform(good_, self_world()));
}

TEST_F(TransformBadInput, SizeChecks) {
  expect_error(variant("truncated.g", bytes_.substr(0, bytes_.size() - 16)), {"size", "truncated"});
  expect_error(variant("long.g", bytes_ + "x"), {"size", "too long"});
  expect_error(variant("short.g", bytes_.substr(0, 40)), {"header", "truncated"});
  expect_error(dir_.file("missing.g"), {"cannot open"});
}

TEST_F(TransformBadInput, HeaderChecks) {
  std::string b = bytes_;
  b[0] = 'X';
  expect_error(variant("magic.g", b), {"magic"});
  expect_error(with_word("mark.g", 8, 0x01020305), {"byte-order mark"});
  expect_error(with_word("version.g", 12, 2), {"version: 2"});
  expect_error(with_word("nc.g", 16, 4), {"N = 4"});
  expect_error(with_word("precision.g", 20, 4), {"precision"});
  expect_error(with_word("extent.g", 24, 0), {"lattice", "extent 0"});
  expect_error(with_word("dims.g", 36, 4), {"size"}); // L_t 4: the data does not fit
}

TEST_F(TransformBadInput, ChecksumAndMetadataChecks) {
  std::string b = bytes_;
  b[b.size() - 8] ^= 0x01; // the lowest mantissa bit of the last (little-endian) real
  expect_error(variant("sum.g", b), {"checksum mismatch"});
  expect_error(with_word("sumword.g", 40, 12345), {"checksum mismatch", "12345"});
  std::string m = bytes_;
  m.replace(m.find(" = coulomb"), 3, " : ");
  expect_error(variant("text.g", m), {"metadata", "key = value"});
}

TEST_F(TransformBadInput, NotInSUN) {
  HostField g = g_;
  for (Complex<double>& z : g.data)
    z = 1.01 * z;
  write_transform(dir_.file("scaled.g"), g, TransformFormat::binary, {}, self_world());
  expect_error(dir_.file("scaled.g"), {"unitarity", "SU(3)"});
  g = g_;
  g.data[3].im = std::numeric_limits<double>::infinity();
  write_transform(dir_.file("inf.g"), g, TransformFormat::hdf5, {}, self_world());
  expect_error(dir_.file("inf.g"), {"NaN or Inf"});
}

TEST_F(TransformBadInput, NotATransformFile) {
  const int cube[4] = {4, 4, 4, 4};
  WriteOptions w;
  w.format = FileFormat::hdf5;
  write_hdf5(dir_.file("links.h5"), testing::random_field(cube, 3, 1, 1.0), w, self_world());
  expect_error(dir_.file("links.h5"), {"no dataset /gauge/transform"});
  expect_error(variant("text.g", "BEGIN_HEADER\n"), {"header", "truncated"});
}

TEST_F(TransformBadInput, LimeChecks) {
  write_transform(dir_.file("g.lime"), g_, TransformFormat::lime, {}, self_world());
  const std::vector<testing::LimeBytes> r = testing::lime_records(dir_.file("g.lime"));
  std::vector<testing::LimeBytes> cut(r.begin(), r.end() - 1);
  expect_error(variant("cut.lime", testing::lime_file(cut)), {"truncated file", "message-end"});
  cut.back().me = true;
  expect_error(variant("nosum.lime", testing::lime_file(cut)), {"no scidac-checksum"});
  std::vector<testing::LimeBytes> flipped = r;
  flipped[4].payload[100] ^= 0x01;
  expect_error(variant("flip.lime", testing::lime_file(flipped)), {"checksum mismatch"});
  expect_error(variant("dims.lime", testing::lime_file(testing::with_payload(
                                        r, "scidac-private-file-xml",
                                        "<scidacFile><spacetime>4</spacetime><dims>4 6 2 4</dims>"
                                        "</scidacFile>"))),
               {"size", "4x6x2x4"});
  // a gauge field (datacount 4) is not a g(x) file, and g(x) is no gauge field
  const int cube[4] = {4, 4, 4, 4};
  WriteOptions w;
  w.format = FileFormat::scidac;
  write_ildg(dir_.file("links.lime"), testing::random_field(cube, 3, 1, 1.0), w, self_world(), {});
  EXPECT_FALSE(detect_transform_format(dir_.file("links.lime")));
  expect_error(dir_.file("links.lime"), {"datacount", "4"});
  expect_read_error(dir_.file("g.lime"),
                    [&] { read_ildg(dir_.file("g.lime"), self_world(), {}, nullptr); },
                    {"datacount> 1", "g(x)"});
}

TEST_F(TransformBadInput, BadOutputRequests) {
  const auto expect_refused = [&](const std::string& path, const HostField& g,
                                  const std::map<std::string, std::string>& m,
                                  std::initializer_list<std::string> inputs, const char* word) {
    for (const TransformFormat f :
         {TransformFormat::binary, TransformFormat::hdf5, TransformFormat::lime}) {
      try {
        write_transform(path, g, f, m, self_world(), inputs);
        ADD_FAILURE() << path << " written";
      } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find(fs::path(path).filename().string()), std::string::npos)
            << e.what();
        EXPECT_NE(std::string(e.what()).find(word), std::string::npos) << e.what();
      }
    }
  };
  fs::create_symlink(good_, dir_.file("alias.g"));
  expect_refused(dir_.file("alias.g"), g_, {}, {good_}, "input");
  expect_refused(dir_.file("new.g"), g_, {{"key", "two\nlines"}}, {}, "metadata");
  expect_refused(dir_.file("new.g"), g_, {{"a=b", "x"}}, {}, "metadata");
  const int cube[4] = {4, 4, 4, 4};
  expect_refused(dir_.file("new.g"), testing::random_field(cube, 3, 1, 1.0), {}, {},
                 "one matrix per site");
  EXPECT_EQ(read_bytes(good_), bytes_);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_.file("")), {}), 2); // good.g, alias.g
  EXPECT_THROW(parse_transform_format("text"), Error);
  EXPECT_EQ(parse_transform_format("hdf5"), TransformFormat::hdf5);
}

} // namespace
} // namespace gf
